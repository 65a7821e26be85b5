// Each side's best pure reply to the other's mix at a break: the inner loop of every check and best response.

package game

import (
	"math"

	"github.com/kingoal/kingoal/env"
)

// bestReplies are what each side's best pure reply to the other's mix in ans earns home at
// the break (h, a) (replies).
func (sp *gameSpace) bestReplies(ans *breakAnswer, h, a int, kh, ka []float64) (best, worst float64) {
	var hb, ab [maxMix]mixEntry
	return sp.replies(h, a, ans.home.entries(sp.reach[h], hb[:0]), ans.away.entries(sp.reach[a], ab[:0]), kh, ka)
}

// replies are what each side's best pure reply to the other's mix earns home at the break
// (h, a): against away's mix, home's best row over kh; against home's mix, away's best
// column over ka (each side's values from the kick-off that follows, by its own recursion).
func (sp *gameSpace) replies(h, a int, home, away []mixEntry, kh, ka []float64) (best, worst float64) {
	return sp.bestReplyTo(h, away, kh), sp.worstReplyTo(a, home, ka)
}

// bestReplyTo is home's best pure reply at h to away's mix, by kh.
func (sp *gameSpace) bestReplyTo(h int, away []mixEntry, kh []float64) float64 {
	if len(away) >= denseMix {
		return sp.bestReply(h, away, kh)
	}
	e, best := sp.entries, math.Inf(-1)
	for _, r := range sp.reach[h] {
		row := kh[int(r)*e:]
		v := 0.0
		for _, q := range away {
			v += q.p * row[q.entry]
		}
		best = max(best, v)
	}
	return best
}

// worstReplyTo is away's best pure reply at a to home's mix, by ka (home's payoff).
func (sp *gameSpace) worstReplyTo(a int, home []mixEntry, ka []float64) float64 {
	if len(home) >= denseMix {
		return sp.worstReply(a, home, ka)
	}
	e, worst := sp.entries, math.Inf(1)
	for _, c := range sp.reach[a] {
		v := 0.0
		for _, p := range home {
			v += p.p * ka[int(p.entry)*e+int(c)]
		}
		worst = min(worst, v)
	}
	return worst
}

// denseMix is the size of a mix from which replies to it take four sums at once (a softmax
// policy mixes over every line-up it can reach: ~35 entries on average at three moves, and
// its best responses spend nearly all their time here). Each sum is still taken in the
// mix's order: the same values, bit for bit, without each addition waiting on the last.
const denseMix = 4

// bestReply is home's best reply at h to away's mix by kh: four of home's rows at a time.
func (sp *gameSpace) bestReply(h int, away []mixEntry, kh []float64) float64 {
	e, reach := sp.entries, sp.reach[h]
	best := math.Inf(-1)
	i := 0
	for ; i+4 <= len(reach); i += 4 {
		r0, r1 := kh[int(reach[i])*e:][:e], kh[int(reach[i+1])*e:][:e]
		r2, r3 := kh[int(reach[i+2])*e:][:e], kh[int(reach[i+3])*e:][:e]
		var v0, v1, v2, v3 float64
		for _, q := range away {
			v0 += q.p * r0[q.entry]
			v1 += q.p * r1[q.entry]
			v2 += q.p * r2[q.entry]
			v3 += q.p * r3[q.entry]
		}
		best = max(best, v0, v1, v2, v3)
	}
	for ; i < len(reach); i++ {
		row, v := kh[int(reach[i])*e:][:e], 0.0
		for _, q := range away {
			v += q.p * row[q.entry]
		}
		best = max(best, v)
	}
	return best
}

// worstReply is away's best reply at a to home's mix by ka: the sums of all of away's
// columns together, four of home's rows (its mix's entries) at a time, read contiguously.
func (sp *gameSpace) worstReply(a int, home []mixEntry, ka []float64) float64 {
	var acc [env.NumLineups]float64
	e, reach := sp.entries, sp.reach[a]
	sums := acc[:len(reach)]
	j := 0
	for ; j+4 <= len(home); j += 4 {
		p0, p1, p2, p3 := home[j], home[j+1], home[j+2], home[j+3]
		w0, w1 := ka[int(p0.entry)*e:][:e], ka[int(p1.entry)*e:][:e]
		w2, w3 := ka[int(p2.entry)*e:][:e], ka[int(p3.entry)*e:][:e]
		for i, c := range reach {
			v := sums[i]
			v += p0.p * w0[c]
			v += p1.p * w1[c]
			v += p2.p * w2[c]
			v += p3.p * w3[c]
			sums[i] = v
		}
	}
	for ; j < len(home); j++ {
		p, row := home[j], ka[int(home[j].entry)*e:][:e]
		for i, c := range reach {
			sums[i] += p.p * row[c]
		}
	}
	worst := math.Inf(1)
	for _, v := range sums {
		worst = min(worst, v)
	}
	return worst
}

// replyValues writes the value (home's payoff) of each of home's replies at (h, a) to away's
// mix into hv (by home's reach list), and of each of away's to home's mix into av: replies'
// sums, kept, for a ReplyObserver. (replies keeps its own loops: it runs at every break of
// every verified solve, and a buffer there cost a 2 KB clear a break.)
func (sp *gameSpace) replyValues(h, a int, home, away []mixEntry, kh, ka, hv, av []float64) {
	e := sp.entries
	for i, r := range sp.reach[h] {
		row := kh[int(r)*e:]
		v := 0.0
		for _, q := range away {
			v += q.p * row[q.entry]
		}
		hv[i] = v
	}
	for i, c := range sp.reach[a] {
		v := 0.0
		for _, p := range home {
			v += p.p * ka[int(p.entry)*e+int(c)]
		}
		av[i] = v
	}
}

// played is home's payoff at a break where home plays its mix and away its own, each
// continued by kh: the pair's value (PlayPolicies).
func (sp *gameSpace) played(home, away []mixEntry, kh []float64) float64 {
	e, v := sp.entries, 0.0
	for _, p := range home {
		row := kh[int(p.entry)*e:][:e]
		for _, q := range away {
			v += p.p * q.p * row[q.entry]
		}
	}
	return v
}
