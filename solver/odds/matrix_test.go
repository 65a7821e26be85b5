package odds_test

import (
	"context"
	"errors"
	"testing"

	"github.com/kingoal/kingoal/solver/odds"

	"github.com/kingoal/kingoal/env"
)

// TestMatrixEqualsMatchOdds: every 7th cell of the matrix (summary DP on goal differences)
// against MatchOdds (joint score DP), for league and knockout rules with several knobs.
func TestMatrixEqualsMatchOdds(t *testing.T) {
	for _, r := range []env.Rules{{}, {Knockout: true, TiesCount: true}, {Knockout: true, ExtraThrowsPerHalf: env.NoExtraTime, ThrowsPerHalf: 30}} {
		m, err := odds.ComputeMatrix(context.Background(), r, odds.MatrixOptions{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < env.NumLineups*env.NumLineups; k += 7 {
			h, a := k/env.NumLineups, k%env.NumLineups
			o, err := odds.MatchOdds(env.LineupAt(h), env.LineupAt(a), r)
			if err != nil {
				t.Fatal(err)
			}
			c := m.At(h, a)
			for _, f := range [][3]any{
				{"home win", c.HomeWin, o.HomeWin}, {"draw", c.Draw, o.Draw}, {"away win", c.AwayWin, o.AwayWin},
				{"home goals", c.HomeGoals, o.HomeGoals}, {"away goals", c.AwayGoals, o.AwayGoals}, {"advance", c.HomeAdvance, o.HomeAdvance},
			} {
				near(t, f[0].(string), f[1].(float64), f[2].(float64), 1e-12)
			}
			if t.Failed() {
				t.Fatalf("cell %s v %s under %v", env.LineupAt(h), env.LineupAt(a), r)
			}
		}
	}
}

func TestMatrixIsDeterministic(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 10}
	a, _ := odds.ComputeMatrix(context.Background(), r, odds.MatrixOptions{Workers: 1})
	b, _ := odds.ComputeMatrix(context.Background(), r, odds.MatrixOptions{Workers: 3})
	for h := range env.NumLineups {
		for w := range env.NumLineups {
			if a.At(h, w) != b.At(h, w) {
				t.Fatalf("cell %d,%d differs between 1 and 3 workers", h, w)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := odds.ComputeMatrix(ctx, r, odds.MatrixOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	if _, err := odds.Matrix(env.Rules{ThrowsPerHalf: -1}); err == nil {
		t.Fatal("bad rules accepted")
	}
}
