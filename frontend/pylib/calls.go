package main

/*
#include <stdlib.h>
*/
import "C"

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frame"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
	"github.com/kingoal/kingoal/solver/policy"
)

// calls are the library functions Python reaches through kg_call: JSON in, JSON out.
var calls = map[string]func(in []byte) (any, error){
	"bounds":        boundsCall,
	"state_walk":    stateWalkCall,
	"bench_state":   benchStateCall,
	"episode_seed":  episodeSeedCall,
	"solve_odds":    solveOddsCall,
	"equilibrium":   equilibriumCall,
	"optimal_value": optimalValueCall,
	"bench_vec":     benchVecCall,
	"lineups":       lineupsCall,
	"frame_shape":   func([]byte) (any, error) { return []int{frame.Height, frame.Width, 3}, nil },
	"knobs":         knobsCall,
	"shootout_odds": func([]byte) (any, error) { return odds.ShootoutOdds() },
}

// knobsCall lists the rule knobs (env.KnobTable): Python's keyword, its default, its doc.
func knobsCall([]byte) (any, error) {
	type knob struct{ Name, Default, Doc string }
	var out []knob
	for _, k := range env.KnobTable {
		out = append(out, knob{k.PythonName(), k.Default(), k.Doc})
	}
	return out, nil
}

// lineupsCall lists the 121 legal line-ups in index order (env owns the rule).
func lineupsCall([]byte) (any, error) {
	out := make([]string, 0, env.NumLineups)
	for _, l := range env.AllLineups() {
		out = append(out, l.String())
	}
	return out, nil
}

//export kg_call
func kg_call(name, in *C.char, out **C.char) (rc C.int) {
	defer func() {
		if r := recover(); r != nil {
			*out = C.CString(fmt.Sprintf(`{"error": %q, "class": %d}`, fmt.Sprintf("kingoal: internal error: %v", r), internalFail))
			rc = internalFail
		}
	}()
	f, found := calls[C.GoString(name)]
	var result any
	err := inputf("kingoal: no library call %q", C.GoString(name))
	if found {
		result, err = f([]byte(C.GoString(in)))
	}
	if err != nil {
		b, _ := json.Marshal(map[string]any{"error": err.Error(), "class": classify(err)})
		*out = C.CString(string(b))
		return classify(err)
	}
	b, err := json.Marshal(result)
	if err != nil {
		*out = C.CString(fmt.Sprintf(`{"error": %q, "class": %d}`, err.Error(), internalFail))
		return internalFail
	}
	*out = C.CString(string(b))
	return ok
}

func boundsCall(in []byte) (any, error) {
	var a struct {
		Rules json.RawMessage `json:"rules"`
	}
	if err := decode(in, &a, "bounds"); err != nil {
		return nil, err
	}
	r, err := parseRules(a.Rules)
	if err != nil {
		return nil, err
	}
	low, high := env.ObservationBounds(r)
	return map[string]any{"low": low, "high": high}, nil
}

func episodeSeedCall(in []byte) (any, error) {
	var a struct {
		Seed       uint64 `json:"seed"`
		Env, Epoch int
	}
	if err := json.Unmarshal(in, &a); err != nil {
		return nil, inputf("episode_seed: %v", err)
	}
	return env.EpisodeSeed(a.Seed, a.Env, a.Epoch), nil
}

// parseLineups reads line-up arguments by name.
func parseLineup(name, s string) (env.Lineup, error) {
	l, err := env.ParseLineup(s)
	if err != nil {
		return l, inputf("%s=%q: want a line-up like 1-2-3-3-1", name, s)
	}
	return l, nil
}

// parseSides reads the home and away line-up arguments.
func parseSides(home, away string) (h, a env.Lineup, err error) {
	if h, err = parseLineup("home", home); err == nil {
		a, err = parseLineup("away", away)
	}
	return h, a, err
}

func solveOddsCall(in []byte) (any, error) {
	var a struct {
		Home, Away string
		Rules      json.RawMessage `json:"rules"`
	}
	if err := decode(in, &a, "solve_odds"); err != nil {
		return nil, err
	}
	r, err := parseRules(a.Rules)
	if err != nil {
		return nil, err
	}
	home, away, err := parseSides(a.Home, a.Away)
	if err != nil {
		return nil, err
	}
	o, err := odds.MatchOdds(home, away, r)
	if err != nil {
		return nil, err
	}
	return map[string]any{"home": home.String(), "away": away.String(), "rules": r.String(), "home_win": o.HomeWin, "draw": o.Draw,
		"away_win": o.AwayWin, "home_goals_mean": o.HomeGoals, "away_goals_mean": o.AwayGoals, "home_advance": o.HomeAdvance,
		"extra_time": o.ExtraTime, "shootout": o.Shootout, "truncated": o.Truncated}, nil
}

