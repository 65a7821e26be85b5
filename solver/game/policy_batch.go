// The policies' answers for best responses, a chunk of rows at a time, and asked ahead of the solve when batched.

package game

import (
	"context"
	"fmt"

	"github.com/kingoal/kingoal/env"
)

// answeredRow is a row's breaks (difference d, home's entry h, every away entry) with both
// policies' mixes there.
type answeredRow struct {
	d, h int
	m    rowMixes
}

// answerChunk is rows of one layer, answered together: one call to each policy.
type answerChunk struct {
	per, t int
	rows   []answeredRow
	states []State          // by row, then away's entry
	mixes  [][]env.Weighted // Breaks' answers, for a Policy that is not dense
	err    error            // why the chunk has no answers
}

// setRows makes c the chunk of rows of the layer (per, t), keeping the rows' buffers.
func (c *answerChunk) setRows(per, t int, rows []answeredRow) {
	c.per, c.t = per, t
	if cap(c.rows) < len(rows) {
		c.rows = append(c.rows[:cap(c.rows)], make([]answeredRow, len(rows)-cap(c.rows))...)
	}
	c.rows = c.rows[:len(rows)]
	for k, r := range rows {
		c.rows[k].d, c.rows[k].h = r.d, r.h
	}
}

// answer asks both policies at every break of c's rows and keeps their mixes as entries.
func (pp *policyPair) answer(c *answerChunk) error {
	sp := pp.sp
	e, w := sp.entries, sp.moves+1
	c.states = c.states[:0]
	for k := range c.rows {
		r := &c.rows[k]
		for a := range e {
			c.states = append(c.states, State{Period: env.FirstHalf + env.Period(c.per), ThrowsLeft: c.t, GoalDiff: r.d,
				Home: env.LineupAt(r.h / w), HomeMoves: r.h % w, Away: env.LineupAt(a / w), AwayMoves: a % w})
		}
		r.m.reset(e)
	}
	if err := pp.ask(env.Home, pp.home, c); err != nil {
		return err
	}
	return pp.ask(env.Away, pp.away, c)
}

// ask asks side's policy p at c's breaks and writes its mixes into c's rows.
func (pp *policyPair) ask(side env.Player, p Policy, c *answerChunk) error {
	sp := pp.sp
	e := sp.entries
	at := func(i int) (entry int, mix *[]mixEntry) { // break i's entry of side, and its mix
		r := &c.rows[i/e]
		if side == env.Home {
			return r.h, &r.m.home[i%e]
		}
		return i % e, &r.m.away[i%e]
	}
	fail := func(i int, err error) error { return fmt.Errorf("solver: the policy at %v: %w", c.states[i], err) }
	if dp, ok := p.(DensePolicy); ok {
		return dp.BreakProbabilities(side, c.states, func(i int, probs []float64) error {
			if i < 0 || i >= len(c.states) {
				return fmt.Errorf("solver: the policy answered break %d of %d", i, len(c.states))
			}
			entry, mix := at(i)
			var err error
			if *mix, err = sp.denseEntries(probs, entry, (*mix)[:0]); err != nil {
				return fail(i, err)
			}
			return nil
		})
	}
	if len(c.mixes) < len(c.states) {
		c.mixes = make([][]env.Weighted, len(c.states))
	}
	mixes := c.mixes[:len(c.states)]
	if err := p.Breaks(side, c.states, mixes); err != nil {
		return err
	}
	for i := range mixes {
		entry, mix := at(i)
		var err error
		if *mix, err = sp.policyEntries(mixes[i], entry, (*mix)[:0]); err != nil {
			return fail(i, err)
		}
	}
	return nil
}

// prefetch answers a worker's rows of a layer ahead of its solve, a chunk at a time, on a
// goroutine of its own: the solve reads a chunk while the next is asked.
type prefetch struct {
	ready chan *answerChunk // answered, in the worker's order
	free  chan *answerChunk
	stop  chan struct{}
	done  chan struct{}
	cur   *answerChunk
	at    int // the next row of cur
}

// chunksInFlight: one the solve reads, one answered and waiting, one being asked.
const chunksInFlight = 3

// startLayer starts asking, ahead, the rows worker w of workers solves in the layer (per, t):
// differences lo to lo+n−1, home's entries h ≡ w (mod workers), in that order (share's).
func (pp *policyPair) startLayer(ctx context.Context, per, t, lo, n, w, workers int) {
	if pp.batch <= 0 {
		return
	}
	e := pp.sp.entries
	var rows []answeredRow
	for d := lo; d < lo+n; d++ {
		for h := w; h < e; h += workers {
			rows = append(rows, answeredRow{d: d, h: h})
		}
	}
	perChunk := max(1, pp.batch/e)
	pf := &prefetch{ready: make(chan *answerChunk, 1), free: make(chan *answerChunk, chunksInFlight),
		stop: make(chan struct{}), done: make(chan struct{})}
	for len(pp.chunks) < chunksInFlight {
		pp.chunks = append(pp.chunks, &answerChunk{})
	}
	for _, c := range pp.chunks { // all free again once the last layer's goroutine ended
		pf.free <- c
	}
	pp.ahead = pf
	go func() {
		defer close(pf.done)
		defer close(pf.ready)
		for start := 0; start < len(rows); start += perChunk {
			var c *answerChunk
			select {
			case c = <-pf.free:
			case <-pf.stop:
				return
			}
			c.setRows(per, t, rows[start:min(start+perChunk, len(rows))])
			c.err = pp.answer(c)
			if c.err == nil {
				c.err = ctx.Err()
			}
			select {
			case pf.ready <- c:
			case <-pf.stop:
				return
			}
			if c.err != nil {
				return
			}
		}
	}()
}

// next is the answered row (d, h) of the layer (per, t): its chunk and index there.
func (pf *prefetch) next(per, t, d, h int) (*answerChunk, int, error) {
	if pf.cur == nil || pf.at == len(pf.cur.rows) {
		if pf.cur != nil {
			pf.free <- pf.cur
		}
		pf.cur, pf.at = <-pf.ready, 0
		if pf.cur == nil {
			return nil, 0, fmt.Errorf("solver: no answers for the row %d, %d (the layer's rows ran out)", d, h)
		}
		if pf.cur.err != nil {
			return nil, 0, pf.cur.err
		}
	}
	c, k := pf.cur, pf.at
	if r := c.rows[k]; c.per != per || c.t != t || r.d != d || r.h != h {
		return nil, 0, fmt.Errorf("solver: answers out of order: row (%d, %d, %d, %d) asked, (%d, %d, %d, %d) answered", per, t, d, h, c.per, c.t, r.d, r.h)
	}
	pf.at++
	return c, k, nil
}

// endLayer stops asking ahead and waits for the goroutine: no policy is asked after.
func (pp *policyPair) endLayer() {
	if pp.ahead == nil {
		return
	}
	close(pp.ahead.stop)
	<-pp.ahead.done
	pp.ahead = nil
}
