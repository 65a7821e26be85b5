package agents

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
)

// Heuristic is hand-written play: it declares a balanced line-up and keeps it, except late
// in the match (the last Late fraction of regular time, and all of extra time), when it moves
// one counter forward at each break or shift while behind and one counter back while ahead.
type Heuristic struct {
	Lineup env.Lineup
	Late   float64
}

func buildHeuristic(p params, _ Setup) (Agent, error) {
	l, err := env.ParseLineup(p["lineup"])
	if err != nil {
		return nil, err
	}
	late, err := p.float("late")
	if err != nil || late < 0 || late > 1 {
		return nil, fmt.Errorf("late=%q: want a fraction in [0, 1]", p["late"])
	}
	return Heuristic{l, late}, nil
}

// attack is Σ sector × counters: higher means more counters further forward.
func attack(l env.Lineup) int {
	s := 0
	for k, n := range l.Counts() {
		s += (k + 1) * n
	}
	return s
}

// Act implements the rule above; every choice is a legal action.
func (h Heuristic) Act(obs env.Observation, legal env.Mask) int {
	if obs.Decision == env.KickOff {
		return h.Lineup.Index()
	}
	keep := obs.Own.Index()
	left := obs.ThrowsLeft
	if obs.Period == env.FirstHalf {
		left += obs.HalfThrows
	}
	late := obs.Period >= env.ExtraFirst || float64(left) <= h.Late*float64(2*obs.HalfThrows)
	diff := obs.OwnGoals - obs.OppGoals
	if !late || diff == 0 {
		return keep
	}
	best, bestScore := keep, attack(obs.Own)
	if diff > 0 {
		bestScore = -bestScore
	}
	for _, a := range legal.Actions() {
		to := env.LineupAt(a)
		if obs.Own.Moves(to) > 1 {
			continue // one counter at a time
		}
		score := attack(to)
		if diff > 0 {
			score = -score
		}
		if score > bestScore {
			best, bestScore = a, score
		}
	}
	return best
}
