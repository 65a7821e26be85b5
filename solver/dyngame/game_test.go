package dyngame

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
	"github.com/kingoal/kingoal/solver/policy"
)

var (
	dd = [2]env.Mode{env.Dynamic, env.Dynamic}
	bd = [2]env.Mode{env.Basic, env.Dynamic}
	db = [2]env.Mode{env.Dynamic, env.Basic}
)

// dynamicCases are tiny rule sets covering every mode pair, both triggers, league and
// knockout, ties, and the three payoffs.
var dynamicCases = []struct {
	r env.Rules
	p lineup.Payoff
}{
	{env.Rules{ThrowsPerHalf: 3, Moves: 1, Modes: dd}, lineup.PayoffWinLoss},
	{env.Rules{ThrowsPerHalf: 3, Moves: 1, Modes: bd, DynamicTrigger: env.TriggerTurnover}, lineup.PayoffGoalDiff},
	{env.Rules{ThrowsPerHalf: 3, Moves: 2, Modes: db, TiesCount: true}, lineup.PayoffWinLoss},
	{env.Rules{ThrowsPerHalf: 2, Knockout: true, ExtraThrowsPerHalf: 1, Modes: dd, DynamicTrigger: env.TriggerTurnover, TiesCount: true}, lineup.PayoffAdvance},
	{env.Rules{ThrowsPerHalf: 2, Moves: 1, Knockout: true, ExtraThrowsPerHalf: 2, Modes: bd}, lineup.PayoffWinLoss},
	{env.Rules{ThrowsPerHalf: 2, Moves: 1, Knockout: true, ExtraThrowsPerHalf: 1, Modes: db, DynamicTrigger: env.TriggerTurnover}, lineup.PayoffAdvance},
}

// engineRecursion values a match by walking env's own states: every chance outcome with
// its probability, home's best and away's worst action at every break and shift — no
// layers, no configurations, no possession slots: the engine's rules alone.
type engineRecursion struct {
	p    lineup.Payoff
	memo map[env.State]float64
}

func (e *engineRecursion) value(s env.State) float64 {
	if v, ok := e.memo[s]; ok {
		return v
	}
	var v float64
	switch {
	case s.Period() == env.Penalties: // a loop (sudden death): its law is env's enumeration's
		v = 0
		if e.p == lineup.PayoffAdvance {
			so, err := odds.ShootoutLaw()
			if err != nil {
				panic(err)
			}
			v = 2*so.Home - 1
		}
	case s.Node() == env.Terminal:
		v = e.terminal(s)
	case s.Node() == env.Chance:
		for _, o := range s.ChanceOutcomes() {
			c := s
			c.ApplyChance(o.Outcome)
			v += o.Prob * e.value(c)
		}
	default:
		p := e.actor(s)
		best := math.Inf(2*int(p) - 1) // −∞ for home, +∞ for away
		for _, a := range s.Legal(p).Actions() {
			joint := [2]int{s.Lineup(env.Home).Index(), s.Lineup(env.Away).Index()}
			joint[p] = a
			c := s
			c.Apply(joint)
			if p == env.Home {
				best = max(best, e.value(c))
			} else {
				best = min(best, e.value(c))
			}
		}
		v = best
	}
	e.memo[s] = v
	return v
}

func (e *engineRecursion) actor(s env.State) env.Player {
	if s.Decision() == env.Shift {
		return s.Shifter()
	}
	if s.Acting(env.Home) {
		return env.Home
	}
	return env.Away
}

func (e *engineRecursion) terminal(s env.State) float64 {
	d := s.Goals(env.Home) - s.Goals(env.Away)
	switch e.p {
	case lineup.PayoffGoalDiff:
		return float64(d)
	case lineup.PayoffAdvance:
		if w, _ := s.Winner(); w == env.Away {
			return -1
		}
		return 1
	}
	return float64(odds.Sign(d))
}

// TestDynamicGameIsTheEnginesRecursion: for every rule set, from kick-offs drawn with a
// fixed seed, the solve's value at every throw, break and shift a match can meet equals
// the engine's recursion to 1e-12; the strategy's choice there reaches the best value; the
// choice read from the decider's observation is the same; and the whole strategy's
// exploitability (both best responses) is ≤ 1e-9.
func TestDynamicGameIsTheEnginesRecursion(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 1))
	cases := dynamicCases
	if testing.Short() { // the race stage: one of each mode pair
		cases = []struct {
			r env.Rules
			p lineup.Payoff
		}{dynamicCases[0], dynamicCases[1], dynamicCases[5]}
	}
	for _, c := range cases {
		g, err := solveDynamicGame(game.Problem{Rules: c.r, Payoff: c.p, Verify: true}, true)
		if err != nil {
			t.Fatalf("%v: %v", c.r, err)
		}
		if chk, _ := g.Check(); chk.Exploitability > 1e-9 || chk.Exploitability < -1e-9 {
			t.Errorf("%v %v: exploitability %.3g", c.r, c.p, chk.Exploitability)
		}
		e := &engineRecursion{p: c.p, memo: map[env.State]float64{}}
		states := 0
		for range 6 {
			h, a := env.LineupAt(rng.IntN(env.NumLineups)), env.LineupAt(rng.IntN(env.NumLineups))
			s, err := env.NewMatch(c.r, h, a)
			if err != nil {
				t.Fatal(err)
			}
			states += compareDynamic(t, g, e, s, map[env.State]bool{})
		}
		if states < 100 {
			t.Errorf("%v: only %d states compared", c.r, states)
		}
		t.Logf("%v, %v: %d states compared", c.r, c.p, states)
	}
}

