package arenabeam

import (
	"context"
	"io"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/arena/arenatest"
)

// BenchmarkPrismArena: the arena benchmark's league (random and fixed agents, default
// rules, matches.parquet) as a Beam pipeline on the embedded prism runner; one op is one
// match. Compare with the core module's BenchmarkArenaLeague/default.
func BenchmarkPrismArena(b *testing.B) {
	specs := []string{"random", "fixed:2-2-2-2-2", "fixed:1-3-3-2-1", "fixed:1-2-3-2-2"}
	c := arena.Config{Agents: specs, Matches: max(2, b.N/6+1), Seed: 1}
	b.ResetTimer()
	t, err := Run(context.Background(), "prism", arenatest.Plan(b, c), b.TempDir(), false, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(t.Matches())/b.Elapsed().Seconds(), "matches/s")
}
