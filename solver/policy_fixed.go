package solver

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
)

// This file solves a Basic policy against an opponent who keeps its line-up, layer by layer:
// all states with t throws left in a period depend only on those with t−1 left, so the
// values are computed bottom-up in t, for every goal difference at once, with the ball's
// sector in the state (five values a state instead of a convolution over the law of the next
// goal: about t/2 times fewer operations at t throws left). Three restrictions keep it small
// without changing a value:
//   - only the goal differences reachable from the starting break (a goal takes
//     throwsToScore() throws from a kick-off);
//   - a difference the goals still possible cannot change the value of (the trailing side
//     cannot level it; under P(win), the player cannot win any more) is decided: its value
//     is the final one, and no line-up is worth changing for;
//   - only the own line-ups and budgets reachable from the starting line-up and budget.

// fixedPolicy holds the break values of a policy against a kept line-up.
type fixedPolicy struct {
	*entryLayout
	// breaks[per][t] holds the breaks with t throws left in period per (nil: none solved).
	breaks  [][]*breakLayer
	decided func(per, t, d int) bool
	final   func(d int) float64
}

// breakLayer is the breaks with the same time for differences lo..lo+n−1: entry
// (d−lo)*size+i of value and target.
type breakLayer struct {
	lo     int
	value  []float64
	target []uint8
}

// lookup returns the break value and line-up to play at (per, t, d) for entry e of line-up l.
func (f *fixedPolicy) lookup(per, t, d int, l env.Lineup, m int) (float64, env.Lineup, error) {
	e := f.entry(l, m)
	if e < 0 {
		return 0, env.Lineup{}, fmt.Errorf("solver: %v with %d moves left is not reachable from the break the policy was solved from", l, m)
	}
	if f.decided(per, t, d) {
		return f.final(d), l, nil // nothing can change the result: keep
	}
	var lay *breakLayer
	if per < len(f.breaks) && t < len(f.breaks[per]) {
		lay = f.breaks[per][t]
	}
	if lay == nil || d < lay.lo || d >= lay.lo+len(lay.value)/f.size {
		return 0, env.Lineup{}, fmt.Errorf("solver: a difference of %d with %d throws left is not reachable from the break the policy was solved from", d, t)
	}
	i := (d-lay.lo)*f.size + e
	return lay.value[i], env.LineupAt(int(lay.target[i])), nil
}

// breakCount is the number of breaks held.
func (f *fixedPolicy) breakCount() int {
	n := 0
	for _, per := range f.breaks {
		for _, lay := range per {
			if lay != nil {
				n += len(lay.value) / f.size
			}
		}
	}
	return n
}

// layerSolver holds solveFixed's working state.
type layerSolver struct {
	*basicSolver
	f       *fixedPolicy
	from    BreakState // the starting break (the kick-off for a whole match)
	whole   bool       // every difference up to maxDiff, every line-up and budget
	coef    [env.Sectors + 1][3][]float64
	own     [env.Sectors + 1]ballMove // where the player's winning throw takes the ball
	opp     [env.Sectors + 1]ballMove // where the opponent's does
	consts  map[float64][]float64
	free    []*ballLayer // two ball layers, reused
	kickoff []float64    // K at the match's kick-off (whole match only)
}

// solveFixed solves against the kept line-up Opponent, from the break from, or the whole
// match (every break) when from is nil.
func (s *basicSolver) solveFixed(from *BreakState) (*BasicPolicy, error) {
	bp := s.pol
	ls := &layerSolver{basicSolver: s, consts: map[float64][]float64{}}
	if from == nil {
		ls.whole = true
		ls.from = BreakState{Period: env.FirstHalf, ThrowsLeft: bp.lengths[0], Own: bp.Problem.Own, MovesLeft: bp.moves}
	} else {
		ls.from = *from
		per := int(from.Period) - int(env.FirstHalf)
		switch {
		case per < 0 || per >= len(bp.lengths) || from.ThrowsLeft < 1 || from.ThrowsLeft > bp.lengths[per]:
			return nil, fmt.Errorf("solver: From: no break in %s with %d throws left under these rules", from.Period, from.ThrowsLeft)
		case from.GoalDiff < -bp.maxDiff || from.GoalDiff > bp.maxDiff || !from.Own.Valid() || from.MovesLeft < 0:
			return nil, fmt.Errorf("solver: From: difference %d, line-up %v, %d moves: not a break of this match", from.GoalDiff, from.Own, from.MovesLeft)
		}
	}
	ls.f = &fixedPolicy{decided: ls.decided, final: func(d int) float64 { return s.final(d, false) }}
	if ls.whole {
		ls.f.entryLayout = s.layout
	} else {
		ls.f.entryLayout = newEntryLayout(ls.from.Own, min(ls.from.MovesLeft, bp.moves), bp.moves, s.neighbours)
	}
	ls.sectors()
	if err := ls.run(); err != nil {
		return nil, err
	}
	bp.fixed = ls.f
	if ls.whole {
		bp.kickoff = ls.kickoff
		own := ls.f.entry(bp.Problem.Own, 0)
		bp.value, bp.noChange = ls.kickoff[own+bp.moves], ls.kickoff[own]
		return bp, nil
	}
	per, f := int(from.Period)-int(env.FirstHalf), *from
	m := min(f.MovesLeft, bp.moves)
	var err error
	if bp.value, _, err = ls.f.lookup(per, f.ThrowsLeft, f.GoalDiff, f.Own, m); err != nil {
		return nil, err
	}
	bp.noChange, _, err = ls.f.lookup(per, f.ThrowsLeft, f.GoalDiff, f.Own, 0)
	return bp, err
}

