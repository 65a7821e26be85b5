package game_test

import (
	"fmt"
	"math"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

// The substitution game of 3-throw halves with one move a side, for win-loss: its value to
// home (0: the pitch is symmetric), the kick-off mixes' sizes and the check by both best
// responses.
func ExampleSolve() {
	g, err := game.Solve(game.Problem{Rules: env.Rules{ThrowsPerHalf: 3, Moves: 1}, Payoff: lineup.PayoffWinLoss, Verify: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	k := g.KickOff()
	c, _ := g.Check()
	fmt.Printf("value %.4f, %d and %d line-ups in the kick-off mixes, exploitability below 1e-12: %v\n", math.Abs(g.Value()), len(k.Home), len(k.Away), c.Exploitability < 1e-12)
	// Output:
	// value 0.0000, 3 and 3 line-ups in the kick-off mixes, exploitability below 1e-12: true
}
