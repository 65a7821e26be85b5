package policy

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/internal/induction"
	"github.com/kingoal/kingoal/solver/odds"
)

// This file solves a Basic policy against an opponent who keeps its line-up with the
// throw-by-throw recursion of layers.go (five values a state instead of a convolution over
// the law of the next goal: about t/2 times fewer operations at t throws left), the
// player's line-up and budget in the vector, and one more restriction that changes no
// value: only the own line-ups and budgets reachable from the starting line-up and budget.

// fixedPolicy holds the break values of a policy against a kept line-up.
type fixedPolicy struct {
	*induction.EntryLayout
	// breaks[per][t] holds the breaks with t throws left in period per (nil: none solved).
	breaks  [][]*induction.BreakLayer
	decided func(per, t, d int) bool
	final   func(d int) float64
}

// lookup returns the break value and line-up to play at (per, t, d) for entry e of line-up l.
func (f *fixedPolicy) lookup(per, t, d int, l env.Lineup, m int) (float64, env.Lineup, error) {
	e := f.Entry(l, m)
	if e < 0 {
		return 0, env.Lineup{}, fmt.Errorf("solver: %v with %d moves left is not reachable from the break the policy was solved from", l, m)
	}
	if f.decided(per, t, d) {
		return f.final(d), l, nil // nothing can change the result: keep
	}
	var lay *induction.BreakLayer
	if per < len(f.breaks) && t < len(f.breaks[per]) {
		lay = f.breaks[per][t]
	}
	if lay == nil || d < lay.Lo || d >= lay.Lo+len(lay.Value)/f.Size {
		return 0, env.Lineup{}, fmt.Errorf("solver: a difference of %d with %d throws left is not reachable from the break the policy was solved from", d, t)
	}
	i := (d-lay.Lo)*f.Size + e
	return lay.Value[i], env.LineupAt(int(lay.Target[i])), nil
}

// breakCount is the number of breaks held.
func (f *fixedPolicy) breakCount() int {
	n := 0
	for _, per := range f.breaks {
		for _, lay := range per {
			if lay != nil {
				n += len(lay.Value) / f.Size
			}
		}
	}
	return n
}

// layerSolver holds solveFixed's working state.
type layerSolver struct {
	*induction.Layers
	s *basicSolver
	f *fixedPolicy
}

// solveFixed solves against the kept line-up Opponent, from the break from, or the whole
// match (every break) when from is nil.
func (s *basicSolver) solveFixed(from *BreakState) (*BasicPolicy, error) {
	bp := s.pol
	ls := &layerSolver{s: s, Layers: &induction.Layers{R: s.r, Lengths: bp.lengths, MaxDiff: bp.maxDiff, Final: s.final, Ctx: s.ctx, Consts: map[float64][]float64{}}}
	var start BreakState
	if from == nil {
		ls.Whole = true
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
	ls.From = induction.BreakStart{Period: start.Period, ThrowsLeft: start.ThrowsLeft, GoalDiff: start.GoalDiff}
	ls.f = &fixedPolicy{decided: ls.Decided, final: func(d int) float64 { return s.final(d, false) }}
	if ls.Whole {
		ls.f.EntryLayout = s.layout
	} else {
		ls.f.EntryLayout = induction.NewEntryLayout(start.Own, min(start.MovesLeft, bp.moves), bp.moves, s.neighbours)
	}
	ls.Size = ls.f.Size
	ls.sectors()
	ls.Step = ls.breaks
	if err := ls.Run(); err != nil {
		return nil, err
	}
	ls.f.breaks = ls.Layers.Breaks
	bp.fixed = ls.f
	if ls.Whole {
		bp.kickoff = ls.Kickoff
		own := ls.f.Entry(bp.Problem.Own, 0)
		bp.value, bp.noChange = ls.Kickoff[own+bp.moves], ls.Kickoff[own]
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
	ls.MoveTables(p)
	for b := 1; b <= env.Sectors; b++ {
		for k := range ls.Coef[b] {
			ls.Coef[b][k] = make([]float64, f.Size)
		}
	}
	for l := range env.NumLineups {
		if f.Offset[l] < 0 {
			continue
		}
		home, away := env.LineupAt(l), ls.s.pol.Problem.Opponent
		if p == env.Away {
			home, away = away, home
		}
		st := odds.NewSectorTable(home, away, ls.R.TiesCount)
		for b := 1; b <= env.Sectors; b++ {
			win, lose := st.Win[b][p], st.Win[b][p.Other()]
			for e := int(f.Offset[l]); e <= int(f.Offset[l])+int(f.Top[l]); e++ {
				ls.Coef[b][0][e], ls.Coef[b][1][e] = win, lose
				if ls.R.TiesCount {
					ls.Coef[b][2][e] = 1 - win - lose
				}
			}
		}
	}
}

// breaks computes the breaks of a layer: at each, the best line-up reachable within the
// budget, one single move at a time — W(l, m) = max(K(l, m), W(n, m−1) for one-move
// neighbours n), where K is the value from the kick-off that follows.
func (ls *layerSolver) breaks(_, _ int, u *induction.BallLayer) (*induction.BreakLayer, error) {
	f := ls.f
	lay := &induction.BreakLayer{Lo: u.Lo, Value: make([]float64, u.N*f.Size), Target: make([]uint8, u.N*f.Size)}
	for d := u.Lo; d < u.Lo+u.N; d++ {
		k, _ := ls.Ball(u, d, env.KickOffSector)
		base := (d - u.Lo) * f.Size
		wv, wt := lay.Value[base:base+f.Size], lay.Target[base:base+f.Size]
		f.BestWithin(k, wv, wt)
	}
	return lay, nil
}
