package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/internal/safefile"
)

// TestSecondProcessIsRefused starts a real arena (and a real training) and, while it holds
// its output, runs a second process at the same output every way that used to race — a
// fresh run, --resume, --force, another training into the same model, leaderboard — and
// requires each to refuse at once: exit 2, one line naming the holder's pid, nothing
// touched (the first is stopped meanwhile, so that it still holds its output). The first
// then finishes with exactly the bytes of a run nobody disturbed.
func TestSecondProcessIsRefused(t *testing.T) {
	bin := kingoalBinary(t)
	long := []string{"arena", "--agents", "fixed:2-2-2-2-2;fixed:1-3-3-2-1;fixed:1-2-3-2-2", "--matches", "200000",
		"--throws-per-half", "6", "--moves", "0", "--no-exploitability", "--seed", "1"}
	dir := filepath.Join(t.TempDir(), "run")
	first := exec.Command(bin, append(long, "--out", dir)...)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer first.Process.Kill()
	waitHeld(t, dir, first.Process.Pid, safefile.DirHolder)
	// Stopped once its run.json is written (what --resume reads), the first holds its
	// output for as long as the others take (running, it could finish before the last of
	// them asked).
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := arena.ReadInfo(dir); err == nil {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("no run.json in %s within 30 s: %v", dir, err)
		}
	}
	resume := holdStill(t, first.Process)
	pid := fmt.Sprintf("pid %d", first.Process.Pid)
	for _, args := range [][]string{
		append(append([]string{}, long...), "--out", dir),
		{"arena", "--out", dir, "--resume"},
		append(append([]string{}, long[:len(long)-1]...), "2", "--out", dir, "--force"),
		{"leaderboard", dir},
		{"leaderboard", dir, "--write-files"},
	} {
		var stderr bytes.Buffer
		cmd := exec.Command(bin, args...)
		cmd.Stderr = &stderr
		err := cmd.Run()
		code := cmd.ProcessState.ExitCode()
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		if err == nil || code != 2 || len(lines) != 1 || !strings.Contains(lines[0], pid) {
			t.Errorf("kingoal %s while %s runs: exit %d, stderr %q (want exit 2 and one line naming it)", strings.Join(args, " "), pid, code, stderr.String())
		}
	}
	resume()
	if err := first.Wait(); err != nil {
		t.Fatalf("the first run failed: %v", err)
	}
	want := filepath.Join(t.TempDir(), "want")
	if code, _, stderr := run(t, append(long, "--out", want)...); code != 0 {
		t.Fatal(stderr)
	}
	if !sameFile(t, filepath.Join(dir, "matches.parquet"), filepath.Join(want, "matches.parquet")) {
		t.Fatal("the run that was raced differs from an undisturbed one")
	}

	model := filepath.Join(t.TempDir(), "q.json")
	train := exec.Command(bin, "train", "qlearning", "--episodes", "3000000", "--throws-per-half", "6", "--out", model)
	if err := train.Start(); err != nil {
		t.Fatal(err)
	}
	defer train.Process.Kill()
	waitHeld(t, model, train.Process.Pid, safefile.FileHolder)
	code, _, stderr := run(t, "train", "qlearning", "--episodes", "100", "--throws-per-half", "6", "--out", model, "--force")
	if code != 2 || !strings.Contains(stderr, fmt.Sprintf("pid %d", train.Process.Pid)) {
		t.Errorf("a second training into %s: exit %d, %q", model, code, stderr)
	}
}

// waitHeld waits until pid holds the lock holder(path) asks about.
func waitHeld(t *testing.T, path string, pid int, holder func(string) (bool, int, error)) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if held, who, _ := holder(path); held && who == pid {
			return
		}
	}
	t.Fatalf("pid %d did not lock %s within 30 s", pid, path)
}

func sameFile(t *testing.T, a, b string) bool {
	t.Helper()
	x, errA := os.ReadFile(a)
	y, errB := os.ReadFile(b)
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	return bytes.Equal(x, y)
}

// TestResumeRemovesWhatAKillLeft: the temporary files of writes a kill -9 cut short are
// removed by the next run that holds the directory's lock (they were never removed, up to
// 30 MB each).
func TestResumeRemovesWhatAKillLeft(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	args := []string{"arena", "--agents", "random;heuristic", "--matches", "4", "--throws-per-half", "4", "--no-exploitability", "--out", dir}
	if code, _, stderr := run(t, args...); code != 0 {
		t.Fatal(stderr)
	}
	stale := filepath.Join(dir, ".matches.parquet.tmp-123456")
	if err := os.WriteFile(stale, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "arena", "--out", dir, "--resume", "--no-exploitability"); code != 0 {
		t.Fatal(stderr)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Fatal("the stale temporary file is still there after --resume")
	}
}

// TestResumeKeepsNoExploitability: a run started with --no-exploitability resumes without
// measuring it (it did measure, unasked); the resume may still ask for it.
func TestResumeKeepsNoExploitability(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, stderr := run(t, "arena", "--agents", "random;heuristic", "--matches", "4", "--throws-per-half", "4", "--no-exploitability", "--out", dir); code != 0 {
		t.Fatal(stderr)
	}
	if code, _, stderr := run(t, "arena", "--out", dir, "--resume"); code != 0 {
		t.Fatal(stderr)
	}
	cache := filepath.Join(dir, "exploitability.json")
	if _, err := os.Stat(cache); err == nil {
		t.Fatal("the resume measured the exploitability the run declined")
	}
	if code, _, stderr := run(t, "arena", "--out", dir, "--resume", "--no-exploitability=false"); code != 0 {
		t.Fatal(stderr)
	}
	if _, err := os.Stat(cache); err != nil {
		t.Fatal("asked for on resume, the exploitability was not measured")
	}
}
