package solver

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/odds"
)

// This file solves a Basic policy against an opponent who keeps its line-up with the
// throw-by-throw recursion of layers.go (five values a state instead of a convolution over
// the law of the next goal: about t/2 times fewer operations at t throws left), the
// player's line-up and budget in the vector, and one more restriction that changes no
// value: only the own line-ups and budgets reachable from the starting line-up and budget.

// fixedPolicy holds the break values of a policy against a kept line-up.
type fixedPolicy struct {
	*entryLayout
	// breaks[per][t] holds the breaks with t throws left in period per (nil: none solved).
	breaks  [][]*breakLayer
	decided func(per, t, d int) bool
	final   func(d int) float64
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
	*layers
	s *basicSolver
	f *fixedPolicy
}

// solveFixed solves against the kept line-up Opponent, from the break from, or the whole
// match (every break) when from is nil.
func (s *basicSolver) solveFixed(from *BreakState) (*BasicPolicy, error) {
	bp := s.pol
	ls := &layerSolver{s: s, layers: &layers{r: s.r, lengths: bp.lengths, maxDiff: bp.maxDiff, final: s.final, ctx: s.ctx, consts: map[float64][]float64{}}}
	var start BreakState
	if from == nil {
		ls.whole = true
		start = BreakState{Period: env.FirstHalf, ThrowsLeft: bp.lengths[0], Own: bp.Problem.Own, MovesLeft: bp.moves}
	} else {
		start = *from
		per := int(from.Period) - int(env.FirstHalf)
		switch {
		case per < 0 || per >= len(bp.lengths) || from.ThrowsLeft < 1 || from.ThrowsLeft > bp.lengths[per]:
			return nil, fmt.Errorf("solver: From: no break in %s with %d throws left under these rules", from.Period, from.ThrowsLeft)
		case from.GoalDiff < -bp.maxDiff || from.GoalDiff > bp.maxDiff || !from.Own.Valid() || from.MovesLeft < 0:
			return nil, fmt.Errorf("solver: From: difference %d, line-up %v, %d moves: not a break of this match", from.GoalDiff, from.Own, from.MovesLeft)
		}
	}
	ls.from = breakStart{Period: start.Period, ThrowsLeft: start.ThrowsLeft, GoalDiff: start.GoalDiff}
	ls.f = &fixedPolicy{decided: ls.decided, final: func(d int) float64 { return s.final(d, false) }}
	if ls.whole {
		ls.f.entryLayout = s.layout
	} else {
		ls.f.entryLayout = newEntryLayout(start.Own, min(start.MovesLeft, bp.moves), bp.moves, s.neighbours)
	}
	ls.size = ls.f.size
	ls.sectors()
	ls.step = ls.breaks
	if err := ls.run(); err != nil {
		return nil, err
	}
	ls.f.breaks = ls.layers.breaks
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

// sectors reads env's throw odds into per-entry coefficients: for the ball in home sector
// b, [0] the player wins the throw, [1] the opponent does, [2] a tie that counts
// (ties-count only).
func (ls *layerSolver) sectors() {
	p, f := ls.s.pol.Problem.Player, ls.f
	ls.moveTables(p)
	for b := 1; b <= env.Sectors; b++ {
		for k := range ls.coef[b] {
			ls.coef[b][k] = make([]float64, f.size)
		}
	}
	for l := range env.NumLineups {
		if f.offset[l] < 0 {
			continue
		}
		home, away := env.LineupAt(l), ls.s.pol.Problem.Opponent
		if p == env.Away {
			home, away = away, home
		}
		st := odds.NewSectorTable(home, away, ls.r.TiesCount)
		for b := 1; b <= env.Sectors; b++ {
			win, lose := st.Win[b][p], st.Win[b][p.Other()]
			for e := int(f.offset[l]); e <= int(f.offset[l])+int(f.top[l]); e++ {
				ls.coef[b][0][e], ls.coef[b][1][e] = win, lose
				if ls.r.TiesCount {
					ls.coef[b][2][e] = 1 - win - lose
				}
			}
		}
	}
}

// breaks computes the breaks of a layer: at each, the best line-up reachable within the
// budget, one single move at a time — W(l, m) = max(K(l, m), W(n, m−1) for one-move
// neighbours n), where K is the value from the kick-off that follows.
func (ls *layerSolver) breaks(_, _ int, u *ballLayer) (*breakLayer, error) {
	f := ls.f
	lay := &breakLayer{lo: u.lo, value: make([]float64, u.n*f.size), target: make([]uint8, u.n*f.size)}
	for d := u.lo; d < u.lo+u.n; d++ {
		k, _ := ls.ball(u, d, env.KickOffSector)
		base := (d - u.lo) * f.size
		wv, wt := lay.value[base:base+f.size], lay.target[base:base+f.size]
		f.bestWithin(k, wv, wt)
	}
	return lay, nil
}
