package arena_test

import (
	"context"
	"testing"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/live"
)

// The arena of bench_live.py at the default rules, 10,000 matches a pair, with random (Go)
// or a live uniform mix answered by a goroutine (the hub's cost without Python's).
func benchArena(b *testing.B, first string, workers int) {
	ctx := context.Background()
	for b.Loop() {
		h, _ := live.NewHub([]string{"u"})
		stop := serveLive(h, uniformAnswers)
		c := arena.Config{Agents: []string{first, "heuristic", "fixed:2-2-2-2-2"}, Matches: 10000, Seed: 1, Workers: workers, NoExploitability: true}
		p, err := arena.NewPlanWithin(ctx, c, arena.Limits{Live: func(name string) (agents.Agent, error) { return h.Agent(ctx, name) }})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := arena.Run(ctx, b.TempDir(), p, arena.Options{}); err != nil {
			b.Fatal(err)
		}
		stop(nil)
	}
}

func BenchmarkArenaGoRandom(b *testing.B)    { benchArena(b, "random", 0) }
func BenchmarkArenaLiveUniform(b *testing.B) { benchArena(b, "live:u", 128) }
