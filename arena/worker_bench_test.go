package arena_test

import (
	"context"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/env"
)

// BenchmarkWorkerMatch: one league match through a Worker (agents asked at kick-off, the
// match row built), no files: what the arena adds to env's BenchmarkMatch before writing.
// "logged" also builds the match's throw rows (--log-throws), drawn throw by throw;
// "random" has a random agent at home (reseeded every match; its line-up, and so the goal
// law the match is drawn from, changes from match to match).
func BenchmarkWorkerMatch(b *testing.B) {
	for _, bc := range []struct {
		name   string
		home   string
		logged bool
	}{{"matches", "fixed:1-2-3-3-1", false}, {"logged", "fixed:1-2-3-3-1", true}, {"random", "random", false}} {
		b.Run(bc.name, func(b *testing.B) {
			c := arena.Config{Agents: []string{bc.home, "fixed:2-2-2-2-2"}, Rules: env.Rules{Moves: env.NoMoves}, Matches: 1 << 30, Seed: 1, LogThrows: bc.logged}
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