// compareDynamic compares g with e at s and every state after it, and returns how many.
func compareDynamic(t *testing.T, g *Game, e *engineRecursion, s env.State, seen map[env.State]bool) int {
	if seen[s] || s.Node() == env.Terminal || s.Period() >= env.Penalties {
		return 0
	}
	seen[s] = true
	want := e.value(s)
	got, err := g.valueAt(s)
	if err != nil {
		t.Fatalf("%v: %v", s, err)
	}
	if math.Abs(got-want) > 1e-12 {
		t.Fatalf("%v: solve %.15g, engine %.15g", s, got, want)
	}
	n := 1
	if s.Node() == env.Chance {
		for _, o := range s.ChanceOutcomes() {
			c := s
			c.ApplyChance(o.Outcome)
			n += compareDynamic(t, g, e, c, seen)
		}
		return n
	}
	p := e.actor(s)
	choice, err := g.Choice(s)
	if err != nil {
		t.Fatalf("%v: %v", s, err)
	}
	if alt, err := g.ChoiceFor(s.Observe(p)); err != nil || alt != choice {
		t.Fatalf("%v: the observation's choice %v (%v), the state's %v", s, alt, err, choice)
	}
	for _, a := range s.Legal(p).Actions() {
		joint := [2]int{s.Lineup(env.Home).Index(), s.Lineup(env.Away).Index()}
		joint[p] = a
		c := s
		c.Apply(joint)
		if a == choice.Index() && math.Abs(e.value(c)-want) > 1e-12 {
			t.Fatalf("%v: the strategy's %v is worth %.15g, the best %.15g", s, choice, e.value(c), want)
		}
		n += compareDynamic(t, g, e, c, seen)
	}
	return n
}

// TestDynamicGameSymmetricIsZero: with both sides Dynamic the rules are symmetric, so the
// game is worth 0 (the shoot-out's coin is fair).
func TestDynamicGameSymmetricIsZero(t *testing.T) {
	for _, r := range []env.Rules{
		{ThrowsPerHalf: 4, Modes: dd},
		{ThrowsPerHalf: 4, Modes: dd, DynamicTrigger: env.TriggerTurnover, TiesCount: true},
		{ThrowsPerHalf: 3, Knockout: true, ExtraThrowsPerHalf: 1, Modes: dd},
	} {
		p := lineup.PayoffWinLoss
		if r.Knockout {
			p = lineup.PayoffAdvance
		}
		g, err := Solve(game.Problem{Rules: r, Payoff: p})
		if err != nil {
			t.Fatal(err)
		}
		if v := g.Value(); math.Abs(v) > 1e-12 {
			t.Errorf("%v: value %.3g, want 0", r, v)
		}
	}
}

// TestDynamicGameWithAKeeperIsSolvePolicy: when the Basic side has no moves it keeps its
// line-up, and the Dynamic side's value from every kick-off is SolveDynamic's best response
// to that keeper — a different solver (one side's recursion, no configurations).
func TestDynamicGameWithAKeeperIsSolvePolicy(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 2))
	for _, c := range []struct {
		r   env.Rules
		p   lineup.Payoff
		obj odds.Objective
	}{
		{env.Rules{ThrowsPerHalf: 5, Moves: env.NoMoves, Modes: db}, lineup.PayoffWinLoss, odds.ObjectiveWinLoss},
		{env.Rules{ThrowsPerHalf: 5, Moves: env.NoMoves, Modes: bd, DynamicTrigger: env.TriggerTurnover}, lineup.PayoffGoalDiff, odds.ObjectiveGoalDiff},
		{env.Rules{ThrowsPerHalf: 3, Moves: env.NoMoves, Modes: bd, Knockout: true, ExtraThrowsPerHalf: 2, TiesCount: true}, lineup.PayoffWinLoss, odds.ObjectiveWinLoss},
	} {
		g, err := solveDynamicGame(game.Problem{Rules: c.r, Payoff: c.p}, true)
		if err != nil {
			t.Fatal(err)
		}
		dyn := env.Home
		if c.r.Modes[env.Away] == env.Dynamic {
			dyn = env.Away
		}
		compareKickOffs(t, g, rng, 8, dyn, func(own, opp env.Lineup) (float64, error) {
			pol, err := policy.SolveDynamic(policy.DynamicProblem{Rules: c.r, Player: dyn, Own: own, Opponent: opp, Objective: c.obj})
			if err != nil {
				return 0, err
			}
			return pol.Value(), nil
		})
	}
}

