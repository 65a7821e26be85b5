package policy_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/odds"
	"github.com/kingoal/kingoal/solver/policy"
)

// objectiveOf scores a finished env state for player p, straight from env's results.
func objectiveOf(o odds.Objective, s env.State, p env.Player) float64 {
	switch o {
	case odds.ObjectivePoints:
		return float64(s.LeaguePoints(p))
	case odds.ObjectiveWinDraw:
		return float64(s.Result(p)+1) / 2
	}
	if s.Result(p) == 1 {
		return 1
	}
	return 0
}

// expectimax is the optimal value by brute force over env states: p maximises over its
// legal actions at every decision, the opponent keeps its line-up, chance is enumerated.
// kickedOff is the match under r with p on own and the opponent on opp, just kicked off.
func kickedOff(r env.Rules, p env.Player, own, opp env.Lineup) env.State {
	home, away := own, opp
	if p == env.Away {
		home, away = away, home
	}
	s, _ := env.NewMatch(r, home, away)
	return s
}

// It shares nothing with the solver but env.
func expectimax(s env.State, p env.Player, o odds.Objective, memo map[env.State]float64) float64 {
	return expectimaxVs(s, p, o, nil, memo)
}

// expectimaxVs is expectimax against an opponent playing opp (nil: keeping its line-up).
func expectimaxVs(s env.State, p env.Player, o odds.Objective, opp policy.Policy, memo map[env.State]float64) float64 {
	if v, ok := memo[s]; ok {
		return v
	}
	var v float64
	switch {
	case s.Node() == env.Terminal:
		v = objectiveOf(o, s, p)
	case s.Period() == env.Penalties:
		v = shootoutValue(s, p, o)
	case s.Node() == env.Chance:
		for _, c := range s.ChanceOutcomes() {
			n := s
			n.ApplyChance(c.Outcome)
			v += c.Prob * expectimaxVs(n, p, o, opp, memo)
		}
	default:
		v = math.Inf(-1)
		theirs := s.Lineup(p.Other()).Index()
		if opp != nil && s.Acting(p.Other()) {
			a, err := opp.Action(s, p.Other())
			if err != nil {
				panic(err)
			}
			theirs = a
		}
		for _, a := range s.Legal(p).Actions() {
			var joint [2]int
			joint[p], joint[p.Other()] = a, theirs
			n := s
			if err := n.ApplyChecked(joint); err != nil {
				panic(err)
			}
			v = max(v, expectimaxVs(n, p, o, opp, memo))
		}
	}
	memo[s] = v
	return v
}

// shootoutValue walks the shoot-out forward (no decisions happen there; sudden death is
// unbounded, so it stops when less than 1e-17 of the mass is left).
func shootoutValue(s env.State, p env.Player, o odds.Objective) float64 {
	v := 0.0
	dist := map[env.State]float64{s: 1}
	for left := 1.0; left > 1e-17; {
		next := map[env.State]float64{}
		left = 0
		for st, q := range dist {
			for _, c := range st.ChanceOutcomes() {
				n := st
				n.ApplyChance(c.Outcome)
				if n.Node() == env.Terminal {
					v += q * c.Prob * objectiveOf(o, n, p)
				} else {
					next[n] += q * c.Prob
					left += q * c.Prob
				}
			}
		}
		dist = next
	}
	return v
}

func TestSolveBasicEqualsExpectimax(t *testing.T) {
	for _, tc := range []struct {
		r        env.Rules
		p        env.Player
		own, opp string
		obj      odds.Objective
	}{
		{env.Rules{ThrowsPerHalf: 5, Moves: 1}, env.Home, "2-2-2-2-2", "1-3-3-2-1", odds.ObjectiveWin},
		{env.Rules{ThrowsPerHalf: 4, Moves: 2, TiesCount: true}, env.Away, "1-2-3-3-1", "2-2-2-2-2", odds.ObjectivePoints},
		{env.Rules{ThrowsPerHalf: 4, Moves: 1, Points: env.Points{Win: 2, Draw: 1}}, env.Home, "3-1-2-2-2", "2-2-2-2-2", odds.ObjectivePoints},
		{env.Rules{ThrowsPerHalf: 4, Moves: 1, Knockout: true, ExtraThrowsPerHalf: 3}, env.Home, "1-1-3-3-2", "2-2-3-2-1", odds.ObjectiveAdvance},
		{env.Rules{ThrowsPerHalf: 3, Moves: 2, Knockout: true, ExtraThrowsPerHalf: env.NoExtraTime}, env.Away, "2-2-2-2-2", "1-2-3-3-1", odds.ObjectiveWinDraw},
	} {
		pol, err := policy.SolveBasic(policy.BasicProblem{Rules: tc.r, Player: tc.p, Own: lu(tc.own), Opponent: lu(tc.opp), Objective: tc.obj})
		if err != nil {
			t.Fatal(err)
		}
		want := expectimax(kickedOff(tc.r, tc.p, lu(tc.own), lu(tc.opp)), tc.p, tc.obj, map[env.State]float64{})
		near(t, tc.r.String()+" "+tc.obj.String()+" optimal value", pol.Value(), want, 1e-12)
		if pol.Value() < pol.NoChangeValue()-1e-15 {
			t.Errorf("value %v below no-change %v", pol.Value(), pol.NoChangeValue())
		}
	}
}

