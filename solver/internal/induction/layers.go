package induction

import (
	"context"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/odds"
)

// This file is the backward recursion over throws that the policy against a kept line-up
// (policy_fixed.go) and the substitution game (game.go) share: all states with t throws
// left in a period depend only on those with t−1 left, so values go bottom-up in t for
// every goal difference at once, with the ball's sector in the state. A state's value is a
// vector: one entry per configuration the caller tracks (own line-up and budget; both
// sides' for the game). What happens at a break — a move search, a matrix game per
// configuration — is the caller's step. Two restrictions keep it small without changing a
// value:
//   - only the goal differences reachable from the starting break (a goal takes
//     ThrowsToScore() throws from a kick-off);
//   - a difference the goals still possible cannot change the value of (the trailing side
//     cannot level it; under P(win), the player cannot win any more) is decided: its value
//     is the final one, and no line-up is worth changing for.

// layers holds the recursion's working state and its results, the break values.
type Layers struct {
	R       env.Rules
	Lengths []int // throws of each period a match may play
	MaxDiff int   // the largest goal difference possible
	Size    int   // entries of a value vector
	// final values a match over with difference d (own − opponent), or a shoot-out.
	Final func(d int, shootout bool) float64
	// additive: the value is the difference plus a part that does not depend on it (goal
	// difference in a league), so only d = 0 is held and a goal shifts the value by ±1.
	Additive bool
	Ctx      context.Context
	Coef     [env.Sectors + 1][3][]float64 // per entry, ball in b: [0] the player (home) wins the throw, [1] the opponent does, [2] a tie that counts
	Own      [env.Sectors + 1]BallMove     // where the player's winning throw takes the ball
	Opp      [env.Sectors + 1]BallMove     // where the opponent's does
	From     BreakStart                    // the starting break
	Whole    bool                          // every difference up to maxDiff
	// step turns the values with t throws left (ball anywhere) into the breaks with t left.
	Step func(per, t int, u *BallLayer) (*BreakLayer, error)
	// breaks[per][t] holds the breaks with t throws left in period per (nil: none solved).
	Breaks [][]*BreakLayer
	Consts map[float64][]float64
	Free   []*BallLayer // two ball layers, reused
	// kickoff is the values at the match's kick-off (whole match only).
	Kickoff []float64
}

// BreakStart is where a recursion starts: a break's time and goal difference.
type BreakStart struct {
	Period     env.Period
	ThrowsLeft int
	GoalDiff   int
}

// BreakLayer is the breaks with the same time for differences lo..lo+n−1: entry
// (d−lo)*size+i of value (and of target, for a policy).
type BreakLayer struct {
	Lo     int
	Value  []float64
	Target []uint8
}

// BallMove is where a won throw takes the ball: the next sector, or a goal.
type BallMove struct {
	Next   int
	Scores bool
}

// MoveTables fills own and opp from env.MoveBall for the player p.
func (ls *Layers) MoveTables(p env.Player) {
	for b := 1; b <= env.Sectors; b++ {
		ls.Own[b].Next, ls.Own[b].Scores = env.MoveBall(b, p)
		ls.Opp[b].Next, ls.Opp[b].Scores = env.MoveBall(b, p.Other())
	}
}

// EndValue is the constant value of a match over after period per with difference d.
func (ls *Layers) EndValue(per, d int) float64 {
	if ls.R.AfterPeriod(env.FirstHalf+env.Period(per), d == 0) == env.Penalties {
		return ls.Final(0, true)
	}
	return ls.Final(d, false)
}

// Remaining is the most throws left from (per, t): the rest of this period and every later
// one a level score could lead to.
func (ls *Layers) Remaining(per, t int) int {
	for _, n := range ls.Lengths[per+1:] {
		t += n
	}
	return t
}

// decided reports whether the result's value with difference d and t throws left in period
// per is known already: whatever the goals still to come (odds.MostGoals a side), the final value
// is the same.
func (ls *Layers) Decided(per, t, d int) bool {
	most := odds.MostGoals(ls.Remaining(per, t))
	if ls.Additive || ls.R.Knockout && d-most <= 0 && d+most >= 0 {
		return false // a level score plays on
	}
	// The final value is monotone in the difference: constant over the reachable ones when
	// equal at both ends.
	return ls.Final(d-most, false) == ls.Final(d+most, false)
}

// span is the range of differences solved with t throws left in period per (lo > hi: none).
func (ls *Layers) Span(per, t int) (lo, hi int) {
	if ls.Additive {
		return 0, 0
	}
	g := ls.MaxDiff
	if !ls.Whole { // goals since the starting break
		fp := int(ls.From.Period) - int(env.FirstHalf)
		elapsed := ls.Remaining(fp, ls.From.ThrowsLeft) - ls.Remaining(per, t)
		g = elapsed / odds.ThrowsToScore()
		lo, hi = ls.From.GoalDiff-g, ls.From.GoalDiff+g
	} else {
		lo, hi = -g, g
	}
	for lo <= hi && ls.Decided(per, t, lo) {
		lo++
	}
	for hi >= lo && ls.Decided(per, t, hi) {
		hi--
	}
	return lo, hi
}

// Constant returns a vector holding v everywhere (shared, read-only).
func (ls *Layers) Constant(v float64) []float64 {
	c, ok := ls.Consts[v]
	if !ok {
		c = make([]float64, ls.Size)
		for i := range c {
			c[i] = v
		}
		ls.Consts[v] = c
	}
	return c
}

