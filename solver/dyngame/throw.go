// One difference of a layer of Solve: the throws (each side's win, maybe its shift,
// and a tie), the break before the kick-off, and each Dynamic side's shift into both.

package dyngame

import (
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/internal/induction"
)

// difference solves the layer's difference lo+dd: its throws, its break and the shifts
// into both.
func (s *dynSolver) difference(per, t int, lay *dynLayer, dec *dynDecisions, dd int) {
	sp, n, row := s.sp, s.sp.configs, s.row
	d := lay.lo + dd
	for b := 1; b <= env.Sectors; b++ {
		for slot := range sp.poss {
			i := ((dd*env.Sectors+b-1)*sp.poss + slot) * row
			s.throw(per, t, d, b, slot, lay.throws[i:i+row])
		}
	}
	kick := lay.throws[((dd*env.Sectors+env.KickOffSector-1)*sp.poss)*row:][:row]
	brk := lay.breaks[dd*row : (dd+1)*row]
	if p, ok := sp.basicSide(); ok {
		s.decide(p, kick, brk, dec.brk[dd*n:(dd+1)*n])
	} else {
		copy(brk, kick)
	}
	for p := env.Home; p <= env.Away; p++ {
		if sp.modes[p] != env.Dynamic {
			continue
		}
		slot := sp.possSlot(p, true)
		for b := 1; b <= env.Sectors; b++ {
			i := (dd*env.Sectors + b - 1)
			src := lay.throws[((dd*env.Sectors+b-1)*sp.poss+slot)*row:][:row]
			s.decide(p, src, lay.shifted[p][i*row:(i+1)*row], dec.shift[p][i*n:(i+1)*n])
		}
		s.decide(p, brk, lay.breakShifted[p][dd*row:(dd+1)*row], dec.breakShift[p][dd*n:(dd+1)*n])
	}
}

// throw writes the values before a throw with t throws left in period per, difference d,
// ball b and possession slot into out.
func (s *dynSolver) throw(per, t, d, b, slot int, out []float64) {
	sp, ls := s.sp, s.ls
	last, possessed := sp.possessionOf(slot)
	mayShift := func(p env.Player) bool { return ls.R.EarnsShift(p, last, possessed) }
	win, aw := s.afterWin(per, t, d, ls.Own[b], env.Home, mayShift(env.Home))
	lose, al := s.afterWin(per, t, d, ls.Opp[b], env.Away, mayShift(env.Away))
	var same []float64
	var as float64
	if ls.R.TiesCount {
		same, as = s.afterTie(per, t, d, b, slot)
	}
	n := sp.configs
	cw, cl, ct := s.coef[b][0], s.coef[b][1], s.coef[b][2]
	for k := range s.parts {
		o, w, l := out[k*n:(k+1)*n], win[k*n:(k+1)*n], lose[k*n:(k+1)*n]
		for c := range o {
			o[c] = cw[c]*(w[c]+aw) + cl[c]*(l[c]+al)
		}
		if same != nil {
			m := same[k*n : (k+1)*n]
			for c := range o {
				o[c] += ct[c] * (m[c] + as)
			}
		}
	}
}

// afterWin is the row (and what to add to it) right after side p wins the throw with t
// throws left, moving the ball by mv: p's shift made if it may shift.
func (s *dynSolver) afterWin(per, t, d int, mv induction.BallMove, p env.Player, shift bool) ([]float64, float64) {
	if mv.Scores {
		d += 1 - 2*int(p)
	}
	if mv.Scores || t == 1 {
		return s.breakRow(per, t-1, d, p, shift)
	}
	held, add := s.ls.Shifted(d)
	lay := s.prev
	if held < lay.lo || held >= lay.lo+lay.n {
		return s.constant(s.ls.Final(held, false)), add
	}
	dd := held - lay.lo
	if shift {
		i := (dd*env.Sectors + mv.Next - 1) * s.row
		return lay.shifted[p][i : i+s.row], add
	}
	i := ((dd*env.Sectors+mv.Next-1)*s.sp.poss + s.sp.possSlot(p, true)) * s.row
	return lay.throws[i : i+s.row], add
}

// afterTie is the row after a tie that counts: the same ball and possession, or the end of
// the period.
func (s *dynSolver) afterTie(per, t, d, b, slot int) ([]float64, float64) {
	if t == 1 {
		return s.breakRow(per, 0, d, 0, false)
	}
	held, add := s.ls.Shifted(d)
	lay := s.prev
	if held < lay.lo || held >= lay.lo+lay.n {
		return s.constant(s.ls.Final(held, false)), add
	}
	i := (((held-lay.lo)*env.Sectors+b-1)*s.sp.poss + slot) * s.row
	return lay.throws[i : i+s.row], add
}

// breakRow is the row at the break with t throws left in period per and difference d (t =
// 0: the end of the period — the next period's first break, or the match's end), after p's
// shift if shift.
func (s *dynSolver) breakRow(per, t, d int, p env.Player, shift bool) ([]float64, float64) {
	ls := s.ls
	held, add := ls.Shifted(d)
	lay := s.prev
	if t == 0 {
		next := ls.R.AfterPeriod(env.FirstHalf+env.Period(per), d == 0)
		if next == env.FullTime || next == env.Penalties {
			return s.constant(ls.EndValue(per, held)), add
		}
		lay = s.starts[int(next-env.FirstHalf)]
	}
	if held < lay.lo || held >= lay.lo+lay.n {
		return s.constant(ls.Final(held, false)), add
	}
	i := (held - lay.lo) * s.row
	if shift {
		return lay.breakShifted[p][i : i+s.row], add
	}
	return lay.breaks[i : i+s.row], add
}

// constant is ls.constant for the workers.
func (s *dynSolver) constant(v float64) []float64 {
	s.consts.Lock()
	defer s.consts.Unlock()
	return s.ls.Constant(v)
}

// decide writes into dst the values once side p, at each configuration, plays its best
// option by the game's values in src (home the largest, away the smallest; the first — keep
// — unless another gains more than induction.ChangeTolerance), and the choice into choice (Verify:
// plays the choice given there). With the check, p's own best response takes its best option
// by its own values, and the other side's best response meets p's choice.
func (s *dynSolver) decide(p env.Player, src, dst []float64, choice []uint8) {
	sp, n := s.sp, s.sp.configs
	sign := 1.0
	if p == env.Away {
		sign = -1
	}
	own := 1 + int(p) // p's best response's part
	for c := range n {
		k := sp.optionCount(p, c)
		if s.p.Keep[p] {
			k = 1
		}
		arg, best := 0, sign*src[c]
		if s.given != nil { // Verify: the strategy's own choice
			arg = int(choice[c])
		} else {
			for i := 1; i < k; i++ {
				if v := sign * src[sp.option(p, c, i)]; v > best+induction.ChangeTolerance {
					arg, best = i, v
				}
			}
			choice[c] = uint8(arg)
		}
		chosen := sp.option(p, c, arg)
		dst[c] = src[chosen]
		if s.parts == 1 {
			continue
		}
		other := 3 - own
		dst[other*n+c] = src[other*n+chosen]
		bestOwn := sign * src[own*n+c]
		for i := 1; i < k; i++ {
			bestOwn = max(bestOwn, sign*src[own*n+sp.option(p, c, i)])
		}
		dst[own*n+c] = sign * bestOwn
	}
}