// TestBasicPolicyAgainstSimulator plays the policy in env.Env (fixed seeds) and compares the
// mean objective with the policy's value: 20,000 matches, bound 4.4 standard errors.
func TestBasicPolicyAgainstSimulator(t *testing.T) {
	for _, tc := range []struct {
		r   env.Rules
		p   env.Player
		obj odds.Objective
	}{
		{env.Rules{}, env.Home, odds.ObjectiveWin},
		{env.Rules{Knockout: true, TiesCount: true, ThrowsPerHalf: 20, ExtraThrowsPerHalf: 6}, env.Away, odds.ObjectiveAdvance},
		{env.Rules{Moves: 2, ThrowsPerHalf: 25}, env.Home, odds.ObjectivePoints},
	} {
		own, opp := lu("2-2-2-2-2"), lu("1-3-3-2-1")
		pol, err := policy.SolveBasic(policy.BasicProblem{Rules: tc.r, Player: tc.p, Own: own, Opponent: opp, Objective: tc.obj})
		if err != nil {
			t.Fatal(err)
		}
		const n = 20000
		e, _ := env.New(env.Config{Rules: tc.r, Player: tc.p, Opponent: env.Keep(opp)})
		sum, sq := 0.0, 0.0
		for i := range n {
			end := playMatch(t, e, uint64(i)+1000, own, env.Break, func(s env.State) (env.Lineup, error) {
				return pol.Best(policy.BreakStateOf(s, tc.p))
			})
			v := objectiveOf(tc.obj, end, tc.p)
			sum += v
			sq += v * v
		}
		mean := sum / n
		se := math.Sqrt(max(sq/n-mean*mean, 1e-12) / n)
		if math.Abs(mean-pol.Value()) > 4.4*se {
			t.Errorf("%v %v: simulated %.4f, exact %.6f (bound ±%.4f)", tc.r, tc.obj, mean, pol.Value(), 4.4*se)
		}
		if pol.Value() <= pol.NoChangeValue() {
			t.Errorf("%v %v: moving should help here: %v ≤ %v", tc.r, tc.obj, pol.Value(), pol.NoChangeValue())
		}
	}
}

