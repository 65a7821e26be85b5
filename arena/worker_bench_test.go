package arena_test

import (
	"context"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/env"
)

// BenchmarkWorkerMatch: one league match through a Worker (agents asked at kick-off, the
// match row built), no files: what the arena adds to env's BenchmarkMatch before writing.
// "logged" also builds the match's throw rows (--log-throws), drawn throw by throw.
func BenchmarkWorkerMatch(b *testing.B) {
	for _, logged := range []bool{false, true} {
		name := "matches"
		if logged {
			name = "logged"
		}
		b.Run(name, func(b *testing.B) {
			c := arena.Config{Agents: []string{"fixed:1-2-3-3-1", "fixed:2-2-2-2-2"}, Rules: env.Rules{Moves: env.NoMoves}, Matches: 1 << 30, Seed: 1, LogThrows: logged}
			p, err := arena.NewPlan(context.Background(), c)
			if err != nil {
				b.Fatal(err)
			}
			w, err := arena.NewWorker(context.Background(), p)
			if err != nil {
				b.Fatal(err)
			}
			out := make([]arena.Played, 0, 1)
			b.ReportAllocs()
			u := 0
			for b.Loop() {
				if out, err = w.PlayUnit(u, out[:0]); err != nil {
					b.Fatal(err)
				}
				u++
			}
		})
	}
}
