// One layer of breaks of the substitution game's backward induction: every stage game of the layer on all workers, the mirror images, and the best responses riding along.

package game

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/internal/induction"
	"github.com/kingoal/kingoal/solver/odds"
)

// sectors fills the throw coefficients of every configuration from env's throw odds.
func (gs *gameSolver) sectors() { gameSectors(gs.Layers, gs.space) }

// gameSectors fills ls's throw coefficients for value vectors made of copies of the
// configurations of sp (ls.size / sp.configs() of them: the game's values, or both best
// responses side by side).
func gameSectors(ls *induction.Layers, sp *gameSpace) {
	ls.MoveTables(env.Home)
	for b := 1; b <= env.Sectors; b++ {
		for k := range ls.Coef[b] {
			if k < 2 || ls.R.TiesCount {
				ls.Coef[b][k] = make([]float64, ls.Size)
			}
		}
	}
	w, n := sp.moves+1, sp.configs()
	for lh := range env.NumLineups {
		for la := range env.NumLineups {
			st := odds.NewSectorTable(env.LineupAt(lh), env.LineupAt(la), ls.R.TiesCount)
			for mh := range w {
				for ma := range w {
					for c := (lh*w+mh)*sp.entries + la*w + ma; c < ls.Size; c += n {
						setThrowOdds(ls, c, &st.Win)
					}
				}
			}
		}
	}
}

// setThrowOdds sets entry c's throw coefficients to the line-ups' odds (odds.NewSectorTable's
// Win: each side's chance to win the throw, ball in each sector).
func setThrowOdds(ls *induction.Layers, c int, odds *[env.Sectors + 1][2]float64) {
	for b := 1; b <= env.Sectors; b++ {
		win, lose := odds[b][env.Home], odds[b][env.Away]
		ls.Coef[b][0][c], ls.Coef[b][1][c] = win, lose
		if ls.R.TiesCount {
			ls.Coef[b][2][c] = 1 - win - lose
		}
	}
}

// breaks is the layer step: it keeps K, the values from the kick-off, and solves the stage
// game of every configuration at every difference, on all workers.
func (gs *gameSolver) breaks(per, t int, u *induction.BallLayer) (*induction.BreakLayer, error) {
	n := gs.space.configs()
	kl := &kickLayer{lo: u.Lo, n: u.N}
	if !gs.g.Problem.Stream || per == 0 && t == gs.Lengths[0] {
		kl.k = make([]float64, u.N*n)
		for d := u.Lo; d < u.Lo+u.N; d++ {
			k, _ := gs.Ball(u, d, env.KickOffSector)
			copy(kl.k[(d-u.Lo)*n:], k[:n])
		}
	}
	gs.g.kicks[per][t] = kl
	lay := &induction.BreakLayer{Lo: u.Lo, Value: make([]float64, u.N*gs.Size)}
	// Older breaks of this period are not read again (a goal leaves t−1 throws).
	if t >= 3 {
		gs.Layers.Breaks[per][t-2] = nil
	}
	if gs.table != nil {
		gs.table.startLayer(u.N, n)
	}
	if err := induction.OnWorkers(gs.Ctx, gs.workers, func(w int) error { return gs.solveShare(per, t, u, lay, w) }); err != nil {
		return nil, err
	}
	// Mirror images: W(−d, (a, h)) = −W(d, (h, a)), filled once every share is done.
	if gs.mirror {
		gs.fillMirrors(kl, lay)
	}
	if gs.table != nil {
		gs.table.endLayer(per, t, u.Lo, u.N, gs.space, gs.mirror)
	}
	if gs.verify && per == 0 && t == gs.Lengths[0] {
		k, _ := gs.Ball(u, 0, env.KickOffSector)
		gs.kick = append([]float64(nil), k[n:]...)
	}
	gs.done++
	if p := gs.g.Problem.Progress; p != nil {
		p(gs.done, gs.total)
	}
	gs.g.stats.Layers++
	gs.g.stats.BreakStates += int64(u.N * n)
	gs.g.stats.Bytes += int64(len(kl.k)) * 8
	return lay, nil
}

