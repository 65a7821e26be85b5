package agents_test

import (
	"context"
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
	if !(x.Value <= last.Exploitability*1.01) {
		t.Errorf("the final average %v, the last iteration's %v", x.Value, last.Exploitability)
	}
	path := writeTable(t, table)
	if got := exploit(t, "table:file="+path, r, 0); !got.Exact || math.Abs(got.Value-x.Value) > 1e-6 {
		t.Errorf("the table played %+v, the learner's %+v", got, x)
	}
}