// sectors reads env's throw odds and ball movement into per-entry coefficients: for the
// ball in home sector b, [0] the player wins the throw, [1] the opponent does, [2] a tie that
// counts (ties-count only).
func (ls *layerSolver) sectors() {
	p, f := ls.pol.Problem.Player, ls.f
	for b := 1; b <= env.Sectors; b++ {
		for k := range ls.coef[b] {
			ls.coef[b][k] = make([]float64, f.size)
		}
	}
	for l := range env.NumLineups {
		if f.offset[l] < 0 {
			continue
		}
		home, away := env.LineupAt(l), ls.pol.Problem.Opponent
		if p == env.Away {
			home, away = away, home
		}
		st := newSectorTable(home, away, ls.r.TiesCount)
		for b := 1; b <= env.Sectors; b++ {
			win, lose := st.win[b][p], st.win[b][p.Other()]
			ls.own[b].next, ls.own[b].scores = st.next[b][p], st.scores[b][p]
			ls.opp[b].next, ls.opp[b].scores = st.next[b][p.Other()], st.scores[b][p.Other()]
			for e := int(f.offset[l]); e <= int(f.offset[l])+int(f.top[l]); e++ {
				ls.coef[b][0][e], ls.coef[b][1][e] = win, lose
				if ls.r.TiesCount {
					ls.coef[b][2][e] = 1 - win - lose
				}
			}
		}
	}
}

// remaining is the most throws left from (per, t): the rest of this period and every later
// one a level score could lead to.
func (ls *layerSolver) remaining(per, t int) int {
	for _, n := range ls.pol.lengths[per+1:] {
		t += n
	}
	return t
}

// decided reports whether the result's value with difference d and t throws left in period
// per is known already: whatever the goals still to come (mostGoals a side), the final value
// is the same.
func (ls *layerSolver) decided(per, t, d int) bool {
	most := mostGoals(ls.remaining(per, t))
	if ls.r.Knockout && d-most <= 0 && d+most >= 0 {
		return false // a level score plays on
	}
	// The final value is monotone in the difference: constant over the reachable ones when
	// equal at both ends.
	return ls.final(d-most, false) == ls.final(d+most, false)
}

