package game

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/lineup"
)

// TestRowRepliesAreReplies: a row's replies through its blocks are replies' own numbers, bit
// for bit, whatever the mixes — a softmax's (every entry, ascending), part of the entries,
// entries out of order (summed by replies itself), a few — and a skipped side is 0.
func TestRowRepliesAreReplies(t *testing.T) {
	sp := newGameSpace(3)
	e := sp.entries
	rng := rand.New(rand.NewPCG(7, 41))
	kh, ka := make([]float64, e*e), make([]float64, e*e)
	for i := range kh {
		kh[i], ka[i] = rng.Float64()*2-1, rng.Float64()*2-1
	}
	mix := func(over []int32, kind int) []mixEntry {
		entries := slices.Clone(over)
		slices.Sort(entries)
		switch kind {
		case 1: // part, ascending
			entries = slices.DeleteFunc(entries, func(int32) bool { return rng.IntN(4) == 0 })
		case 2: // out of order
			rng.Shuffle(len(entries), func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
		case 3: // a few
			entries = entries[:min(len(entries), 1+rng.IntN(3))]
		}
		out, total := make([]mixEntry, len(entries)), 0.0
		for i, x := range entries {
			out[i] = mixEntry{x, rng.Float64()}
			total += out[i].p
		}
		for i := range out {
			out[i].p /= total
		}
		return out
	}
	var rr rowReplier
	checked, blocked := 0, 0
	for range 12 {
		h := rng.IntN(e)
		rr.startRow(sp, h)
		for a := range e {
			home, away := mix(sp.reach[h], rng.IntN(4)), mix(sp.reach[a], rng.IntN(4))
			wantBest, wantWorst := sp.replies(h, a, home, away, kh, ka)
			best, worst := rr.replies(sp, h, a, home, away, kh, ka, [2]bool{})
			if math.Float64bits(best) != math.Float64bits(wantBest) || math.Float64bits(worst) != math.Float64bits(wantWorst) {
				t.Fatalf("break (%d, %d), mixes of %d and %d: %v, %v; replies: %v, %v", h, a, len(home), len(away), best, worst, wantBest, wantWorst)
			}
			if rr.worthIt(len(home)) && rr.spreadHome(home) {
				blocked++
			}
			if b, w := rr.replies(sp, h, a, home, away, kh, ka, [2]bool{true, true}); b != 0 || w != 0 {
				t.Fatalf("skipped sides answered %v, %v", b, w)
			}
			checked++
		}
	}
	if blocked < checked/4 {
		t.Fatalf("only %d of %d breaks went through the blocks", blocked, checked)
	}
}

// TestSkipLeavesTheOtherResponse: a side's best response skipped is NaN, the other's is the
// same number as when both are solved.
func TestSkipLeavesTheOtherResponse(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 3, Moves: 1} // skipping does not depend on the moves: 2 took minutes under -race
	solve := func(skip [2]bool) Check {
		c, err := RespondToPolicies(PolicyProblem{Rules: r, Payoff: lineup.PayoffWinLoss, Workers: 2, Skip: skip,
			Policies: func(int) (Policy, Policy, error) { return uniformPolicy{}, uniformPolicy{}, nil }})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	both := solve([2]bool{})
	if home := solve([2]bool{env.Away: true}); home.HomeBest != both.HomeBest || home.HomeReply != both.HomeReply || !math.IsNaN(home.AwayBest) || !math.IsNaN(home.Exploitability) {
		t.Errorf("away skipped: %+v; both: %+v", home, both)
	}
	if away := solve([2]bool{env.Home: true}); away.AwayBest != both.AwayBest || away.AwayReply != both.AwayReply || !math.IsNaN(away.HomeBest) {
		t.Errorf("home skipped: %+v; both: %+v", away, both)
	}
	if both.Exploitability <= 0 {
		t.Errorf("a uniform policy unexploitable: %+v", both)
	}
}
