package arena_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/datasets"
)

// TestRatingsRecoverKnownStrengths draws 6,000 matches from the Davidson model with known
// strengths and checks the fit: every rating within 30 points of the truth (the standard
// error here is about 10 points, so 3 SE), and inside its bootstrap interval.
func TestRatingsRecoverKnownStrengths(t *testing.T) {
	truth := []float64{-0.6, 0, 0.2, 0.4} // log-strengths, centred below
	nu := 0.4
	rng := rand.New(rand.NewPCG(1, 2))
	var rows []datasets.MatchRow
	for k := range 6000 {
		i, j := rng.IntN(4), rng.IntN(3)
		if j >= i {
			j++
		}
		pi, pj := math.Exp(truth[i]), math.Exp(truth[j])
		pd := nu * math.Sqrt(pi*pj)
		u := rng.Float64() * (pi + pj + pd)
		r := datasets.MatchRow{MatchID: int64(k), HomeIndex: int32(i), AwayIndex: int32(j), Result: "draw"}
		switch {
		case u < pi:
			r.Result = "home"
		case u < pi+pj:
			r.Result = "away"
		}
		rows = append(rows, r)
	}
	specs := []string{"a", "b", "c", "d"}
	got, err := arena.Ratings(context.Background(), tallyOf(t, rows, 4), specs, 100, 7)
	if err != nil {
		t.Fatal(err)
	}
	mean := 0.0
	for _, x := range truth {
		mean += x / 4
	}
	for _, r := range got {
		want := (truth[r.Index] - mean) * 400 / math.Ln10
		if math.Abs(r.Rating-want) > 30 || !(r.Low <= want && want <= r.High) {
			t.Errorf("%s: rating %.1f [%.1f, %.1f], truth %.1f", r.Agent, r.Rating, r.Low, r.High, want)
		}
	}
	if got[0].Agent != "d" || got[3].Agent != "a" {
		t.Errorf("order %v", got)
	}
	again, _ := arena.Ratings(context.Background(), tallyOf(t, rows, 4), specs, 100, 7)
	for i := range got {
		if got[i] != again[i] {
			t.Fatal("the bootstrap is not reproducible for a seed")
		}
	}
	if _, err := arena.Ratings(context.Background(), arena.NewTally(4), specs, 10, 1); err == nil {
		t.Error("no matches accepted")
	}
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := arena.Ratings(stopped, tallyOf(t, rows, 4), specs, 100, 7); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled fit: %v", err)
	}
	for n, want := range map[int]int{2: 200, 64: 200, 128: 50, 600: 20, 2048: 20} {
		if got := arena.RatingBootstrapFor(n); got != want {
			t.Errorf("RatingBootstrapFor(%d) = %d, want %d", n, got, want)
		}
	}
}
