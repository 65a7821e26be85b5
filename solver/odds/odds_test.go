package odds_test

import (
	"context"
	"math"
	"testing"

	"github.com/kingoal/kingoal/solver/odds"

	"github.com/kingoal/kingoal/env"
)

func TestReferenceFigure(t *testing.T) {
	for _, tc := range []struct {
		r                env.Rules
		win, draw, goals float64
	}{
		{env.Rules{}, 0.4263056, 0.1473888, 3.7227816},
		{env.Rules{TiesCount: true}, 0.4162050, 0.1675900, 2.8501842},
	} {
		o, err := odds.MatchOdds(lu("2-2-2-2-2"), lu("2-2-2-2-2"), tc.r)
		if err != nil {
			t.Fatal(err)
		}
		near(t, "home win", o.HomeWin, tc.win, 5e-8)
		near(t, "away win", o.AwayWin, tc.win, 5e-8)
		near(t, "draw", o.Draw, tc.draw, 5e-8)
		near(t, "home goals", o.HomeGoals, tc.goals, 5e-8)
		near(t, "mass", o.Score.Total(), 1, 1e-12)
		near(t, "W+D+L", o.HomeWin+o.Draw+o.AwayWin, 1, 1e-12)
	}
}

// enumerate computes the same odds by walking every env.State a match can reach (states
// are comparable values), an independent method: no convolution, no per-period shortcut.
func enumerate(t *testing.T, home, away env.Lineup, r env.Rules) (score map[[2]int]float64, advance float64) {
	s, err := env.NewMatch(r, home, away)
	if err != nil {
		t.Fatal(err)
	}
	score = map[[2]int]float64{}
	dist := map[env.State]float64{s: 1}
	for round := 0; len(dist) > 0; round++ {
		left := 0.0
		for _, p := range dist {
			left += p
		}
		if left < 1e-17 {
			break
		}
		next := map[env.State]float64{}
		for st, p := range dist {
			if st.Node() == env.Decision { // only Dynamic shifts or breaks: keep
				n := st
				n.Apply([2]int{st.Lineup(env.Home).Index(), st.Lineup(env.Away).Index()})
				next[n] += p
				continue
			}
			for _, c := range st.ChanceOutcomes() {
				n := st
				n.ApplyChance(c.Outcome)
				if n.Node() == env.Terminal {
					score[[2]int{n.Goals(env.Home), n.Goals(env.Away)}] += p * c.Prob
					if w, ok := n.Winner(); ok && w == env.Home {
						advance += p * c.Prob
					}
					continue
				}
				next[n] += p * c.Prob
			}
		}
		dist = next
	}
	return score, advance
}

func TestMatchOddsEqualsEnumeration(t *testing.T) {
	for _, tc := range []struct {
		h, a string
		r    env.Rules
	}{
		{"1-2-3-3-1", "2-2-2-2-2", env.Rules{ThrowsPerHalf: 9}},
		{"5-2-1-1-1", "1-1-1-2-5", env.Rules{ThrowsPerHalf: 8, TiesCount: true}},
		{"1-1-3-3-2", "3-1-2-2-2", env.Rules{ThrowsPerHalf: 7, Knockout: true, ExtraThrowsPerHalf: 3}},
		{"2-3-2-2-1", "2-2-2-2-2", env.Rules{ThrowsPerHalf: 6, Knockout: true, ExtraThrowsPerHalf: env.NoExtraTime, TiesCount: true}},
		{"2-2-2-2-2", "1-2-3-3-1", env.Rules{ThrowsPerHalf: 6, Knockout: true, ExtraThrowsPerHalf: 4, Modes: [2]env.Mode{env.Dynamic, env.Basic}}},
	} {
		home, away := lu(tc.h), lu(tc.a)
		o, err := odds.MatchOdds(home, away, tc.r)
		if err != nil {
			t.Fatal(err)
		}
		score, advance := enumerate(t, home, away, tc.r)
		for h := 0; h <= o.Score.MaxGoals(); h++ {
			for a := 0; a <= o.Score.MaxGoals(); a++ {
				near(t, tc.h+" v "+tc.a+" score", o.Score.P(h, a), score[[2]int{h, a}], 1e-12)
			}
		}
		for k, p := range score {
			if k[0] > o.Score.MaxGoals() || k[1] > o.Score.MaxGoals() {
				t.Errorf("score %v (p=%g) outside the solver's support", k, p)
			}
		}
		// The enumeration adds millions of terms in map order; its own rounding reaches
		// ~1e-13 on aggregates over the shoot-out, hence the looser bound here.
		if d := o.HomeAdvance - advance; math.Abs(d) > 1e-11 {
			t.Errorf("%s v %s %v: advance: solver %.17g, enumeration %.17g, difference %g (draw %g)", tc.h, tc.a, tc.r, o.HomeAdvance, advance, d, o.Draw)
		}
		near(t, "mass", o.Score.Total(), 1, 1e-12)
		if o.Truncated > 1e-15 {
			t.Errorf("truncated %g", o.Truncated)
		}
	}
}

