package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/exploit"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

// runEntry runs one entry, telling measured after each measurement, and returns its rows;
// with zoo set, a learner's final policy goes into that directory with its card.
func runEntry(ctx context.Context, e Entry, zoo string, measured func(datasets.BenchCurveRow)) ([]datasets.BenchCurveRow, error) {
	var rows []datasets.BenchCurveRow
	add := func(r datasets.BenchCurveRow) {
		// the learners measure the score scale's exploitability: every other unit follows
		f := exploit.FiguresOfScoreNashConv(2 * r.ScoreExploitability)
		r.Learner, r.Rules, r.Seed = e.Learner, e.Rules.String(), int64(e.Seed)
		r.OpenSpielNashConv, r.OpenSpielExploitability, r.ScoreNashConv = f.OpenSpielNashConv, f.OpenSpielExploitability, f.ScoreNashConv
		r.Exact = e.Learner != "mcts"
		rows = append(rows, r)
		measured(r)
	}
	var table tabler
	var err error
	switch e.Learner {
	case "solver":
		err = runSolver(ctx, e, add)
	case "qlearning":
		table, err = runQLearning(ctx, e, add)
	case "mcts":
		err = runSearch(ctx, e, add)
	default:
		table, err = runFullWidth(ctx, e, add)
	}
	if err == nil && zoo != "" && table != nil {
		err = keep(ctx, zoo, e, table)
	}
	return rows, err
}

// fullWidth is what a full-width learner does (train.Learner's part the bench needs).
type fullWidth interface {
	Train(ctx context.Context, n int, progress func(agents.FictitiousPoint)) error
	Table(ctx context.Context, name string) (*game.PolicyTable, float64, error)
}

// runFullWidth trains fictitious play, regret matching+ or PSRO for the budget's iterations,
// each point exact as the learner measures it.
func runFullWidth(ctx context.Context, e Entry, add func(datasets.BenchCurveRow)) (tabler, error) {
	var f fullWidth
	var err error
	switch e.Learner {
	case "fictitious":
		f, err = agents.NewFictitious(e.Rules)
	case "regret":
		f, err = agents.NewRegretMatching(e.Rules)
	case "psro":
		f, err = agents.NewPSRO(ctx, e.Rules)
	}
	if err != nil {
		return nil, err
	}
	return f.Table, f.Train(ctx, e.Budget, func(p agents.FictitiousPoint) {
		add(datasets.BenchCurveRow{Iteration: int64(p.Iteration), Passes: int64(p.Passes), Seconds: p.Seconds, ScoreExploitability: p.Exploitability})
	})
}

// runQLearning trains tabular Q-learning in self-play, measuring its greedy policy's exact
// exploitability Points times along the budget (training in steps is training in one call).
func runQLearning(ctx context.Context, e Entry, add func(datasets.BenchCurveRow)) (tabler, error) {
	points := e.Points
	if points <= 0 {
		points = 10
	}
	q := agents.NewQLearning(agents.QConfig{}, e.Rules)
	greedy := func() (agents.Agent, error) { return q, nil }
	var spent time.Duration
	for k := 1; k <= points; k++ {
		began := time.Now()
		if err := q.Train(ctx, agents.TrainConfig{Episodes: e.Budget*k/points - q.Episodes, Seed: e.Seed}); err != nil {
			return nil, err
		}
		spent += time.Since(began)
		x, err := exploit.Measure(ctx, greedy, e.Rules, 0, e.Seed)
		if err != nil {
			return nil, err
		}
		if !x.Exact {
			return nil, fmt.Errorf("the exploitability of Q-learning's policy is not exact under these rules (%s)", x.Method)
		}
		add(datasets.BenchCurveRow{Iteration: int64(k), Samples: int64(q.Episodes), Seconds: spent.Seconds(), ScoreExploitability: x.Value})
	}
	return func(ctx context.Context, name string) (*game.PolicyTable, float64, error) {
		t, x, err := exploit.Tabulate(ctx, greedy, e.Rules, name)
		return t, x.Value, err
	}, nil
}

// runSolver solves the game exactly and verifies it by both best responses: the truth, at
// the solve's time.
func runSolver(ctx context.Context, e Entry, add func(datasets.BenchCurveRow)) error {
	began := time.Now()
	g, err := game.Solve(game.Problem{Rules: e.Rules, Payoff: lineup.ScorePayoff(e.Rules), Context: ctx})
	if err != nil {
		return err
	}
	seconds := time.Since(began).Seconds()
	c, err := game.Verify(ctx, g, nil)
	if err != nil {
		return err
	}
	add(datasets.BenchCurveRow{Iteration: 1, Seconds: seconds, ScoreExploitability: max(c.Exploitability, 0) / 4})
	return nil
}

// runSearch measures simultaneous-move MCTS at the entry's budget (simulations a decision):
// a search is not a table, so its exploitability is estimated — an exploiter's score over
// Points matches (0: 200), a lower bound with its 95% interval.
func runSearch(ctx context.Context, e Entry, add func(datasets.BenchCurveRow)) error {
	matches := e.Points
	if matches <= 0 {
		matches = 200
	}
	spec := fmt.Sprintf("mcts:iters=%d", e.Budget)
	began := time.Now()
	x, err := exploit.Measure(ctx, func() (agents.Agent, error) { return agents.New(spec, agents.Setup{Rules: e.Rules, Context: ctx}) }, e.Rules, matches, max(e.Seed, 1))
	if err != nil {
		return err
	}
	add(datasets.BenchCurveRow{Iteration: 1, Samples: int64(e.Budget), Seconds: time.Since(began).Seconds(), ScoreExploitability: x.Value,
		OpenSpielNashConvCI95: 4 * x.CI}) // x.CI: the score-scale exploitability's; NashConv is twice it, OpenSpiel's twice again
	return nil
}
