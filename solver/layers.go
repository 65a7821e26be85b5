package solver

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
type layers struct {
	r       env.Rules
	lengths []int // throws of each period a match may play
	maxDiff int   // the largest goal difference possible
	size    int   // entries of a value vector
	// final values a match over with difference d (own − opponent), or a shoot-out.
	final func(d int, shootout bool) float64
	// additive: the value is the difference plus a part that does not depend on it (goal
	// difference in a league), so only d = 0 is held and a goal shifts the value by ±1.
	additive bool
	ctx      context.Context
	coef     [env.Sectors + 1][3][]float64 // per entry, ball in b: [0] the player (home) wins the throw, [1] the opponent does, [2] a tie that counts
	own      [env.Sectors + 1]ballMove     // where the player's winning throw takes the ball
	opp      [env.Sectors + 1]ballMove     // where the opponent's does
	from     breakStart                    // the starting break
	whole    bool                          // every difference up to maxDiff
	// step turns the values with t throws left (ball anywhere) into the breaks with t left.
	step func(per, t int, u *ballLayer) (*breakLayer, error)
	// breaks[per][t] holds the breaks with t throws left in period per (nil: none solved).
	breaks [][]*breakLayer
	consts map[float64][]float64
	free   []*ballLayer // two ball layers, reused
	// kickoff is the values at the match's kick-off (whole match only).
	kickoff []float64
}

// breakStart is where a recursion starts: a break's time and goal difference.
type breakStart struct {
	Period     env.Period
	ThrowsLeft int
	GoalDiff   int
}

// breakLayer is the breaks with the same time for differences lo..lo+n−1: entry
// (d−lo)*size+i of value (and of target, for a policy).
type breakLayer struct {
	lo     int
	value  []float64
	target []uint8
}

// ballMove is where a won throw takes the ball: the next sector, or a goal.
type ballMove struct {
	next   int
	scores bool
}

// moveTables fills own and opp from env.MoveBall for the player p.
func (ls *layers) moveTables(p env.Player) {
	for b := 1; b <= env.Sectors; b++ {
		ls.own[b].next, ls.own[b].scores = env.MoveBall(b, p)
		ls.opp[b].next, ls.opp[b].scores = env.MoveBall(b, p.Other())
	}
}

// endValue is the constant value of a match over after period per with difference d.
func (ls *layers) endValue(per, d int) float64 {
	if ls.r.AfterPeriod(env.FirstHalf+env.Period(per), d == 0) == env.Penalties {
		return ls.final(0, true)
	}
	return ls.final(d, false)
}

// remaining is the most throws left from (per, t): the rest of this period and every later
// one a level score could lead to.
func (ls *layers) remaining(per, t int) int {
	for _, n := range ls.lengths[per+1:] {
		t += n
	}
	return t
}

// decided reports whether the result's value with difference d and t throws left in period
// per is known already: whatever the goals still to come (odds.MostGoals a side), the final value
// is the same.
func (ls *layers) decided(per, t, d int) bool {
	most := odds.MostGoals(ls.remaining(per, t))
	if ls.additive || ls.r.Knockout && d-most <= 0 && d+most >= 0 {
		return false // a level score plays on
	}
	// The final value is monotone in the difference: constant over the reachable ones when
	// equal at both ends.
	return ls.final(d-most, false) == ls.final(d+most, false)
}

// span is the range of differences solved with t throws left in period per (lo > hi: none).
func (ls *layers) span(per, t int) (lo, hi int) {
	if ls.additive {
		return 0, 0
	}
	g := ls.maxDiff
	if !ls.whole { // goals since the starting break
		fp := int(ls.from.Period) - int(env.FirstHalf)
		elapsed := ls.remaining(fp, ls.from.ThrowsLeft) - ls.remaining(per, t)
		g = elapsed / odds.ThrowsToScore()
		lo, hi = ls.from.GoalDiff-g, ls.from.GoalDiff+g
	} else {
		lo, hi = -g, g
	}
	for lo <= hi && ls.decided(per, t, lo) {
		lo++
	}
	for hi >= lo && ls.decided(per, t, hi) {
		hi--
	}
	return lo, hi
}

// constant returns a vector holding v everywhere (shared, read-only).
func (ls *layers) constant(v float64) []float64 {
	c, ok := ls.consts[v]
	if !ok {
		c = make([]float64, ls.size)
		for i := range c {
			c[i] = v
		}
		ls.consts[v] = c
	}
	return c
}

// ballLayer is U_t: the values with t throws left for differences lo..lo+n−1, ball in each
// sector, at entry ((d−lo)*Sectors + b−1)*size + i.
type ballLayer struct {
	lo, n int
	v     []float64
}

