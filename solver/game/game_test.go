package game_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/policy"
)

// TestGameEquilibriumIsVerified: for league and knockout rules, every payoff, ties rethrown
// or counted, one and two moves, each side's best response to the other's equilibrium
// strategy gains at most 1e-9 over the game's value — found by Verify, and again by
// SolveBasic against the strategy as a mixed opponent, a solve that shares nothing with the
// game's recursion but the rules (the two agree to 1e-12).
func TestGameEquilibriumIsVerified(t *testing.T) {
	cases := []struct {
		r env.Rules
		p lineup.Payoff
	}{
		{env.Rules{ThrowsPerHalf: 5, Moves: 1}, lineup.PayoffWinLoss},
		{env.Rules{ThrowsPerHalf: 5, Moves: 1}, lineup.PayoffGoalDiff},
		{env.Rules{ThrowsPerHalf: 4, Moves: 2, TiesCount: true}, lineup.PayoffWinLoss},
		{env.Rules{ThrowsPerHalf: 4, Moves: 1, Knockout: true, ExtraThrowsPerHalf: 2}, lineup.PayoffAdvance},
		{env.Rules{ThrowsPerHalf: 3, Moves: 2, Knockout: true, ExtraThrowsPerHalf: env.NoExtraTime}, lineup.PayoffWinLoss},
	}
	if testing.Short() { // the race stage: one league and one knockout case
		cases = []struct {
			r env.Rules
			p lineup.Payoff
		}{cases[0], cases[3]}
	}
	for _, c := range cases {
		g, err := game.Solve(game.Problem{Rules: c.r, Payoff: c.p})
		if err != nil {
			t.Fatalf("%v %v: %v", c.r, c.p, err)
		}
		check, err := game.Verify(context.Background(), g, nil)
		if err != nil {
			t.Fatalf("%v %v: %v", c.r, c.p, err)
		}
		// The same best responses by SolveBasic, which shares nothing with the game's
		// recursion but the rules and the strategy.
		other, err := game.VerifyByBasic(context.Background(), g)
		if err != nil {
			t.Fatalf("%v %v: %v", c.r, c.p, err)
		}
		if math.Abs(check.HomeBest-other.HomeBest) > 1e-12 || math.Abs(check.AwayBest-other.AwayBest) > 1e-12 {
			t.Errorf("%v %v: best responses %.15f / %.15f by backward induction, %.15f / %.15f by SolveBasic", c.r, c.p,
				check.HomeBest, check.AwayBest, other.HomeBest, other.AwayBest)
		}
		st := g.Stats()
		t.Logf("%v %v: value %.3g, best responses %.3g / %.3g, %d stage games (%d LPs)", c.r, c.p, g.Value(), check.HomeBest, check.AwayBest, st.StageGames, st.LPs)
		if !(check.Exploitability <= 1e-9) || check.Exploitability < -1e-12 ||
			math.Abs(check.HomeBest-g.Value()) > 1e-9 || math.Abs(check.AwayBest-g.Value()) > 1e-9 {
			t.Errorf("%v %v: value %.12f, best responses %.12f / %.12f, exploitability %.3g", c.r, c.p, g.Value(), check.HomeBest, check.AwayBest, check.Exploitability)
		}
		if st.LPs == 0 {
			t.Errorf("%v %v: no stage game needed an LP: the test would not exercise mixed play", c.r, c.p)
		}
	}
}

// TestGameAtAnswers: the equilibrium at a break is a pair of mixes over legal line-ups,
// keeps when nothing can change the result, and refuses what the game does not hold.
func TestGameAtAnswers(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 5, Moves: 1}
	g, err := game.Solve(game.Problem{Rules: r, Payoff: lineup.PayoffWinLoss})
	if err != nil {
		t.Fatal(err)
	}
	ko := g.KickOff()
	home, away := ko.Home[0].Lineup, ko.Away[0].Lineup
	// Half time of 5-throw halves: one goal at most so far (a goal takes three throws).
	if _, err := g.At(game.State{Period: env.SecondHalf, ThrowsLeft: 5, GoalDiff: 2, Home: home, Away: away, HomeMoves: 1, AwayMoves: 1}); !errors.Is(err, game.ErrNotSolved) {
		t.Errorf("two goals up at half time of 5-throw halves (no match gets there): %v", err)
	}
	for d := -1; d <= 1; d++ {
		s := game.State{Period: env.SecondHalf, ThrowsLeft: 5, GoalDiff: d, Home: home, Away: away, HomeMoves: 1, AwayMoves: 1}
		sol, err := g.At(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, side := range []struct {
			mix []env.Weighted
			cur env.Lineup
		}{{sol.Home, home}, {sol.Away, away}} {
			sum := 0.0
			for _, w := range side.mix {
				sum += w.Prob
				if side.cur.Moves(w.Lineup) > 1 || w.Prob <= 0 {
					t.Errorf("difference %d: %v with probability %v from %v", d, w.Lineup, w.Prob, side.cur)
				}
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Errorf("difference %d: the mix sums to %v", d, sum)
			}
		}
		if d != 0 && math.Abs(sol.Value) > 1 || d > 0 && sol.Value <= 0 || d < 0 && sol.Value >= 0 {
			t.Errorf("difference %d at half time: value %v", d, sol.Value)
		}
	}
	// Three goals up with two throws left: nothing can change the result (a goal takes
	// three throws from kick-off).
	sol, err := g.At(game.State{Period: env.SecondHalf, ThrowsLeft: 2, GoalDiff: 3, Home: home, Away: away, HomeMoves: 1, AwayMoves: 1})
	if err != nil || sol.Value != 1 || sol.Home[0].Lineup != home || sol.Away[0].Lineup != away {
		t.Errorf("a decided break: %+v, %v", sol, err)
	}
	for _, bad := range []game.State{
		{Period: env.ExtraFirst, ThrowsLeft: 3, Home: home, Away: away},
		{Period: env.SecondHalf, ThrowsLeft: 6, Home: home, Away: away},
		{Period: env.SecondHalf, ThrowsLeft: 3, Home: home},
	} {
		if _, err := g.At(bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// TestGameRefusesWhatItCannotSolve: Dynamic players, the points payoff, advance in a league,
// and a game beyond the memory bound are refused before any work.
func TestGameRefusesWhatItCannotSolve(t *testing.T) {
	dyn := env.Rules{ThrowsPerHalf: 3}
	dyn.Modes[env.Away] = env.Dynamic
	for _, p := range []game.Problem{
		{Rules: dyn},
		{Rules: env.Rules{ThrowsPerHalf: 3}, Payoff: lineup.PayoffPoints},
		{Rules: env.Rules{ThrowsPerHalf: 3}, Payoff: lineup.PayoffAdvance},
	} {
		if _, err := game.Solve(p); err == nil {
			t.Errorf("%+v accepted", p)
		}
	}
	_, err := game.Solve(game.Problem{Rules: env.Rules{}, MaxBytes: 1 << 30})
	if !errors.Is(err, policy.ErrTooLarge) {
		t.Errorf("default rules under 1 GiB: %v", err)
	}
}
