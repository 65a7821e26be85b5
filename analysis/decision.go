// One decision judged: the choice's payoffs against the other side's equilibrium mix.

package analysis

import (
	"context"
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
)

// decisions judges each side that chose at the decision event ev (index i).
func decisions(ctx context.Context, g *game.Game, i int, ev env.Event, names [2]string) ([]Decision, error) {
	s := ev.Before
	var value float64
	var mixes [2][]env.Weighted
	switch s.Decision() {
	case env.KickOff:
		k := g.KickOff()
		value, mixes = k.Value, [2][]env.Weighted{k.Home, k.Away}
	case env.Break:
		sol, err := g.At(game.StateOf(s))
		if err != nil {
			return nil, err
		}
		value, mixes = sol.Value, [2][]env.Weighted{sol.Home, sol.Away}
	default:
		return nil, fmt.Errorf("%w (%s)", ErrDynamic, s.Decision())
	}
	before := "the kick-off"
	if s.Decision() == env.Break {
		before = game.StateOf(s).String()
	}
	var out []Decision
	for p := env.Home; p <= env.Away; p++ {
		if s.Decision() == env.Break && !s.Acting(p) {
			continue
		}
		chose := env.LineupAt(ev.Joint[p])
		other := mixes[p.Other()]
		theirs := make([]env.Lineup, len(other))
		for j, w := range other {
			theirs[j] = w.Lineup
		}
		homes, aways := []env.Lineup{chose}, theirs
		if p == env.Away {
			homes, aways = theirs, []env.Lineup{chose}
		}
		c, err := g.ChoiceValues(ctx, s, homes, aways)
		if err != nil {
			return nil, err
		}
		got := 0.0
		for j, w := range other {
			if p == env.Home {
				got += w.Prob * c[0][j]
			} else {
				got += w.Prob * c[j][0]
			}
		}
		loss := value - got
		if p == env.Away {
			loss = -loss
		}
		loss = max(loss, 0) // ≥ 0 up to rounding: the mixes are an equilibrium
		points := PointsOf(g.Problem.Payoff, loss)
		out = append(out, Decision{Event: i, Kind: s.Decision().String(), Side: p.String(), Agent: names[p], Before: before, Time: timeOf(s), Score: scoreOf(s),
			Chose: chose.String(), Mix: weightsOf(mixes[p]), Value: value, Got: got, Loss: loss, Points: points, Grade: GradeOf(points)})
	}
	return out, nil
}

func weightsOf(m []env.Weighted) []Weight {
	out := make([]Weight, len(m))
	for i, w := range m {
		out[i] = Weight{Lineup: w.Lineup.String(), Prob: w.Prob}
	}
	return out
}