// shifted splits difference d into the one held and the value it adds: in an additive
// recursion d = 0 is held and d is added.
func (ls *layers) shifted(d int) (held int, add float64) {
	if ls.additive {
		return 0, float64(d)
	}
	return d, 0
}

// ball is the vector with difference d, ball in b, and the value to add to it.
func (ls *layers) ball(u *ballLayer, d, b int) ([]float64, float64) {
	d, add := ls.shifted(d)
	if d < u.lo || d >= u.lo+u.n {
		return ls.constant(ls.final(d, false)), add // decided, or never reached
	}
	i := ((d-u.lo)*env.Sectors + b - 1) * ls.size
	return u.v[i : i+ls.size], add
}

// afterGoal is the value vector (and what to add to it) once a goal leaves difference d
// with t throws left in period per: the break there, or the end of the period.
func (ls *layers) afterGoal(per, t, d int) ([]float64, float64) {
	if t == 0 {
		return ls.endOf(per, d)
	}
	d, add := ls.shifted(d)
	lay := ls.breaks[per][t]
	if lay == nil || d < lay.lo || d >= lay.lo+len(lay.value)/ls.size {
		return ls.constant(ls.final(d, false)), add
	}
	i := (d - lay.lo) * ls.size
	return lay.value[i : i+ls.size], add
}

// endOf is the value vector at the end of period per with difference d: the break before
// the next period, or the end of the match.
func (ls *layers) endOf(per, d int) ([]float64, float64) {
	next := ls.r.AfterPeriod(env.FirstHalf+env.Period(per), d == 0)
	if next == env.FullTime || next == env.Penalties {
		held, add := ls.shifted(d)
		return ls.constant(ls.endValue(per, held)), add
	}
	np := int(next - env.FirstHalf)
	return ls.afterGoal(np, ls.lengths[np], d)
}

// run solves every period from the last to the starting one.
func (ls *layers) run() error {
	fp := int(ls.from.Period) - int(env.FirstHalf)
	ls.breaks = make([][]*breakLayer, len(ls.lengths))
	ls.free = []*ballLayer{{}, {}}
	for per := len(ls.lengths) - 1; per >= fp; per-- {
		last := ls.lengths[per]
		if per == fp {
			last = ls.from.ThrowsLeft
		}
		ls.breaks[per] = make([]*breakLayer, last+1)
		prev := ls.free[1]
		prev.n = 0
		for t := 1; t <= last; t++ {
			if err := ls.ctx.Err(); err != nil {
				return err
			}
			cur := ls.throwLayer(per, t, prev)
			lay, err := ls.step(per, t, cur)
			if err != nil {
				return err
			}
			ls.breaks[per][t] = lay
			if ls.whole && per == 0 && t == last {
				k, _ := ls.ball(cur, 0, env.KickOffSector)
				ls.kickoff = append([]float64(nil), k...)
			}
			prev = cur
		}
	}
	return nil
}

// throwLayer computes U_t from U_{t−1} (prev) and the breaks with t−1 left: one throw with
// the ball in each sector, for each difference.
func (ls *layers) throwLayer(per, t int, prev *ballLayer) *ballLayer {
	lo, hi := ls.span(per, t)
	n := max(hi-lo+1, 0)
	u := ls.free[0]
	if u == prev {
		u = ls.free[1]
	}
	u.lo, u.n = lo, n
	if need := n * env.Sectors * ls.size; cap(u.v) < need {
		u.v = make([]float64, need)
	} else {
		u.v = u.v[:need]
	}
	for d := lo; d <= hi; d++ {
		for b := 1; b <= env.Sectors; b++ {
			win, aw := ls.next(per, t, d, prev, ls.own[b], +1)
			lose, al := ls.next(per, t, d, prev, ls.opp[b], -1)
			out, _ := ls.ball(u, d, b)
			cw, cl := ls.coef[b][0][:len(out)], ls.coef[b][1][:len(out)]
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
			if ls.r.TiesCount {
				same, as := ls.endOf(per, d) // a tie on the last throw ends the period
				if t > 1 {
					same, as = ls.ball(prev, d, b)
				}
				ct, same := ls.coef[b][2][:len(out)], same[:len(out)]
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
func (ls *layers) next(per, t, d int, prev *ballLayer, mv ballMove, sign int) ([]float64, float64) {
	if mv.scores {
		return ls.afterGoal(per, t-1, d+sign)
	}
	if t == 1 {
		return ls.endOf(per, d)
	}
	return ls.ball(prev, d, mv.next)
}
