package agents_test

import (
	"fmt"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
)

// Two agents from the registry play a match of 10-throw halves: the heuristic against a
// fixed line-up, the dice drawn from seed 7.
func ExampleNew() {
	r := env.Rules{ThrowsPerHalf: 10}
	home, err := agents.New("heuristic", agents.Setup{Rules: r})
	if err != nil {
		fmt.Println(err)
		return
	}
	away, err := agents.New("fixed:1-3-3-2-1", agents.Setup{Rules: r})
	if err != nil {
		fmt.Println(err)
		return
	}
	start, err := env.NewState(r)
	if err != nil {
		fmt.Println(err)
		return
	}
	end, err := env.Play(start, home, away, env.NewFastSampler(env.SeededSource(7, 0)), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("heuristic %d, fixed:1-3-3-2-1 %d; deterministic: %v\n", end.Goals(env.Home), end.Goals(env.Away), env.IsDeterministic(home))
	// Output:
	// heuristic 1, fixed:1-3-3-2-1 0; deterministic: true
}
