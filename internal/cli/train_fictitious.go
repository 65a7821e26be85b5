package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"
	"gonum.org/v1/plot/plotter"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/internal/charts"
	"github.com/kingoal/kingoal/internal/cli/command"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/solver/policy"
)

// qlearningOnly are train's flags fictitious play has no use for.
var qlearningOnly = []string{"vs", "eval-vs", "episodes", "eval-every", "eval-matches", "alpha", "epsilon", "no-exploitability"}

// runFictitious is `kingoal train fictitious`: full-width fictitious self-play, its exact
// exploitability at every iteration in a curve (Parquet and chart, rewritten each
// iteration), and the final average strategy as a policy table (table:file=).
func runFictitious(ctx context.Context, streams command.Streams, o trainOptions, fs *pflag.FlagSet) error {
	for _, name := range qlearningOnly {
		if fs.Lookup(name).Changed {
			return command.Usagef("--%s is Q-learning's; fictitious play takes --iterations (and rule flags, --out, --force, --resume)", name)
		}
	}
	if !fs.Lookup("out").Changed {
		o.out = "fictitious.kgp"
	}
	switch {
	case o.iterations <= 0:
		return command.Usagef("--iterations %d: want at least 1", o.iterations)
	case !strings.HasSuffix(o.out, ".kgp"):
		return command.Usagef("--out %q: a policy table's name must end in .kgp", o.out)
	}
	r, err := o.rules.Rules()
	if err != nil {
		return err
	}
	if err := command.CheckOutput("--out", o.out); err != nil {
		return err
	}
	lock, err := datasets.LockFile(o.out)
	if err != nil {
		return command.LockError(err)
	}
	defer lock.Unlock()
	base := strings.TrimSuffix(o.out, ".kgp")
	curvePath, pngPath, checkpoint := base+".curve.parquet", base+".curve.png", o.out+".partial"
	if err := lock.RemoveStaleTempsOf(o.out, curvePath, pngPath, checkpoint); err != nil { // a killed run's
		return err
	}
	f, curve, err := o.fictitiousFrom(r, checkpoint)
	if err != nil {
		return err
	}
	fmt.Fprintf(streams.ErrOut, "kingoal: fictitious self-play under %s, %d iterations (deterministic: no seed)\n", r, o.iterations)
	if f.Iterations() > 0 {
		fmt.Fprintf(streams.ErrOut, "kingoal: resuming after iteration %d (%s)\n", f.Iterations(), checkpoint)
	}
	bar := command.NewProgress(streams.ErrOut, o.iterations, "iterations")
	_ = bar.Set(f.Iterations())
	var werr error
	err = f.Train(ctx, o.iterations-f.Iterations(), func(p agents.FictitiousPoint) {
		curve = append(curve, p)
		if werr == nil { // the curve, its chart (marked in progress) and the run so far
			werr = writeExploitabilityCurve(curvePath, pngPath, curve, o.iterations)
		}
		if werr == nil {
			// Ctrl-C abandons a write of hundreds of MB (the last whole checkpoint stays).
			werr = datasets.WriteAtomic(checkpoint, func(w io.Writer) error { return f.WriteCheckpoint(stoppable{ctx, w}, curve) })
		}
		bar.Describe(fmt.Sprintf("iterations (exploitability %.4f)", p.Exploitability))
		_ = bar.Set(p.Iteration)
	})
	_ = bar.Finish()
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("train: interrupted after %d of %d iterations; the curve so far is in %s (its chart says so), the run in %s: continue with --resume: %w",
			f.Iterations(), o.iterations, curvePath, checkpoint, context.Canceled)
	}
	if err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	return finishFictitious(ctx, streams, f, curve, o.out, curvePath, pngPath, checkpoint)
}

// finishFictitious writes the trained average as the policy table out, with its exact
// exploitability, removes the checkpoint and prints the curve.
func finishFictitious(ctx context.Context, streams command.Streams, f *agents.Fictitious, curve []agents.FictitiousPoint, out, curvePath, pngPath, checkpoint string) error {
	table, x, err := f.Table(ctx, fmt.Sprintf("fictitious play, %d iterations", f.Iterations()))
	if err != nil {
		return err
	}
	if err := datasets.WriteAtomic(out, func(w io.Writer) error { _, err := table.WriteTo(w); return err }); err != nil {
		return err
	}
	if err := os.Remove(checkpoint); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("train: %w", err)
	}
	fmt.Fprintf(streams.ErrOut, "kingoal: wrote %s (exploitability %.6f, exact; play it as table:file=%s), %s and %s\n", out, x, out, curvePath, pngPath)
	t := command.NewTable(streams.Out, 0, "iteration", "exploitability", "nash conv", "seconds")
	var rows [][]string
	for _, c := range curve {
		rows = append(rows, []string{fmt.Sprint(c.Iteration), fmt.Sprintf("%.6f", c.Exploitability), fmt.Sprintf("%.6f", c.NashConv), fmt.Sprintf("%.1f", c.Seconds)})
	}
	rows = append(rows, []string{"final", fmt.Sprintf("%.6f", x), fmt.Sprintf("%.6f", 2*x), ""})
	return command.AppendRows(t, rows)
}

// fictitiousFrom is fictitious play to train: new (an interrupted run's checkpoint refused
// unless --force), or, with --resume, the checkpoint's, with its curve.
func (o trainOptions) fictitiousFrom(r env.Rules, checkpoint string) (*agents.Fictitious, []agents.FictitiousPoint, error) {
	if !o.resume {
		if _, err := os.Lstat(checkpoint); err == nil && !o.force {
			return nil, nil, command.Usagef("%s holds an interrupted run of %s: continue it with --resume, or start over with --force", checkpoint, o.out)
		}
		if err := command.RefuseOverwrite("--out", o.out, o.force, "replace it with --force"); err != nil {
			return nil, nil, err
		}
		f, err := agents.NewFictitious(r)
		if err != nil {
			return nil, nil, policyError(err) // too large: exit 2, as solve game
		}
		return f, nil, nil
	}
	file, err := safefile.Open(checkpoint, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, command.Usagef("--resume: there is no interrupted run of %s to resume (no %s)", o.out, checkpoint)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("train: --resume: %w", err)
	}
	defer file.Close()
	f, head, err := agents.ResumeFictitious(file, r)
	switch {
	case errors.Is(err, agents.ErrCheckpointRules):
		return nil, nil, command.Usage(fmt.Errorf("--resume: %w (give the run's rule flags)", err))
	case errors.Is(err, policy.ErrTooLarge):
		return nil, nil, policyError(err)
	case err != nil:
		return nil, nil, fmt.Errorf("train: --resume %s: %w", checkpoint, err)
	case f.Iterations() >= o.iterations:
		return nil, nil, command.Usagef("--iterations %d: the interrupted run has done %d already; ask for more", o.iterations, f.Iterations())
	}
	return f, head.Curve, nil
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