func TestMatchOddsSymmetry(t *testing.T) {
	for _, r := range []env.Rules{{}, {Knockout: true, TiesCount: true}} {
		for _, pair := range [][2]string{{"1-2-3-3-1", "2-2-2-2-2"}, {"5-1-1-1-2", "1-1-3-4-1"}} {
			ab, _ := odds.MatchOdds(lu(pair[0]), lu(pair[1]), r)
			ba, _ := odds.MatchOdds(lu(pair[1]), lu(pair[0]), r)
			near(t, "win mirrors loss", ab.HomeWin, ba.AwayWin, 1e-13)
			near(t, "draw", ab.Draw, ba.Draw, 1e-13)
			near(t, "goals", ab.HomeGoals, ba.AwayGoals, 1e-12)
			if r.Knockout {
				near(t, "advance", ab.HomeAdvance, 1-ba.HomeAdvance, 1e-13)
			}
			near(t, "score mirror", ab.Score.P(3, 1), ba.Score.P(1, 3), 1e-14)
		}
	}
	same, _ := odds.MatchOdds(lu("3-2-2-2-1"), lu("3-2-2-2-1"), env.Rules{Knockout: true})
	near(t, "a mirror match is a coin flip", same.HomeAdvance, 0.5, 1e-13)
}

// TestMatchOddsAgainstSimulator: exact odds against env.Simulate for several pairs and every
// knob. n = 30,000 matches; each share must be within 4.4 standard errors (two-sided
// α ≈ 1e-5 per check, ~150 checks: a correct solver fails a given seed with p < 0.2%, and
// the seeds are fixed, so the test is deterministic).
func TestMatchOddsAgainstSimulator(t *testing.T) {
	const n = 30000
	cases := []struct {
		h, a string
		r    env.Rules
	}{
		{"1-2-3-3-1", "2-2-2-2-2", env.Rules{}},
		{"5-2-1-1-1", "1-1-1-2-5", env.Rules{TiesCount: true}},
		{"1-1-3-3-2", "3-1-2-2-2", env.Rules{Knockout: true}},
		{"2-3-2-2-1", "2-2-3-2-1", env.Rules{Knockout: true, TiesCount: true, ExtraThrowsPerHalf: 5}},
		{"1-1-4-2-2", "2-2-2-2-2", env.Rules{Knockout: true, ExtraThrowsPerHalf: env.NoExtraTime, ThrowsPerHalf: 20}},
		{"3-3-2-1-1", "1-1-2-3-3", env.Rules{ThrowsPerHalf: 60, Moves: env.NoMoves, Points: env.Points{Win: 2, Draw: 1}}},
		{"2-2-2-2-2", "1-2-3-3-1", env.Rules{Modes: [2]env.Mode{env.Dynamic, env.Dynamic}, DynamicTrigger: env.TriggerTurnover}},
	}
	for i, tc := range cases {
		home, away := lu(tc.h), lu(tc.a)
		o, err := odds.MatchOdds(home, away, tc.r)
		if err != nil {
			t.Fatal(err)
		}
		sim, err := env.Simulate(context.Background(), env.SimConfig{Rules: tc.r, Home: home, Away: away, Matches: n, Seed: uint64(100 + i)})
		if err != nil {
			t.Fatal(err)
		}
		check := func(what string, exact float64, k int) {
			p, _, _ := sim.Share(k)
			se := math.Sqrt(max(exact*(1-exact), 1e-9) / n)
			if math.Abs(p-exact) > 4.4*se {
				t.Errorf("%s v %s %v: %s simulated %.4f, exact %.6f (bound ±%.4f)", tc.h, tc.a, tc.r, what, p, exact, 4.4*se)
			}
		}
		check("home win", o.HomeWin, sim.HomeWins)
		check("draw", o.Draw, sim.Draws)
		check("away win", o.AwayWin, sim.AwayWins)
		check("advance", o.HomeAdvance, sim.HomeAdvances)
		check("extra time", o.ExtraTime, sim.ExtraTime)
		check("shoot-out", o.Shootout, sim.Shootouts)
		for d := -3; d <= 3; d++ {
			exact := 0.0
			for h := 0; h <= o.Score.MaxGoals(); h++ {
				exact += o.Score.P(h, h-d)
			}
			check("goal difference", exact, sim.GoalDiff[d])
		}
		for _, p := range []env.Player{env.Home, env.Away} {
			mean, half := sim.MeanGoals(p)
			exact := o.HomeGoals
			if p == env.Away {
				exact = o.AwayGoals
			}
			if math.Abs(mean-exact) > 2.25*half {
				t.Errorf("%s v %s: %s mean goals simulated %.3f ± %.3f, exact %.4f", tc.h, tc.a, p, mean, half, exact)
			}
		}
	}
}

func TestThrowOddsErrors(t *testing.T) {
	if _, _, _, err := odds.ThrowOdds(0, 3, env.Rules{}); err == nil {
		t.Fatal("0 dice accepted")
	}
	h, a, tie, err := odds.ThrowOdds(2, 3, env.Rules{TiesCount: true})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "sum", h+a+tie, 1, 1e-15)
	if _, err := odds.MatchOdds(env.Lineup{}, lu("2-2-2-2-2"), env.Rules{}); err == nil {
		t.Fatal("invalid line-up accepted")
	}
}