// rulesAndPayoff reads the rules and a payoff argument (one of those named in want).
func rulesAndPayoff(raw json.RawMessage, payoff, want string) (env.Rules, lineup.Payoff, error) {
	r, err := parseRules(raw)
	if err != nil {
		return r, 0, err
	}
	p, err := lineup.ParsePayoff(payoff)
	if err != nil {
		return r, 0, inputf("payoff=%q: want %s", payoff, want)
	}
	return r, p, nil
}

func equilibriumCall(in []byte) (any, error) {
	var a struct {
		Payoff string          `json:"payoff"`
		Rules  json.RawMessage `json:"rules"`
	}
	a.Payoff = "win-loss"
	if err := decode(in, &a, "equilibrium"); err != nil {
		return nil, err
	}
	r, p, err := rulesAndPayoff(a.Rules, a.Payoff, "win-loss, goal-diff, points or advance")
	if err != nil {
		return nil, err
	}
	m, err := odds.ComputeMatrix(context.Background(), r, odds.MatrixOptions{})
	if err != nil {
		return nil, err
	}
	eq, err := lineup.Equilibrium(m, p)
	if err != nil {
		return nil, inputError{err}
	}
	mix := func(ws []env.Weighted) map[string]float64 {
		out := map[string]float64{}
		for _, w := range ws {
			out[w.Lineup.String()] = w.Prob
		}
		return out
	}
	return map[string]any{"payoff": a.Payoff, "rules": r.String(), "value": eq.Value, "exploitability": eq.Exploitability,
		"home": mix(eq.Home), "away": mix(eq.Away)}, nil
}

// optimalValueCall is the best any policy can do against an opponent who keeps a line-up:
// the best kick-off line-up, then the optimal Basic policy (policy.SolveBasic).
func optimalValueCall(in []byte) (any, error) {
	var a struct {
		Opponent  string          `json:"opponent"`
		Objective string          `json:"objective"`
		Player    string          `json:"player"`
		Rules     json.RawMessage `json:"rules"`
	}
	a.Objective, a.Player = "win", "home"
	if err := decode(in, &a, "optimal_value"); err != nil {
		return nil, err
	}
	r, err := parseRules(a.Rules)
	if err != nil {
		return nil, err
	}
	opp, err := parseLineup("opponent", a.Opponent)
	if err != nil {
		return nil, err
	}
	obj, err := odds.ParseObjective(a.Objective)
	if err != nil {
		return nil, inputf("objective=%q: want win, points, win-draw or advance", a.Objective)
	}
	me := env.Home
	if a.Player == "away" {
		me = env.Away
	} else if a.Player != "home" {
		return nil, inputf("player=%q: want home or away", a.Player)
	}
	best, bestValue := env.Lineup{}, math.Inf(-1)
	for _, own := range env.AllLineups() {
		pol, err := policy.SolveBasic(policy.BasicProblem{Rules: r, Player: me, Own: own, Opponent: opp, Objective: obj})
		if err != nil {
			return nil, inputError{err}
		}
		if v := pol.Value(); v > bestValue {
			best, bestValue = own, v
		}
	}
	return map[string]any{"lineup": best.String(), "value": bestValue, "objective": a.Objective, "rules": r.String()}, nil
}

// benchVecCall times the Go VecEnv alone — random legal actions chosen in Go, no Python —
// as the yardstick of the Python benchmark (python/bench.py), in the same process and run.
func benchVecCall(in []byte) (any, error) {
	var a struct {
		NumEnvs  int             `json:"num_envs"`
		Steps    int             `json:"steps"`
		Opponent string          `json:"opponent"`
		Rules    json.RawMessage `json:"rules"`
	}
	if err := decode(in, &a, "bench_vec"); err != nil {
		return nil, err
	}
	r, err := parseRules(a.Rules)
	if err != nil {
		return nil, err
	}
	if a.NumEnvs < 1 || a.Steps < 1 {
		return nil, inputf("bench_vec: want num_envs ≥ 1 and steps ≥ 1")
	}
	v, err := env.NewVecEnvFunc(a.NumEnvs, func(int) (env.Config, error) {
		opp, err := agents.New(a.Opponent, agents.Setup{Rules: r})
		return env.Config{Rules: r, Opponent: opp}, err
	})
	if err != nil {
		return nil, inputError{err}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	actions := make([]int, a.NumEnvs)
	b := v.Reset(1)
	start := time.Now()
	for range a.Steps {
		for i, m := range b.Masks {
			actions[i] = 0
			if n := m.Count(); n > 0 {
				actions[i] = m.Nth(rng.IntN(n))
			}
		}
		if b, err = v.Step(actions); err != nil {
			return nil, err
		}
	}
	return map[string]any{"ns_per_env_step": float64(time.Since(start).Nanoseconds()) / float64(a.Steps*a.NumEnvs)}, nil
}
