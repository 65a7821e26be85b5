package odds

import (
	"errors"
	"fmt"

	"github.com/kingoal/kingoal/env"
)

// KeptValues values match states when both line-ups are kept to the end: home's expected
// result, win +1, draw 0, loss −1, a shoot-out counted by its odds — what MCTS needs at a
// leaf instead of a random rollout. It caches each pair's full-period laws, so reuse one
// for many states; it is not safe for concurrent use.
type KeptValues struct {
	Rules env.Rules
	laws  map[keptKey][]float64 // goal-difference law of a whole period from kick-off
}

type keptKey struct {
	home, away uint8
	length     int
}

// NewKeptValues returns a KeptValues for r.
func NewKeptValues(r env.Rules) (*KeptValues, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return &KeptValues{Rules: r, laws: map[keptKey][]float64{}}, nil
}

// maxKeptLaws bounds the cache (each law is a few hundred bytes).
const maxKeptLaws = 1 << 16

// Value returns home's expected result from s, a state in play (a decision or chance node
// before the shoot-out) with both line-ups declared, if neither changes again. Dynamic
// shifts are not modelled: for a Dynamic player it is the value of never shifting.
func (k *KeptValues) Value(s env.State) (float64, error) {
	home, away := s.Lineup(env.Home), s.Lineup(env.Away)
	switch {
	case s.Node() == env.Terminal:
		return float64(s.Result(env.Home)), nil
	case !home.Valid() || !away.Valid():
		return 0, errors.New("solver: kept value: the line-ups are not declared yet")
	case s.Period() < env.FirstHalf || s.Period() > env.ExtraSecond:
		return 0, fmt.Errorf("solver: kept value: no play in %s", s.Period())
	}
	diff, mid, _, _ := diffFrom(home, away, k.Rules.TiesCount, s.ThrowsLeft(), s.Ball())
	// The final difference is the current one plus the period's: pad both sides by |d0| so
	// the array stays centred.
	d0 := s.Goals(env.Home) - s.Goals(env.Away)
	final := make([]float64, len(diff)+2*abs(d0))
	copy(final[d0+abs(d0):], diff)
	return k.finish(home, away, s.Period(), final, mid+abs(d0))
}

func abs(x int) int { return max(x, -x) }

// finish values the goal differences dist (index mid = level) at the end of period per.
func (k *KeptValues) finish(home, away env.Lineup, per env.Period, dist []float64, mid int) (float64, error) {
	v, rest := 0.0, []float64(nil)
	next := env.FullTime
	for i, p := range dist {
		if p == 0 {
			continue
		}
		d := i - mid
		switch n := k.Rules.AfterPeriod(per, d == 0); n {
		case env.FullTime:
			v += p * float64(Sign(d))
		case env.Penalties:
			so, err := ShootoutLaw()
			if err != nil {
				return 0, err
			}
			v += p * (2*so.Home - 1)
		default:
			if rest == nil {
				rest = make([]float64, len(dist))
			}
			rest[i], next = p, n
		}
	}
	if rest == nil {
		return v, nil
	}
	law := k.periodLaw(home, away, k.Rules.PeriodLength(next))
	after, err := k.finish(home, away, next, convolveDiff(rest, law), mid+len(law)/2)
	return v + after, err
}

// periodLaw is the goal-difference law of a whole period of n throws from kick-off.
func (k *KeptValues) periodLaw(home, away env.Lineup, n int) []float64 {
	key := keptKey{uint8(home.Index()), uint8(away.Index()), n}
	if law, ok := k.laws[key]; ok {
		return law
	}
	if len(k.laws) >= maxKeptLaws {
		clear(k.laws)
	}
	law, _, _ := periodDiff(home, away, k.Rules.TiesCount, n)
	k.laws[key] = law
	return law
}

func Sign(d int) int {
	switch {
	case d > 0:
		return 1
	case d < 0:
		return -1
	}
	return 0
}
