// A solved Basic policy: what to do at any break, and what it is worth.

package policy

import (
	"errors"
	"fmt"
	"math"

	"github.com/kingoal/kingoal/env"
)

// BasicPolicy is an optimal Basic policy: Best says what to do at any break, Value what it
// is worth. It is read-only after SolveBasic and safe for concurrent use.
type BasicPolicy struct {
	Problem  BasicProblem
	lengths  []int
	maxDiff  int
	moves    int                 // own budget, capped at 5 (no change costs more)
	blocks   map[blockKey]*block // against an opponent policy
	fixed    *fixedPolicy        // against a kept line-up
	start    oppConfig
	kickoff  []float64 // value from kick-off by starting line-up and budget
	value    float64
	noChange float64
}

// breakLimit is the most breaks the solve may hold.
func (p *BasicPolicy) breakLimit() int {
	if m := p.Problem.MaxBreaks; m > 0 && m < maxPolicyBlocks {
		return m
	}
	return maxPolicyBlocks
}

// Value is the policy's value from kick-off (no break before the first throw), or from
// Problem.From.
func (p *BasicPolicy) Value() float64 { return p.value }

// NoChangeValue is the value of never moving.
func (p *BasicPolicy) NoChangeValue() float64 { return p.noChange }

// ValueFrom is the policy's value had the player started with line-up l instead of
// Problem.Own (the same solve covers every starting line-up): the maximum over l is the
// best response's value, kick-off choice included.
// It is NaN for a policy solved From a break.
func (p *BasicPolicy) ValueFrom(l env.Lineup) float64 {
	if p.kickoff == nil {
		return math.NaN()
	}
	return p.kickoff[l.Index()*(p.moves+1)+p.moves]
}

// Breaks returns how many breaks the policy holds (a measure of its size).
func (p *BasicPolicy) Breaks() int {
	if p.fixed != nil {
		return p.fixed.breakCount()
	}
	return len(p.blocks)
}

// lookup returns the value at the break s and the line-up to play there.
func (p *BasicPolicy) lookup(s BreakState) (float64, env.Lineup, error) {
	per := int(s.Period) - int(env.FirstHalf)
	switch {
	case per < 0 || per >= len(p.lengths):
		return 0, env.Lineup{}, fmt.Errorf("solver: no break in period %s under these rules", s.Period)
	case s.ThrowsLeft < 1 || s.ThrowsLeft > p.lengths[per]:
		return 0, env.Lineup{}, fmt.Errorf("solver: %d throws left in a %d-throw period", s.ThrowsLeft, p.lengths[per])
	case s.GoalDiff < -p.maxDiff || s.GoalDiff > p.maxDiff:
		return 0, env.Lineup{}, fmt.Errorf("solver: goal difference %d out of range", s.GoalDiff)
	case !s.Own.Valid():
		return 0, env.Lineup{}, errors.New("solver: invalid line-up")
	case s.MovesLeft < 0:
		return 0, env.Lineup{}, fmt.Errorf("solver: %d moves left", s.MovesLeft)
	}
	if p.fixed != nil {
		return p.fixed.lookup(per, s.ThrowsLeft, s.GoalDiff, s.Own, min(s.MovesLeft, p.moves))
	}
	c := p.start
	if p.Problem.adaptive() {
		if !s.OppLineup.Valid() || s.OppMovesLeft < 0 {
			return 0, env.Lineup{}, errors.New("solver: this policy answers against an opponent policy: give OppLineup and OppMovesLeft")
		}
		c = oppConfig{uint8(s.OppLineup.Index()), uint8(s.OppMovesLeft)}
	}
	b, ok := p.blocks[blockKey{int16(per), int16(s.ThrowsLeft), int16(s.GoalDiff), c}]
	if !ok {
		return 0, env.Lineup{}, fmt.Errorf("solver: break not reachable against the opponent's policy (%s, %d left, difference %d, opponent %s with %d moves)",
			s.Period, s.ThrowsLeft, s.GoalDiff, s.OppLineup, s.OppMovesLeft)
	}
	i := s.Own.Index()*(p.moves+1) + min(s.MovesLeft, p.moves)
	return b.value[i], env.LineupAt(int(b.target[i])), nil
}

// Best returns the line-up to play after the break s (s.Own to keep it).
func (p *BasicPolicy) Best(s BreakState) (env.Lineup, error) {
	_, to, err := p.lookup(s)
	return to, err
}

// ValueAt returns the optimal value at the break s, before deciding.
func (p *BasicPolicy) ValueAt(s BreakState) (float64, error) {
	v, _, err := p.lookup(s)
	return v, err
}
