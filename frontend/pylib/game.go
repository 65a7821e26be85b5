package main

import "C"

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver"
	"github.com/kingoal/kingoal/solver/game"
)

// The substitution game from Python: kingoal.solve_game starts a solve as a job (so that
// Python can wait in short steps and Ctrl-C cancels it), kingoal.load_game reads a table;
// both end in a handle to a read-only *game.Game that game_info and game_at answer from.

// gameJob is a solve running in the background.
type gameJob struct {
	cancel context.CancelFunc
	done   chan struct{}
	layers atomic.Int64 // done so far
	total  int
	g      solver.Game
	err    error
}

func init() {
	calls["game_solve"] = gameSolveCall
	calls["game_wait"] = gameWaitCall
	calls["game_cancel"] = gameCancelCall
	calls["game_load"] = gameLoadCall
	calls["game_info"] = gameInfoCall
	calls["game_at"] = gameAtCall
}

func gameSolveCall(in []byte) (any, error) {
	var a struct {
		Payoff string          `json:"payoff"`
		Rules  json.RawMessage `json:"rules"`
		Verify bool            `json:"verify"`
		Out    string          `json:"out"`
		Force  bool            `json:"force"`
		MaxGiB float64         `json:"max_gib"`
	}
	a.Payoff, a.Verify, a.MaxGiB = "win-loss", true, 12
	if err := decode(in, &a, "solve_game"); err != nil {
		return nil, err
	}
	r, p, err := rulesAndPayoff(a.Rules, a.Payoff, "win-loss, goal-diff or advance")
	if err != nil {
		return nil, err
	}
	if !(a.MaxGiB > 0) || a.MaxGiB > 1<<20 {
		return nil, inputf("max_gib=%v: want a size in GiB above 0", a.MaxGiB)
	}
	if _, err := os.Stat(a.Out); a.Out != "" && err == nil && !a.Force {
		return nil, inputf("solve_game: out=%q exists: pass force=True to replace it", a.Out)
	}
	ctx, cancel := context.WithCancel(context.Background())
	prob := game.Problem{Rules: r, Payoff: p, Context: ctx, Verify: a.Verify, MaxBytes: int64(a.MaxGiB * (1 << 30))}
	solve, layers, states, peak, err := gameSolver(&prob, a.Out)
	if err != nil {
		cancel()
		return nil, inputError{err}
	}
	// A problem too large is refused now, not after the wait.
	if peak > prob.MaxBytes {
		cancel()
		return nil, inputf("solve_game: the game under %s holds %d states and needs ~%.1f GiB at its peak, over max_gib=%v",
			r, states, float64(peak)/(1<<30), a.MaxGiB)
	}
	job := &gameJob{cancel: cancel, done: make(chan struct{}), total: layers}
	prob.Progress = func(done, _ int) { job.layers.Store(int64(done)) }
	go func() {
		defer close(job.done)
		defer cancel()
		job.g, job.err = solve()
	}()
	return map[string]any{"job": uint64(register(job)), "layers": layers, "break_states": states}, nil
}

// gameSolver sizes the solve of p — the Basic game or, with a Dynamic side, that game — and
// returns it (with a table: its SolveToFile, which hands back the table read back), its
// layers, states and estimated peak.
func gameSolver(p *game.Problem, table string) (solve func() (solver.Game, error), layers int, states, peak int64, err error) {
	size, err := solver.Estimate(p.Rules, p.Payoff)
	if err != nil {
		return nil, 0, 0, 0, err
	}
	return func() (solver.Game, error) {
		if table != "" {
			return solver.SolveToFile(table, *p)
		}
		return solver.Solve(*p)
	}, size.Layers, size.States, size.Peak(p.Verify, table != ""), nil
}

// lookup returns the object behind h, for objects safe for concurrent use (no busy mark).
func lookup[T any](h uint64, what string) (T, error) {
	handles.Lock()
	e, found := handles.m[h]
	handles.Unlock()
	var t T
	if found {
		t, found = e.v.(T)
	}
	if !found {
		return t, fmt.Errorf("kingoal: the %s is closed (or was never made)", what)
	}
	return t, nil
}

// jobArgs name a job (and, for game_wait, how long to wait).
type jobArgs struct {
	Job uint64 `json:"job"`
	Ms  int    `json:"ms"`
}

func jobOf(in []byte, what string) (*gameJob, jobArgs, error) {
	var a jobArgs
	if err := decode(in, &a, what); err != nil {
		return nil, a, err
	}
	job, err := lookup[*gameJob](a.Job, "solve")
	return job, a, err
}