// compareKickOffs compares g's value after n kick-offs drawn from rng with want(own, opp): the
// value to side me, starting with own against opp, by another solver (to 1e-12).
func compareKickOffs(t *testing.T, g *Game, rng *rand.Rand, n int, me env.Player, want func(own, opp env.Lineup) (float64, error)) {
	t.Helper()
	r := g.Problem.Rules
	for range n {
		h, a := env.LineupAt(rng.IntN(env.NumLineups)), env.LineupAt(rng.IntN(env.NumLineups))
		s, err := env.NewMatch(r, h, a)
		if err != nil {
			t.Fatal(err)
		}
		got, err := g.valueAt(s)
		if err != nil {
			t.Fatal(err)
		}
		own, opp, sign := h, a, 1.0
		if me == env.Away {
			own, opp, sign = a, h, -1
		}
		w, err := want(own, opp)
		if err != nil {
			t.Fatal(err)
		}
		if w *= sign; math.Abs(got-w) > 1e-12 {
			t.Errorf("%v, %v v %v: game %.15g, the one-sided solve %.15g", r, h, a, got, w)
		}
	}
}

// TestDynamicGameRefusesAndStops: a game over the memory bound is refused before anything
// is solved, one without a Dynamic side or with advance in a league is refused, and a
// cancelled context stops the solve with its error.
func TestDynamicGameRefusesAndStops(t *testing.T) {
	r := env.Rules{Modes: bd}
	if _, err := Solve(game.Problem{Rules: r, MaxBytes: 1 << 20}); !errors.Is(err, policy.ErrTooLarge) {
		t.Errorf("1 MiB bound: %v, want ErrTooLarge", err)
	}
	if _, err := Solve(game.Problem{Rules: env.Rules{ThrowsPerHalf: 3}}); err == nil {
		t.Error("no Dynamic side: solved")
	}
	if _, err := Solve(game.Problem{Rules: env.Rules{ThrowsPerHalf: 3, Modes: dd}, Payoff: lineup.PayoffAdvance}); err == nil {
		t.Error("advance in a league: solved")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Solve(game.Problem{Rules: env.Rules{ThrowsPerHalf: 6, Modes: dd}, Context: ctx}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestDynamicGameWithAForcedKeeperIsSolvePolicy: a side forced to keep at every decision of
// the game — a Dynamic side that never shifts, so the other side's best response to a known
// line-up is all that is left — gives the other side's one-sided solve: SolveDynamic when
// that side is Dynamic, SolveBasic (its moves at breaks) when it is Basic.
func TestDynamicGameWithAForcedKeeperIsSolvePolicy(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 3))
	for _, c := range []struct {
		r    env.Rules
		kept env.Player
	}{
		{env.Rules{ThrowsPerHalf: 5, Modes: dd}, env.Away},
		{env.Rules{ThrowsPerHalf: 5, Modes: dd, DynamicTrigger: env.TriggerTurnover}, env.Home},
		{env.Rules{ThrowsPerHalf: 5, Moves: 2, Modes: bd}, env.Away},
		{env.Rules{ThrowsPerHalf: 3, Moves: 1, Modes: db, Knockout: true, ExtraThrowsPerHalf: 2}, env.Home},
	} {
		p := game.Problem{Rules: c.r, Payoff: lineup.PayoffWinLoss}
		p.Keep[c.kept] = true
		g, err := solveDynamicGame(p, true)
		if err != nil {
			t.Fatal(err)
		}
		me := c.kept.Other()
		compareKickOffs(t, g, rng, 6, me, func(own, opp env.Lineup) (float64, error) {
			if c.r.Modes[me] == env.Dynamic {
				pol, err := policy.SolveDynamic(policy.DynamicProblem{Rules: c.r, Player: me, Own: own, Opponent: opp, Objective: odds.ObjectiveWinLoss})
				if err != nil {
					return 0, err
				}
				return pol.Value(), nil
			}
			basic := c.r
			basic.Modes[c.kept] = env.Basic // a keeper: SolveBasic's opponent keeps whatever its mode
			pol, err := policy.SolveBasic(policy.BasicProblem{Rules: basic, Player: me, Own: own, Opponent: opp, Objective: odds.ObjectiveWinLoss})
			if err != nil {
				return 0, err
			}
			return pol.Value(), nil
		})
	}
}
