package arena_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/kingoal/kingoal/arena"
)

// TestTornShardIsPlayedAgain builds the state a kill between two renames leaves — shard 0's
// matches of a later attempt beside the throws and decisions of an earlier, interrupted one —
// with and without the later attempt's manifest, and requires the resumed run to equal an
// uninterrupted one (the earlier build kept such a shard and finished with throws missing).
// A run.json edited after its shards were written is refused.
func TestTornShardIsPlayedAgain(t *testing.T) {
	c := cfg(1)
	c.Matches, c.LogThrows, c.LogDecisions = 400, true, true // 1,200 matches: logged shards of 512
	want := t.TempDir()
	if _, err := arena.Run(context.Background(), c, want, arena.Options{}); err != nil {
		t.Fatal(err)
	}
	played := playShard(t, c, 0)
	for _, keepManifest := range []bool{false, true} {
		dir := t.TempDir()
		if err := arena.Start(c, dir, false); err != nil {
			t.Fatal(err)
		}
		if err := c.WriteShard(dir, 0, played[:100]); err != nil { // the earlier, interrupted attempt
			t.Fatal(err)
		}
		old := map[string][]byte{}
		for _, kind := range []string{"throws", "decisions"} {
			old[kind], _ = os.ReadFile(arena.ShardFile(dir, kind, 0))
		}
		if err := c.WriteShard(dir, 0, played); err != nil { // the later one, whole
			t.Fatal(err)
		}
		for kind, b := range old { // ... of which only the matches reached the disk
			if err := os.WriteFile(arena.ShardFile(dir, kind, 0), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if !keepManifest {
			os.Remove(filepath.Join(dir, "shards", "shard-00000.json"))
		}
		if whole, err := c.ShardComplete(dir, 0); whole || err != nil {
			t.Fatalf("manifest kept %v: a torn shard counts as complete (%v)", keepManifest, err)
		}
		if _, err := arena.Run(context.Background(), c, dir, arena.Options{Resume: true}); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"matches.parquet", "throws.parquet", "decisions.parquet"} {
			a, _ := os.ReadFile(filepath.Join(want, f))
			b, _ := os.ReadFile(filepath.Join(dir, f))
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Fatalf("manifest kept %v: the resumed run's %s differs from the uninterrupted one's", keepManifest, f)
			}
		}
	}

	dir := t.TempDir()
	if err := arena.Start(c, dir, false); err != nil {
		t.Fatal(err)
	}
	if err := c.WriteShard(dir, 0, played[:100]); err != nil {
		t.Fatal(err)
	}
	edited := c
	edited.Seed++
	info, _ := arena.ReadInfo(dir)
	info.Seed = edited.Seed
	b, _ := json.Marshal(info)
	os.WriteFile(filepath.Join(dir, "run.json"), b, 0o644)
	if _, err := arena.Run(context.Background(), edited, dir, arena.Options{Resume: true}); !errors.Is(err, arena.ErrForeignShard) {
		t.Fatalf("a run.json edited after its shards were written: %v", err)
	}
}

// playShard plays every match of shard s of c.
func playShard(t *testing.T, c arena.Config, s int) []arena.Played {
	t.Helper()
	w, err := arena.NewWorker(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := c.ShardUnits(s)
	var out []arena.Played
	for u := lo; u < hi; u++ {
		if out, err = w.PlayUnit(u, out); err != nil {
			t.Fatal(err)
		}
	}
	return out
}
