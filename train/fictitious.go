package train

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"gonum.org/v1/plot/plotter"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/internal/charts"
)

// Fictitious is a run of full-width fictitious self-play into a policy table (Table, a .kgp
// name): after every iteration the exact exploitability curve (exploitability-curve/1) and
// its chart, marked in progress, are rewritten beside the table, and the run itself is kept
// in a checkpoint (Files), so an interrupted run resumes to the bytes of an uninterrupted
// one.
type Fictitious struct {
	Table      string
	Iterations int                          // the total to reach
	Progress   func(agents.FictitiousPoint) // after every iteration, if set
}

// Files names the curve, its chart and the checkpoint of the run into t.Table.
func (t Fictitious) Files() (curve, png, checkpoint string) {
	base := strings.TrimSuffix(t.Table, ".kgp")
	return base + ".curve.parquet", base + ".curve.png", t.Table + ".partial"
}

// Train runs f (new, or resumed with the curve so far) to t.Iterations, then writes the
// average strategy as the policy table with its exact exploitability, removes the
// checkpoint and returns the whole curve and that exploitability. Interrupted by ctx, it
// returns ctx's error: the curve so far and the last whole checkpoint stay.
func (t Fictitious) Train(ctx context.Context, f *agents.Fictitious, curve []agents.FictitiousPoint) ([]agents.FictitiousPoint, float64, error) {
	curvePath, pngPath, checkpoint := t.Files()
	var werr error
	err := f.Train(ctx, t.Iterations-f.Iterations(), func(p agents.FictitiousPoint) {
		curve = append(curve, p)
		if werr == nil { // the curve, its chart (marked in progress) and the run so far
			werr = writeExploitabilityCurve(curvePath, pngPath, curve, t.Iterations)
		}
		if werr == nil {
			// Ctrl-C abandons a write of hundreds of MB (the last whole checkpoint stays).
			werr = datasets.WriteAtomic(checkpoint, func(w io.Writer) error { return f.WriteCheckpoint(stoppable{ctx, w}, curve) })
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
	table, x, err := f.Table(ctx, fmt.Sprintf("fictitious play, %d iterations", f.Iterations()))
	if err != nil {
		return curve, 0, err
	}
	if err := datasets.WriteAtomic(t.Table, func(w io.Writer) error { _, err := table.WriteTo(w); return err }); err != nil {
		return curve, 0, err
	}
	if err := os.Remove(checkpoint); err != nil && !errors.Is(err, os.ErrNotExist) {
		return curve, 0, fmt.Errorf("train: %w", err)
	}
	return curve, x, nil
}

// writeExploitabilityCurve writes the curve so far and its chart, whose title says how far a
// run of target iterations has come while it is not done.
func writeExploitabilityCurve(curvePath, pngPath string, curve []agents.FictitiousPoint, target int) error {
	rows := make([]datasets.ExploitabilityCurveRow, len(curve))
	var xy plotter.XYs
	for i, c := range curve {
		rows[i] = datasets.ExploitabilityCurveRow{Iteration: int64(c.Iteration), Exploitability: c.Exploitability, NashConv: c.NashConv, Seconds: c.Seconds}
		xy = append(xy, plotter.XY{X: float64(c.Iteration), Y: c.Exploitability})
	}
	if err := datasets.WriteParquet(curvePath, datasets.ExploitabilityCurveSchema, rows); err != nil {
		return err
	}
	title := "Fictitious self-play: exact exploitability of the average strategy"
	if n := len(curve); n < target {
		title += fmt.Sprintf(" (in progress: %d of %d iterations)", n, target)
	}
	return charts.LineChart(pngPath, title, "iterations", "exploitability (a best response's score − ½)", charts.Series{Name: "average strategy", Points: xy})
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
