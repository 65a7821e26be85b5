// A policy's answers at a break as the solver's mix entries (entry index, probability), checked.

package game

import (
	"fmt"
	"math"

	"github.com/kingoal/kingoal/env"
)

// policyEntries is a mix of line-ups played from entry (line-up, moves left) as entries.
func (sp *gameSpace) policyEntries(mix []env.Weighted, entry int, out []mixEntry) ([]mixEntry, error) {
	if err := checkMixSum(mix); err != nil {
		return nil, err
	}
	for _, m := range mix {
		if m.Prob == 0 {
			continue
		}
		if !m.Lineup.Valid() {
			return nil, fmt.Errorf("%v is not a line-up", m.Lineup)
		}
		var err error
		if out, err = sp.playFrom(entry, m.Lineup.Index(), m.Prob, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// denseEntries is a mix by line-up index (DensePolicy's) played from entry as entries.
func (sp *gameSpace) denseEntries(probs []float64, entry int, out []mixEntry) ([]mixEntry, error) {
	if len(probs) != env.NumLineups {
		return nil, fmt.Errorf("%d probabilities, not one a line-up", len(probs))
	}
	w := sp.moves + 1
	from, left := entry/w, entry%w
	costs := sp.cost[from*env.NumLineups:][:len(probs)] // playFrom's test, inline: it runs a line-up a break
	total := 0.0
	for l, p := range probs {
		if p == 0 {
			continue
		}
		if !(p > 0 && p <= 1) {
			return nil, fmt.Errorf("a probability %v", p)
		}
		cost := int(costs[l])
		if cost > left {
			return sp.playFrom(entry, l, p, out) // its error
		}
		out = append(out, mixEntry{int32(l*w + left - cost), p})
		total += p
	}
	if math.Abs(total-1) > 1e-9 {
		return nil, fmt.Errorf("its mix does not sum to 1 (%v)", total)
	}
	return out, nil
}

// playFrom appends line-up index l played with probability p from entry, or an error where
// it is out of the entry's reach.
func (sp *gameSpace) playFrom(entry, l int, p float64, out []mixEntry) ([]mixEntry, error) {
	w := sp.moves + 1
	from, left := entry/w, entry%w
	cost := int(sp.cost[from*env.NumLineups+l])
	if cost > left {
		return nil, fmt.Errorf("it plays %v, %d moves from %v, with %d left", env.LineupAt(l), cost, env.LineupAt(from), left)
	}
	return append(out, mixEntry{int32(l*w + left - cost), p}), nil
}

// checkMixSum: probabilities in [0, 1] summing to 1.
func checkMixSum(mix []env.Weighted) error {
	total := 0.0
	for _, m := range mix {
		if !(m.Prob >= 0 && m.Prob <= 1) {
			return fmt.Errorf("a probability %v", m.Prob)
		}
		total += m.Prob
	}
	if len(mix) == 0 || math.Abs(total-1) > 1e-9 {
		return fmt.Errorf("its mix does not sum to 1 (%v)", total)
	}
	return nil
}
