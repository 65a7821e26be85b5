package train

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"gonum.org/v1/plot/plotter"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/exploit"
	"github.com/kingoal/kingoal/internal/charts"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/solver/game"
)

// Fictitious is a run of a full-width learner — fictitious self-play, regret matching+ or PSRO —
// into a policy table (Table, a .kgp name): after every iteration the exact exploitability
// curve (exploitability-curve/2) and its chart, marked in progress, are rewritten beside the
// table, and the run itself is kept in a checkpoint (Files), so an interrupted run resumes
// to the bytes of an uninterrupted one.
type Fictitious struct {
	Table      string
	Iterations int                          // the total to reach
	Progress   func(agents.FictitiousPoint) // after every iteration, if set
	// Name is the learner's, in the table's name and the chart's title (zero: "fictitious
	// play"; agents.Fictitious's default).
	Name string
}

// Learner is a full-width learner over the game's break states: *agents.Fictitious,
// *agents.RegretMatching or *agents.PSRO.
type Learner interface {
	Iterations() int
	Train(ctx context.Context, n int, progress func(agents.FictitiousPoint)) error
	Table(ctx context.Context, name string) (*game.PolicyTable, float64, error)
	WriteCheckpoint(w io.Writer, curve []agents.FictitiousPoint) error
}

// name is the learner's name.
func (t Fictitious) name() string { return cmp.Or(t.Name, "fictitious play") }

// Files names the curve, its chart and the checkpoint of the run into t.Table.
func (t Fictitious) Files() (curve, png, checkpoint string) {
	base := strings.TrimSuffix(t.Table, ".kgp")
	return base + ".curve.parquet", base + ".curve.png", t.Table + ".partial"
}

// Train runs f (new, or resumed with the curve so far) to t.Iterations, then writes the
// average strategy as the policy table with its exact exploitability, removes the
// checkpoint and returns the whole curve and that exploitability. Interrupted by ctx, it
// returns ctx's error: the curve so far and the last whole checkpoint stay.
func (t Fictitious) Train(ctx context.Context, f Learner, curve []agents.FictitiousPoint) ([]agents.FictitiousPoint, float64, error) {
	curvePath, pngPath, checkpoint := t.Files()
	var werr error
	err := f.Train(ctx, t.Iterations-f.Iterations(), func(p agents.FictitiousPoint) {
		curve = append(curve, p)
		if werr == nil { // the curve, its chart (marked in progress) and the run so far
			werr = writeExploitabilityCurve(curvePath, pngPath, curve, t.Iterations, t.name())
		}
		if werr == nil {
			// Ctrl-C abandons a write of hundreds of MB (the last whole checkpoint stays).
			werr = safefile.WriteAtomic(checkpoint, func(w io.Writer) error { return f.WriteCheckpoint(stoppable{ctx, w}, curve) })
		}
		if t.Progress != nil {
			t.Progress(p)
		}
	})
	if err == nil {
		err = werr
	}
	if err != nil {
		return curve, 0, err
	}
	table, x, err := f.Table(ctx, fmt.Sprintf("%s, %d iterations", t.name(), f.Iterations()))
	if err != nil {
		return curve, 0, err
	}
	if err := safefile.WriteAtomic(t.Table, func(w io.Writer) error { _, err := table.WriteTo(w); return err }); err != nil {
		return curve, 0, err
	}
	if err := os.Remove(checkpoint); err != nil && !errors.Is(err, os.ErrNotExist) {
		return curve, 0, fmt.Errorf("train: %w", err)
	}
	return curve, x, nil
}

// writeExploitabilityCurve writes the curve so far and its chart, whose title says how far a
// run of target iterations has come while it is not done.
func writeExploitabilityCurve(curvePath, pngPath string, curve []agents.FictitiousPoint, target int, learner string) error {
	rows := make([]datasets.ExploitabilityCurveRow, len(curve))
	var xy plotter.XYs
	for i, c := range curve {
		f := exploit.FiguresOfScoreNashConv(c.NashConv)
		rows[i] = datasets.ExploitabilityCurveRow{Iteration: int64(c.Iteration), OpenSpielNashConv: f.OpenSpielNashConv, ScoreNashConv: f.ScoreNashConv,
			ScoreExploitability: c.Exploitability, Seconds: c.Seconds, Passes: int64(c.Passes)}
		xy = append(xy, plotter.XY{X: float64(c.Iteration), Y: f.OpenSpielNashConv})
	}
	if err := datasets.WriteParquet(curvePath, datasets.ExploitabilityCurveSchema, rows); err != nil {
		return err
	}
	title := fmt.Sprintf("%s: exact NashConv of the average strategy", strings.ToUpper(learner[:1])+learner[1:])
	if n := len(curve); n < target {
		title += fmt.Sprintf(" (in progress: %d of %d iterations)", n, target)
	}
	return charts.LineChart(pngPath, title, "iterations", "OpenSpiel NashConv (±1 returns; half of it on the score scale)", charts.Series{Name: "average strategy", Points: xy})
}

// stoppable is a writer that fails once ctx is done.
type stoppable struct {
	ctx context.Context
	w   io.Writer
}

func (s stoppable) Write(p []byte) (int, error) {
	if err := s.ctx.Err(); err != nil {
		return 0, err
	}
	return s.w.Write(p)
}
