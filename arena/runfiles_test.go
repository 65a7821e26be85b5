package arena_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/arena/arenatest"
	"github.com/kingoal/kingoal/datasets"
)

// TestRunFilesKeepTheirDirectory: a run opened as RunFiles reads its own files after its
// directory's name is swapped for a link to another run, and refuses a file of it swapped for
// a link out of it — what a server needs when others can write the directories it shows.
func TestRunFilesKeepTheirDirectory(t *testing.T) {
	sw := arenatest.PlaySwappable(t)
	root, run, away, ours, theirs := sw.Root, sw.Run, sw.Outside, sw.Ours, sw.Theirs
	dir, err := os.OpenRoot(run)
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	files := arena.FilesIn(dir)
	moved := filepath.Join(root, "moved")
	if err := os.Rename(run, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(away, run); err != nil {
		t.Fatal(err)
	}
	info, err := files.Info()
	if err != nil || !slices.Equal(info.Agents, ours.Agents) {
		t.Fatalf("after the swap: agents %v, %v; want ours %v", info.Agents, err, ours.Agents)
	}
	lb, err := files.Leaderboard(context.Background())
	if err != nil || lb.Info.TotalMatches != info.TotalMatches {
		t.Fatalf("leaderboard after the swap: %v", err)
	}
	if p, err := files.Progress(context.Background(), nil); err != nil || p.Matches != info.TotalMatches {
		t.Fatalf("progress after the swap: %+v, %v", p, err)
	}
	// A file of the run swapped for a link out of it is refused, not followed.
	matches := filepath.Join(moved, "matches.parquet")
	if err := os.Rename(matches, matches+".real"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(away, "matches.parquet"), matches); err != nil {
		t.Fatal(err)
	}
	if err := files.ScanMatches(func([]datasets.MatchRow) error { return nil }); err == nil {
		t.Error("matches.parquet linked out of the run was read")
	}
	if _, err := files.Leaderboard(context.Background()); err == nil {
		t.Error("a leaderboard was read through a link out of the run")
	}
	// By path, the link is the user's to follow: ReadInfo reads the run it names now.
	if info, err := arena.ReadInfo(run); err != nil || !slices.Equal(info.Agents, theirs.Agents) {
		t.Errorf("ReadInfo by path: %v, %v", info.Agents, err)
	}
}
