package live_test

import (
	"context"
	"errors"
	"math"
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

// serve answers the hub's batches on a goroutine of its own, as Python does, until the hub
// closes; stop closes it and returns once it has stopped.
func serve(h *live.Hub, answer func(agent int, r *live.Request)) (stop func(error)) {
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

func run(t *testing.T, c arena.Config, h *live.Hub) (string, *arena.Leaderboard, error) {
	t.Helper()
	ctx := context.Background()
	p, err := arena.NewPlanWithin(ctx, c, arena.Limits{Live: func(name string) (agents.Agent, error) { return h.Agent(ctx, name) }})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	lb, err := arena.Run(ctx, dir, p, arena.RunOptions{KnownExploitability: map[string]exploit.Exploitability{"live:h": exploit.NotComputed("a test's policy")}})
	return dir, lb, err
}

func matches(t *testing.T, dir string) []datasets.MatchRow {
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
	dir, _, err := run(t, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := matches(t, dir)
	h, err := live.NewHub([]string{"h"})
	if err != nil {
		t.Fatal(err)
	}
	stop := serve(h, heuristicAnswers(t))
	c.Agents[0], c.Workers, c.NoExploitability = "live:h", 32, false
	dir, lb, err := run(t, c, h)
	stop(nil)
	if err != nil {
		t.Fatal(err)
	}
	got := matches(t, dir)
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
		stop := serve(h, func(agent int, r *live.Request) {
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
		dir, _, err := run(t, c, h)
		stop(nil)
		if err != nil {
			t.Fatal(err)
		}
		files[k] = matches(t, dir)
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

// Next takes every decision waiting, of the agent with the most, oldest first, up to its
// bound.
func TestNextTakesWhatIsWaiting(t *testing.T) {
	h, _ := live.NewHub([]string{"a", "b"})
	s, _ := env.NewState(env.Rules{})
	for i := range 10 {
		name := "a"
		if i >= 7 {
			name = "b"
		}
		a, err := h.Agent(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		a.StartMatch(int64(i))
		go a.Act(s.Observe(env.Home), s.Legal(env.Home))
		for h.Waiting() < i+1 { // queued one by one: the order is known
			time.Sleep(time.Millisecond)
		}
	}
	agent, batch, err := h.Next(time.Second, 5, nil)
	if err != nil || agent != 0 || len(batch) != 5 || batch[0].Match != 0 || batch[4].Match != 4 || !batch[0].First {
		t.Fatalf("first batch: agent %d, %d decisions, %v", agent, len(batch), err)
	}
	agent, batch, _ = h.Next(time.Second, 5, batch)
	if agent != 1 || len(batch) != 3 || batch[0].Match != 7 { // b has 3 waiting, a 2
		t.Fatalf("second batch: agent %d, %d decisions", agent, len(batch))
	}
	agent, batch, _ = h.Next(time.Second, 5, batch)
	if agent != 0 || len(batch) != 2 || h.Waiting() != 0 {
		t.Fatalf("third batch: agent %d, %d decisions, %d waiting", agent, len(batch), h.Waiting())
	}
	if agent, batch, err = h.Next(time.Millisecond, 5, batch); agent != -1 || len(batch) != 0 || err != nil {
		t.Fatalf("nothing waiting: agent %d, %d decisions, %v", agent, len(batch), err)
	}
	h.Close(nil)
	if _, _, err = h.Next(time.Second, 5, batch); !errors.Is(err, live.ErrClosed) {
		t.Fatalf("closed: %v", err)
	}
}

// A refused answer fails the run naming the decision; a closed hub fails it with the
// reason; a cancelled context stops an agent waiting at once.
func TestLiveFailures(t *testing.T) {
	c := arena.Config{Agents: []string{"live:h", "random"}, Rules: env.Rules{ThrowsPerHalf: 4}, Matches: 10, Seed: 1, Workers: 4, NoExploitability: true}
	h, _ := live.NewHub([]string{"h"})
	stop := serve(h, func(_ int, r *live.Request) { r.AnswerAction(int64(env.NumLineups)) })
	_, _, err := run(t, c, h)
	stop(nil)
	if err == nil || !strings.Contains(err.Error(), "live: h: match ") || !strings.Contains(err.Error(), "action 121 is not legal there") {
		t.Errorf("an illegal action: %v", err)
	}
	h, _ = live.NewHub([]string{"h"})
	stop = serve(h, func(_ int, r *live.Request) { r.Row()[0] = 0.5; r.Answer() })
	_, _, err = run(t, c, h)
	stop(nil)
	if err == nil || !strings.Contains(err.Error(), "does not sum to 1") && !strings.Contains(err.Error(), "illegal action") {
		t.Errorf("a bad row: %v", err)
	}
	h, _ = live.NewHub([]string{"h"})
	gone := errors.New("the policy raised")
	h.Close(gone)
	if _, _, err = run(t, c, h); !errors.Is(err, gone) {
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

// Normalise refuses what it should and keeps what it should, whatever entry is wrong.
func TestNormalise(t *testing.T) {
	s, _ := env.NewState(env.Rules{})
	for _, legal := range []env.Mask{s.Legal(env.Home), env.LineupAt(60).Reachable(1)} {
		good := make([]float64, env.NumLineups)
		for a := range good {
			if legal.Has(a) {
				good[a] = 2 / float64(legal.Count()) // sums to 2: refused
			}
		}
		if err := live.Normalise(append([]float64(nil), good...), legal); err == nil || !strings.Contains(err.Error(), "does not sum to 1") {
			t.Errorf("a row summing to 2: %v", err)
		}
		for a := range good {
			good[a] /= 2
		}
		row := append([]float64(nil), good...)
		if err := live.Normalise(row, legal); err != nil {
			t.Fatalf("a mix refused: %v", err)
		}
		for a := range env.NumLineups {
			for _, v := range []float64{-0.5, math.NaN(), math.Inf(1), 1e-3} {
				row := append([]float64(nil), good...)
				row[a] += v
				err := live.Normalise(row, legal)
				if legal.Has(a) && v == 1e-3 { // within the check only if the sum stays near 1: it does not
					if err == nil {
						t.Fatalf("line-up %d: a row summing to %v passed", a, 1+v)
					}
					continue
				}
				if err == nil {
					t.Fatalf("line-up %d (legal %v): %v added, passed", a, legal.Has(a), v)
				}
			}
		}
	}
}