// canonical reports whether the break (d, h, a) is solved itself rather than read off its
// mirror (−d, a, h) in the layer [lo, lo+n).
func (gs *gameSolver) canonical(lo, n, d, h, a int) bool {
	return canonicalBreak(gs.mirror, lo, n, d, h, a)
}

// Which breaks of a difference a solve solves itself: all, those with home's entry ≤ away's
// (difference 0 under the mirror), or none (read off their mirror images).
const (
	solvedAll = iota
	solvedTriangle
	solvedNone
)

// solveShare solves the canonical stage games of the configurations h ≡ w (mod workers)
// and, with the best responses, answers them at those breaks and at their mirror images.
func (gs *gameSolver) solveShare(per, t int, u *induction.BallLayer, lay *induction.BreakLayer, w int) error {
	sp := gs.space
	n, e := sp.configs(), sp.entries
	st := &gs.stats[w]
	var buf stageBuf
	for d := u.Lo; d < u.Lo+u.N; d++ {
		all, _ := gs.Ball(u, d, env.KickOffSector)
		k, out := all[:n], lay.Value[(d-u.Lo)*gs.Size:]
		for h := w; h < e; h += gs.workers {
			if h%(64*gs.workers) == w { // every worker: the layer waits for all of them
				if err := gs.Ctx.Err(); err != nil {
					return err
				}
			}
			for a := range e {
				if !gs.canonical(u.Lo, u.N, d, h, a) {
					continue
				}
				c := h*e + a
				var ans breakAnswer
				var err error
				if gs.oracle {
					ans, err = sp.strategyOf(k, h, a, &buf, st)
				} else {
					var s stageAnswer
					s, err = sp.stage(k, h, a, &buf, st)
					ans.value = s.value
				}
				if err != nil {
					return fmt.Errorf("solver: stage game at %s, %d throws left, difference %d: %w", env.FirstHalf+env.Period(per), t, d, err)
				}
				out[c] = ans.value
				if gs.table != nil {
					gs.table.put(w, (d-u.Lo)*n+c, &ans)
				}
				if gs.verify {
					gs.respond(u, lay, d, h, a, &ans, all, out)
				}
			}
		}
	}
	return nil
}

// respond writes both best responses' values at the break (d, h, a), whose strategy is ans,
// and at its mirror image (−d, a, h) if the solve reads that one off this.
func (gs *gameSolver) respond(u *induction.BallLayer, lay *induction.BreakLayer, d, h, a int, ans *breakAnswer, all, out []float64) {
	sp := gs.space
	n, e := sp.configs(), sp.entries
	out[n+h*e+a], out[2*n+h*e+a] = sp.bestReplies(ans, h, a, all[n:2*n], all[2*n:])
	if -d == d && h == a || !gs.mirror || -d < u.Lo || -d >= u.Lo+u.N {
		return
	}
	img, _ := gs.Ball(u, -d, env.KickOffSector)
	m := ans.mirrored()
	o := lay.Value[(-d-u.Lo)*gs.Size:]
	o[n+a*e+h], o[2*n+a*e+h] = sp.bestReplies(&m, a, h, img[n:2*n], img[2*n:])
}

// fillMirrors writes the values of the breaks not solved themselves.
func (gs *gameSolver) fillMirrors(kl *kickLayer, lay *induction.BreakLayer) {
	sp := gs.space
	for d := kl.lo; d < kl.lo+kl.n; d++ {
		out := lay.Value[(d-kl.lo)*gs.Size:]
		img := lay.Value[(-d-kl.lo)*gs.Size:]
		for h := range sp.entries {
			for a := range sp.entries {
				if !gs.canonical(kl.lo, kl.n, d, h, a) {
					out[h*sp.entries+a] = -img[a*sp.entries+h]
					gs.stats[0].Mirrored++
				}
			}
		}
	}
}
