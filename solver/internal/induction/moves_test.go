package induction

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/kingoal/kingoal/env"
)

// The move search through partial line-ups (BestWithin) against a plain one: for values K of
// every (line-up, budget), the best of a single player who can make m moves one at a time is
// the largest K(l', m') over the line-ups l' at most m − m' moves away; the line-up it names
// has that value. Three budgets, random values, fixed seeds.
func TestBestWithinIsThePlainSearch(t *testing.T) {
	const moves = 3
	neighbours := make([][]int, env.NumLineups)
	for l := range neighbours {
		for _, n := range env.LineupAt(l).Reachable(1).Actions() {
			if n != l {
				neighbours[l] = append(neighbours[l], n)
			}
		}
	}
	e := NewEntryLayout(env.Lineup{}, 0, moves, neighbours)
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 3 {
		k := make([]float64, e.Size)
		for i := range k {
			k[i] = rng.Float64()
		}
		wv, wt := make([]float64, e.Size), make([]uint8, e.Size)
		e.BestWithin(k, wv, wt)
		for l := range env.NumLineups {
			from := env.LineupAt(l)
			for m := 0; m <= moves; m++ {
				best := math.Inf(-1)
				for to := range env.NumLineups {
					d := from.Moves(env.LineupAt(to))
					for left := 0; left <= m-d; left++ {
						best = max(best, k[e.Entry(env.LineupAt(to), left)])
					}
				}
				i := e.Entry(from, m)
				if math.Abs(wv[i]-best) > ChangeTolerance {
					t.Fatalf("trial %d, %v with %d moves: the search found %v, the plain search %v", trial, from, m, wv[i], best)
				}
				if to := env.LineupAt(int(wt[i])); from.Moves(to) > m {
					t.Fatalf("trial %d, %v with %d moves: it names %v, %d moves away", trial, from, m, to, from.Moves(to))
				}
			}
		}
	}
}

// ReachLists holds each entry itself first, then every other line-up within the budget
// with what is left of it.
func TestReachLists(t *testing.T) {
	lists := ReachLists(2)
	for l := range env.NumLineups {
		for m := 0; m <= 2; m++ {
			list := lists[l*3+m]
			if list[0] != int32(l*3+m) {
				t.Fatalf("(%d, %d): starts with %d", l, m, list[0])
			}
			want := 1
			for to := range env.NumLineups {
				if to != l && env.LineupAt(l).Moves(env.LineupAt(to)) <= m {
					want++
				}
			}
			if len(list) != want {
				t.Fatalf("(%d, %d): %d entries, want %d", l, m, len(list), want)
			}
		}
	}
}

// BestKeepingTies keeps index 0 unless another value gains more than ChangeTolerance.
func TestBestKeepingTies(t *testing.T) {
	for _, tc := range []struct {
		values []float64
		want   int
	}{
		{[]float64{1, 1, 1}, 0},
		{[]float64{1, 1 + ChangeTolerance/2, 0}, 0},
		{[]float64{1, 2, 3}, 2},
		{[]float64{1, 3, 3}, 1},
	} {
		if got, v := BestKeepingTies(len(tc.values), func(i int) float64 { return tc.values[i] }); got != tc.want || v != tc.values[got] {
			t.Errorf("%v: %d (%v), want %d", tc.values, got, v, tc.want)
		}
	}
}
