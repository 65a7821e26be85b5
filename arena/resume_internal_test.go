package arena

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
)

// TestResumeKeepsTheShardsItBeganWith: a run interrupted by a build whose shards were
// smaller (here 512 matches, where this build lays out ShardSize) resumes in its own shards
// — run.json keeps their size — and ends with the matches of an uninterrupted run.
func TestResumeKeepsTheShardsItBeganWith(t *testing.T) {
	ctx := context.Background()
	c := Config{Agents: []string{"random", "fixed:2-2-2-2-2", "fixed:1-3-3-2-1"}, Rules: env.Rules{ThrowsPerHalf: 10}, Matches: 1000, Seed: 4}
	want := t.TempDir()
	if _, err := Play(ctx, c, want, Options{}); err != nil {
		t.Fatal(err)
	}
	earlier, err := NewPlan(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	earlier.useShardSize(512)
	dir := t.TempDir()
	stop, cancel := context.WithCancel(ctx)
	defer cancel()
	if _, err := earlier.Run(stop, dir, Options{Events: Events{Matches: func(done, _ int) {
		if done >= 1200 {
			cancel()
		}
	}}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("the interrupted run: %v", err)
	}
	if info, err := ReadInfo(dir); err != nil || info.ShardSize != 512 || info.Complete {
		t.Fatalf("the interrupted run's run.json: %+v, %v", info, err)
	}
	if _, err := Play(ctx, c, dir, Options{Resume: true}); err != nil {
		t.Fatalf("resumed by this build (shards of %d): %v", ShardSize, err)
	}
	if info, err := ReadInfo(dir); err != nil || info.ShardSize != 512 || !info.Complete {
		t.Fatalf("the resumed run's run.json: %+v, %v", info, err)
	}
	got, err := datasets.ReadParquet[datasets.MatchRow](filepath.Join(dir, "matches.parquet"), datasets.MatchesSchema)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := datasets.ReadParquet[datasets.MatchRow](filepath.Join(want, "matches.parquet"), datasets.MatchesSchema)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3000 || !slices.Equal(got, rows) {
		t.Fatalf("the resumed run has %d matches, the uninterrupted one %d: not the same", len(got), len(rows))
	}
}
