package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/internal/jsonfile"
)

// config is what Python sends to make an environment. Missing fields mean the defaults.
type config struct {
	Rules    json.RawMessage `json:"rules"`
	Opponent string          `json:"opponent"` // a registry spec; "" for a Python-side opponent (parallel env)
	Player   string          `json:"player"`   // home or away
	Reward   string          `json:"reward"`   // result, goal-diff or points
	Dice     string          `json:"dice"`     // fast or rolled
	MaxSteps int             `json:"max_steps"`
	Render   bool            `json:"render"`         // keep a transcript of the events for render()
	Frames   bool            `json:"frames"`         // keep the last throw's caption for kg_frame
	Illegal  string          `json:"illegal_action"` // raise or keep
}

// decode reads JSON into v, refusing unknown fields (a misspelt keyword) and None for a field
// (which Go's JSON would take as "leave it as it is": the default, silently) in the user's
// words.
func decode(data []byte, v any, what string) error {
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) == nil {
		for _, name := range slices.Sorted(maps.Keys(fields)) {
			if string(bytes.TrimSpace(fields[name])) == "null" {
				return inputf("%s: %s=None: want a value (leave it out for the default)", what, name)
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return inputf("%s: %w", what, jsonfile.Readable(err))
	}
	return nil
}

// parseRules reads the rule knobs, starting from the defaults.
func parseRules(raw json.RawMessage) (env.Rules, error) {
	k := env.DefaultKnobs()
	if len(raw) > 0 {
		if err := decode(raw, &k, "rule knobs"); err != nil {
			return env.Rules{}, err
		}
	}
	r, err := k.Rules()
	if ke, isKnob := err.(*env.KnobError); isKnob {
		return r, inputf("%s=%v", strings.ReplaceAll(ke.Knob, "-", "_"), ke.Err)
	}
	if err != nil {
		return r, inputError{err}
	}
	return r, nil
}

// parseConfig reads an environment's configuration; newOpponent builds a fresh opponent
// (one per environment of a vector, so each plays as a single env would).
func parseConfig(data []byte) (cfg env.Config, newOpponent func() (env.Policy, error), v views, err error) {
	c := config{Player: "home", Reward: "result", Dice: "fast", Illegal: "raise"}
	if err := decode(data, &c, "environment options"); err != nil {
		return cfg, nil, v, err
	}
	if cfg.Rules, err = parseRules(c.Rules); err != nil {
		return cfg, nil, v, err
	}
	switch c.Player {
	case "home":
	case "away":
		cfg.Player = env.Away
	default:
		return cfg, nil, v, inputf("player=%q: want home or away", c.Player)
	}
	if cfg.Reward, err = env.ParseRewardScheme(c.Reward); err != nil {
		return cfg, nil, v, inputf("reward=%q: want result, goal-diff or points", c.Reward)
	}
	switch c.Dice {
	case "fast":
	case "rolled":
		cfg.Dice = env.RolledDice
	default:
		return cfg, nil, v, inputf("dice=%q: want fast or rolled", c.Dice)
	}
	if cfg.IllegalAction, err = env.ParseIllegalActions(c.Illegal); err != nil {
		return cfg, nil, v, inputf("illegal_action=%q: want raise or keep", c.Illegal)
	}
	if c.MaxSteps < 0 {
		return cfg, nil, v, inputf("max_steps=%d: want ≥ 0 (0: no cap)", c.MaxSteps)
	}
	cfg.MaxSteps = c.MaxSteps
	rules := cfg.Rules
	newOpponent = func() (env.Policy, error) {
		if c.Opponent == "" {
			return nil, nil
		}
		a, err := agents.New(c.Opponent, agents.Setup{Rules: rules})
		if err != nil {
			return nil, inputError{fmt.Errorf("opponent=%q: %w", c.Opponent, err)}
		}
		return a, nil
	}
	if _, err := newOpponent(); err != nil { // a bad spec fails at construction
		return cfg, nil, v, err
	}
	return cfg, newOpponent, views{transcript: c.Render, frames: c.Frames}, nil
}

// views says what an environment keeps for Python's render(): a transcript, the last throw.
type views struct{ transcript, frames bool }

// transcript collects the events since the last render, as `kingoal watch` prints them.
type transcript struct{ b strings.Builder }

func (t *transcript) observe(e env.Event) { fmt.Fprintln(&t.b, e.Describe()) }

func (t *transcript) take() string {
	s := t.b.String()
	t.b.Reset()
	return s
}
