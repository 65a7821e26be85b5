package main

import (
	"encoding/json"
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

// FuzzReplay: whatever history Python hands back, the environment replays it, or refuses it
// with one line of the user's input class and stays usable (a Reset works).
func FuzzReplay(f *testing.F) {
	f.Add(`{"started": true, "seed": 7, "actions": [60, 60, 3]}`)
	f.Add(`{"started": true, "seed": 7, "joints": [[60, 61], [2, 2]]}`)
	f.Add(`{"started": false}`)
	f.Add(`{"started": true, "seed": 18446744073709551615, "actions": [-1]}`)
	f.Add(`{"started": true, "seed": 1, "episodes": [1], "pending": [true], "envs": [{"started": true, "seed": 3}]}`)
	f.Add(`{"seed": "x"}`)
	cfg, opponent, _, err := parseConfig([]byte(`{"rules": {"throws_per_half": 4}, "opponent": "heuristic", "illegal_action": "keep"}`))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data string) {
		c := cfg
		c.Opponent, _ = opponent()
		s := &single{}
		if s.e, err = env.New(c); err != nil {
			t.Fatal(err)
		}
		pe, _ := env.NewParallel(env.ParallelConfig{Rules: c.Rules})
		ve, _ := env.NewVecEnv(1, c)
		for _, h := range []historian{s, &parallel{e: pe}, &vector{v: ve}} {
			if err := h.replay([]byte(data)); err != nil {
				var in inputError
				if !errors.As(err, &in) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("not a one-line input error: %v", err)
				}
			}
			if _, err := json.Marshal(h.history()); err != nil {
				t.Fatal(err)
			}
		}
		s.e.Reset(1)
		if _, err := s.e.Step(0); err != nil {
			t.Fatalf("after a replay, the environment does not step: %v", err)
		}
	})
}
