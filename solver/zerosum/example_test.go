package zerosum_test

import (
	"fmt"
	"math"

	"github.com/kingoal/kingoal/solver/zerosum"
)

// Rock, paper, scissors: each side mixes the three evenly and the game is worth 0; the
// answer is checked against every pure reply.
func ExampleSolveMatrixGame() {
	g, err := zerosum.SolveMatrixGame([][]float64{
		{0, -1, 1},
		{1, 0, -1},
		{-1, 1, 0},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("value %.3f, row mix %.3f, column mix %.3f, exploitability below 1e-12: %v\n", math.Abs(g.Value), g.X, g.Y, g.Exploitability < 1e-12)
	// Output:
	// value 0.000, row mix [0.333 0.333 0.333], column mix [0.333 0.333 0.333], exploitability below 1e-12: true
}
