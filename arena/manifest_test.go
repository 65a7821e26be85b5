package arena_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/arena/arenatest"
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
	if _, err := arena.Play(context.Background(), c, want, arena.Options{}); err != nil {
		t.Fatal(err)
	}
	played := playShard(t, c, 0)
	for _, keepManifest := range []bool{false, true} {
		dir := t.TempDir()
		run := arenatest.Plan(t, c).Dir(dir)
		if err := run.Start(false); err != nil {
			t.Fatal(err)
		}
		if err := run.WriteShard(0, played[:100]); err != nil { // the earlier, interrupted attempt
			t.Fatal(err)
		}
		old := map[string][]byte{}
		for _, kind := range []string{"throws", "decisions"} {
			old[kind], _ = os.ReadFile(arena.ShardFile(dir, kind, 0))
		}
		if err := run.WriteShard(0, played); err != nil { // the later one, whole
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
		if whole, err := run.ShardComplete(0); whole || err != nil {
			t.Fatalf("manifest kept %v: a torn shard counts as complete (%v)", keepManifest, err)
		}
		if _, err := arena.Play(context.Background(), c, dir, arena.Options{Resume: true}); err != nil {
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
	run := arenatest.Plan(t, c).Dir(dir)
	if err := run.Start(false); err != nil {
		t.Fatal(err)
	}
	if err := run.WriteShard(0, played[:100]); err != nil {
		t.Fatal(err)
	}
	edited := c
	edited.Seed++
	info, _ := arena.ReadInfo(dir)
	info.Seed = edited.Seed
	b, _ := json.Marshal(info)
	os.WriteFile(filepath.Join(dir, "run.json"), b, 0o644)
	if _, err := arena.Play(context.Background(), edited, dir, arena.Options{Resume: true}); !errors.Is(err, arena.ErrForeignShard) {
		t.Fatalf("a run.json edited after its shards were written: %v", err)
	}
}

// playShard plays every match of shard s of c.
func playShard(t *testing.T, c arena.Config, s int) []arena.Played {
	t.Helper()
	p := arenatest.Plan(t, c)
	w, err := arena.NewWorker(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := p.ShardUnits(s)
	var out []arena.Played
	for u := lo; u < hi; u++ {
		if out, err = w.PlayUnit(u, out); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestGauntletRanksByPointsAMatch: a weak challenger plays three times the matches of each
// opponent and collects the most points; ranked by totals it came first.
func TestGauntletRanksByPointsAMatch(t *testing.T) {
	c := arena.Config{Format: arena.Gauntlet, Agents: []string{"random", "fixed:1-3-3-2-1", "fixed:2-2-2-2-2", "heuristic"},
		Rules: cfg(1).Rules, Matches: 60, Seed: 3, Workers: 1}
	dir := t.TempDir()
	if _, err := arena.Play(context.Background(), c, dir, arena.Options{}); err != nil {
		t.Fatal(err)
	}
	lb, err := arena.ReadLeaderboard(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	most := 0
	for i, s := range lb.Table {
		if i > 0 && float64(s.Pts)/float64(s.P) > float64(lb.Table[i-1].Pts)/float64(lb.Table[i-1].P) {
			t.Fatalf("row %d (%s, %d/%d) ranks below a row with fewer points a match", i+1, s.Agent, s.Pts, s.P)
		}
		if s.Pts > lb.Table[most].Pts {
			most = i
		}
	}
	if lb.Table[most].Agent != "random" || most == 0 {
		t.Fatalf("the test needs the challenger to have the most points and not the best rate: %+v", lb.Table)
	}
}

// TestEditedRunJSONIsRefused: run.json carries a checksum of its content and names every key
// it needs; an edit, an unknown key or a dropped one is refused, not run with.
func TestEditedRunJSONIsRefused(t *testing.T) {
	c := cfg(1)
	dir := t.TempDir()
	if err := arenatest.Plan(t, c).Dir(dir).Start(false); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "run.json")
	orig, _ := os.ReadFile(path)
	for name, edit := range map[string]func(string) string{
		"seed changed":  func(s string) string { return strings.Replace(s, `"seed": 11`, `"seed": 12`, 1) },
		"unknown key":   func(s string) string { return strings.Replace(s, `"seed": 11,`, `"seed": 11, "sede": 3,`, 1) },
		"key dropped":   func(s string) string { return strings.Replace(s, `"log_throws": false,`, ``, 1) },
		"checksum gone": func(s string) string { return s[:strings.LastIndex(s, `,`+"\n"+`  "checksum"`)] + "\n}\n" },
	} {
		edited := edit(string(orig))
		if edited == string(orig) {
			t.Fatalf("%s: the edit changed nothing", name)
		}
		os.WriteFile(path, []byte(edited), 0o644)
		_, err := arena.ReadInfo(dir)
		switch {
		case name == "checksum gone": // as an earlier build wrote it: read, and the shards' run ID still guards it
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
		case err == nil:
			t.Errorf("%s: run.json accepted", name)
		}
	}
}
