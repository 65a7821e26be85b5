package arena_test

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/env"
)

// BenchmarkArenaLeague: a league of random and fixed agents, all cores, matches.parquet (and
// throws.parquet for the ",throws" cases); one op is one match, the final merge included.
// Targets (issue 14): ≥ 80% of cores × env's single-core BenchmarkMatch rate, 25% with throws
// logged (BENCHMARKS.md: not met). "no-moves" plays BenchmarkMatch's rules (no breaks); "default" has the ~8
// breaks of a default match, where the random agent moves.
func BenchmarkArenaLeague(b *testing.B) {
	for _, bc := range []struct {
		name      string
		rules     env.Rules
		logThrows bool
	}{
		{"no-moves", env.Rules{Moves: env.NoMoves}, false},
		{"default", env.Rules{}, false},
		{"no-moves,throws", env.Rules{Moves: env.NoMoves}, true},
		{"default,throws", env.Rules{}, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			specs := []string{"random", "fixed:2-2-2-2-2", "fixed:1-3-3-2-1", "fixed:1-2-3-2-2"}
			pairs := len(specs) * (len(specs) - 1) / 2
			c := arena.Config{Agents: specs, Rules: bc.rules, Matches: max(2, b.N/pairs+1), Seed: 1, LogThrows: bc.logThrows}
			dir := b.TempDir()
			b.ResetTimer()
			tally, err := arena.Play(context.Background(), c, dir, arena.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(tally.Matches())/b.Elapsed().Seconds(), "matches/s")
		})
	}
}

// BenchmarkArenaMemory runs the same league with throws logged at two sizes ten times
// apart, with default halves and with halves ten times longer, and reports the peak of the
// Go heap in use (sampled every 10 ms) for each: flat memory means each pair is close
// (issue 14: ≤ 256 MB RSS at any size). One op is a whole run; use -benchtime 1x.
func BenchmarkArenaMemory(b *testing.B) {
	for _, bc := range []struct {
		perPair, throwsPerHalf int
	}{{5000, 0}, {50000, 0}, {500, 450}, {5000, 450}} { // default halves; ten times longer ones
		name := fmt.Sprintf("matches=%d", 6*bc.perPair)
		if bc.throwsPerHalf != 0 {
			name += fmt.Sprintf(",throws-per-half=%d", bc.throwsPerHalf)
		}
		b.Run(name, func(b *testing.B) {
			specs := []string{"random", "fixed:2-2-2-2-2", "fixed:1-3-3-2-1", "fixed:1-2-3-2-2"}
			for b.Loop() {
				c := arena.Config{Agents: specs, Matches: bc.perPair, Seed: 1, LogThrows: true, Rules: env.Rules{ThrowsPerHalf: bc.throwsPerHalf}}
				var peak atomic.Uint64
				stop := make(chan struct{})
				go func() {
					var ms runtime.MemStats
					for {
						select {
						case <-stop:
							return
						case <-time.After(10 * time.Millisecond):
						}
						runtime.ReadMemStats(&ms)
						peak.Store(max(peak.Load(), ms.HeapInuse))
					}
				}()
				_, err := arena.Play(context.Background(), c, b.TempDir(), arena.Options{})
				close(stop)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
			}
		})
	}
}
