// The policies best responses are solved against: a side's stationary strategy, asked at every break.

package game

import "github.com/kingoal/kingoal/env"

// Policy is one side's stationary strategy in Basic-mode Kingoal — its choices a
// function of the break state alone (time, score, both line-ups and moves left) — for
// RespondToPolicies. Deterministic or mixed.
type Policy interface {
	// KickOff is the side's mix of starting line-ups.
	KickOff() ([]env.Weighted, error)
	// Breaks writes the side's mix at each break into mixes[i] (reusing its storage): over
	// line-ups the side can reach with its moves left. The states are seen from home.
	Breaks(side env.Player, states []State, mixes [][]env.Weighted) error
}

// Keeper keeps its line-up at every break (and starts with the first line-up): a stand-in
// on a side whose policy is not measured. The best response to it is then not wanted:
// PolicyProblem.Skip names the other side.
type Keeper struct{}

func (Keeper) KickOff() ([]env.Weighted, error) {
	return []env.Weighted{{Lineup: env.AllLineups()[0], Prob: 1}}, nil
}

func (Keeper) Breaks(side env.Player, states []State, mixes [][]env.Weighted) error {
	for i, s := range states {
		own := s.Home
		if side == env.Away {
			own = s.Away
		}
		mixes[i] = append(mixes[i][:0], env.Weighted{Lineup: own, Prob: 1})
	}
	return nil
}

// DensePolicy is a Policy that answers with a probability for every line-up (a network's
// softmax, a one-hot choice): RespondToPolicies asks it through BreakProbabilities, not
// Breaks, and reads its answers without building mixes of env.Weighted.
type DensePolicy interface {
	Policy
	// BreakProbabilities answers each of states (seen from home) by calling answer once
	// for it, in any order, with probs[l] the probability of line-up index l (env.NumLineups
	// of them, over line-ups the side can reach with its moves left, summing to 1); answer
	// reads probs before it returns, and its error ends the call.
	BreakProbabilities(side env.Player, states []State, answer func(i int, probs []float64) error) error
}
