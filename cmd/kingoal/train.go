package main

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
	"gonum.org/v1/plot/plotter"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver"
)

type trainOptions struct {
	rules       ruleFlags
	vs          string
	episodes    int
	seed        uint64
	out         string
	evalEvery   int
	evalMatches int
	resume      bool
	alpha       float64
	epsilon     float64
}

func newTrainCmd(io streams) *cobra.Command {
	var o trainOptions
	cmd := &cobra.Command{
		Use:   "train qlearning [--vs SPEC] [--episodes N] [--seed S] [--out MODEL] [--eval-every K] [--resume] [rule flags]",
		Short: "Train a tabular Q-learning agent; write the model, a Parquet learning curve and its chart",
		Long: `Train plays N episodes against the --vs agent (sides alternate) and learns. Every K
episodes it evaluates the greedy policy — exactly when the opponent is a fixed line-up (and
then also the regret: the optimum's score minus the agent's), by Monte Carlo with a 95%
interval otherwise — and saves the model (MODEL), the learning curve (MODEL's name with
.curve.parquet, schema learning-curve/1) and its chart (.curve.png), all atomically, so an
interrupted run keeps everything up to its last evaluation. --resume continues from MODEL;
a resumed run ends with exactly the model of an uninterrupted one. Scores are P(win) +
½ P(draw) of the greedy policy against the opponent, averaged over both sides.`,
		Example: `  kingoal train qlearning --vs fixed:2-2-2-2-2 --episodes 1000000 --out q.json
  kingoal watch qlearning:model=q.json fixed:2-2-2-2-2 --seed 3`,
		Args: argsBetween(1, 1, "the algorithm: qlearning"),
		RunE: func(cmd *cobra.Command, args []string) error { return runTrain(cmd.Context(), io, o, args[0]) },
	}
	f := cmd.Flags()
	f.StringVar(&o.vs, "vs", "fixed:2-2-2-2-2", "opponent agent spec (see kingoal agents)")
	f.IntVar(&o.episodes, "episodes", 500000, "episodes to train in all (a resumed model's count included)")
	f.Uint64Var(&o.seed, "seed", 1, "random seed")
	f.StringVar(&o.out, "out", "qlearning.json", "model file")
	f.IntVar(&o.evalEvery, "eval-every", 0, "episodes between evaluations (0: episodes/20)")
	f.IntVar(&o.evalMatches, "eval-matches", 2000, "matches per Monte Carlo evaluation (when exact evaluation does not apply)")
	f.BoolVar(&o.resume, "resume", false, "continue training the model in --out")
	f.Float64Var(&o.alpha, "alpha", 0, "learning rate (0: 1/visits)")
	f.Float64Var(&o.epsilon, "epsilon", 0.1, "exploration rate while training")
	o.rules.register(f)
	return cmd
}

