//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kingoal/kingoal/frontend/cli/command"
)

// TestFilesThatAreNotFilesExitOne: every reader of a file the user names refuses a device, a
// FIFO or a directory at once, in one line, exit 1 — before issue 39, qlearning:model=/dev/zero
// read 4.5 GB in 8 s and a FIFO blocked the command until killed; before issue 57, so did a
// FIFO as a run's lock file or as a catalogue row's report.
func TestFilesThatAreNotFilesExitOne(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "run")
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(run, "run.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	locked, cat := filepath.Join(dir, "locked"), filepath.Join(dir, "cat")
	if code, _, stderr := runCLI("arena", "--agents", "random;heuristic", "--matches", "2", "--throws-per-half", "3", "--out", locked); code != 0 {
		t.Fatal(stderr)
	}
	for _, f := range []string{filepath.Join(locked, ".kingoal.lock"), filepath.Join(cat, "league-basic-basic.json")} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(f, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"eval", "qlearning:model=/dev/zero", "--vs", "random", "-n", "10"},
		{"eval", "qlearning:model=" + fifo, "--vs", "random", "-n", "10"},
		{"eval", "nash:table=" + fifo, "--vs", "random", "-n", "10", "--throws-per-half", "3", "--moves", "1"},
		{"eval", "table:file=/dev/zero", "--vs", "random", "-n", "10"},
		{"solve", "game", "--in", fifo},
		{"datasets", "inspect", fifo},
		{"datasets", "export", "/dev/zero", "--format", "csv"},
		{"leaderboard", run},
		{"leaderboard", locked},
		{"solve", "catalogue", "--throws-per-half", "2", "--only", "league-basic-basic", "--out", cat},
	} {
		done := make(chan [2]any, 1)
		go func() {
			code, _, stderr := runCLI(args...)
			done <- [2]any{code, stderr}
		}()
		select {
		case r := <-done:
			code, stderr := r[0].(int), r[1].(string)
			if code != command.ExitFailure || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "not a regular file") {
				t.Errorf("%v: exit %d, %q", args, code, stderr)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%v: still running after 20 s", args)
		}
	}
}
