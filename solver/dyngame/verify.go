// Checking a strategy read from a table again: both best responses to it, by the solve's own recursion with its decisions given.

package dyngame

import (
	"context"
	"fmt"
	"math"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
)

// Verify checks g's strategy — typically read from a table (Load), whose check was the solve's
// — again: the same backward induction as Solve with the check, but every decision the
// strategy's own instead of the best, so the first value is the strategy pair's and the other
// two each side's best response to the other's strategy. It also requires the pair's kick-off
// values to be the ones g holds (1e-9): a table whose decisions and values disagree is
// refused. progress, if set, is called after each layer.
func Verify(ctx context.Context, g *Game, progress func(done, total int)) (game.Check, error) {
	p := game.Problem{Rules: g.Problem.Rules, Payoff: g.Problem.Payoff, Context: ctx, Verify: true, Progress: progress}
	size, err := Estimate(p.Rules, p.Payoff)
	if err != nil {
		return game.Check{}, err
	}
	if err := p.Fits(size.Peak(true), fmt.Sprintf("checking the game with a Dynamic side under these rules holds %d throw states", size.ThrowStates)); err != nil {
		return game.Check{}, err
	}
	s, err := newDynSolver(p, false)
	if err != nil {
		return game.Check{}, err
	}
	s.given = g
	if err := s.run(); err != nil {
		return game.Check{}, err
	}
	first := s.starts[0]
	if first == nil || first.lo > 0 || first.lo+first.n <= 0 {
		return game.Check{}, errNoKickOff
	}
	sp := s.sp
	k := first.throws[(((0-first.lo)*env.Sectors+env.KickOffSector-1)*sp.poss)*s.row:][:s.row]
	at := func(part, i, j int) float64 {
		return k[part*sp.configs+sp.config(sp.entry(env.Home, env.LineupAt(i), sp.moves), sp.entry(env.Away, env.LineupAt(j), sp.moves))]
	}
	for i := range env.NumLineups {
		for j := range env.NumLineups {
			if v := at(0, i, j); !(math.Abs(v-g.kickValues[i][j]) <= 1e-9) {
				return game.Check{}, fmt.Errorf("solver: the strategy's kick-off value at %v v %v is %v, the game holds %v: its decisions and values disagree",
					env.LineupAt(i), env.LineupAt(j), v, g.kickValues[i][j])
			}
		}
	}
	return game.KickOffReplies(g.kickOff.X, g.kickOff.Y, func(i, j int) float64 { return at(1, i, j) }, func(i, j int) float64 { return at(2, i, j) }), nil
}
