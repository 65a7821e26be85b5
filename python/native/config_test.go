package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/env"
)

// FuzzParseConfig: whatever JSON Python sends, the options are refused with one line of the
// user's input class, or they make an environment.
func FuzzParseConfig(f *testing.F) {
	f.Add(`{"rules": {"throws_per_half": 10, "knockout": true}, "opponent": "heuristic", "player": "away"}`)
	f.Add(`{"rules": {"moves": 0, "points": "2,1,0", "home_mode": "dynamic"}, "opponent": "mcts:iters=5", "reward": "goal-diff", "dice": "rolled"}`)
	f.Add(`{"rules": {"throws_per_hlf": 10}}`)
	f.Add(`{"opponent": "qlearning", "max_steps": -1}`)
	f.Add(`{"rules": [1, 2]}`)
	f.Add(`not json`)
	f.Fuzz(func(t *testing.T, data string) {
		cfg, opponent, _, err := parseConfig([]byte(data))
		if err != nil {
			var in inputError
			if !errors.As(err, &in) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("not a one-line input error: %v", err)
			}
			return
		}
		if cfg.Opponent, err = opponent(); err != nil {
			t.Fatalf("the opponent built once, then failed: %v", err)
		}
		if _, err := env.New(cfg); err != nil {
			t.Fatalf("accepted options that make no environment: %v", err)
		}
	})
}