// gameWaitCall waits up to ms for a job: its progress, or when done its game's handle.
func gameWaitCall(in []byte) (any, error) {
	job, a, err := jobOf(in, "game_wait")
	if err != nil {
		return nil, err
	}
	select {
	case <-job.done:
	case <-time.After(time.Duration(max(a.Ms, 0)) * time.Millisecond):
		return map[string]any{"done": false, "layers_done": job.layers.Load(), "layers": job.total}, nil
	}
	if job.err != nil {
		if errors.Is(job.err, context.Canceled) {
			return nil, errors.New("kingoal: solve_game: interrupted")
		}
		return nil, job.err
	}
	return map[string]any{"done": true, "game": uint64(register(job.g))}, nil
}

func gameCancelCall(in []byte) (any, error) {
	job, _, err := jobOf(in, "game_cancel")
	if err != nil {
		return nil, err
	}
	job.cancel()
	<-job.done // the solve checks its context every few milliseconds
	return nil, nil
}

func gameLoadCall(in []byte) (any, error) {
	var a struct {
		Path string `json:"path"`
	}
	if err := decode(in, &a, "load_game"); err != nil {
		return nil, err
	}
	g, err := solver.LoadFile(context.Background(), a.Path)
	if err != nil {
		return nil, inputf("load_game(%q): %w", a.Path, err)
	}
	return map[string]any{"game": uint64(register(g))}, nil
}

// errDynamicMix says why a game with a Dynamic side answers no mix.
var errDynamicMix = errors.New("a game with a Dynamic side keeps each decision (a byte), not values and mixes at breaks: play it with nash:table=FILE.kgt")

// gameInfoCall: what the game was solved for, its value, kick-off mixes, statistics, check.
func gameInfoCall(in []byte) (any, error) {
	var a struct {
		Game uint64 `json:"game"`
	}
	if err := decode(in, &a, "game_info"); err != nil {
		return nil, err
	}
	g, err := lookup[solver.Game](a.Game, "game")
	if err != nil {
		return nil, err
	}
	ko, r := g.KickOff(), g.Rules()
	out := map[string]any{"rules": r.String(), "knobs": env.KnobsOf(r), "payoff": g.Payoff().String(),
		"moves": min(r.MoveBudget(), 5), "dynamic": solver.HasDynamic(r), "value": g.Value(),
		"kickoff_home": mixJSON(ko.Home), "kickoff_away": mixJSON(ko.Away), "stats": g.Stats()}
	if c, ok := g.Check(); ok {
		out["verification"] = c
	}
	return out, nil
}

func mixJSON(ws []env.Weighted) map[string]float64 {
	out := map[string]float64{}
	for _, w := range ws {
		out[w.Lineup.String()] = w.Prob
	}
	return out
}

// gameAtCall answers a break state: home's value and both sides' mixes.
func gameAtCall(in []byte) (any, error) {
	var a struct {
		Game  uint64 `json:"game"`
		State struct {
			Period     string `json:"period"`
			ThrowsLeft int    `json:"throws_left"`
			GoalDiff   int    `json:"goal_diff"`
			Home       string `json:"home"`
			Away       string `json:"away"`
			HomeMoves  int    `json:"home_moves"`
			AwayMoves  int    `json:"away_moves"`
		} `json:"state"`
	}
	if err := decode(in, &a, "mix"); err != nil {
		return nil, err
	}
	g, err := breakMixesOf(a.Game, "mix", errDynamicMix)
	if err != nil {
		return nil, err
	}
	st := a.State
	per, err := parsePeriod(st.Period)
	if err != nil {
		return nil, err
	}
	home, away, err := parseSides(st.Home, st.Away)
	if err != nil {
		return nil, err
	}
	sol, err := g.At(game.State{Period: per, ThrowsLeft: st.ThrowsLeft, GoalDiff: st.GoalDiff, Home: home, Away: away,
		HomeMoves: st.HomeMoves, AwayMoves: st.AwayMoves})
	if err != nil {
		return nil, inputError{err}
	}
	return map[string]any{"value": sol.Value, "home": mixJSON(sol.Home), "away": mixJSON(sol.Away)}, nil
}

// breakMixesOf is the game behind handle h when it holds mixes at breaks (two Basic sides);
// for a game with a Dynamic side, the call named what is refused with why.
func breakMixesOf(h uint64, what string, why error) (solver.BreakMixes, error) {
	g, err := lookup[solver.Game](h, "game")
	if err != nil {
		return nil, err
	}
	b, ok := g.(solver.BreakMixes)
	if !ok {
		return nil, inputf("%s: %s", what, why)
	}
	return b, nil
}

// parsePeriod reads a period of play by its name ("first half", "first-half", "second_half").
func parsePeriod(s string) (env.Period, error) {
	name := strings.NewReplacer("-", " ", "_", " ").Replace(strings.ToLower(strings.TrimSpace(s)))
	for p := env.FirstHalf; p <= env.ExtraSecond; p++ {
		if p.String() == name {
			return p, nil
		}
	}
	return 0, inputf("period=%q: want first half, second half, extra time 1 or extra time 2", s)
}
