package lineup_test

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
)

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
