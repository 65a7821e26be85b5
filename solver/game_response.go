package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"

	"github.com/kingoal/kingoal/env"
)

// VerifyGame checks g's whole strategy by each side's best response to the other's, found
// by a separate solve: the throw recursion again, from the rules, with two values at every
// break — home's payoff when home best-responds to away's strategy, and when away
// best-responds to home's — and at each break the strategy the game plays there (answerAt),
// one side's mix fixed, the other side's every reply weighed. Nothing of the solve's values
// is read but through that strategy. It holds two value vectors a break in its working
// layers and runs on all cores; progress, if set, is called after each layer.
func VerifyGame(ctx context.Context, g *Game, progress func(done, total int)) (GameCheck, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	final, err := gameFinal(g.Problem.Payoff)
	if err != nil {
		return GameCheck{}, err
	}
	ls := gameLayers(g.Problem.Rules, g.Problem.Payoff, final, false)
	n := g.space.configs()
	ls.size, ls.ctx, ls.consts = 2*n, ctx, map[float64][]float64{}
	gameSectors(ls, g.space)
	workers := g.Problem.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	rs := &responder{layers: ls, g: g, workers: workers, progress: progress, total: ls.remaining(0, ls.lengths[0])}
	ls.step = rs.breaks
	if err := ls.run(); err != nil {
		return GameCheck{}, err
	}
	if rs.kick == nil {
		return GameCheck{}, errors.New("solver: the best responses did not reach the kick-off")
	}
	n = g.space.configs()
	return kickOffCheck(g, rs.kick[:n], rs.kick[n:]), nil
}

// responder is VerifyGame's working state.
type responder struct {
	*layers
	g        *Game
	workers  int
	progress func(done, total int)
	done     int
	total    int
	kick     []float64 // both best responses' values from the first kick-off
}

// breaks is the layer step: at every break, home's best reply to away's mix and away's best
// reply to home's, each against its own recursion's values from the kick-off that follows.
func (rs *responder) breaks(per, t int, u *ballLayer) (*breakLayer, error) {
	if rs.g.kicks[per][t] == nil || rs.g.kicks[per][t].lo != u.lo || rs.g.kicks[per][t].n != u.n {
		return nil, fmt.Errorf("solver: the best responses' layer %d, %d throws left is not the game's", per, t)
	}
	n := rs.g.space.configs()
	lay := &breakLayer{lo: u.lo, value: make([]float64, u.n*2*n)}
	if t >= 3 {
		rs.layers.breaks[per][t-2] = nil
	}
	if err := onWorkers(rs.ctx, rs.workers, func(w int) error { return rs.share(per, t, u, lay, w) }); err != nil {
		return nil, err
	}
	if per == 0 && t == rs.lengths[0] {
		k, _ := rs.ball(u, 0, env.KickOffSector)
		rs.kick = append([]float64(nil), k...)
	}
	rs.done++
	if rs.progress != nil {
		rs.progress(rs.done, rs.total)
	}
	return lay, nil
}

// share answers the breaks of the configurations h ≡ w (mod workers).
func (rs *responder) share(per, t int, u *ballLayer, lay *breakLayer, w int) error {
	sp := rs.g.space
	n, e := sp.configs(), sp.entries
	var buf stageBuf
	for d := u.lo; d < u.lo+u.n; d++ {
		k, _ := rs.ball(u, d, env.KickOffSector) // both recursions' values from the kick-off
		kh, ka := k[:n], k[n:]
		out := lay.value[(d-u.lo)*2*n:]
		for h := w; h < e; h += rs.workers {
			if h%(64*rs.workers) == w {
				if err := rs.ctx.Err(); err != nil {
					return err
				}
			}
			for a := range e {
				ans, err := rs.g.answerAt(per, t, d, h, a, &buf)
				if err != nil {
					return fmt.Errorf("solver: the strategy at %s, %d throws left, difference %d: %w", env.FirstHalf+env.Period(per), t, d, err)
				}
				best, worst := sp.bestReplies(&ans, h, a, kh, ka)
				out[h*e+a], out[n+h*e+a] = best, worst
			}
		}
	}
	return nil
}

// kickOffCheck is the check at the first kick-off: each side's best starting line-up
// against the other's kick-off mix, both budgets full, from the best responses' values kh
// and ka there.
func kickOffCheck(g *Game, kh, ka []float64) GameCheck {
	sp := g.space
	w, m := g.moves+1, g.moves
	entry := func(l int) int { return l*w + m }
	best, worst := math.Inf(-1), math.Inf(1)
	for l := range env.NumLineups {
		v, u := 0.0, 0.0
		for o := range env.NumLineups {
			if q := g.kickOff.y[o]; q != 0 {
				v += q * kh[entry(l)*sp.entries+entry(o)]
			}
			if p := g.kickOff.x[o]; p != 0 {
				u += p * ka[entry(o)*sp.entries+entry(l)]
			}
		}
		best, worst = max(best, v), min(worst, u)
	}
	return GameCheck{HomeBest: best, AwayBest: worst, Exploitability: best - worst}
}
