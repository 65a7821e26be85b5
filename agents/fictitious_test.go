package agents_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"testing"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
)

// TestFictitiousPlayConverges: from uniform strategies (random's, whose exact figure the
// first point must be), fictitious self-play's exact exploitability falls below a tenth of
// it in 12 iterations at 3-throw halves with one move (a third in 4, under -short: the race
// stage); the policy table of the average,
// played by the table agent, has the figure the learner measured (to float32's rounding).
func TestFictitiousPlayConverges(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 3, Moves: 1}
	f, err := agents.NewFictitious(r)
	if err != nil {
		t.Fatal(err)
	}
	iterations, fall := 12, 10.0
	if testing.Short() {
		iterations, fall = 4, 3
	}
	var curve []agents.FictitiousPoint
	if err := f.Train(context.Background(), iterations, func(p agents.FictitiousPoint) { curve = append(curve, p) }); err != nil {
		t.Fatal(err)
	}
	random := exploit(t, "random", r, 0)
	first, last := curve[0], curve[len(curve)-1]
	if math.Abs(first.Exploitability-random.Value) > 1e-12 || first.NashConv != 2*first.Exploitability {
		t.Fatalf("first point %+v, random's exploitability %v", first, random.Value)
	}
	if last.Iteration != iterations || !(last.Exploitability < first.Exploitability/fall) {
		t.Fatalf("after %d iterations %+v, from %+v", iterations, last, first)
	}
	table, x, err := f.Table(context.Background(), "fsp")
	if err != nil {
		t.Fatal(err)
	}
	if !(x <= last.Exploitability*1.01) {
		t.Errorf("the final average %v, the last iteration's %v", x, last.Exploitability)
	}
	path := writeTable(t, table)
	if got := exploit(t, "table:file="+path, r, 0); !got.Exact || math.Abs(got.Value-x) > 1e-6 {
		t.Errorf("the table played %+v, the learner's %+v", got, x)
	}
}

// TestFictitiousResumesFromItsCheckpoint: two iterations, a checkpoint, one more from it,
// are three iterations at once, to the bit (the averages, hence the curve and the table); a
// checkpoint under other rules, damaged or truncated is refused.
func TestFictitiousResumesFromItsCheckpoint(t *testing.T) {
	if testing.Short() {
		t.Skip("-short (the race stage): no goroutines of its own; it runs in go test ./...")
	}
	r := env.Rules{ThrowsPerHalf: 3, Moves: 1} // goals possible in a half: the averages move
	var whole, first []agents.FictitiousPoint
	f, _ := agents.NewFictitious(r)
	if err := f.Train(context.Background(), 3, func(p agents.FictitiousPoint) { whole = append(whole, p) }); err != nil {
		t.Fatal(err)
	}
	g, _ := agents.NewFictitious(r)
	if err := g.Train(context.Background(), 2, func(p agents.FictitiousPoint) { first = append(first, p) }); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := g.WriteCheckpoint(&buf, first); err != nil {
		t.Fatal(err)
	}
	saved := buf.Bytes()
	resumed, head, err := agents.ResumeFictitious(bytes.NewReader(saved), r)
	if err != nil || head.Iterations != 2 || len(head.Curve) != 2 {
		t.Fatalf("resume: %v, %+v", err, head)
	}
	var rest []agents.FictitiousPoint
	if err := resumed.Train(context.Background(), 1, func(p agents.FictitiousPoint) { rest = append(rest, p) }); err != nil {
		t.Fatal(err)
	}
	if whole[2].Exploitability <= 0 {
		t.Fatalf("exploitability %v after 3 iterations: nothing to compare", whole[2].Exploitability)
	}
	for i, p := range rest {
		if w := whole[2+i]; p.Iteration != w.Iteration || p.Exploitability != w.Exploitability {
			t.Errorf("iteration %d resumed: %+v, in one run: %+v", p.Iteration, p, w)
		}
	}
	a, xa, err1 := f.Table(context.Background(), "t")
	b, xb, err2 := resumed.Table(context.Background(), "t")
	var ta, tb bytes.Buffer
	if err1 != nil || err2 != nil || xa != xb {
		t.Fatalf("tables: %v %v, exploitability %v v %v", err1, err2, xa, xb)
	}
	a.WriteTo(&ta)
	b.WriteTo(&tb)
	if !bytes.Equal(ta.Bytes(), tb.Bytes()) {
		t.Error("the resumed run's table differs from the run in one go")
	}
	if _, _, err := agents.ResumeFictitious(bytes.NewReader(saved), env.Rules{ThrowsPerHalf: 4, Moves: 1}); !errors.Is(err, agents.ErrBadCheckpoint) {
		t.Errorf("other rules: %v", err)
	}
	for _, cut := range []int{0, 10, len(saved) / 2, len(saved) - 1} {
		if _, _, err := agents.ResumeFictitious(bytes.NewReader(saved[:cut]), r); !errors.Is(err, agents.ErrBadCheckpoint) {
			t.Errorf("truncated at %d: %v", cut, err)
		}
	}
	for _, at := range []int{len(saved) / 3, len(saved) * 2 / 3, len(saved) - 2} {
		b := bytes.Clone(saved)
		b[at] ^= 1
		if _, _, err := agents.ResumeFictitious(bytes.NewReader(b), r); !errors.Is(err, agents.ErrBadCheckpoint) {
			t.Errorf("byte %d flipped: %v", at, err)
		}
	}
}