// span is the range of differences solved with t throws left in period per (lo > hi: none).
func (ls *layerSolver) span(per, t int) (lo, hi int) {
	g := ls.pol.maxDiff
	if !ls.whole { // goals since the starting break
		fp := int(ls.from.Period) - int(env.FirstHalf)
		elapsed := ls.remaining(fp, ls.from.ThrowsLeft) - ls.remaining(per, t)
		g = elapsed / throwsToScore()
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
func (ls *layerSolver) constant(v float64) []float64 {
	c, ok := ls.consts[v]
	if !ok {
		c = make([]float64, ls.f.size)
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

func (ls *layerSolver) ball(u *ballLayer, d, b int) []float64 {
	if d < u.lo || d >= u.lo+u.n {
		return ls.constant(ls.final(d, false)) // decided, or never reached
	}
	i := ((d-u.lo)*env.Sectors + b - 1) * ls.f.size
	return u.v[i : i+ls.f.size]
}

// afterGoal is the value vector once a goal leaves difference d with t throws left in
// period per: the break there, or the end of the period.
func (ls *layerSolver) afterGoal(per, t, d int) []float64 {
	if t == 0 {
		return ls.endOf(per, d)
	}
	lay := ls.f.breaks[per][t]
	if lay == nil || d < lay.lo || d >= lay.lo+len(lay.value)/ls.f.size {
		return ls.constant(ls.final(d, false))
	}
	i := (d - lay.lo) * ls.f.size
	return lay.value[i : i+ls.f.size]
}

// endOf is the value vector at the end of period per with difference d: the break before
// the next period, or the end of the match.
func (ls *layerSolver) endOf(per, d int) []float64 {
	next := ls.r.AfterPeriod(env.FirstHalf+env.Period(per), d == 0)
	if next == env.FullTime || next == env.Penalties {
		return ls.constant(ls.endValue(per, d))
	}
	np := int(next - env.FirstHalf)
	return ls.afterGoal(np, ls.pol.lengths[np], d)
}

// run solves every period from the last to the starting one.
func (ls *layerSolver) run() error {
	bp := ls.pol
	fp := int(ls.from.Period) - int(env.FirstHalf)
	ls.f.breaks = make([][]*breakLayer, len(bp.lengths))
	ls.free = []*ballLayer{{}, {}}
	last := func(per int) int {
		if per == fp {
			return ls.from.ThrowsLeft
		}
		return bp.lengths[per]
	}
	for per := len(bp.lengths) - 1; per >= fp; per-- {
		last := last(per)
		ls.f.breaks[per] = make([]*breakLayer, last+1)
		prev := ls.free[1]
		prev.n = 0
		for t := 1; t <= last; t++ {
			if t%8 == 0 {
				if err := ls.ctx.Err(); err != nil {
					return err
				}
			}
			cur := ls.throwLayer(per, t, prev)
			ls.f.breaks[per][t] = ls.breaks(cur)
			if ls.whole && per == 0 && t == last {
				k := ls.ball(cur, 0, env.KickOffSector)
				ls.kickoff = append([]float64(nil), k...)
			}
			prev = cur
		}
	}
	return nil
}

// throwLayer computes U_t from U_{t−1} (prev) and the breaks with t−1 left: one throw with
// the ball in each sector, for each difference.
func (ls *layerSolver) throwLayer(per, t int, prev *ballLayer) *ballLayer {
	lo, hi := ls.span(per, t)
	n := max(hi-lo+1, 0)
	u := ls.free[0]
	if u == prev {
		u = ls.free[1]
	}
	u.lo, u.n = lo, n
	if need := n * env.Sectors * ls.f.size; cap(u.v) < need {
		u.v = make([]float64, need)
	} else {
		u.v = u.v[:need]
	}
	for d := lo; d <= hi; d++ {
		for b := 1; b <= env.Sectors; b++ {
			win, lose := ls.next(per, t, d, prev, ls.own[b], +1), ls.next(per, t, d, prev, ls.opp[b], -1)
			out := ls.ball(u, d, b)
			cw, cl := ls.coef[b][0][:len(out)], ls.coef[b][1][:len(out)]
			win, lose = win[:len(out)], lose[:len(out)]
			for i := range out {
				out[i] = cw[i]*win[i] + cl[i]*lose[i]
			}
			if ls.r.TiesCount {
				same := ls.endOf(per, d) // a tie on the last throw ends the period
				if t > 1 {
					same = ls.ball(prev, d, b)
				}
				ct, same := ls.coef[b][2][:len(out)], same[:len(out)]
				for i := range out {
					out[i] += ct[i] * same[i]
				}
			}
		}
	}
	return u
}

// next is the value vector after a throw won by one side (sign +1: the player, −1: the
// opponent) with the ball in b: a goal's break or the ball one sector on.
func (ls *layerSolver) next(per, t, d int, prev *ballLayer, mv ballMove, sign int) []float64 {
	if mv.scores {
		return ls.afterGoal(per, t-1, d+sign)
	}
	if t == 1 {
		return ls.endOf(per, d)
	}
	return ls.ball(prev, d, mv.next)
}

// breaks computes the breaks of a layer: at each, the best line-up reachable within the
// budget, one single move at a time — W(l, m) = max(K(l, m), W(n, m−1) for one-move
// neighbours n), where K is the value from the kick-off that follows.
func (ls *layerSolver) breaks(u *ballLayer) *breakLayer {
	f := ls.f
	lay := &breakLayer{lo: u.lo, value: make([]float64, u.n*f.size), target: make([]uint8, u.n*f.size)}
	for d := u.lo; d < u.lo+u.n; d++ {
		k := ls.ball(u, d, env.KickOffSector)
		base := (d - u.lo) * f.size
		wv, wt := lay.value[base:base+f.size], lay.target[base:base+f.size]
		f.bestWithin(k, wv, wt)
	}
	return lay
}

// ballMove is where a won throw takes the ball: the next sector, or a goal.
type ballMove struct {
	next   int
	scores bool
}
