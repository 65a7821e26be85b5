package lineup_test

import (
	"math"
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
)

// TestEquilibriumBestResponse: for every payoff and several rule sets, no home line-up does
// better against the away mix than the value, and no away line-up does better against the
// home mix (checked here through BestResponses, independently of Equilibrium's own check).
func TestEquilibriumBestResponse(t *testing.T) {
	// Default rules have a pure saddle point (1-3-3-2-1); 3-throw halves with ties-count
	// have a mixed equilibrium over three line-ups, which exercises the LP on real data.
	for _, r := range []env.Rules{{}, {Knockout: true, TiesCount: true}, {ThrowsPerHalf: 5}, {ThrowsPerHalf: 3, TiesCount: true}} {
		m, err := odds.Matrix(r)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []lineup.Payoff{lineup.PayoffWinLoss, lineup.PayoffGoalDiff, lineup.PayoffPoints, lineup.PayoffAdvance} {
			eq, err := lineup.Equilibrium(m, p)
			if p == lineup.PayoffAdvance && !r.Knockout {
				if err == nil {
					t.Error("advance accepted for a league")
				}
				continue
			}
			if err != nil {
				t.Fatalf("%v %v: %v", r, p, err)
			}
			replies, err := lineup.BestResponses(m, p, eq.Away)
			if err != nil {
				t.Fatal(err)
			}
			if replies[0].Payoff > eq.Value+1e-9 {
				t.Errorf("%v %v: %s gets %.12f against the away mix, value %.12f", r, p, replies[0].Lineup, replies[0].Payoff, eq.Value)
			}
			// The game is symmetric (home and away have the same rules), so its value is 0
			// and the home mix, seen from away, is equally unexploitable.
			if math.Abs(eq.Value) > 1e-9 {
				t.Errorf("%v %v: value %v of a symmetric game", r, p, eq.Value)
			}
			total := 0.0
			for _, w := range eq.Home {
				total += w.Prob
			}
			if r.ThrowsPerHalf == 3 && (len(eq.Home) < 2 || len(eq.Away) < 2) {
				t.Errorf("%v %v: expected a mixed equilibrium, got %v", r, p, eq.Home)
			}
			if math.Abs(total-1) > 1e-9 || eq.Exploitability > 1e-9 || eq.Exploitability < 0 {
				t.Errorf("%v %v: mix sums to %v, exploitability %v", r, p, total, eq.Exploitability)
			}
		}
	}
}

func TestBestResponsesToALineup(t *testing.T) {
	m, _ := odds.Matrix(env.Rules{})
	target := lu("2-2-2-2-2")
	replies, err := lineup.BestResponses(m, lineup.PayoffWinLoss, []env.Weighted{{Lineup: target, Prob: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if len(replies) != env.NumLineups {
		t.Fatalf("%d replies", len(replies))
	}
	for i := 1; i < len(replies); i++ {
		if replies[i].Payoff > replies[i-1].Payoff {
			t.Fatal("replies not ranked")
		}
	}
	o, _ := odds.MatchOdds(replies[0].Lineup, target, env.Rules{})
	near(t, "best reply's odds", replies[0].HomeWin, o.HomeWin, 1e-12)
	if replies[0].Payoff <= 0 {
		t.Errorf("some line-up must beat 2-2-2-2-2: best %v", replies[0])
	}
	if _, err := lineup.BestResponses(m, lineup.PayoffWinLoss, []env.Weighted{{Lineup: target, Prob: 0.5}}); err == nil {
		t.Error("a mix summing to 0.5 was accepted")
	}
}

// TestMixPayoffs: home's are BestResponses' payoffs; away's, read from the other side of the
// matrix, equal home's by the pitch's mirror symmetry (two different cells of MatchOdds).
func TestMixPayoffs(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 12}
	m, _ := odds.Matrix(r)
	mix := []env.Weighted{{Lineup: lu("2-2-2-2-2"), Prob: 0.25}, {Lineup: lu("1-3-3-2-1"), Prob: 0.75}}
	home, err := lineup.MixPayoffs(m, lineup.PayoffWinLoss, env.Home, mix)
	if err != nil {
		t.Fatal(err)
	}
	away, _ := lineup.MixPayoffs(m, lineup.PayoffWinLoss, env.Away, mix)
	replies, _ := lineup.BestResponses(m, lineup.PayoffWinLoss, mix)
	for _, rp := range replies {
		i := rp.Lineup.Index()
		near(t, "home v BestResponses "+rp.Lineup.String(), home[i], rp.Payoff, 1e-15)
		near(t, "away mirrors home "+rp.Lineup.String(), away[i], home[i], 1e-12)
	}
	if _, err := lineup.MixPayoffs(m, lineup.PayoffWinLoss, env.Away, mix[:1]); err == nil {
		t.Error("a mix summing to 0.25 was accepted")
	}
}
