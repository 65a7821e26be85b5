package arena_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/exploit"
	"github.com/kingoal/kingoal/live"
)

// serveLive answers the hub's batches on a goroutine of its own, as Python does, until the hub
// closes; stop closes it and returns once it has stopped.
func serveLive(h *live.Hub, answer func(agent int, r *live.Request)) (stop func(error)) {
	stopped := make(chan struct{})
	go func() {
		var buf []*live.Request
		for {
			agent, batch, err := h.Next(20*time.Millisecond, 64, buf)
			if err != nil {
				close(stopped)
				return
			}
			for _, r := range batch {
				answer(agent, r)
			}
			buf = batch
		}
	}()
	return func(err error) { h.Close(err); <-stopped }
}

// heuristicAnswers answers every decision as the Go heuristic would, by action.
func heuristicAnswers(t *testing.T) func(int, *live.Request) {
	h, err := agents.New("heuristic", agents.Setup{})
	if err != nil {
		t.Fatal(err)
	}
	return func(_ int, r *live.Request) { r.AnswerAction(int64(h.Act(r.Obs, r.Legal))) }
}

// uniformAnswers answers every decision with the uniform mix over its legal line-ups.
func uniformAnswers(_ int, r *live.Request) {
	row := r.Row()
	clear(row)
	for a := range row {
		if r.Legal.Has(a) {
			row[a] = 1 / float64(r.Legal.Count())
		}
	}
	r.Answer()
}

func runLive(t *testing.T, c arena.Config, h *live.Hub) (string, *arena.Leaderboard, error) {
	t.Helper()
	ctx := context.Background()
	p, err := arena.NewPlanWithin(ctx, c, arena.Limits{Live: func(name string) (agents.Agent, error) { return h.Agent(ctx, name) }})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	lb, err := arena.Run(ctx, dir, p, arena.Options{KnownExploitability: map[string]exploit.Exploitability{"live:h": exploit.NotComputed("a test's policy")}})
	return dir, lb, err
}

func liveMatches(t *testing.T, dir string) []datasets.MatchRow {
	t.Helper()
	rows, err := datasets.ReadParquet[datasets.MatchRow](filepath.Join(dir, "matches.parquet"), datasets.MatchesSchema)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// A live agent answered as the heuristic plays the same matches as the heuristic.
func TestLiveHeuristicPlaysAsTheHeuristic(t *testing.T) {
	c := arena.Config{Agents: []string{"heuristic", "random"}, Rules: env.Rules{ThrowsPerHalf: 6}, Matches: 100, Seed: 7, Workers: 2, NoExploitability: true}
	dir, _, err := runLive(t, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := liveMatches(t, dir)
	h, err := live.NewHub([]string{"h"})
	if err != nil {
		t.Fatal(err)
	}
	stop := serveLive(h, heuristicAnswers(t))
	c.Agents[0], c.Workers, c.NoExploitability = "live:h", 32, false
	dir, lb, err := runLive(t, c, h)
	stop(nil)
	if err != nil {
		t.Fatal(err)
	}
	got := liveMatches(t, dir)
	if len(got) != len(want) {
		t.Fatalf("%d matches, want %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		for _, a := range []*string{&g.HomeAgent, &g.AwayAgent} {
			if *a == "live:h" {
				*a = "heuristic"
			}
		}
		if g != w {
			t.Fatalf("match %d: live %+v, Go %+v", i, g, w)
		}
	}
	e := lb.Exploitability[0]
	if e.Computed() || e.String() != "not computed" || !lb.Exploitability[1].Computed() {
		t.Errorf("the exploitability column: %v, %v", lb.Exploitability[0], lb.Exploitability[1])
	}
}

// A live agent answering probabilities draws from them with its own streams: the run is the
// same with 1 and 24 matches in flight, and its decisions carry the arena's match IDs.
func TestLiveRunIsReproducibleAcrossWorkers(t *testing.T) {
	var files [2][]datasets.MatchRow
	for k, workers := range []int{1, 24} {
		h, err := live.NewHub([]string{"u", "h"})
		if err != nil {
			t.Fatal(err)
		}
		firsts := map[int64]int{}
		heuristic := heuristicAnswers(t)
		stop := serveLive(h, func(agent int, r *live.Request) {
			if r.First {
				firsts[r.Match]++
			}
			if agent == 1 {
				heuristic(agent, r)
				return
			}
			uniformAnswers(agent, r)
		})
		c := arena.Config{Agents: []string{"live:u", "live:h", "random"}, Rules: env.Rules{ThrowsPerHalf: 5}, Matches: 40, Seed: 3, Workers: workers, NoExploitability: true}
		dir, _, err := runLive(t, c, h)
		stop(nil)
		if err != nil {
			t.Fatal(err)
		}
		files[k] = liveMatches(t, dir)
		for _, m := range files[k] {
			lives := strings.Count(m.HomeAgent+m.AwayAgent, "live:")
			if firsts[m.MatchID] != lives {
				t.Fatalf("match %d (%s v %s): %d first decisions asked", m.MatchID, m.HomeAgent, m.AwayAgent, firsts[m.MatchID])
			}
		}
	}
	for i := range files[0] {
		if files[0][i] != files[1][i] {
			t.Fatalf("match %d: 1 worker %+v, 24 workers %+v", i, files[0][i], files[1][i])
		}
	}
}

// A refused answer fails the run naming the decision; a closed hub fails it with the
// reason; a cancelled context stops an agent waiting at once.
func TestLiveFailures(t *testing.T) {
	c := arena.Config{Agents: []string{"live:h", "random"}, Rules: env.Rules{ThrowsPerHalf: 4}, Matches: 10, Seed: 1, Workers: 4, NoExploitability: true}
	h, _ := live.NewHub([]string{"h"})
	stop := serveLive(h, func(_ int, r *live.Request) { r.AnswerAction(int64(env.NumLineups)) })
	_, _, err := runLive(t, c, h)
	stop(nil)
	if err == nil || !strings.Contains(err.Error(), "live: h: match ") || !strings.Contains(err.Error(), "action 121 is not legal there") {
		t.Errorf("an illegal action: %v", err)
	}
	h, _ = live.NewHub([]string{"h"})
	stop = serveLive(h, func(_ int, r *live.Request) { r.Row()[0] = 0.5; r.Answer() })
	_, _, err = runLive(t, c, h)
	stop(nil)
	if err == nil || !strings.Contains(err.Error(), "does not sum to 1") && !strings.Contains(err.Error(), "illegal action") {
		t.Errorf("a bad row: %v", err)
	}
	h, _ = live.NewHub([]string{"h"})
	gone := errors.New("the policy raised")
	h.Close(gone)
	if _, _, err = runLive(t, c, h); !errors.Is(err, gone) {
		t.Errorf("a closed hub: %v", err)
	}

	h, _ = live.NewHub([]string{"h"})
	ctx, cancel := context.WithCancel(context.Background())
	a, err := h.Agent(ctx, "h")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := env.NewState(env.Rules{})
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	if act := a.Act(s.Observe(env.Home), s.Legal(env.Home)); !s.Legal(env.Home).Has(act) || !errors.Is(a.Err(), context.Canceled) {
		t.Errorf("cancelled: action %d, %v", act, a.Err())
	}
	if _, err := h.Agent(ctx, "x"); err == nil {
		t.Error("an unknown live agent was built")
	}
	if _, err := live.NewHub([]string{"a", "a"}); err == nil {
		t.Error("two live agents of one name")
	}
}
