package arenabeam

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/arena/arenatest"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
)

func sameFiles(t *testing.T, a, b string, names ...string) {
	t.Helper()
	for _, n := range names {
		x, err := os.ReadFile(filepath.Join(a, n))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b, n))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between the local and the Beam run", n)
		}
	}
}

// A prism run and the local arena, same configuration: the same files, byte for byte, and
// the same tally (so the same leaderboard) — for a league over several shards with throws
// logged, for knockout cups and for World Cups.
func TestPrismRunEqualsLocalArena(t *testing.T) {
	for _, c := range []arena.Config{
		{Agents: []string{"random", "heuristic", "fixed:1-3-3-2-1"}, Rules: env.Rules{ThrowsPerHalf: 4}, Matches: 3000, Seed: 3, LogThrows: true},
		{Format: arena.Knockout, Agents: []string{"random", "heuristic", "fixed:1-3-3-2-1", "fixed:2-2-2-2-2", "fixed:1-2-3-2-2"},
			Rules: env.Rules{Knockout: true, ThrowsPerHalf: 5, ExtraThrowsPerHalf: 2}, Matches: 40, DrawBracket: true, Seed: 9, LogDecisions: true},
		{Format: arena.WorldCup, Agents: []string{"random", "heuristic", "fixed:1-3-3-2-1", "fixed:2-2-2-2-2", "fixed:1-2-3-2-2", "fixed:2-3-2-2-1"},
			GroupSize: 3, Rules: env.Rules{Knockout: true, ThrowsPerHalf: 5, ExtraThrowsPerHalf: 2}, Matches: 40, Seed: 5},
	} {
		local, beamDir := t.TempDir(), t.TempDir()
		want, err := arena.Play(context.Background(), c, local, arena.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Run(context.Background(), "prism", arenatest.Plan(t, c), beamDir, false, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		files := []string{"matches.parquet"}
		if c.LogThrows {
			files = append(files, "throws.parquet")
		}
		if c.LogDecisions {
			files = append(files, "decisions.parquet")
		}
		sameFiles(t, local, beamDir, files...)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the Beam combine's tally differs from the local run's", c.Format)
		}
		info, err := arena.ReadInfo(beamDir)
		if err != nil || !info.Complete || info.TotalMatches != arenatest.Plan(t, c).TotalMatches() {
			t.Fatalf("run.json %+v %v", info, err)
		}
	}
}

// A worker that dies after writing its shard fails the job (prism does not retry bundles);
// the retried job (--resume) reads the shards already written instead of playing them, and
// the result is the uninterrupted run's: nothing lost, nothing twice.
func TestFailedPipelineRetriedLosesAndDuplicatesNothing(t *testing.T) {
	c := arena.Config{Agents: []string{"random", "heuristic"}, Rules: env.Rules{ThrowsPerHalf: 4}, Matches: 2*arena.ShardSize + arena.ShardSize/2, Seed: 5} // 3 shards
	local := t.TempDir()
	want, err := arena.Play(context.Background(), c, local, arena.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	marker := filepath.Join(t.TempDir(), "failed")
	p := arenatest.Plan(t, c)
	if _, err := run(context.Background(), "prism", p, dir, false, io.Discard, Options{FailOnce: marker, FailShard: 1}); err == nil {
		t.Fatal("the injected failure did not fail the pipeline")
	}
	if whole, err := p.Dir(dir).ShardComplete(1); err != nil || !whole {
		t.Fatal("the failing worker's shard is not on disk")
	}
	if _, err := os.Stat(filepath.Join(dir, "matches.parquet")); err == nil {
		t.Fatal("a failed pipeline left matches.parquet")
	}
	got, err := run(context.Background(), "prism", p, dir, true, io.Discard, Options{FailOnce: marker, FailShard: 1})
	if err != nil {
		t.Fatal(err)
	}
	sameFiles(t, local, dir, "matches.parquet")
	if !reflect.DeepEqual(got, want) {
		t.Error("the retried run's tally differs")
	}
}

// A runner retries a failed bundle on another worker: writing a shard again, its matches in
// another order, must replace the files with the same bytes and leave nothing beside them.
func TestShardWriteIsIdempotent(t *testing.T) {
	c := arena.Config{Agents: []string{"random", "heuristic"}, Rules: env.Rules{ThrowsPerHalf: 4}, Matches: 50, Seed: 2, LogThrows: true}
	dir := t.TempDir()
	plan := arenatest.Plan(t, c)
	if err := plan.Dir(dir).Start(false); err != nil {
		t.Fatal(err)
	}
	p, err := arena.NewWorker(context.Background(), plan)
	if err != nil {
		t.Fatal(err)
	}
	var all []arena.Played
	for u := range plan.Units() {
		if all, err = p.PlayUnit(u, all); err != nil {
			t.Fatal(err)
		}
	}
	cj, _ := json.Marshal(c)
	w := &writeShard{spec: spec{Config: string(cj), Dir: dir}}
	if err := w.Setup(); err != nil {
		t.Fatal(err)
	}
	var first map[string][]byte
	reversed := slices.Clone(all)
	slices.Reverse(reversed)
	for attempt, order := range [][]arena.Played{all, reversed} {
		i := 0
		next := func(b *[]arena.Played) bool { // batches of 7
			if i == len(order) {
				return false
			}
			*b = order[i:min(i+7, len(order))]
			i = min(i+7, len(order))
			return true
		}
		emitted := 0
		if err := w.ProcessElement(0, next, func(datasets.MatchRow) { emitted++ }); err != nil || emitted != len(all) {
			t.Fatalf("attempt %d: %v, %d matches passed on", attempt, err, emitted)
		}
		files := map[string][]byte{}
		entries, _ := os.ReadDir(filepath.Join(dir, "shards"))
		for _, e := range entries {
			files[e.Name()], _ = os.ReadFile(filepath.Join(dir, "shards", e.Name()))
		}
		if len(files) != 3 { // matches and throws, and the shard's manifest, written last
			t.Fatalf("attempt %d left %d files in shards/", attempt, len(files))
		}
		if first == nil {
			first = files
		} else if !reflect.DeepEqual(first, files) {
			t.Fatal("writing the shard again changed it")
		}
	}
}

func TestRunRefusesUnknownRunner(t *testing.T) {
	c := arena.Config{Agents: []string{"random", "heuristic"}, Matches: 2}
	if _, err := Run(context.Background(), "direct", arenatest.Plan(t, c), t.TempDir(), false, io.Discard); err == nil {
		t.Fatal("an unknown runner was accepted")
	}
}
