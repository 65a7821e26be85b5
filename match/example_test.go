package match_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/match"
)

// Two agents play a short match; the same seed plays the same match.
func ExampleAgents() {
	m := match.Agents{Rules: env.Rules{ThrowsPerHalf: 6}, Specs: [2]string{"heuristic", "fixed:2-2-2-2-2"}, Seed: 7}
	goals := 0
	end, err := m.Play(context.Background(), func(e env.Event) {
		if e.After.Goals(env.Home)+e.After.Goals(env.Away) > goals {
			goals++
			fmt.Println(e.Describe())
		}
	})
	if err != nil {
		panic(err)
	}
	fmt.Printf("final score %d-%d\n", end.Goals(env.Home), end.Goals(env.Away))
	// Output:
	// H2 4 ball 5: 1 die v 3 → home wins: GOAL 1-0
	// H2 1 ball 5: 1 die v 3 → home wins: GOAL 2-0; full time 2-0, home wins
	// final score 2-0
}

// A person's match stops where their Ask has no answer yet (ErrStopped), at that prompt: the
// play page plays a game again up to its next decision so.
func ExampleHuman() {
	m := match.Human{Rules: env.Rules{ThrowsPerHalf: 6}, Opponent: "random", Seed: 3}
	answers := []int{env.MustParseLineup("1-2-3-3-1").Index()}
	ask := func(q match.Prompt) (int, error) {
		if len(answers) == 0 {
			return 0, match.ErrStopped
		}
		a := answers[0]
		answers = answers[1:]
		return a, nil
	}
	at, err := m.Play(context.Background(), ask, nil)
	fmt.Println(errors.Is(err, match.ErrStopped), at.Decision(), at.Period(), at.Lineup(env.Home))
	// Output:
	// true break second half 1-2-3-3-1
}
