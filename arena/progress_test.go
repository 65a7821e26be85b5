package arena_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/datasets"
)

// ReadProgress follows a run through two interruptions to its end: at each reading the
// tally is that of the match rows in the shards on disk, done shards are the ones holding
// all their matches, a reading built on the one before equals a fresh one, and the last
// equals the finished run's tally.
func TestProgressFollowsARun(t *testing.T) {
	c := cfg(2)
	c.Matches = 600
	c.LogThrows = true // shards of 512: four of them
	dir := t.TempDir()
	var prev *arena.Progress
	for _, stop := range []int{300, 1100} {
		ctx, cancel := context.WithCancel(context.Background())
		_, err := arena.Play(ctx, c, dir, arena.Options{Resume: prev != nil, Events: arena.Events{Matches: func(done, _ int) {
			if done >= stop {
				cancel()
			}
		}}})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("interrupted at %d: %v", stop, err)
		}
		p, err := arena.ReadProgress(context.Background(), dir, prev)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := arena.ReadProgress(context.Background(), dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		if p.Done != fresh.Done || p.Matches != fresh.Matches || !reflect.DeepEqual(p.Tally, fresh.Tally) {
			t.Fatalf("after %d: from the last reading %d shards, %d matches; fresh %d, %d", stop, p.Done, p.Matches, fresh.Done, fresh.Matches)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "shards", "matches-*.parquet"))
		var rows []datasets.MatchRow
		done := 0
		for _, f := range files {
			ms, err := datasets.ReadParquet[datasets.MatchRow](f, datasets.MatchesSchema)
			if err != nil {
				t.Fatal(err)
			}
			rows = append(rows, ms...)
			if len(ms) == 512 || len(ms) == 1800-3*512 && filepath.Base(f) == "matches-00003.parquet" {
				done++
			}
		}
		want, err := arena.TallyOf(rows, 3)
		if err != nil {
			t.Fatal(err)
		}
		if p.Shards != 4 || p.Done != done || p.Matches != len(rows) || !reflect.DeepEqual(p.Tally, want) || p.Info.Complete {
			t.Fatalf("after %d: %d of %d shards done, %d matches; on disk %d done, %d matches", stop, p.Done, p.Shards, p.Matches, done, len(rows))
		}
		t.Logf("interrupted after %d: %d of %d shards, %d matches", stop, p.Done, p.Shards, p.Matches)
		prev = p
	}
	finished, err := arena.Play(context.Background(), c, dir, arena.Options{Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	p, err := arena.ReadProgress(context.Background(), dir, prev)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Info.Complete || p.Done != p.Shards || p.Matches != 1800 || !reflect.DeepEqual(p.Tally, finished) {
		t.Fatalf("finished: %d of %d shards, %d matches, complete %v", p.Done, p.Shards, p.Matches, p.Info.Complete)
	}
}

// BenchmarkReadProgress: the progress of a league of 3 × 40,000 default-rules matches (4
// shards of 32,768) stopped about halfway, read afresh ("first") and from the reading before
// ("next": the done shards are not read again), as a page following a run reads it.
func BenchmarkReadProgress(b *testing.B) {
	dir := b.TempDir()
	c := arena.Config{Agents: []string{"random", "fixed:2-2-2-2-2", "heuristic"}, Matches: 40_000, Seed: 3}
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := arena.Play(ctx, c, dir, arena.Options{Events: arena.Events{Matches: func(done, _ int) {
		if done >= 60_000 {
			cancel()
		}
	}}}); !errors.Is(err, context.Canceled) {
		b.Fatal(err)
	}
	first, err := arena.ReadProgress(context.Background(), dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%d of %d shards done, %d matches on disk", first.Done, first.Shards, first.Matches)
	for _, bc := range []struct {
		name string
		prev *arena.Progress
	}{{"first", nil}, {"next", first}} {
		b.Run(bc.name, func(b *testing.B) {
			for range b.N {
				if _, err := arena.ReadProgress(context.Background(), dir, bc.prev); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
