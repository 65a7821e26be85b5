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

// runEntry runs one entry, telling measured after each measurement, and returns its rows.
func runEntry(ctx context.Context, e Entry, measured func(datasets.BenchCurveRow)) ([]datasets.BenchCurveRow, error) {
	var rows []datasets.BenchCurveRow
	add := func(r datasets.BenchCurveRow) {
		r.Learner, r.Rules, r.Seed, r.NashConv = e.Learner, e.Rules.String(), int64(e.Seed), 2*r.Exploitability
		rows = append(rows, r)
		measured(r)
	}
	var err error
	switch e.Learner {
	case "solver":
		err = runSolver(ctx, e, add)
	case "qlearning":
		err = runQLearning(ctx, e, add)
	default:
		err = runFullWidth(ctx, e, add)
	}
	return rows, err
}

// fullWidth is what a full-width learner does (train.Learner's part the bench needs).
type fullWidth interface {
	Train(ctx context.Context, n int, progress func(agents.FictitiousPoint)) error
}

// runFullWidth trains fictitious play, regret matching+ or PSRO for the budget's iterations,
// each point exact as the learner measures it.
func runFullWidth(ctx context.Context, e Entry, add func(datasets.BenchCurveRow)) error {
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
		return err
	}
	return f.Train(ctx, e.Budget, func(p agents.FictitiousPoint) {
		add(datasets.BenchCurveRow{Iteration: int64(p.Iteration), Passes: int64(p.Passes), Seconds: p.Seconds, Exploitability: p.Exploitability})
	})
}

// runQLearning trains tabular Q-learning in self-play, measuring its greedy policy's exact
// exploitability Points times along the budget (training in steps is training in one call).
func runQLearning(ctx context.Context, e Entry, add func(datasets.BenchCurveRow)) error {
	points := e.Points
	if points <= 0 {
		points = 10
	}
	q := agents.NewQLearning(agents.QConfig{}, e.Rules)
	var spent time.Duration
	for k := 1; k <= points; k++ {
		began := time.Now()
		if err := q.Train(ctx, agents.TrainConfig{Episodes: e.Budget*k/points - q.Episodes, Seed: e.Seed}); err != nil {
			return err
		}
		spent += time.Since(began)
		x, err := exploit.Measure(ctx, func() (agents.Agent, error) { return q, nil }, e.Rules, 0, e.Seed)
		if err != nil {
			return err
		}
		if !x.Exact {
			return fmt.Errorf("the exploitability of Q-learning's policy is not exact under these rules (%s)", x.Method)
		}
		add(datasets.BenchCurveRow{Iteration: int64(k), Samples: int64(q.Episodes), Seconds: spent.Seconds(), Exploitability: x.Value})
	}
	return nil
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
	add(datasets.BenchCurveRow{Iteration: 1, Seconds: seconds, Exploitability: max(c.Exploitability, 0) / 4})
	return nil
}
