package policy_test

import (
	"math"
	"testing"
	"time"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/odds"
	"github.com/kingoal/kingoal/solver/policy"
)

func TestSolveDynamicEqualsExpectimax(t *testing.T) {
	dyn := func(p env.Player) [2]env.Mode {
		var m [2]env.Mode
		m[p] = env.Dynamic
		return m
	}
	for _, tc := range []struct {
		r        env.Rules
		p        env.Player
		own, opp string
		obj      odds.Objective
	}{
		{env.Rules{ThrowsPerHalf: 4, Modes: dyn(env.Home)}, env.Home, "2-2-2-2-2", "1-3-3-2-1", odds.ObjectiveWin},
		{env.Rules{ThrowsPerHalf: 4, Modes: dyn(env.Away), DynamicTrigger: env.TriggerTurnover, TiesCount: true}, env.Away, "1-2-3-3-1", "2-2-2-2-2", odds.ObjectivePoints},
		{env.Rules{ThrowsPerHalf: 3, Modes: [2]env.Mode{env.Dynamic, env.Dynamic}, Knockout: true, ExtraThrowsPerHalf: 2}, env.Home, "1-1-3-3-2", "2-2-3-2-1", odds.ObjectiveAdvance},
		{env.Rules{ThrowsPerHalf: 3, Modes: dyn(env.Away), Knockout: true, ExtraThrowsPerHalf: env.NoExtraTime, DynamicTrigger: env.TriggerTurnover}, env.Away, "3-1-2-2-2", "1-2-3-3-1", odds.ObjectiveWinDraw},
	} {
		pol, err := policy.SolveDynamic(policy.DynamicProblem{Rules: tc.r, Player: tc.p, Own: lu(tc.own), Opponent: lu(tc.opp), Objective: tc.obj})
		if err != nil {
			t.Fatal(err)
		}
		want := expectimax(kickedOff(tc.r, tc.p, lu(tc.own), lu(tc.opp)), tc.p, tc.obj, map[env.State]float64{})
		near(t, tc.r.String()+" "+tc.obj.String()+" optimal value", pol.Value(), want, 1e-12)
		// Playing Act exactly, through env, gives the same value.
		var hp, ap policy.Policy = pol, policy.Keeping{Lineup: lu(tc.opp)}
		if tc.p == env.Away {
			hp, ap = ap, hp
		}
		ev, err := policy.Evaluate(hp, ap, tc.r)
		if err != nil {
			t.Fatal(err)
		}
		near(t, "Evaluate(policy)", ev.Objective(tc.obj, tc.p, tc.r), want, 1e-12)
		if pol.Value() < pol.NoChangeValue()-1e-15 {
			t.Errorf("value %v below never shifting %v", pol.Value(), pol.NoChangeValue())
		}
	}
}

// TestPoliciesEvaluateToTheirValue: Evaluate (forward over env states) reproduces the
// backward-induction values of full-length Basic and Dynamic policies, and of keeping.
func TestPoliciesEvaluateToTheirValue(t *testing.T) {
	own, opp := lu("2-2-2-2-2"), lu("1-3-3-2-1")
	r := env.Rules{}
	bp, err := policy.SolveBasic(policy.BasicProblem{Rules: r, Own: own, Opponent: opp})
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	ev, err := policy.Evaluate(bp, policy.Keeping{Lineup: opp}, r)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Evaluate of a full Basic policy: %v", time.Since(began))
	// Evaluate sums over millions of map entries: bounds are relative to ~1e-11.
	near(t, "basic", ev.HomeWin, bp.Value(), 1e-11)
	near(t, "mass", ev.HomeWin+ev.Draw+ev.AwayWin, 1, 1e-12)

	dr := env.Rules{Modes: [2]env.Mode{env.Basic, env.Dynamic}, ThrowsPerHalf: 12, Knockout: true, ExtraThrowsPerHalf: 4}
	dp, err := policy.SolveDynamic(policy.DynamicProblem{Rules: dr, Player: env.Away, Own: own, Opponent: opp, Objective: odds.ObjectiveAdvance})
	if err != nil {
		t.Fatal(err)
	}
	ev, err = policy.Evaluate(policy.Keeping{Lineup: opp}, dp, dr)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "dynamic", ev.Objective(odds.ObjectiveAdvance, env.Away, dr), dp.Value(), 1e-11)
	if !(dp.Value() > dp.NoChangeValue()) {
		t.Errorf("shifting should help: %v vs %v", dp.Value(), dp.NoChangeValue())
	}

	kk, err := policy.Evaluate(policy.Keeping{Lineup: own}, policy.Keeping{Lineup: opp}, dr)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := odds.MatchOdds(own, opp, dr)
	near(t, "keeping = MatchOdds", kk.HomeAdvance, o.HomeAdvance, 1e-11)
	near(t, "keeping goals", kk.HomeGoals, o.HomeGoals, 1e-10)
	// The Dynamic player is away: its no-change value is MatchOdds(opp, own) from away's side.
	rev, _ := odds.MatchOdds(opp, own, dr)
	near(t, "dynamic no-change = MatchOdds", dp.NoChangeValue(), 1-rev.HomeAdvance, 1e-12)
}

// TestDynamicPolicyAgainstSimulator plays the Dynamic policy through env.Env: 20,000 matches,
// bound 4.4 standard errors.
func TestDynamicPolicyAgainstSimulator(t *testing.T) {
	r := env.Rules{Modes: [2]env.Mode{env.Dynamic, env.Basic}, ThrowsPerHalf: 30, DynamicTrigger: env.TriggerTurnover}
	own, opp := lu("2-2-2-2-2"), lu("1-2-4-2-1")
	pol, err := policy.SolveDynamic(policy.DynamicProblem{Rules: r, Own: own, Opponent: opp, Objective: odds.ObjectiveWin})
	if err != nil {
		t.Fatal(err)
	}
	e, _ := env.New(env.Config{Rules: r, Opponent: env.Keep(opp)})
	const n = 20000
	wins := 0
	for i := range n {
		if end := playMatch(t, e, uint64(i)+5000, own, env.Shift, pol.BestIn); end.Result(env.Home) == 1 {
			wins++
		}
	}
	p := float64(wins) / n
	v := pol.Value()
	if se := math.Sqrt(v * (1 - v) / n); math.Abs(p-v) > 4.4*se {
		t.Errorf("simulated %.4f, exact %.6f (bound ±%.4f)", p, v, 4.4*se)
	}
}

// TestEvaluateIsBitwiseReproducible: Evaluate walks states in a fixed order, so repeated
// runs agree to the last bit (summing in Go's random map order would not).
func TestEvaluateIsBitwiseReproducible(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 8, Knockout: true, ExtraThrowsPerHalf: 2, Modes: [2]env.Mode{env.Dynamic, env.Basic}}
	own, opp := lu("2-2-2-2-2"), lu("1-2-3-3-1")
	dp, err := policy.SolveDynamic(policy.DynamicProblem{Rules: r, Own: own, Opponent: opp, Objective: odds.ObjectiveAdvance})
	if err != nil {
		t.Fatal(err)
	}
	first, _ := policy.Evaluate(dp, policy.Keeping{Lineup: opp}, r)
	for range 5 {
		if again, _ := policy.Evaluate(dp, policy.Keeping{Lineup: opp}, r); again != first {
			t.Fatalf("Evaluate differs between runs: %+v v %+v", again, first)
		}
	}
}