func runTrain(ctx context.Context, io streams, o trainOptions, algo string) error {
	if algo != "qlearning" {
		return usagef("unknown algorithm %q: want qlearning", algo)
	}
	r, err := o.rules.rules()
	if err != nil {
		return err
	}
	switch {
	case o.episodes <= 0:
		return usagef("--episodes %d: want at least 1", o.episodes)
	case o.evalEvery < 0 || o.evalMatches <= 0:
		return usagef("--eval-every and --eval-matches: want --eval-every ≥ 0 and --eval-matches ≥ 1")
	case o.alpha < 0 || o.alpha > 1 || o.epsilon < 0 || o.epsilon > 1:
		return usagef("--alpha and --epsilon: want values in [0, 1]")
	case !strings.HasSuffix(o.out, ".json"):
		return usagef("--out %q: the model file name must end in .json", o.out)
	}
	opp, err := agents.New(o.vs, agents.Setup{Rules: r})
	if err != nil {
		return usageError{err}
	}
	q := agents.NewQLearning(agents.QConfig{Alpha: o.alpha, Epsilon: o.epsilon}, r)
	if o.resume {
		f, err := os.Open(o.out)
		if err != nil {
			return fmt.Errorf("train: --resume: %w", err)
		}
		q, err = agents.LoadQLearning(f, r)
		f.Close()
		if err != nil {
			return fmt.Errorf("train: --resume %s: %w", o.out, err)
		}
	}
	base := strings.TrimSuffix(o.out, ".json")
	curvePath, pngPath := base+".curve.parquet", base+".curve.png"
	var curve []datasets.LearningCurveRow
	if o.resume {
		if curve, err = datasets.ReadParquet[datasets.LearningCurveRow](curvePath, datasets.LearningCurveSchema); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("train: --resume: %w", err)
		}
	}
	ev, err := newEvaluator(o, r)
	if err != nil {
		return err
	}
	every := o.evalEvery
	if every == 0 {
		every = max(1, o.episodes/20)
	}
	fmt.Fprintf(io.errOut, "kingoal: training qlearning v %s, %d episodes (from %d), seed %d\n", o.vs, o.episodes, q.Episodes, o.seed)
	bar := newProgress(io.errOut, o.episodes, "episodes")
	_ = bar.Set(q.Episodes)
	began := time.Now()
	var last float64       // mean result of the latest training episodes
	done := func() error { // evaluate, then save model and curve
		row, err := ev.evaluate(q)
		if err != nil {
			return err
		}
		row.TrainResult = last
		row.Seconds = time.Since(began).Seconds()
		if n := len(curve); n > 0 {
			row.Seconds += curve[n-1].Seconds
		}
		curve = append(curve, row)
		if err := datasets.WriteAtomic(o.out, q.Save); err != nil {
			return err
		}
		if err := datasets.WriteParquet(curvePath, datasets.LearningCurveSchema, curve); err != nil {
			return err
		}
		return writeCurvePNG(pngPath, curve, o.vs)
	}
	for q.Episodes < o.episodes {
		chunk := min(every, o.episodes-q.Episodes)
		start := q.Episodes
		err := q.Train(agents.TrainConfig{Context: ctx, Opponent: opp, Episodes: chunk, Seed: o.seed, Progress: func(n int, mean float64) {
			last = mean
			bar.Describe(fmt.Sprintf("episodes (mean result %+.3f)", mean))
			_ = bar.Set(start + n)
		}})
		if err != nil {
			if errors.Is(err, context.Canceled) {
				_ = bar.Finish()
				if err := done(); err != nil {
					return err
				}
				return fmt.Errorf("train: interrupted after %d episodes; saved %s (resume with --resume): %w", q.Episodes, o.out, err)
			}
			return err
		}
		if err := done(); err != nil {
			return err
		}
	}
	_ = bar.Finish()
	secs := time.Since(began).Seconds()
	fmt.Fprintf(io.errOut, "kingoal: wrote %s, %s and %s (%.0f episodes/s)\n", o.out, curvePath, pngPath, float64(o.episodes)/max(secs, 1e-9))
	return writeCurveTable(io.out, curve)
}

// evaluator scores the greedy policy: exactly against a fixed opponent (then with the
// best response's score), by Monte Carlo otherwise.
type evaluator struct {
	rules   env.Rules
	fixed   *env.Lineup
	best    float64 // NaN if unknown
	spec    string
	matches int
	seed    uint64
}

func newEvaluator(o trainOptions, r env.Rules) (*evaluator, error) {
	ev := &evaluator{rules: r, best: math.NaN(), spec: o.vs, matches: o.evalMatches, seed: o.seed}
	if name, arg, _ := strings.Cut(o.vs, ":"); name == "fixed" {
		l, err := env.ParseLineup(strings.TrimPrefix(arg, "lineup="))
		if err != nil {
			return nil, usageError{err}
		}
		ev.fixed = &l
		if r.Modes == [2]env.Mode{} { // the solver's best response is for Basic play
			pol, err := solver.SolveBasic(solver.BasicProblem{Rules: r, Own: l, Opponent: l, Objective: solver.ObjectiveWinDraw})
			if err != nil {
				return nil, err
			}
			ev.best = 0 // ValueFrom covers every kick-off line-up: the best is the best response
			for _, own := range env.AllLineups() {
				ev.best = max(ev.best, pol.ValueFrom(own))
			}
		}
	}
	return ev, nil
}

