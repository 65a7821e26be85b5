package agents_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/internal/testtool"
	"github.com/kingoal/kingoal/solver/policy"
)

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

// TestRegretMatchingResumesFromItsCheckpoint: as fictitious play's, for regret matching+
// (its regrets and averages both kept); a fictitious-play checkpoint is not one of its.
func TestRegretMatchingResumesFromItsCheckpoint(t *testing.T) {
	if testing.Short() {
		t.Skip("-short (the race stage): no goroutines of its own; it runs in go test ./...")
	}
	testtool.SkipUnlessHeavy(t, "a second learner's checkpoint (fictitious play's runs in every go test)")
	r := env.Rules{ThrowsPerHalf: 3, Moves: 1}
	var whole, first, rest []agents.FictitiousPoint
	m, _ := agents.NewRegretMatching(r)
	if err := m.Train(context.Background(), 3, func(p agents.FictitiousPoint) { whole = append(whole, p) }); err != nil {
		t.Fatal(err)
	}
	g, _ := agents.NewRegretMatching(r)
	if err := g.Train(context.Background(), 2, func(p agents.FictitiousPoint) { first = append(first, p) }); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := g.WriteCheckpoint(&buf, first); err != nil {
		t.Fatal(err)
	}
	resumed, head, err := agents.ResumeRegretMatching(bytes.NewReader(buf.Bytes()), r)
	if err != nil || head.Iterations != 2 || len(head.Curve) != 2 {
		t.Fatalf("resume: %v, %+v", err, head)
	}
	if err := resumed.Train(context.Background(), 1, func(p agents.FictitiousPoint) { rest = append(rest, p) }); err != nil {
		t.Fatal(err)
	}
	if rest[0] != (agents.FictitiousPoint{Iteration: 3, Exploitability: whole[2].Exploitability, NashConv: whole[2].NashConv, Seconds: rest[0].Seconds, Passes: 6}) {
		t.Errorf("iteration 3 resumed: %+v, in one run: %+v", rest[0], whole[2])
	}
	if _, _, err := agents.ResumeFictitious(bytes.NewReader(buf.Bytes()), r); !errors.Is(err, agents.ErrBadCheckpoint) {
		t.Errorf("regret matching's checkpoint read as fictitious play's: %v", err)
	}
	cut := buf.Bytes()[:buf.Len()-5]
	if _, _, err := agents.ResumeRegretMatching(bytes.NewReader(cut), r); !errors.Is(err, agents.ErrBadCheckpoint) {
		t.Errorf("truncated: %v", err)
	}
}

// TestPSROResumesFromItsCheckpoint: PSRO's populations, meta-game and meta-strategies kept
// after two iterations give the third iteration and the table of a run in one go, to the bit;
// its checkpoint is no other learner's, and one damaged is refused.
func TestPSROResumesFromItsCheckpoint(t *testing.T) {
	if testing.Short() {
		t.Skip("-short (the race stage): no goroutines of its own; it runs in go test ./...")
	}
	testtool.SkipUnlessHeavy(t, "a second learner's checkpoint (fictitious play's runs in every go test)")
	r := env.Rules{ThrowsPerHalf: 3, Moves: 1}
	var whole, first, rest []agents.FictitiousPoint
	p, _ := agents.NewPSRO(context.Background(), r)
	if err := p.Train(context.Background(), 3, func(q agents.FictitiousPoint) { whole = append(whole, q) }); err != nil {
		t.Fatal(err)
	}
	g, _ := agents.NewPSRO(context.Background(), r)
	if err := g.Train(context.Background(), 2, func(q agents.FictitiousPoint) { first = append(first, q) }); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := g.WriteCheckpoint(&buf, first); err != nil {
		t.Fatal(err)
	}
	saved := buf.Bytes()
	resumed, head, err := agents.ResumePSRO(bytes.NewReader(saved), r)
	if err != nil || head.Iterations != 2 || len(head.Curve) != 2 {
		t.Fatalf("resume: %v, %+v", err, head)
	}
	if err := resumed.Train(context.Background(), 1, func(q agents.FictitiousPoint) { rest = append(rest, q) }); err != nil {
		t.Fatal(err)
	}
	if w := whole[2]; rest[0] != (agents.FictitiousPoint{Iteration: 3, Exploitability: w.Exploitability, NashConv: w.NashConv, Seconds: rest[0].Seconds, Passes: w.Passes}) {
		t.Errorf("iteration 3 resumed: %+v, in one run: %+v", rest[0], w)
	}
	a, _, err1 := p.Table(context.Background(), "t")
	b, _, err2 := resumed.Table(context.Background(), "t")
	var ta, tb bytes.Buffer
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	a.WriteTo(&ta)
	b.WriteTo(&tb)
	if !bytes.Equal(ta.Bytes(), tb.Bytes()) {
		t.Error("the resumed run's table differs from the run in one go")
	}
	if _, _, err := agents.ResumeRegretMatching(bytes.NewReader(saved), r); !errors.Is(err, agents.ErrBadCheckpoint) {
		t.Errorf("PSRO's checkpoint read as regret matching's: %v", err)
	}
	for _, at := range []int{len(saved) / 2, len(saved) - 2} {
		b := bytes.Clone(saved)
		b[at] ^= 1
		if _, _, err := agents.ResumePSRO(bytes.NewReader(b), r); !errors.Is(err, agents.ErrBadCheckpoint) {
			t.Errorf("byte %d flipped: %v", at, err)
		}
	}
	if _, _, err := agents.ResumePSRO(bytes.NewReader(saved[:len(saved)-5]), r); !errors.Is(err, agents.ErrBadCheckpoint) {
		t.Errorf("truncated: %v", err)
	}
}

// TestLearnersRefuseWhatWouldNotFit: at the default rules the full-width learners' own
// strategies (fictitious play's averages ~176 GiB; 10-throw halves' 533 MB estimated, 534 MB
// as its checkpoint measures) would not fit: each is refused before any work, with an error
// wrapping policy.ErrTooLarge — not started to run out of memory.
func TestLearnersRefuseWhatWouldNotFit(t *testing.T) {
	r := env.Rules{}
	_, err1 := agents.NewFictitious(r)
	_, err2 := agents.NewRegretMatching(r)
	_, err3 := agents.NewPSRO(context.Background(), r)
	for i, err := range []error{err1, err2, err3} {
		if !errors.Is(err, policy.ErrTooLarge) || !strings.Contains(err.Error(), "its strategies") {
			t.Errorf("learner %d: %v", i, err)
		}
	}
}
