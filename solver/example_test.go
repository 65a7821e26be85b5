package solver_test

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
)

func ExampleMatchOdds() {
	l := env.MustParseLineup("2-2-2-2-2")
	o, _ := odds.MatchOdds(l, l, env.Rules{})
	fmt.Printf("home %.7f draw %.7f away %.7f goals %.7f\n", o.HomeWin, o.Draw, o.AwayWin, o.HomeGoals)
	s := o.Score.Likeliest(1)[0]
	fmt.Printf("likeliest score %d-%d (%.4f)\n", s.Home, s.Away, s.P)
	// Output:
	// home 0.4263056 draw 0.1473888 away 0.4263056 goals 3.7227816
	// likeliest score 3-4 (0.0473)
}

func ExampleEquilibrium() {
	m, _ := odds.Matrix(env.Rules{ThrowsPerHalf: 3, TiesCount: true})
	eq, _ := lineup.Equilibrium(m, lineup.PayoffWinLoss)
	for _, w := range eq.Home {
		fmt.Printf("%s %.4f\n", w.Lineup, w.Prob)
	}
	fmt.Printf("exploitability below 1e-9: %v\n", eq.Exploitability < 1e-9)
	// Output:
	// 1-2-3-2-2 0.7252
	// 1-1-4-2-2 0.2539
	// 1-2-4-1-2 0.0209
	// exploitability below 1e-9: true
}

func ExampleSolveBasic() {
	p, _ := solver.SolveBasic(solver.BasicProblem{
		Own:      env.MustParseLineup("2-2-2-2-2"),
		Opponent: env.MustParseLineup("1-3-3-2-1"),
	})
	fmt.Printf("P(win) %.4f, never moving %.4f\n", p.Value(), p.NoChangeValue())
	to, _ := p.Best(solver.BreakState{Period: env.SecondHalf, ThrowsLeft: 45, GoalDiff: -1, Own: env.MustParseLineup("2-2-2-2-2"), MovesLeft: 3})
	fmt.Println("1 down at half time:", to)
	// Output:
	// P(win) 0.4379, never moving 0.3176
	// 1 down at half time: 1-2-3-2-2
}

// A Basic coach with one move against a Dynamic one, 10-throw halves: the game's value to
// home, the kick-off line-ups, the check, and the Dynamic side's shift after winning a
// throw a goal down.
func ExampleSolveDynamicGame() {
	r := env.Rules{ThrowsPerHalf: 10, Moves: 1, Modes: [2]env.Mode{env.Basic, env.Dynamic}}
	g, err := solver.SolveDynamicGame(solver.GameProblem{Rules: r, Payoff: lineup.PayoffWinLoss, Verify: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	k := g.KickOff()
	c, _ := g.Check()
	fmt.Printf("value to home %+.4f, home %s, away %s, exploitability %.0g\n", g.Value(), k.Home[0].Lineup, k.Away[0].Lineup, c.Exploitability)
	away := k.Away[0].Lineup
	to, _ := g.ChoiceFor(env.Observation{Player: env.Away, Decision: env.Shift, Period: env.SecondHalf, ThrowsLeft: 6,
		Own: away, Opp: k.Home[0].Lineup, OwnMode: env.Dynamic, Ball: 3, OwnGoals: 0, OppGoals: 1, OppMovesLeft: 1, Possession: 1})
	fmt.Println(env.DescribeChange(away, to))
	// Output:
	// value to home -0.2746, home 1-2-4-2-1, away 1-2-5-1-1, exploitability 0
	// move 1 counter (sector 3 → 4): 1-2-5-1-1 → 1-2-4-2-1
}
