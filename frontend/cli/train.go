package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/train"
)

type trainOptions struct {
	rules       command.RuleFlags
	vs          string
	evalVs      string
	episodes    int
	seed        uint64
	out         string
	evalEvery   int
	evalMatches int
	resume      bool
	force       bool
	alpha       float64
	epsilon     float64
	iterations  int
	noExploit   bool
}

// trainLong is train's help: what each algorithm does and writes.
const trainLong = `Train plays N episodes against the --vs agent (sides alternate) and learns. Every K
episodes it evaluates the greedy policy — exactly when the opponent is a fixed line-up (and
then also the regret: the optimum's score minus the agent's), by Monte Carlo with a 95%
interval otherwise — and saves the model (MODEL), the learning curve (MODEL's name with
.curve.parquet, schema learning-curve/3) and its chart (.curve.png), all atomically, so an
interrupted run keeps everything up to its last evaluation. --resume continues from MODEL;
a resumed run ends with exactly the model of an uninterrupted one. Scores are P(win) +
½ P(draw) of the greedy policy against the opponent, averaged over both sides. Each
evaluation also measures the greedy policy's exact exploitability where the game has at most
25 million break states (20-throw halves with one move; seconds each), else leaves it NaN;
--no-exploitability skips it.

train fictitious learns the substitution game (Basic v Basic) by full-width fictitious
self-play: each of --iterations solves both sides' exact best responses to the current
average strategies and moves each side's average toward its best response at every break
state and at the kick-off (by 1/(k+2)); the same pass gives the exact exploitability, so the
curve (OUT's name with .curve.parquet, schema exploitability-curve/2, and .curve.png,
rewritten at every iteration) is the truth, not an estimate. It is deterministic (no seed).
At the end it writes the average strategy as a policy table (--out, default fictitious.kgp;
play it as table:file=OUT) with its exact exploitability. 10-throw halves with one move:
~6 s an iteration, exploitability below 0.01 after ~20 (BENCHMARKS.md). After every
iteration it also keeps the run itself in OUT.partial (the averages: 534 MB at 10-throw
halves with one move); until the table is written the chart's title says "in progress", and
Ctrl-C or a kill leaves OUT.partial, which --resume continues (the same rule flags; a larger
--iterations) to the bytes an uninterrupted run writes.

train regret learns it by full-width regret matching+ (CFR+'s update): at every break state
and at the kick-off each side keeps its cumulative regrets, clamped at 0, plays them
regret-matched, and learns its average, weighted linearly; each iteration is a pass against
the current strategies (every line-up's value at every break, continued by the side's best
response: the regrets' increments), then a pass measuring the average's exact
exploitability — twice fictitious play's time an iteration and twice its memory. The same
files, table (default regret.kgp), curve, chart, checkpoint and --resume as fictitious.

train psro learns it by policy-space response oracles: each side keeps a population of
policies (from the uniform one); the meta-game is every home member's exact payoff against
every away member (a backward induction of the pair, no sampling), solved by linear
programming; each iteration adds each side's exact best response to the other's
meta-strategy, played as the stationary policy mixing the members' choices at every break
with the meta-game's weights (what the curve measures and the table keeps). Iteration k
costs ~2k passes (a pass for every new meta-game entry) and a byte a break state for every
member; the curve's passes column counts them. Where no best response is new it has reached
its fixed point, which the stationary mixing can leave short of the equilibrium. The same
files, table (default psro.kgp), curve, chart, checkpoint and --resume as fictitious.`

