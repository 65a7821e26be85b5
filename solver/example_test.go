package solver_test

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver"
)

func ExampleMatchOdds() {
	l := env.MustParseLineup("2-2-2-2-2")
	o, _ := solver.MatchOdds(l, l, env.Rules{})
	fmt.Printf("home %.7f draw %.7f away %.7f goals %.7f\n", o.HomeWin, o.Draw, o.AwayWin, o.HomeGoals)
	s := o.Score.Likeliest(1)[0]
	fmt.Printf("likeliest score %d-%d (%.4f)\n", s.Home, s.Away, s.P)
	// Output:
	// home 0.4263056 draw 0.1473888 away 0.4263056 goals 3.7227816
	// likeliest score 3-4 (0.0473)
}

func ExampleEquilibrium() {
	m, _ := solver.Matrix(env.Rules{ThrowsPerHalf: 3, TiesCount: true})
	eq, _ := solver.Equilibrium(m, solver.PayoffWinLoss)
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
