// Solve's backward recursion: one layer of throws at a time, each difference on a
// worker, the decisions of the layer taken as maxima and minima over the values after them.

package dyngame

import (
	"context"
	"errors"
	"runtime"
	"sync"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/internal/induction"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
	"github.com/kingoal/kingoal/solver/zerosum"
)

// dynLayer is the values of one (period, throws left) layer for differences lo..lo+n−1. A
// value vector ("row") holds every configuration, then (with the check) home's best
// response's values and away's.
type dynLayer struct {
	lo, n int
	// throws: before a throw, at ((dd*Sectors + b−1)*poss + slot)*row.
	throws []float64
	// breaks: at the break before the kick-off (the Basic side's choice made; the kick-off
	// itself when nobody can move), at dd*row.
	breaks []float64
	// shifted[p]: right after a throw won by Dynamic side p that leaves the ball in b and p
	// in possession, p's shift made, at (dd*Sectors + b−1)*row; breakShifted[p]: the same
	// after a goal (or the end of a period), before the break, at dd*row. nil for a Basic p.
	shifted, breakShifted [2][]float64
}

// dynDecisions is the strategy at one layer, one byte a decision: an index into the
// deciding side's options (0: keep).
type dynDecisions struct {
	lo, n int
	brk   []uint8 // the Basic side's choice at the break: dd*configs + c
	// shift[p] is Dynamic side p's shift after a won throw that leaves the ball in b, at
	// (dd*Sectors + b−1)*configs + c; breakShift[p] after a goal, at dd*configs + c.
	shift, breakShift [2][]uint8
}

type dynSolver struct {
	p       game.Problem
	sp      *dynSpace
	ls      *induction.Layers
	ctx     context.Context
	workers int
	parts   int // value vectors a row: 1, or 3 with the check
	row     int // parts × configs
	// coef[b][k][c]: with the ball in b, P(home wins), P(away wins), P(a tie that counts).
	coef   [env.Sectors + 1][3][]float64
	prev   *dynLayer   // the layer with one throw fewer
	spare  *dynLayer   // buffers to reuse
	starts []*dynLayer // each later period's first layer (its breaks and their shifts)
	g      *Game
	keep   bool // keep every layer's values (tests)
	// given, if set, is a strategy to check (Verify): its decisions are played, not taken.
	given  *Game
	consts sync.Mutex // guards ls.constant: the workers share it
	done   int
	total  int
}

func newDynSolver(p game.Problem, keep bool) (*dynSolver, error) {
	sp, ls, err := newDynamicRecursion(p)
	if err != nil {
		return nil, err
	}
	ctx := p.Context
	if ctx == nil {
		ctx = context.Background()
	}
	ls.Ctx = ctx
	workers := p.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	s := &dynSolver{p: p, sp: sp, ls: ls, ctx: ctx, workers: workers, parts: 1, keep: keep,
		starts: make([]*dynLayer, len(ls.Lengths)), g: &Game{Problem: p, space: sp, ls: ls}}
	if p.Verify {
		s.parts = 3
	}
	s.row = s.parts * sp.configs
	s.g.row = s.row
	ls.Size = s.row
	s.g.dec = make([][]*dynDecisions, len(ls.Lengths))
	if keep {
		s.g.values = make([][]*dynLayer, len(ls.Lengths))
	}
	for per, n := range ls.Lengths {
		s.g.dec[per] = make([]*dynDecisions, n+1)
		if keep {
			s.g.values[per] = make([]*dynLayer, n+1)
		}
		s.total += n
	}
	s.fillCoefficients()
	return s, nil
}

// fillCoefficients reads every configuration's throw odds off env.
func (s *dynSolver) fillCoefficients() {
	sp, n := s.sp, s.sp.configs
	for b := 1; b <= env.Sectors; b++ {
		for k := range 3 {
			s.coef[b][k] = make([]float64, n)
		}
	}
	for lh := range env.NumLineups {
		for la := range env.NumLineups {
			st := odds.NewSectorTable(env.LineupAt(lh), env.LineupAt(la), s.ls.R.TiesCount)
			for mh := range sp.width[env.Home] {
				for ma := range sp.width[env.Away] {
					c := sp.config(lh*sp.width[env.Home]+mh, la*sp.width[env.Away]+ma)
					for b := 1; b <= env.Sectors; b++ {
						win, lose := st.Win[b][env.Home], st.Win[b][env.Away]
						s.coef[b][0][c], s.coef[b][1][c] = win, lose
						if s.ls.R.TiesCount {
							s.coef[b][2][c] = 1 - win - lose
						}
					}
				}
			}
		}
	}
}

// run solves every layer, last period first, and the kick-off.
func (s *dynSolver) run() error {
	for per := len(s.ls.Lengths) - 1; per >= 0; per-- {
		s.prev = nil
		for t := 1; t <= s.ls.Lengths[per]; t++ {
			if err := s.ctx.Err(); err != nil {
				return err
			}
			lay, err := s.layer(per, t)
			if err != nil {
				return err
			}
			if s.prev != nil && !s.keep && s.prev != s.starts[per] {
				s.spare = s.prev
			}
			s.prev = lay
			if t == s.ls.Lengths[per] {
				s.starts[per] = lay
			}
			s.done++
			if pr := s.p.Progress; pr != nil {
				pr(s.done, s.total)
			}
		}
		if st := s.starts[per]; per > 0 && !s.keep {
			// Earlier periods read only its breaks (the first period's kick-off its throws).
			st.throws, st.shifted = nil, [2][]float64{}
		}
	}
	return nil
}

