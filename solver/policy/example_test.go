package policy_test

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/policy"
)

func ExampleSolveBasic() {
	p, _ := policy.SolveBasic(policy.BasicProblem{
		Own:      env.MustParseLineup("2-2-2-2-2"),
		Opponent: env.MustParseLineup("1-3-3-2-1"),
	})
	fmt.Printf("P(win) %.4f, never moving %.4f\n", p.Value(), p.NoChangeValue())
	to, _ := p.Best(policy.BreakState{Period: env.SecondHalf, ThrowsLeft: 45, GoalDiff: -1, Own: env.MustParseLineup("2-2-2-2-2"), MovesLeft: 3})
	fmt.Println("1 down at half time:", to)
	// Output:
	// P(win) 0.4379, never moving 0.3176
	// 1 down at half time: 1-2-3-2-2
}
