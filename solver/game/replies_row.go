// A row's best replies at once: every break (h, a) of a row reads the same rows of the values from the kick-off, so they are copied once, transposed, and mixes over them are summed contiguously.

package game

import (
	"math"
	"slices"
)

// rowReplier answers the breaks of one row (a difference, home's entry h, every away entry)
// against dense mixes — a softmax's, which mixes over every line-up it can reach — with
// contiguous sums over a block of the row's own values instead of gathers across them:
// home's mixes at every break of the row are over reach[h], and home's best replies are
// rows of reach[h]. The sums are taken in the mixes' order (their entries ascending, as
// DensePolicy's are), so they are the same values, bit for bit, as replies'. A worker's own.
type rowReplier struct {
	order  []int32   // reach[h], ascending
	pos    []int32   // by entry: its index in order, −1 outside reach[h]
	blocks [2]block  // by recursion (0 kh: home's best replies, 1 ka: away's), built on first use in the row
	spread []float64 // a home mix over order, zero where it puts nothing
	acc    []float64 // home's replies' sums, by order
}

// block is one recursion's values at the row's rows, transposed: t[c*s+k] is the value of
// the entry pair (order[k], c).
type block struct {
	t     []float64
	built bool // in this row
}

// startRow makes rr the replier of home's entry h's rows, with none of its blocks built.
func (rr *rowReplier) startRow(sp *gameSpace, h int) {
	if rr.pos == nil {
		rr.pos = make([]int32, sp.entries)
		for i := range rr.pos {
			rr.pos[i] = -1
		}
	}
	for _, x := range rr.order {
		rr.pos[x] = -1
	}
	rr.order = append(rr.order[:0], sp.reach[h]...)
	slices.Sort(rr.order)
	for k, x := range rr.order {
		rr.pos[x] = int32(k)
	}
	rr.blocks[0].built, rr.blocks[1].built = false, false
}

// block is the recursion r's block of values v (kh or ka) in the row, built the first time.
func (rr *rowReplier) block(sp *gameSpace, r int, v []float64) []float64 {
	b := &rr.blocks[r]
	if b.built {
		return b.t
	}
	e, s := sp.entries, len(rr.order)
	if cap(b.t) < e*s {
		b.t = make([]float64, e*s)
	}
	b.t = b.t[:e*s]
	for k, j := range rr.order {
		for c, x := range v[int(j)*e:][:e] {
			b.t[c*s+k] = x
		}
	}
	b.built = true
	return b.t
}

// replies are replies' at the break (h, a) of rr's row: through the row's blocks where a
// mix is dense, replies' own sums where not; a side skip names is not answered (0).
func (rr *rowReplier) replies(sp *gameSpace, h, a int, home, away []mixEntry, kh, ka []float64, skip [2]bool) (best, worst float64) {
	switch {
	case skip[0]:
	case len(away) >= denseMix:
		best = rr.bestOf(away, rr.block(sp, 0, kh))
	default:
		best = sp.bestReplyTo(h, away, kh)
	}
	switch {
	case skip[1]:
	case rr.worthIt(len(home)) && rr.spreadHome(home):
		worst = rr.worstOf(sp.reach[a], rr.block(sp, 1, ka))
	default:
		worst = sp.worstReplyTo(a, home, ka)
	}
	return best, worst
}

// worthIt reports whether a mix of n entries is summed over the row's block: the block's
// sums take every entry of reach[h], a mix's zeros included.
func (rr *rowReplier) worthIt(n int) bool { return n >= denseMix && 2*n >= len(rr.order) }

// spreadHome spreads home's mix over order, or reports false where it is not in order
// (its entries not ascending, or one outside reach[h]): replies then sums it itself.
func (rr *rowReplier) spreadHome(home []mixEntry) bool {
	s := len(rr.order)
	if cap(rr.spread) < s {
		rr.spread = make([]float64, s)
	}
	p := rr.spread[:s]
	if len(home) == s { // a softmax's: every entry, in order
		full := true
		for k, x := range rr.order[:len(home)] {
			full = full && home[k].entry == x
			p[k] = home[k].p
		}
		if full {
			return true
		}
	}
	clear(p)
	last := int32(-1)
	for _, q := range home {
		k := rr.pos[q.entry]
		if k <= last {
			return false
		}
		p[k], last = q.p, k
	}
	return true
}

// worstOf is away's best reply at a to the home mix spread by spreadHome: its column sums
// over the block of ka, four columns at a time (four sums in flight; eight measured slower,
// their pointers spilled).
func (rr *rowReplier) worstOf(reach []int32, t []float64) float64 {
	p := rr.spread[:len(rr.order)]
	s := len(p)
	worst := math.Inf(1)
	i := 0
	for ; i+4 <= len(reach); i += 4 {
		c0, c1 := t[int(reach[i])*s:][:s], t[int(reach[i+1])*s:][:s]
		c2, c3 := t[int(reach[i+2])*s:][:s], t[int(reach[i+3])*s:][:s]
		var v0, v1, v2, v3 float64
		for k, x := range p {
			v0 += x * c0[k]
			v1 += x * c1[k]
			v2 += x * c2[k]
			v3 += x * c3[k]
		}
		worst = min(worst, v0, v1, v2, v3)
	}
	for ; i < len(reach); i++ {
		col, v := t[int(reach[i])*s:][:s], 0.0
		for k, x := range p {
			v += x * col[k]
		}
		worst = min(worst, v)
	}
	return worst
}

// bestOf is home's best reply to away's mix: the sums of every row of the block of kh
// together, four of away's entries at a time, each sum in the mix's order.
func (rr *rowReplier) bestOf(away []mixEntry, t []float64) float64 {
	s := len(rr.order)
	if cap(rr.acc) < s {
		rr.acc = make([]float64, s)
	}
	acc := rr.acc[:s]
	clear(acc)
	j := 0
	for ; j+4 <= len(away); j += 4 {
		q0, q1, q2, q3 := away[j], away[j+1], away[j+2], away[j+3]
		r0, r1 := t[int(q0.entry)*s:][:s], t[int(q1.entry)*s:][:s]
		r2, r3 := t[int(q2.entry)*s:][:s], t[int(q3.entry)*s:][:s]
		for k := range acc {
			v := acc[k]
			v += q0.p * r0[k]
			v += q1.p * r1[k]
			v += q2.p * r2[k]
			v += q3.p * r3[k]
			acc[k] = v
		}
	}
	for ; j < len(away); j++ {
		q, row := away[j], t[int(away[j].entry)*s:][:s]
		for k := range acc {
			acc[k] += q.p * row[k]
		}
	}
	best := math.Inf(-1)
	for _, v := range acc {
		best = max(best, v)
	}
	return best
}