// BallLayer is U_t: the values with t throws left for differences lo..lo+n−1, ball in each
// sector, at entry ((d−lo)*Sectors + b−1)*size + i.
type BallLayer struct {
	Lo, N int
	v     []float64
}

// shifted splits difference d into the one held and the value it adds: in an additive
// recursion d = 0 is held and d is added.
func (ls *Layers) Shifted(d int) (held int, add float64) {
	if ls.Additive {
		return 0, float64(d)
	}
	return d, 0
}

// ball is the vector with difference d, ball in b, and the value to add to it.
func (ls *Layers) Ball(u *BallLayer, d, b int) ([]float64, float64) {
	d, add := ls.Shifted(d)
	if d < u.Lo || d >= u.Lo+u.N {
		return ls.Constant(ls.Final(d, false)), add // decided, or never reached
	}
	i := ((d-u.Lo)*env.Sectors + b - 1) * ls.Size
	return u.v[i : i+ls.Size], add
}

// afterGoal is the value vector (and what to add to it) once a goal leaves difference d
// with t throws left in period per: the break there, or the end of the period.
func (ls *Layers) afterGoal(per, t, d int) ([]float64, float64) {
	if t == 0 {
		return ls.endOf(per, d)
	}
	d, add := ls.Shifted(d)
	lay := ls.Breaks[per][t]
	if lay == nil || d < lay.Lo || d >= lay.Lo+len(lay.Value)/ls.Size {
		return ls.Constant(ls.Final(d, false)), add
	}
	i := (d - lay.Lo) * ls.Size
	return lay.Value[i : i+ls.Size], add
}

// endOf is the value vector at the end of period per with difference d: the break before
// the next period, or the end of the match.
func (ls *Layers) endOf(per, d int) ([]float64, float64) {
	next := ls.R.AfterPeriod(env.FirstHalf+env.Period(per), d == 0)
	if next == env.FullTime || next == env.Penalties {
		held, add := ls.Shifted(d)
		return ls.Constant(ls.EndValue(per, held)), add
	}
	np := int(next - env.FirstHalf)
	return ls.afterGoal(np, ls.Lengths[np], d)
}

// run solves every period from the last to the starting one.
func (ls *Layers) Run() error {
	fp := int(ls.From.Period) - int(env.FirstHalf)
	ls.Breaks = make([][]*BreakLayer, len(ls.Lengths))
	ls.Free = []*BallLayer{{}, {}}
	for per := len(ls.Lengths) - 1; per >= fp; per-- {
		last := ls.Lengths[per]
		if per == fp {
			last = ls.From.ThrowsLeft
		}
		ls.Breaks[per] = make([]*BreakLayer, last+1)
		prev := ls.Free[1]
		prev.N = 0
		for t := 1; t <= last; t++ {
			if err := ls.Ctx.Err(); err != nil {
				return err
			}
			cur := ls.throwLayer(per, t, prev)
			lay, err := ls.Step(per, t, cur)
			if err != nil {
				return err
			}
			ls.Breaks[per][t] = lay
			if ls.Whole && per == 0 && t == last {
				k, _ := ls.Ball(cur, 0, env.KickOffSector)
				ls.Kickoff = append([]float64(nil), k...)
			}
			prev = cur
		}
	}
	return nil
}

// throwLayer computes U_t from U_{t−1} (prev) and the breaks with t−1 left: one throw with
// the ball in each sector, for each difference.
func (ls *Layers) throwLayer(per, t int, prev *BallLayer) *BallLayer {
	lo, hi := ls.Span(per, t)
	n := max(hi-lo+1, 0)
	u := ls.Free[0]
	if u == prev {
		u = ls.Free[1]
	}
	u.Lo, u.N = lo, n
	if need := n * env.Sectors * ls.Size; cap(u.v) < need {
		u.v = make([]float64, need)
	} else {
		u.v = u.v[:need]
	}
	for d := lo; d <= hi; d++ {
		for b := 1; b <= env.Sectors; b++ {
			win, aw := ls.next(per, t, d, prev, ls.Own[b], +1)
			lose, al := ls.next(per, t, d, prev, ls.Opp[b], -1)
			out, _ := ls.Ball(u, d, b)
			cw, cl := ls.Coef[b][0][:len(out)], ls.Coef[b][1][:len(out)]
			win, lose = win[:len(out)], lose[:len(out)]
			if aw == 0 && al == 0 {
				for i := range out {
					out[i] = cw[i]*win[i] + cl[i]*lose[i]
				}
			} else {
				for i := range out {
					out[i] = cw[i]*(win[i]+aw) + cl[i]*(lose[i]+al)
				}
			}
			if ls.R.TiesCount {
				same, as := ls.endOf(per, d) // a tie on the last throw ends the period
				if t > 1 {
					same, as = ls.Ball(prev, d, b)
				}
				ct, same := ls.Coef[b][2][:len(out)], same[:len(out)]
				for i := range out {
					out[i] += ct[i] * (same[i] + as)
				}
			}
		}
	}
	return u
}

// next is the value vector (and what to add to it) after a throw won by one side (sign +1:
// the player, −1: the opponent) with the ball in b: a goal's break or the ball one sector on.
func (ls *Layers) next(per, t, d int, prev *BallLayer, mv BallMove, sign int) ([]float64, float64) {
	if mv.Scores {
		return ls.afterGoal(per, t-1, d+sign)
	}
	if t == 1 {
		return ls.endOf(per, d)
	}
	return ls.Ball(prev, d, mv.Next)
}
