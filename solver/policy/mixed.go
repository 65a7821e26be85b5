package policy

import (
	"fmt"
	"math"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/internal/induction"
	"github.com/kingoal/kingoal/solver/zerosum"
)

// mixedBlock solves the break (per, t, d) against an opponent in configuration c who draws
// its next line-up from OpponentBreaks (Drawing): for each own line-up and budget, the mix the opponent
// plays there (it sees them), then the best own line-up reachable within the budget against
// that mix — the expectation over the draw is taken before the choice, since the player
// cannot see the draw. The opponent's configurations' kick-off values are computed once.
func (s *basicSolver) mixedBlock(b *block, per, t, d int, c oppConfig) {
	bp := s.pol
	w := bp.moves + 1
	if s.reach == nil {
		s.reach = induction.ReachLists(bp.moves)
	}
	kicks := map[oppConfig][]float64{}
	kick := func(oc oppConfig) []float64 {
		k, ok := kicks[oc]
		if !ok {
			k = s.kick(per, t, d, oc)
			kicks[oc] = k
		}
		return k
	}
	cur := env.LineupAt(int(c.lineup))
	type draw struct {
		k []float64
		p float64
	}
	var mix []draw
	for i := range env.NumLineups * w {
		mix = mix[:0]
		if c.moves == 0 {
			mix = append(mix, draw{kick(c), 1})
		} else {
			ws, err := bp.Problem.OpponentBreaks.mix.Mix(BreakState{Period: env.FirstHalf + env.Period(per), ThrowsLeft: t, GoalDiff: -d, Own: cur,
				MovesLeft: int(c.moves), OppLineup: env.LineupAt(i / w), OppMovesLeft: i % w})
			if err == nil {
				err = checkDraws(ws, cur, int(c.moves))
			}
			if err != nil {
				s.err = fmt.Errorf("solver: opponent mix at %s, %d left, from %v: %w", env.FirstHalf+env.Period(per), t, cur, err)
				return
			}
			for _, x := range ws {
				mix = append(mix, draw{kick(oppConfig{uint8(x.Lineup.Index()), c.moves - uint8(cur.Moves(x.Lineup))}), x.Prob})
			}
		}
		value := func(j int32) float64 {
			v := 0.0
			for _, x := range mix {
				v += x.p * x.k[j]
			}
			return v
		}
		list := s.reach[i]
		k, v := induction.BestKeepingTies(len(list), func(k int) float64 { return value(list[k]) })
		b.value[i], b.target[i] = v, uint8(int(list[k])/w)
	}
}

// checkDraws checks that a mix is a probability law over line-ups reachable from cur within
// moves.
func checkDraws(ws []env.Weighted, cur env.Lineup, moves int) error {
	sum := 0.0
	for _, x := range ws {
		if !x.Lineup.Valid() || cur.Moves(x.Lineup) > moves || !(x.Prob >= 0) {
			return fmt.Errorf("%v with probability %v is not a choice within %d moves", x.Lineup, x.Prob, moves)
		}
		sum += x.Prob
	}
	if math.Abs(sum-1) > zerosum.VerifyTol {
		return fmt.Errorf("the probabilities sum to %v", sum)
	}
	return nil
}
