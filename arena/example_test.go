package arena_test

import (
	"context"
	"fmt"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/env"
)

// A cup of five agents: a bracket of eight, byes (−1) to the top three seeds, seeds 4 and 5
// open; the top two seeds can meet only in the final.
func ExamplePlan_Bracket() {
	c, err := arena.NewPlan(context.Background(), arena.Config{Format: arena.Knockout, Agents: []string{"optimal", "heuristic", "mcts", "random", "fixed:2-2-2-2-2"},
		Rules: env.Rules{Knockout: true}, Matches: 10})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Bracket(0))
	fmt.Println(c.TotalMatches(), "matches in", c.Matches, "cups of", arena.Rounds(len(c.Agents)), "rounds:", arena.RoundName(1, 3), "first")
	// Output:
	// [0 -1 3 4 1 -1 2 -1]
	// 40 matches in 10 cups of 3 rounds: quarter-final first
}
