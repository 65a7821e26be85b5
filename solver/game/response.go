package game

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/internal/induction"
	"github.com/kingoal/kingoal/solver/lineup"
)

// Verify checks g's whole strategy by each side's best response to the other's, found
// by a separate solve: the throw recursion again, from the rules, with two values at every
// break — home's payoff when home best-responds to away's strategy, and when away
// best-responds to home's — and at each break the strategy the game plays there (answerAt),
// one side's mix fixed, the other side's every reply weighed. Nothing of the solve's values
// is read but through that strategy. It holds two value vectors a break in its working
// layers and runs on all cores; progress, if set, is called after each layer.
func Verify(ctx context.Context, g *Game, progress func(done, total int)) (Check, error) {
	workers := g.Problem.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return respond(ctx, g.Problem.Rules, g.Problem.Payoff, g.space, workers, progress, false, func(int) (pairStrategy, error) { return gameAnswers{g}, nil })
}

// respond runs the best responses' backward induction against the strategies each worker's
// pairStrategy plays, and checks them at the kick-off; with play, the backward induction of
// the two strategies played against each other instead (the Check's HomeBest and AwayBest
// are then both the pair's value, its Exploitability 0).
func respond(ctx context.Context, r env.Rules, p lineup.Payoff, sp *gameSpace, workers int, progress func(done, total int), play bool,
	strategy func(worker int) (pairStrategy, error)) (Check, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	final, err := induction.GameFinal(p)
	if err != nil {
		return Check{}, err
	}
	ls := induction.GameLayers(r, p, final, false)
	n := sp.configs()
	ls.Size, ls.Ctx, ls.Consts = 2*n, ctx, map[float64][]float64{}
	gameSectors(ls, sp)
	rs := &responder{Layers: ls, space: sp, workers: workers, progress: progress, play: play, total: ls.Remaining(0, ls.Lengths[0])}
	for w := range workers {
		st, err := strategy(w)
		if err != nil {
			return Check{}, err
		}
		rs.strategies = append(rs.strategies, st)
	}
	rs.repliers, rs.mixes = make([]rowReplier, workers), make([]rowMixes, workers)
	ls.Step = rs.breaks
	if err := ls.Run(); err != nil {
		return Check{}, err
	}
	if rs.kick == nil {
		return Check{}, errors.New("solver: the best responses did not reach the kick-off")
	}
	x, y, err := rs.strategies[0].kickOff()
	if err != nil {
		return Check{}, err
	}
	if play {
		v, _ := kickOffValuesAt(sp, x, y, rs.kick[:n], rs.kick[n:])
		value := 0.0
		for l, p := range x {
			value += p * v[l]
		}
		return Check{HomeBest: value, AwayBest: value}, nil
	}
	if o, ok := rs.strategies[0].(kickOffObserving); ok {
		o.observeKickOff(kickOffValuesAt(sp, x, y, rs.kick[:n], rs.kick[n:]))
	}
	c := kickOffCheck(sp, x, y, rs.kick[:n], rs.kick[n:])
	skip := rs.skipped()
	if skip[env.Home] {
		c.HomeBest, c.HomeReply, c.Exploitability = math.NaN(), env.Lineup{}, math.NaN()
	}
	if skip[env.Away] {
		c.AwayBest, c.AwayReply, c.Exploitability = math.NaN(), env.Lineup{}, math.NaN()
	}
	return c, nil
}

// skipping is a pairStrategy that says which sides' best responses are not wanted.
type skipping interface{ skipped() [2]bool }

// skipped are the sides whose best responses the strategies do not want solved.
func (rs *responder) skipped() [2]bool {
	if s, ok := rs.strategies[0].(skipping); ok && !rs.play {
		return s.skipped()
	}
	return [2]bool{}
}

// kickOffObserving is a pairStrategy whose policies watch the kick-off's values
// (KickOffObserver).
type kickOffObserving interface {
	observeKickOff(home, away *[env.NumLineups]float64)
}

