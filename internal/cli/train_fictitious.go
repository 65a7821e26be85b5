package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
	"gonum.org/v1/plot/plotter"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/datasets"
)

// qlearningOnly are train's flags fictitious play has no use for.
var qlearningOnly = []string{"vs", "eval-vs", "episodes", "eval-every", "eval-matches", "resume", "alpha", "epsilon", "no-exploitability"}

// runFictitious is `kingoal train fictitious`: full-width fictitious self-play, its exact
// exploitability at every iteration in a curve (Parquet and chart, rewritten each
// iteration), and the final average strategy as a policy table (table:file=).
func runFictitious(ctx context.Context, streams Streams, o trainOptions, fs *pflag.FlagSet) error {
	for _, name := range qlearningOnly {
		if fs.Lookup(name).Changed {
			return Usagef("--%s is Q-learning's; fictitious play takes --iterations (and rule flags, --out, --force)", name)
		}
	}
	if !fs.Lookup("out").Changed {
		o.out = "fictitious.kgp"
	}
	switch {
	case o.iterations <= 0:
		return Usagef("--iterations %d: want at least 1", o.iterations)
	case !strings.HasSuffix(o.out, ".kgp"):
		return Usagef("--out %q: a policy table's name must end in .kgp", o.out)
	}
	r, err := o.rules.rules()
	if err != nil {
		return err
	}
	if err := checkOutput("--out", o.out); err != nil {
		return err
	}
	lock, err := datasets.LockFile(o.out)
	if err != nil {
		return lockError(err)
	}
	defer lock.Unlock()
	base := strings.TrimSuffix(o.out, ".kgp")
	curvePath, pngPath := base+".curve.parquet", base+".curve.png"
	if err := lock.RemoveStaleTempsOf(o.out, curvePath, pngPath); err != nil { // a killed run's
		return err
	}
	if err := refuseOverwrite("--out", o.out, o.force, "replace it with --force"); err != nil {
		return err
	}
	f, err := agents.NewFictitious(r)
	if err != nil {
		return policyError(err) // too large: exit 2, as solve game
	}
	fmt.Fprintf(streams.ErrOut, "kingoal: fictitious self-play under %s, %d iterations (deterministic: no seed)\n", r, o.iterations)
	bar := newProgress(streams.ErrOut, o.iterations, "iterations")
	var curve []datasets.ExploitabilityCurveRow
	var werr error
	err = f.Train(ctx, o.iterations, func(p agents.FictitiousPoint) {
		curve = append(curve, datasets.ExploitabilityCurveRow{Iteration: int64(p.Iteration), Exploitability: p.Exploitability, NashConv: p.NashConv, Seconds: p.Seconds})
		if werr == nil {
			werr = writeExploitabilityCurve(curvePath, pngPath, curve)
		}
		bar.Describe(fmt.Sprintf("iterations (exploitability %.4f)", p.Exploitability))
		_ = bar.Set(p.Iteration)
	})
	_ = bar.Finish()
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("train: interrupted after %d iterations; the curve so far is in %s, no policy table was written (fictitious play does not resume: run it again): %w", f.Iterations(), curvePath, context.Canceled)
	}
	if err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	table, x, err := f.Table(ctx, fmt.Sprintf("fictitious play, %d iterations", f.Iterations()))
	if err != nil {
		return err
	}
	if err := datasets.WriteAtomic(o.out, func(w io.Writer) error { _, err := table.WriteTo(w); return err }); err != nil {
		return err
	}
	fmt.Fprintf(streams.ErrOut, "kingoal: wrote %s (exploitability %.6f, exact; play it as table:file=%s), %s and %s\n", o.out, x.Value, o.out, curvePath, pngPath)
	t := newTable(streams.Out, 0, "iteration", "exploitability", "nash conv", "seconds")
	var rows [][]string
	for _, c := range curve {
		rows = append(rows, []string{fmt.Sprint(c.Iteration), fmt.Sprintf("%.6f", c.Exploitability), fmt.Sprintf("%.6f", c.NashConv), fmt.Sprintf("%.1f", c.Seconds)})
	}
	rows = append(rows, []string{"final", fmt.Sprintf("%.6f", x.Value), fmt.Sprintf("%.6f", 2*x.Value), ""})
	return appendRows(t, rows)
}

func writeExploitabilityCurve(curvePath, pngPath string, curve []datasets.ExploitabilityCurveRow) error {
	if err := datasets.WriteParquet(curvePath, datasets.ExploitabilityCurveSchema, curve); err != nil {
		return err
	}
	var xy plotter.XYs
	for _, c := range curve {
		xy = append(xy, plotter.XY{X: float64(c.Iteration), Y: c.Exploitability})
	}
	return lineChart(pngPath, "Fictitious self-play: exact exploitability of the average strategy", "iterations",
		"exploitability (a best response's score − ½)", series{"average strategy", xy})
}
