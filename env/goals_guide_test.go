package env

import (
	"math/rand/v2"
	"sort"
	"testing"
)

// TestGoalGuideFindsTheFirstThreshold holds jump's guided walk (firstGoal) to a plain binary search:
// for every u below a period's last threshold, both find the first throw k with
// u < cum[k] — at the thresholds themselves, a step either side and at random — for laws
// of several line-up pairs, tie rules and lengths (one throw to MaxGoalLawThrows).
func TestGoalGuideFindsTheFirstThreshold(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct {
		home, away string
		ties       bool
		n          int
	}{{"1-2-3-3-1", "2-2-2-2-2", false, 45}, {"5-2-1-1-1", "1-1-1-2-5", true, MaxGoalLawThrows}, {"1-1-2-1-5", "4-3-1-1-1", false, 1}, {"3-3-2-1-1", "1-1-2-3-3", true, 20}} {
		l := newGoalLaw(MustParseLineup(c.home), MustParseLineup(c.away), c.ties, c.n)
		for throws := 1; throws <= c.n; throws++ {
			last := l.cum[throws-1]
			if last == 0 {
				continue // nobody can score this soon: jump never searches
			}
			us := []uint64{0, last - 1}
			for _, x := range l.cum[:throws] {
				us = append(us, x, x-1, x+1)
			}
			for range 200 {
				us = append(us, rng.Uint64N(last))
			}
			for _, u := range us {
				if u >= last {
					continue
				}
				want := sort.Search(throws, func(k int) bool { return u < l.cum[k] })
				if got := l.firstGoal(u); got != want {
					t.Fatalf("%s v %s, ties %v, %d throws left, u=%#x: guided walk found throw %d, search %d", c.home, c.away, c.ties, throws, u, got, want)
				}
			}
		}
	}
}

// TestGoalEndCountsTheFirstThreshold holds the branch-free count of jump's end state to
// the first i with u < end[i], at every threshold and a step either side.
func TestGoalEndCountsTheFirstThreshold(t *testing.T) {
	l := newGoalLaw(MustParseLineup("1-2-3-3-1"), MustParseLineup("2-2-2-2-2"), true, 45)
	for k := range l.end {
		end := &l.end[k]
		for _, x := range end {
			for _, u := range []uint64{x - 1, x, x + 1} {
				want := 0
				for want < goalStates-1 && u >= end[want] {
					want++
				}
				if got := endState(u, end); got != want {
					t.Fatalf("throw %d, u=%#x: counted state %d, first threshold above u is %d", k, u, got, want)
				}
			}
		}
	}
}