// pairStrategy is what the best responses answer: both sides' mixes at the breaks of a row
// (difference d, home's entry h, every away entry) and at the first kick-off. Each worker
// has its own.
type pairStrategy interface {
	row(per, t, d, h int, m *rowMixes) error
	kickOff() (home, away []float64, err error) // by line-up index, both budgets full
}

// mixEntry is a probability on a side's entry (line-up and moves left after the break).
type mixEntry struct {
	entry int32
	p     float64
}

// rowMixes holds a row's mixes, by away's entry.
type rowMixes struct {
	home, away [][]mixEntry
	buf        stageBuf
}

func (m *rowMixes) reset(e int) {
	if len(m.home) != e {
		m.home, m.away = make([][]mixEntry, e), make([][]mixEntry, e)
	}
	for a := range e {
		m.home[a], m.away[a] = m.home[a][:0], m.away[a][:0]
	}
}

// gameAnswers is a solved game's strategy (answerAt) as a pairStrategy.
type gameAnswers struct{ g *Game }

func (ga gameAnswers) row(per, t, d, h int, m *rowMixes) error {
	sp := ga.g.space
	m.reset(sp.entries)
	for a := range sp.entries {
		ans, err := ga.g.answerAt(per, t, d, h, a, &m.buf)
		if err != nil {
			return fmt.Errorf("solver: the strategy at %s, %d throws left, difference %d: %w", env.FirstHalf+env.Period(per), t, d, err)
		}
		m.home[a] = ans.home.entries(sp.reach[h], m.home[a])
		m.away[a] = ans.away.entries(sp.reach[a], m.away[a])
	}
	return nil
}

func (ga gameAnswers) kickOff() (home, away []float64, err error) {
	return ga.g.kickOff.X, ga.g.kickOff.Y, nil
}

// responder is the best responses' working state.
type responder struct {
	*induction.Layers
	space      *gameSpace
	strategies []pairStrategy // one a worker
	repliers   []rowReplier   // one a worker
	mixes      []rowMixes     // one a worker: the row's
	workers    int
	play       bool // the strategies' own values, not the best responses'
	progress   func(done, total int)
	done       int
	total      int
	kick       []float64 // both best responses' values from the first kick-off
}

// breaks is the layer step: at every break, home's best reply to away's mix and away's best
// reply to home's, each against its own recursion's values from the kick-off that follows.
func (rs *responder) breaks(per, t int, u *induction.BallLayer) (*induction.BreakLayer, error) {
	n := rs.space.configs()
	lay := &induction.BreakLayer{Lo: u.Lo, Value: make([]float64, u.N*2*n)}
	if t >= 3 {
		rs.Layers.Breaks[per][t-2] = nil
	}
	if err := induction.OnWorkers(rs.Ctx, rs.workers, func(w int) error { return rs.share(per, t, u, lay, w) }); err != nil {
		return nil, err
	}
	if per == 0 && t == rs.Lengths[0] {
		k, _ := rs.Ball(u, 0, env.KickOffSector)
		rs.kick = append([]float64(nil), k...)
	}
	rs.done++
	if rs.progress != nil {
		rs.progress(rs.done, rs.total)
	}
	return lay, nil
}

