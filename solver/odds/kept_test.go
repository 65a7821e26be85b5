package odds_test

import (
	"math"
	"testing"

	"github.com/kingoal/kingoal/solver/odds"

	"github.com/kingoal/kingoal/env"
)

// TestKeptValuesAtKickOffEqualMatchSummary: right after kick-off the kept value is the
// match's P(home win) − P(away win) (in a knockout, by who goes through).
func TestKeptValuesAtKickOffEqualMatchSummary(t *testing.T) {
	for _, r := range []env.Rules{{}, {Knockout: true, TiesCount: true, ThrowsPerHalf: 20}, {Knockout: true, ExtraThrowsPerHalf: env.NoExtraTime}} {
		kv, err := odds.NewKeptValues(r)
		if err != nil {
			t.Fatal(err)
		}
		for _, pair := range [][2]string{{"2-2-2-2-2", "1-3-3-2-1"}, {"5-2-1-1-1", "1-1-1-2-5"}} {
			home, away := lu(pair[0]), lu(pair[1])
			s, _ := env.NewMatch(r, home, away)
			got, err := kv.Value(s)
			if err != nil {
				t.Fatal(err)
			}
			c, _ := odds.MatchSummary(home, away, r)
			want := c.HomeWin - c.AwayWin
			if r.Knockout {
				want = 2*c.HomeAdvance - 1
			}
			near(t, r.String()+" "+pair[0]+" v "+pair[1], got, want, 1e-12)
		}
	}
}

// TestKeptValuesAgainstSimulator: from mid-match states (ball off centre, a goal ahead, in
// the first half and in extra time) the kept value equals the mean result of 20,000 played
// continuations (fixed seeds) within 4.4 standard errors.
func TestKeptValuesAgainstSimulator(t *testing.T) {
	r := env.Rules{Knockout: true, ThrowsPerHalf: 12, ExtraThrowsPerHalf: 5}
	kv, _ := odds.NewKeptValues(r)
	home, away := lu("1-2-3-3-1"), lu("2-2-2-2-2")
	keep := [2]int{home.Index(), away.Index()}
	smp := env.NewFastSampler(env.SeededSource(5, 5))
	for _, stop := range []func(env.State) bool{
		func(s env.State) bool { return s.Period() == env.FirstHalf && s.ThrowsLeft() == 7 && s.Ball() != 3 },
		func(s env.State) bool {
			return s.Period() == env.SecondHalf && s.Goals(env.Home) != s.Goals(env.Away) && s.Ball() == 4
		},
		func(s env.State) bool { return s.Period() == env.ExtraFirst && s.ThrowsLeft() == 3 },
	} {
		var at env.State
		for found := false; !found; { // play until a state the case wants
			s, _ := env.NewMatch(r, home, away)
			for s.Node() != env.Terminal && !found {
				if s.Node() == env.Decision {
					s.Apply(keep)
				} else {
					s.ApplyChance(smp.Sample(s))
				}
				if s.Node() != env.Terminal && s.Period() <= env.ExtraSecond && stop(s) {
					at, found = s, true
				}
			}
		}
		want, err := kv.Value(at)
		if err != nil {
			t.Fatal(err)
		}
		const n = 20000
		sum, sq := 0.0, 0.0
		for range n {
			s := at
			for s.Node() != env.Terminal {
				if s.Node() == env.Decision {
					s.Apply(keep)
					continue
				}
				env.RunChance(&s, smp)
			}
			v := float64(s.Result(env.Home))
			sum, sq = sum+v, sq+v*v
		}
		mean := sum / n
		se := math.Sqrt((sq/n - mean*mean) / n)
		if math.Abs(mean-want) > 4.4*se {
			t.Errorf("%s %d left, ball %d, %d-%d: simulated %.4f, kept value %.6f (bound ±%.4f)", at.Period(), at.ThrowsLeft(), at.Ball(), at.Goals(env.Home), at.Goals(env.Away), mean, want, 4.4*se)
		}
	}
}
