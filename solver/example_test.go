package solver_test

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

// Solve a short game with a Dynamic away side and play its decisions: the front door
// returns a Game, and what it can do is asked for as an ability.
func Example() {
	r := env.Rules{ThrowsPerHalf: 3, Moves: 1, Modes: [2]env.Mode{env.Basic, env.Dynamic}}
	g, err := solver.Solve(game.Problem{Rules: r, Payoff: lineup.PayoffWinLoss, Verify: true})
	if err != nil {
		panic(err)
	}
	c, _ := g.Check()
	_, mixes := g.(solver.BreakMixes)
	_, decisions := g.(solver.Decisions)
	fmt.Printf("verified %v; mixes at breaks %v, pure decisions %v\n", c.Verified(), mixes, decisions)
	// Output: verified true; mixes at breaks false, pure decisions true
}
