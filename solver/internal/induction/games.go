package induction

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
)

// GameFinal is home's payoff at the end of a match with difference d, or a shoot-out.
func GameFinal(p lineup.Payoff) (func(d int, shootout bool) float64, error) {
	switch p {
	case lineup.PayoffWinLoss:
		return func(d int, _ bool) float64 { return float64(odds.Sign(d)) }, nil
	case lineup.PayoffGoalDiff:
		return func(d int, _ bool) float64 { return float64(d) }, nil
	case lineup.PayoffAdvance:
		so, err := odds.ShootoutLaw()
		if err != nil {
			return nil, err
		}
		return func(d int, shootout bool) float64 {
			if shootout {
				return 2*so.Home - 1
			}
			return float64(odds.Sign(d))
		}, nil
	}
	return nil, fmt.Errorf("solver: the substitution game is solved for payoff win-loss, goal-diff or advance, not %s", p)
}

// GameLayers is the throw recursion's setup for the game under r and payoff p: the
// differences a match can reach from its kick-off (every difference up to the most
// possible with whole, as the reference solve holds), the score dropped under goal-diff in
// a league.
func GameLayers(r env.Rules, p lineup.Payoff, final func(d int, shootout bool) float64, whole bool) *Layers {
	lengths, total := odds.PeriodLengths(r)
	return &Layers{R: r, Lengths: lengths, MaxDiff: total/odds.ThrowsToScore() + 1, Final: final, Whole: whole,
		Additive: p == lineup.PayoffGoalDiff && !r.Knockout, From: BreakStart{Period: env.FirstHalf, ThrowsLeft: lengths[0]}}
}

// OnWorkers runs share(0) … share(workers−1) at once and waits for them: ctx's error once if
// it ended, else every share's error.
func OnWorkers(ctx context.Context, workers int, share func(w int) error) error {
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[w] = share(w)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err // once, not once per worker
	}
	return errors.Join(errs...)
}