func TestBasicPolicyIdentities(t *testing.T) {
	own, opp := lu("1-2-3-3-1"), lu("2-2-3-2-1")
	for _, r := range []env.Rules{{ThrowsPerHalf: 12}, {ThrowsPerHalf: 9, Knockout: true, ExtraThrowsPerHalf: 4}} {
		o, _ := odds.MatchOdds(own, opp, r)
		pts := 3*o.HomeWin + o.Draw
		for obj, want := range map[odds.Objective]float64{
			odds.ObjectiveWin: o.HomeWin, odds.ObjectivePoints: pts, odds.ObjectiveWinDraw: o.HomeWin + o.Draw/2,
		} {
			if r.Knockout && obj != odds.ObjectivePoints {
				want = o.HomeAdvance
			}
			pol, err := policy.SolveBasic(policy.BasicProblem{Rules: r, Own: own, Opponent: opp, Objective: obj})
			if err != nil {
				t.Fatal(err)
			}
			near(t, "no-change value = MatchOdds "+obj.String(), pol.NoChangeValue(), want, 1e-12)
			// Home and away are symmetric: the same problem from the away side has the same value.
			as, err := policy.SolveBasic(policy.BasicProblem{Rules: r, Player: env.Away, Own: own, Opponent: opp, Objective: obj})
			if err != nil {
				t.Fatal(err)
			}
			near(t, "home/away symmetry", as.Value(), pol.Value(), 1e-12)
			other := lu("3-1-2-2-2") // ValueFrom answers for every starting line-up
			from, err := policy.SolveBasic(policy.BasicProblem{Rules: r, Own: other, Opponent: opp, Objective: obj})
			if err != nil {
				t.Fatal(err)
			}
			near(t, "ValueFrom", pol.ValueFrom(other), from.Value(), 1e-15)
		}
	}
	pol, _ := policy.SolveBasic(policy.BasicProblem{Rules: env.Rules{ThrowsPerHalf: 45}, Own: own, Opponent: opp})
	rng := rand.New(rand.NewPCG(1, 1))
	for range 200 { // Act always returns a line-up within the budget, and ValueAt ≥ keeping.
		s := policy.BreakState{Period: env.Period(1 + rng.IntN(2)), ThrowsLeft: 1 + rng.IntN(45), GoalDiff: rng.IntN(7) - 3, Own: env.LineupAt(rng.IntN(121)), MovesLeft: rng.IntN(4)}
		to, err := pol.Best(s)
		if err != nil || s.Own.Moves(to) > s.MovesLeft {
			t.Fatalf("%+v → %v (%v)", s, to, err)
		}
	}
	for _, bad := range []policy.BreakState{{Period: env.Penalties, ThrowsLeft: 1, Own: own}, {Period: env.FirstHalf, ThrowsLeft: 46, Own: own}, {Period: env.FirstHalf, ThrowsLeft: 3}} {
		if _, err := pol.Best(bad); err == nil {
			t.Errorf("Act accepted %+v", bad)
		}
	}
	if _, err := policy.SolveBasic(policy.BasicProblem{Own: own, Opponent: opp, Objective: odds.ObjectiveAdvance}); err == nil {
		t.Error("advance in a league accepted")
	}
}

// TestBestResponseToAPolicy: the opponent plays its own optimal policy (computed against
// our keeping our line-up); our best response to it is checked against brute force, against
// Evaluate through env, and must do at least as well as our fixed-opponent policy does.
func TestBestResponseToAPolicy(t *testing.T) {
	for _, r := range []env.Rules{
		{ThrowsPerHalf: 5, Moves: 2},
		{ThrowsPerHalf: 4, Moves: 1, Knockout: true, ExtraThrowsPerHalf: 2, TiesCount: true},
	} {
		own, opp := lu("2-2-2-2-2"), lu("1-2-3-3-1")
		obj := odds.ObjectiveWinDraw
		theirs, err := policy.SolveBasic(policy.BasicProblem{Rules: r, Player: env.Away, Own: opp, Opponent: own, Objective: obj})
		if err != nil {
			t.Fatal(err)
		}
		br, err := policy.SolveBasic(policy.BasicProblem{Rules: r, Own: own, Opponent: opp, OpponentBreaks: policy.Playing(theirs), Objective: obj})
		if err != nil {
			t.Fatal(err)
		}
		s, _ := env.NewMatch(r, own, opp)
		want := expectimaxVs(s, env.Home, obj, theirs, map[env.State]float64{})
		near(t, r.String()+": best response value", br.Value(), want, 1e-12)
		ev, err := policy.Evaluate(br, theirs, r)
		if err != nil {
			t.Fatal(err)
		}
		near(t, "Evaluate(best response)", ev.Objective(obj, env.Home, r), br.Value(), 1e-12)
		naive, _ := policy.SolveBasic(policy.BasicProblem{Rules: r, Own: own, Opponent: opp, Objective: obj})
		nv, err := policy.Evaluate(naive, theirs, r)
		if err != nil {
			t.Fatal(err)
		}
		if nv.Objective(obj, env.Home, r) > br.Value()+1e-12 {
			t.Errorf("the fixed-opponent policy beats the best response: %v > %v", nv.Objective(obj, env.Home, r), br.Value())
		}
		if br.Breaks() == 0 {
			t.Error("no breaks solved")
		}
	}
}

// playMatch plays one episode of e from seed: own at kick-off, decide at decisions of kind,
// keeping the line-up otherwise; it returns the final state.
func playMatch(t *testing.T, e *env.Env, seed uint64, own env.Lineup, kind env.DecisionKind, decide func(env.State) (env.Lineup, error)) env.State {
	t.Helper()
	obs, _ := e.Reset(seed)
	for {
		a := own.Index()
		switch obs.Decision {
		case env.KickOff:
		case kind:
			l, err := decide(e.State())
			if err != nil {
				t.Fatal(err)
			}
			a = l.Index()
		default:
			a = obs.Own.Index()
		}
		tr, err := e.Step(a)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Terminated || tr.Truncated {
			return e.State()
		}
		obs = tr.Obs
	}
}