// share answers the breaks of the configurations h ≡ w (mod workers).
func (rs *responder) share(per, t int, u *induction.BallLayer, lay *induction.BreakLayer, w int) error {
	sp := rs.space
	n, e := sp.configs(), sp.entries
	m, rr := &rs.mixes[w], &rs.repliers[w] // kept from layer to layer: their buffers are grown
	skip := rs.skipped()
	observer, _ := rs.strategies[w].(replyObserving)
	if observer != nil && (rs.play || !observer.observes()) {
		observer = nil
	}
	if ahead, ok := rs.strategies[w].(askingAhead); ok {
		ahead.startLayer(rs.Ctx, per, t, u.Lo, u.N, w, rs.workers)
		defer ahead.endLayer()
	}
	for d := u.Lo; d < u.Lo+u.N; d++ {
		k, _ := rs.Ball(u, d, env.KickOffSector) // both recursions' values from the kick-off
		kh, ka := k[:n], k[n:]
		out := lay.Value[(d-u.Lo)*2*n:]
		for h := w; h < e; h += rs.workers {
			if h%(64*rs.workers) == w {
				if err := rs.Ctx.Err(); err != nil {
					return err
				}
			}
			if err := rs.strategies[w].row(per, t, d, h, m); err != nil {
				return err
			}
			rr.startRow(sp, h)
			for a := range e {
				if rs.play {
					v := sp.played(m.home[a], m.away[a], kh)
					out[h*e+a], out[n+h*e+a] = v, v
					continue
				}
				out[h*e+a], out[n+h*e+a] = rr.replies(sp, h, a, m.home[a], m.away[a], kh, ka, skip)
			}
			if observer != nil {
				observer.observe(h, m, kh, ka)
			}
		}
	}
	return nil
}

// kickOffCheck is the check at the first kick-off: each side's best starting line-up
// against the other's kick-off mix (x home's, y away's, by line-up), both budgets full, from
// the best responses' values kh and ka there.
func kickOffCheck(sp *gameSpace, x, y, kh, ka []float64) Check {
	return kickOffBest(kickOffValuesAt(sp, x, y, kh, ka))
}

// kickOffValuesAt is kickOffValues at the first kick-off: both budgets full.
func kickOffValuesAt(sp *gameSpace, x, y, kh, ka []float64) (v, u *[env.NumLineups]float64) {
	w, m := sp.moves+1, sp.moves
	entry := func(l int) int { return l*w + m }
	return kickOffValues(x, y, func(i, j int) float64 { return kh[entry(i)*sp.entries+entry(j)] },
		func(i, j int) float64 { return ka[entry(i)*sp.entries+entry(j)] })
}

// kickOffReplies is the check at the kick-off: home's best pure line-up against away's mix y
// by home's best response's values kh, away's against x by its own, ka.
func KickOffReplies(x, y []float64, kh, ka func(i, j int) float64) Check {
	return kickOffBest(kickOffValues(x, y, kh, ka))
}

// kickOffValues are home's payoffs, line-up by line-up: v[l] when home starts with l against
// away's mix y, u[l] when away starts with l against home's mix x, each continued by the
// best responses' values kh and ka.
func kickOffValues(x, y []float64, kh, ka func(i, j int) float64) (v, u *[env.NumLineups]float64) {
	v, u = new([env.NumLineups]float64), new([env.NumLineups]float64)
	for l := range env.NumLineups {
		for o := range env.NumLineups {
			if q := y[o]; q != 0 {
				v[l] += q * kh(l, o)
			}
			if p := x[o]; p != 0 {
				u[l] += p * ka(o, l)
			}
		}
	}
	return v, u
}

// kickOffBest is the check of the kick-off values: each side's best starting line-up.
func kickOffBest(v, u *[env.NumLineups]float64) Check {
	c := Check{HomeBest: math.Inf(-1), AwayBest: math.Inf(1)}
	for l := range env.NumLineups {
		if v[l] > c.HomeBest {
			c.HomeBest, c.HomeReply = v[l], env.LineupAt(l)
		}
		if u[l] < c.AwayBest {
			c.AwayBest, c.AwayReply = u[l], env.LineupAt(l)
		}
	}
	c.Exploitability = c.HomeBest - c.AwayBest
	return c
}

// replyObserving is a pairStrategy whose policies watch the replies of each row.
type replyObserving interface {
	observes() bool
	observe(h int, m *rowMixes, kh, ka []float64)
}

// askingAhead is a pairStrategy that may answer a layer's rows ahead of the solve: share
// tells it the rows a worker will ask, in order, and when the layer ends.
type askingAhead interface {
	startLayer(ctx context.Context, per, t, lo, n, w, workers int)
	endLayer()
}