// layer solves the layer (per, t) from the one with t−1 throws left (s.prev) and the later
// periods' first layers.
func (s *dynSolver) layer(per, t int) (*dynLayer, error) {
	lo, hi := s.ls.Span(per, t)
	lay := s.newLayer(lo, max(hi-lo+1, 0))
	dec := newDecisions(s.sp, lay.lo, lay.n)
	if s.given != nil {
		dec = s.given.dec[per][t]
	}
	err := induction.OnWorkers(s.ctx, s.workers, func(w int) error {
		for dd := w; dd < lay.n; dd += s.workers {
			if err := s.ctx.Err(); err != nil {
				return err
			}
			s.difference(per, t, lay, dec, dd)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if s.given == nil {
		s.g.dec[per][t] = dec
	}
	if s.keep {
		s.g.values[per][t] = lay
	}
	st := &s.g.stats
	st.Layers++
	st.BreakStates += int64(lay.n * env.Sectors * s.sp.poss * s.sp.configs)
	st.Bytes += int64(len(dec.brk) + len(dec.shift[0]) + len(dec.shift[1]) + len(dec.breakShift[0]) + len(dec.breakShift[1]))
	return lay, nil
}

// newLayer returns a layer for n differences from lo, on the spare's buffers if they fit.
func (s *dynSolver) newLayer(lo, n int) *dynLayer {
	lay := s.spare
	s.spare = nil
	if lay == nil {
		lay = &dynLayer{}
	}
	lay.lo, lay.n = lo, n
	grow := func(b []float64, size int) []float64 {
		if cap(b) < size {
			return make([]float64, size)
		}
		return b[:size]
	}
	lay.throws = grow(lay.throws, n*env.Sectors*s.sp.poss*s.row)
	lay.breaks = grow(lay.breaks, n*s.row)
	for p := env.Home; p <= env.Away; p++ {
		if s.sp.modes[p] == env.Dynamic {
			lay.shifted[p] = grow(lay.shifted[p], n*env.Sectors*s.row)
			lay.breakShifted[p] = grow(lay.breakShifted[p], n*s.row)
		}
	}
	return lay
}

// newDecisions makes the decision arrays of a layer of n differences from lo.
func newDecisions(sp *dynSpace, lo, n int) *dynDecisions {
	c := sp.configs
	dec := &dynDecisions{lo: lo, n: n}
	if _, ok := sp.basicSide(); ok {
		dec.brk = make([]uint8, n*c)
	}
	for p := env.Home; p <= env.Away; p++ {
		if sp.modes[p] == env.Dynamic {
			dec.shift[p] = make([]uint8, n*env.Sectors*c)
			dec.breakShift[p] = make([]uint8, n*c)
		}
	}
	return dec
}

// finish solves the kick-off's matrix game and, with the check, both best replies to it.
func (s *dynSolver) finish() (*Game, error) {
	g, sp := s.g, s.sp
	first := s.starts[0]
	if first == nil || first.lo > 0 || first.lo+first.n <= 0 {
		return nil, errNoKickOff
	}
	k := first.throws[(((0-first.lo)*env.Sectors+env.KickOffSector-1)*sp.poss)*s.row:][:s.row]
	at := func(part, i, j int) float64 {
		return k[part*sp.configs+sp.config(sp.entry(env.Home, env.LineupAt(i), sp.moves), sp.entry(env.Away, env.LineupAt(j), sp.moves))]
	}
	a := make([][]float64, env.NumLineups)
	for i := range a {
		a[i] = make([]float64, env.NumLineups)
		for j := range a[i] {
			a[i][j] = at(0, i, j)
		}
	}
	m, err := zerosum.SolveMatrixGame(a)
	if err != nil {
		return nil, err
	}
	g.kickOff, g.kickValues = m, a
	g.stats.StageGames, g.stats.OneSided = 1, g.stats.Bytes
	if s.parts == 3 {
		c := game.KickOffReplies(m.X, m.Y, func(i, j int) float64 { return at(1, i, j) }, func(i, j int) float64 { return at(2, i, j) })
		g.check = &c
	}
	s.prev, s.spare, s.starts = nil, nil, nil
	return g, nil
}

// newDynamicRecursion sets up the space and the throw recursion's rules for p.
func newDynamicRecursion(p game.Problem) (*dynSpace, *induction.Layers, error) {
	if err := checkDynamicGame(p); err != nil {
		return nil, nil, err
	}
	final, err := induction.GameFinal(p.Payoff)
	if err != nil {
		return nil, nil, err
	}
	ls := induction.GameLayers(p.Rules, p.Payoff, final, false)
	ls.MoveTables(env.Home)
	ls.Consts = map[float64][]float64{}
	return newDynSpace(p.Rules), ls, nil
}

// checkDynamicGame validates a problem for Solve.
func checkDynamicGame(p game.Problem) error {
	r := p.Rules
	if err := r.Validate(); err != nil {
		return err
	}
	switch {
	case !HasDynamic(r):
		return errors.New("solver: no Dynamic side: solve the Basic game (SolveGame)")
	case p.Payoff == lineup.PayoffAdvance && !r.Knockout:
		return errors.New("solver: payoff advance needs knockout rules")
	case p.Stream:
		return errors.New("solver: the game with a Dynamic side keeps its strategy (a byte a decision): Stream is for the Basic game")
	}
	_, err := induction.GameFinal(p.Payoff)
	return err
}