func newTrainCmd(streams command.Streams) *cobra.Command {
	var o trainOptions
	cmd := &cobra.Command{
		Use:   "train qlearning|fictitious|regret|psro [--vs SPEC] [--episodes N] [--seed S] [--out MODEL] [--eval-every K] [--resume] [--iterations N] [rule flags]",
		Short: "Train a tabular Q-learning agent, or learn the game by fictitious self-play, regret matching+ or PSRO; write the model, a Parquet learning curve and its chart",
		Long:  trainLong,
		Example: `  kingoal train qlearning --vs fixed:2-2-2-2-2 --episodes 1000000 --out q.json
  kingoal watch qlearning:model=q.json fixed:2-2-2-2-2 --seed 3
  kingoal train fictitious --iterations 30 --throws-per-half 10 --moves 1 --out fsp.kgp
  kingoal eval table:file=fsp.kgp --throws-per-half 10 --moves 1
  kingoal train regret --iterations 30 --throws-per-half 10 --moves 1 --out rm.kgp
  kingoal train psro --iterations 10 --throws-per-half 10 --moves 1 --out psro.kgp`,
		Args: command.ArgsBetween(1, 1, "the algorithm: qlearning, fictitious, regret or psro"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if learnerNames[args[0]] != "" {
				return runFictitious(cmd.Context(), streams, o, cmd.Flags(), args[0])
			}
			if cmd.Flags().Lookup("iterations").Changed {
				return command.Usagef("--iterations is fictitious play's, regret matching's and PSRO's; Q-learning takes --episodes")
			}
			if o.resume {
				if err := resumeTraining(cmd.Flags(), o.out); err != nil {
					return err
				}
			}
			return runTrain(cmd.Context(), streams, o, args[0], trainingRecord(cmd.Flags()))
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.vs, "vs", "fixed:2-2-2-2-2", "opponent agent spec (see kingoal agents), or self for self-play")
	f.StringVar(&o.evalVs, "eval-vs", "", "opponent of the evaluations (default: --vs; fixed:2-2-2-2-2 with --vs self)")
	f.IntVar(&o.episodes, "episodes", 500000, "episodes to train in all (a resumed model's count included)")
	command.SeedFlag(f, &o.seed, "")
	f.StringVar(&o.out, "out", "qlearning.json", "model file")
	f.IntVar(&o.evalEvery, "eval-every", 0, "episodes between evaluations (0: episodes/20)")
	f.IntVar(&o.evalMatches, "eval-matches", 2000, "matches per Monte Carlo evaluation (when exact evaluation does not apply)")
	f.BoolVar(&o.resume, "resume", false, "continue training the model in --out with its own settings (other flags must agree; --episodes may grow); fictitious, regret and psro: continue the interrupted run in OUT.partial")
	f.BoolVar(&o.force, "force", false, "replace the model (and its curve) already in --out")
	f.Float64Var(&o.alpha, "alpha", 0, "learning rate (0: 1/visits)")
	f.Float64Var(&o.epsilon, "epsilon", 0.1, "exploration rate while training")
	f.BoolVar(&o.noExploit, "no-exploitability", false, "skip the greedy policy's exact exploitability at each evaluation (measured where the game has at most 25 million break states: 20-throw halves with one move)")
	f.IntVar(&o.iterations, "iterations", 50, "fictitious play, regret matching and PSRO: iterations (each an exact best-response pass; regret matching's two; PSRO's k-th ~2k)")
	o.rules.Register(f)
	return cmd
}

// trainingFlags are the flags that fix what a training computes; a model records them and a
// resume takes them from it (--episodes, the total to reach, may change).
var trainingFlags = []string{"vs", "eval-vs", "seed", "eval-every", "eval-matches", "alpha", "epsilon",
	"knockout", "ties-count", "throws-per-half", "extra-throws", "moves", "home-mode", "away-mode", "dynamic-trigger", "points"}

// trainingRecord is what a model records of its training: trainingFlags, and the target
// --episodes, which a resume keeps unless given again.
func trainingRecord(fs *pflag.FlagSet) map[string]string {
	m := map[string]string{"episodes": fs.Lookup("episodes").Value.String()}
	for _, name := range trainingFlags {
		m[name] = fs.Lookup(name).Value.String()
	}
	return m
}

// resumeTraining fills in the flags of the training the model in path records.
func resumeTraining(fs *pflag.FlagSet, path string) error {
	f, err := safefile.Open(path, 0)
	if errors.Is(err, os.ErrNotExist) {
		return command.Usagef("--resume: there is no model %s to resume", path)
	}
	if err != nil {
		return fmt.Errorf("train: --resume: %w", err)
	}
	defer f.Close()
	stored, err := agents.ReadQTraining(f)
	if err != nil {
		return fmt.Errorf("train: --resume %s: %w", path, err)
	}
	if stored == nil {
		return command.Usagef("--resume: %s does not record how it was trained (an older model); give every flag, or start afresh with --force", path)
	}
	target, recorded := stored["episodes"]
	delete(stored, "episodes") // the one setting a resume may change
	if !fs.Lookup("episodes").Changed {
		if !recorded {
			return command.Usagef("--resume: %s does not record its target (a model from an earlier build): give --episodes", path)
		}
		if err := fs.Set("episodes", target); err != nil {
			return command.Usagef("--resume: %s holds --episodes %q, which this version cannot read: %v", path, target, err)
		}
	}
	return command.ApplyStored(fs, stored, path, nil)
}

func runTrain(ctx context.Context, streams command.Streams, o trainOptions, algo string, record map[string]string) error {
	r, err := o.check(algo)
	if err != nil {
		return err
	}
	lock, err := safefile.LockFile(o.out) // two trainings into one model would lose one
	if err != nil {
		return command.LockError(err)
	}
	defer lock.Unlock()
	run := train.QLearning{Model: o.out, Rules: r, EvalVs: o.evalVs, Episodes: o.episodes, Every: o.evalEvery, EvalMatches: o.evalMatches,
		Seed: o.seed, NoExploitability: o.noExploit}
	curvePath, pngPath := run.Files()
	if err := lock.RemoveStaleTempsOf(o.out, curvePath, pngPath); err != nil { // a killed run's
		return err
	}
	if !o.resume {
		if err := command.RefuseOverwrite("--out", o.out, o.force, "continue its training with --resume or replace it with --force"); err != nil {
			return err
		}
	}
	if run.Opponent, err = o.opponents(ctx, r); err != nil {
		return err
	}
	run.EvalVs = o.evalVs // opponents sets its default
	q, curve, err := o.model(run, record)
	if err != nil {
		return err
	}
	fmt.Fprintf(streams.ErrOut, "kingoal: training qlearning v %s, %d episodes (from %d), seed %d\n", o.vs, o.episodes, q.Episodes, o.seed)
	bar := command.NewProgress(streams.ErrOut, o.episodes, "episodes")
	_ = bar.Set(q.Episodes)
	began, from := time.Now(), q.Episodes
	run.Progress = func(total int, mean float64) {
		bar.Describe(fmt.Sprintf("episodes (mean result %+.3f)", mean))
		_ = bar.Set(total)
	}
	curve, err = run.Train(ctx, q, curve)
	_ = bar.Finish()
	if err != nil {
		return err
	}
	secs := time.Since(began).Seconds()
	fmt.Fprintf(streams.ErrOut, "kingoal: wrote %s, %s and %s (%.0f episodes/s)\n", o.out, curvePath, pngPath, float64(q.Episodes-from)/max(secs, 1e-9))
	return writeCurveTable(streams.Out, curve)
}

// opponents builds the training opponent (nil: self-play) and checks the evaluation's,
// which defaults to the training opponent (to fixed:2-2-2-2-2 under self-play).
func (o *trainOptions) opponents(ctx context.Context, r env.Rules) (agents.Agent, error) {
	var opp agents.Agent
	if o.vs != "self" {
		var err error
		if opp, err = agents.New(o.vs, agents.Setup{Rules: r, Context: ctx}); err != nil {
			return nil, command.Usage(err)
		}
	}
	if o.evalVs == "" {
		o.evalVs = o.vs
		if o.vs == "self" {
			o.evalVs = "fixed:2-2-2-2-2"
		}
	}
	if _, err := agents.New(o.evalVs, agents.Setup{Rules: r}); err != nil {
		return nil, command.Usage(fmt.Errorf("--eval-vs: %w", err))
	}
	return opp, nil
}

// check refuses bad options in one line and returns the rules.
func (o trainOptions) check(algo string) (env.Rules, error) {
	if algo != "qlearning" {
		return env.Rules{}, command.Usagef("unknown algorithm %q: want qlearning, fictitious, regret or psro", algo)
	}
	r, err := o.rules.Rules()
	if err != nil {
		return r, err
	}
	switch {
	case o.episodes <= 0:
		return r, command.Usagef("--episodes %d: want at least 1", o.episodes)
	case o.evalEvery < 0 || o.evalMatches <= 0:
		return r, command.Usagef("--eval-every and --eval-matches: want --eval-every ≥ 0 and --eval-matches ≥ 1")
	case o.alpha < 0 || o.alpha > 1 || o.epsilon < 0 || o.epsilon > 1:
		return r, command.Usagef("--alpha and --epsilon: want values in [0, 1]")
	case !strings.HasSuffix(o.out, ".json"):
		return r, command.Usagef("--out %q: the model file name must end in .json", o.out)
	case o.resume && o.force:
		return r, command.Usagef("--resume and --force: choose one (continue the model in %s, or replace it)", o.out)
	}
	return r, command.CheckOutput("--out", o.out)
}

// model is the model to train — new, or read back with its curve for --resume.
func (o trainOptions) model(run train.QLearning, record map[string]string) (*agents.QLearning, []datasets.LearningCurveRow, error) {
	r := run.Rules
	q := agents.NewQLearning(agents.QConfig{Alpha: o.alpha, Epsilon: o.epsilon}, r)
	q.Training = record
	if !o.resume {
		return q, nil, nil
	}
	f, err := safefile.Open(o.out, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("train: --resume: %w", err)
	}
	q, err = agents.LoadQLearning(f, r)
	f.Close()
	if err != nil {
		return nil, nil, fmt.Errorf("train: --resume %s: %w", o.out, err)
	}
	q.Training = record
	if o.episodes < q.Episodes {
		return nil, nil, command.Usagef("--episodes %d: %s has trained %d already; give a larger total to train on, or start afresh with --force", o.episodes, o.out, q.Episodes)
	}
	curve, err := run.ReadCurve()
	if err != nil {
		return nil, nil, fmt.Errorf("train: --resume: %w", err)
	}
	return q, curve, nil
}

func writeCurveTable(w io.Writer, curve []datasets.LearningCurveRow) error {
	t := command.NewTable(w, 0, "episodes", "score", "± 95%", "best response", "regret", "exploitability (score scale)", "states")
	var rows [][]string
	for _, c := range curve {
		ci, best, regret, x := "exact", "—", "—", "—"
		if !c.Exact {
			ci = fmt.Sprintf("%.4f", c.ScoreCI)
		}
		if !math.IsNaN(c.BestResponse) {
			best, regret = fmt.Sprintf("%.4f", c.BestResponse), fmt.Sprintf("%.4f", c.Regret)
		}
		if !math.IsNaN(c.ScoreExploitability) {
			x = fmt.Sprintf("%.4f", c.ScoreExploitability)
		}
		rows = append(rows, []string{fmt.Sprint(c.Episodes), fmt.Sprintf("%.4f", c.Score), ci, best, regret, x, fmt.Sprint(c.States)})
	}
	if err := command.AppendRows(t, rows); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "Every figure on the score scale (a win 1, a draw ½); exploitability: a best response's expected score minus ½.\n")
	return err
}
