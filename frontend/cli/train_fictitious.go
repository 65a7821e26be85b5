package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/exploit"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/solver/policy"
	"github.com/kingoal/kingoal/train"
)

// qlearningOnly are train's flags fictitious play has no use for.
var qlearningOnly = []string{"vs", "eval-vs", "episodes", "eval-every", "eval-matches", "alpha", "epsilon", "no-exploitability"}

// learnerNames are the full-width learners' names, by train's algorithm.
var learnerNames = map[string]string{"fictitious": "fictitious play", "regret": "regret matching+", "psro": "PSRO"}

// runFictitious is `kingoal train fictitious` (and `regret`): full-width fictitious self-play
// (or regret matching+), its exact exploitability at every iteration in a curve (Parquet and
// chart, rewritten each iteration), and the final average strategy as a policy table
// (table:file=).
func runFictitious(ctx context.Context, streams command.Streams, o trainOptions, fs *pflag.FlagSet, algo string) error {
	name := learnerNames[algo]
	for _, flag := range qlearningOnly {
		if fs.Lookup(flag).Changed {
			return command.Usagef("--%s is Q-learning's; %s takes --iterations (and rule flags, --out, --force, --resume)", flag, name)
		}
	}
	if !fs.Lookup("out").Changed {
		o.out = algo + ".kgp"
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
	lock, err := safefile.LockFile(o.out)
	if err != nil {
		return command.LockError(err)
	}
	defer lock.Unlock()
	run := train.Fictitious{Table: o.out, Iterations: o.iterations, Name: name}
	curvePath, pngPath, checkpoint := run.Files()
	if err := lock.RemoveStaleTempsOf(o.out, curvePath, pngPath, checkpoint); err != nil { // a killed run's
		return err
	}
	f, curve, err := o.learnerFrom(ctx, algo, r, checkpoint)
	if err != nil {
		return err
	}
	fmt.Fprintf(streams.ErrOut, "kingoal: %s under %s, %d iterations (deterministic: no seed)\n", name, r, o.iterations)
	if f.Iterations() > 0 {
		fmt.Fprintf(streams.ErrOut, "kingoal: resuming after iteration %d (%s)\n", f.Iterations(), checkpoint)
	}
	bar := command.NewProgress(streams.ErrOut, o.iterations, "iterations")
	_ = bar.Set(f.Iterations())
	run.Progress = func(p agents.FictitiousPoint) {
		bar.Describe(fmt.Sprintf("iterations (OpenSpiel NashConv %.4f)", exploit.FiguresOfScoreNashConv(2*p.Exploitability).OpenSpielNashConv))
		_ = bar.Set(p.Iteration)
	}
	curve, x, err := run.Train(ctx, f, curve)
	_ = bar.Finish()
	if errors.Is(err, context.Canceled) && f.Iterations() < o.iterations {
		return fmt.Errorf("train: interrupted after %d of %d iterations; the curve so far is in %s (its chart says so), the run in %s: continue with --resume: %w",
			f.Iterations(), o.iterations, curvePath, checkpoint, context.Canceled)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(streams.ErrOut, "kingoal: wrote %s (OpenSpiel NashConv %.6f, exact; play it as table:file=%s), %s and %s\n",
		o.out, exploit.FiguresOfScoreNashConv(2*x).OpenSpielNashConv, o.out, curvePath, pngPath)
	t := command.NewTable(streams.Out, 0, "iteration", "NashConv (OpenSpiel, ±1)", "NashConv (score scale)", "exploitability (score scale)", "passes", "seconds")
	row := func(iteration string, exploitability float64) []string {
		f := exploit.FiguresOfScoreNashConv(2 * exploitability)
		return []string{iteration, fmt.Sprintf("%.6f", f.OpenSpielNashConv), fmt.Sprintf("%.6f", f.ScoreNashConv), fmt.Sprintf("%.6f", f.ScoreExploitability)}
	}
	var rows [][]string
	for _, c := range curve {
		rows = append(rows, append(row(fmt.Sprint(c.Iteration), c.Exploitability), fmt.Sprint(c.Passes), fmt.Sprintf("%.1f", c.Seconds)))
	}
	rows = append(rows, append(row("final", x), "", ""))
	if err := command.AppendRows(t, rows); err != nil {
		return err
	}
	_, err = fmt.Fprintf(streams.Out, "%s Exploitability on the %s.\n", exploit.UnitsNote, exploit.Scale)
	return err
}

// learnerFrom is the learner to train: new (an interrupted run's checkpoint refused unless
// --force), or, with --resume, the checkpoint's, with its curve.
func (o trainOptions) learnerFrom(ctx context.Context, algo string, r env.Rules, checkpoint string) (train.Learner, []agents.FictitiousPoint, error) {
	if !o.resume {
		if _, err := os.Lstat(checkpoint); err == nil && !o.force {
			return nil, nil, command.Usagef("%s holds an interrupted run of %s: continue it with --resume, or start over with --force", checkpoint, o.out)
		}
		if err := command.RefuseOverwrite("--out", o.out, o.force, "replace it with --force"); err != nil {
			return nil, nil, err
		}
		var f train.Learner
		var err error
		switch algo {
		case "regret":
			f, err = agents.NewRegretMatching(r)
		case "psro":
			f, err = agents.NewPSRO(ctx, r)
		default:
			f, err = agents.NewFictitious(r)
		}
		if err != nil {
			return nil, nil, err // too large: exit 2 (ExecuteContext), as solve game
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
	var f train.Learner
	var head agents.FictitiousCheckpoint
	switch algo {
	case "regret":
		f, head, err = agents.ResumeRegretMatching(file, r)
	case "psro":
		f, head, err = agents.ResumePSRO(file, r)
	default:
		f, head, err = agents.ResumeFictitious(file, r)
	}
	switch {
	case errors.Is(err, agents.ErrCheckpointRules):
		return nil, nil, command.Usage(fmt.Errorf("--resume: %w (give the run's rule flags)", err))
	case errors.Is(err, policy.ErrTooLarge):
		return nil, nil, err
	case err != nil:
		return nil, nil, fmt.Errorf("train: --resume %s: %w", checkpoint, err)
	case f.Iterations() >= o.iterations:
		return nil, nil, command.Usagef("--iterations %d: the interrupted run has done %d already; ask for more", o.iterations, f.Iterations())
	}
	return f, head.Curve, nil
}