// greedyPolicy lets solver.Evaluate play an agent on env states.
type greedyPolicy struct{ a agents.Agent }

func (g greedyPolicy) Action(s env.State, p env.Player) (int, error) {
	return g.a.Act(s.Observe(p), s.Legal(p)), nil
}

func (ev *evaluator) evaluate(q *agents.QLearning) (datasets.LearningCurveRow, error) {
	row := datasets.LearningCurveRow{Episodes: int64(q.Episodes), States: int64(q.States()), BestResponse: ev.best, Regret: math.NaN()}
	if ev.fixed != nil {
		keep := solver.Keeping{Lineup: *ev.fixed}
		home, err := solver.Evaluate(greedyPolicy{q}, keep, ev.rules)
		if err != nil {
			return row, err
		}
		away, err := solver.Evaluate(keep, greedyPolicy{q}, ev.rules)
		if err != nil {
			return row, err
		}
		row.Score = (home.Objective(solver.ObjectiveWinDraw, env.Home, ev.rules) + away.Objective(solver.ObjectiveWinDraw, env.Away, ev.rules)) / 2
		row.Exact = true
		row.Regret = ev.best - row.Score
		return row, nil
	}
	sum, sq := 0.0, 0.0
	for i := range ev.matches {
		opp, err := agents.New(ev.spec, agents.Setup{Rules: ev.rules})
		if err != nil {
			return row, err
		}
		if s, ok := opp.(agents.Seeded); ok {
			s.Reset(env.SeededSource(ev.seed^0xe7a1, uint64(i)).Uint64())
		}
		home, away, me := env.Policy(q), env.Policy(opp), env.Home
		if i%2 == 1 {
			home, away, me = opp, q, env.Away
		}
		s, _ := env.NewState(ev.rules)
		end, err := env.Play(s, home, away, env.NewFastSampler(env.SeededSource(ev.seed^0xe7a2, uint64(i))), nil)
		if err != nil {
			return row, err
		}
		v := float64(end.Result(me)+1) / 2
		sum += v
		sq += v * v
	}
	n := float64(ev.matches)
	row.Score = sum / n
	row.ScoreCI = 1.96 * math.Sqrt(max(sq/n-row.Score*row.Score, 0)/n)
	return row, nil
}

func writeCurveTable(w io.Writer, curve []datasets.LearningCurveRow) error {
	t := newTable(w, 0, "episodes", "score", "± 95%", "best response", "regret", "states")
	var rows [][]string
	for _, c := range curve {
		ci, best, regret := "exact", "—", "—"
		if !c.Exact {
			ci = fmt.Sprintf("%.4f", c.ScoreCI)
		}
		if !math.IsNaN(c.BestResponse) {
			best, regret = fmt.Sprintf("%.4f", c.BestResponse), fmt.Sprintf("%.4f", c.Regret)
		}
		rows = append(rows, []string{fmt.Sprint(c.Episodes), fmt.Sprintf("%.4f", c.Score), ci, best, regret, fmt.Sprint(c.States)})
	}
	return appendRows(t, rows)
}

func writeCurvePNG(path string, curve []datasets.LearningCurveRow, vs string) error {
	var score, best, regret plotter.XYs
	for _, c := range curve {
		score = append(score, plotter.XY{X: float64(c.Episodes), Y: c.Score})
		if !math.IsNaN(c.BestResponse) {
			best = append(best, plotter.XY{X: float64(c.Episodes), Y: c.BestResponse})
			regret = append(regret, plotter.XY{X: float64(c.Episodes), Y: c.Regret})
		}
	}
	return lineChart(path, "Q-learning v "+vs+": greedy policy's score (P(win) + ½ P(draw))", "episodes", "score",
		series{"greedy policy", score}, series{"best response (exact)", best}, series{"regret", regret})
}
