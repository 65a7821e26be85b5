package arena_test

import (
	"context"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/env"
)

// BenchmarkArenaLeague: a league of random and fixed agents under the default rules, all
// cores, matches.parquet only; one op is one match. Target: ≥ 80% of cores × the
// single-core BenchmarkMatch rate.
func BenchmarkArenaLeague(b *testing.B) {
	specs := []string{"random", "fixed:2-2-2-2-2", "fixed:1-3-3-2-1", "fixed:1-2-3-2-2"}
	pairs := len(specs) * (len(specs) - 1) / 2
	c := arena.Config{Agents: specs, Rules: env.Rules{}, Matches: max(2, b.N/pairs+1), Seed: 1}
	dir := b.TempDir()
	b.ResetTimer()
	tally, err := arena.Run(context.Background(), c, dir, arena.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(tally.Matches())/b.Elapsed().Seconds(), "matches/s")
}
