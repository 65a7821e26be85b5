package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/cli/command"
)

// TestKilledArenaResumes kills a real arena process with SIGKILL once its first shard is on
// disk, resumes the run, and requires the bytes of an uninterrupted run: nothing lost,
// nothing duplicated.
func TestKilledArenaResumes(t *testing.T) {
	bin := kingoalBinary(t)
	// 3 pairings × 20,000 matches of fixed agents: 60,000 matches, 8 shards.
	args := []string{"arena", "--agents", "fixed:2-2-2-2-2;fixed:1-3-3-2-1;fixed:1-2-3-2-2", "--matches", "20000",
		"--throws-per-half", "6", "--moves", "0", "--seed", "9"}
	want := filepath.Join(t.TempDir(), "want")
	if code, _, stderr := run(t, append(args, "--out", want)...); code != 0 {
		t.Fatal(stderr)
	}
	dir := filepath.Join(t.TempDir(), "killed")
	cmd := exec.Command(bin, append(args, "--out", dir)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	first := filepath.Join(dir, "shards", "matches-00000.parquet")
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(first); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no shard was written within a minute")
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no cleanup of any kind
		t.Fatal(err)
	}
	cmd.Wait()
	if _, err := os.Stat(filepath.Join(dir, "matches.parquet")); err == nil {
		t.Fatal("the run finished before it was killed; the test needs a longer run")
	}
	if code, _, stderr := run(t, "arena", "--out", dir, "--resume"); code != 0 { // the run's own settings, from run.json
		t.Fatalf("resume: %s", stderr)
	}
	a, _ := os.ReadFile(filepath.Join(want, "matches.parquet"))
	b, _ := os.ReadFile(filepath.Join(dir, "matches.parquet"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatal("the killed and resumed run differs from the uninterrupted one")
	}
}

// TestKillAfterCtrlCKeepsEveryLog is the fault that lost throws: Ctrl-C leaves partial logged
// shards, the resumed run is killed with SIGKILL while it rewrites them, and a second resume
// must finish with every file byte for byte an uninterrupted run's.
func TestKillAfterCtrlCKeepsEveryLog(t *testing.T) {
	bin := kingoalBinary(t)
	args := []string{"arena", "--agents", "fixed:2-2-2-2-2;fixed:1-3-3-2-1;random", "--matches", "20000",
		"--throws-per-half", "6", "--log-throws", "--log-decisions", "--no-exploitability", "--seed", "5"}
	want := filepath.Join(t.TempDir(), "want")
	if code, _, stderr := run(t, append(args, "--out", want)...); code != 0 {
		t.Fatal(stderr)
	}
	dir := filepath.Join(t.TempDir(), "run")
	first := exec.Command(bin, append(args, "--out", dir)...)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	waitForFile(t, first, filepath.Join(dir, "shards", "shard-00000.json"))
	first.Process.Signal(os.Interrupt) // partial shards of every open one are written
	first.Wait()
	second := exec.Command(bin, "arena", "--out", dir, "--resume")
	if err := second.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // somewhere in the rewriting of the partial shards
	second.Process.Kill()
	second.Wait()
	if _, err := os.Stat(filepath.Join(dir, "matches.parquet")); err == nil {
		t.Fatal("the resumed run finished before it was killed; the test needs a longer run")
	}
	if code, _, stderr := run(t, "arena", "--out", dir, "--resume"); code != 0 {
		t.Fatalf("resume after the kill: %s", stderr)
	}
	for _, f := range []string{"matches.parquet", "throws.parquet", "decisions.parquet"} {
		if !sameFile(t, filepath.Join(want, f), filepath.Join(dir, f)) {
			t.Fatalf("%s differs from the uninterrupted run's", f)
		}
	}
}

// waitForFile waits (a minute at most) until path exists while cmd runs.
func waitForFile(t *testing.T, cmd *exec.Cmd, path string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(2 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("%s did not appear within a minute", path)
		}
	}
}

// TestKilledFictitiousPlayResumes: train fictitious killed (-9) after its first checkpoint
// leaves no table, a chart that says "in progress" and OUT.partial; --resume (refused
// without it, and for other rules) then writes the table an uninterrupted run writes, byte
// for byte, and removes OUT.partial.
func TestKilledFictitiousPlayResumes(t *testing.T) {
	bin := kingoalBinary(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "f.kgp")
	rules := []string{"--throws-per-half", "3", "--moves", "1"}
	cmd := exec.Command(bin, append([]string{"train", "fictitious", "--iterations", "100", "--out", out}, rules...)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitForFile(t, cmd, out+".partial")
	cmd.Process.Kill()
	cmd.Wait()
	if _, err := os.Stat(out); err == nil {
		t.Fatal("a killed run wrote its table")
	}
	f, err := os.Open(out + ".partial")
	if err != nil {
		t.Fatal(err)
	}
	_, head, err := agents.ResumeFictitious(f, env.Rules{ThrowsPerHalf: 3, Moves: 1})
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	target := strconv.Itoa(head.Iterations + 1)
	if code, _, stderr := run(t, append([]string{"train", "fictitious", "--iterations", target, "--out", out}, rules...)...); code != command.ExitUsage || !strings.Contains(stderr, "--resume") {
		t.Errorf("a new run over an interrupted one: exit %d %s", code, stderr)
	}
	if code, _, stderr := run(t, "train", "fictitious", "--iterations", target, "--out", out, "--resume", "--throws-per-half", "5", "--moves", "1"); code != command.ExitUsage {
		t.Errorf("--resume under other rules: exit %d %s", code, stderr)
	}
	if code, _, stderr := run(t, append([]string{"train", "fictitious", "--iterations", target, "--out", out, "--resume"}, rules...)...); code != 0 {
		t.Fatalf("--resume: exit %d %s", code, stderr)
	}
	whole := filepath.Join(dir, "whole.kgp")
	if code, _, stderr := run(t, append([]string{"train", "fictitious", "--iterations", target, "--out", whole}, rules...)...); code != 0 {
		t.Fatal(stderr)
	}
	a, _ := os.ReadFile(out)
	b, _ := os.ReadFile(whole)
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("the resumed run's table (%d bytes) is not the uninterrupted run's (%d bytes)", len(a), len(b))
	}
	if _, err := os.Stat(out + ".partial"); !os.IsNotExist(err) {
		t.Errorf("the checkpoint outlived the finished run: %v", err)
	}
	rows, err := datasets.ReadParquet[datasets.ExploitabilityCurveRow](filepath.Join(dir, "f.curve.parquet"), datasets.ExploitabilityCurveSchema)
	if err != nil || len(rows) != head.Iterations+1 {
		t.Errorf("the resumed curve: %d rows (%v), want %d", len(rows), err, head.Iterations+1)
	}
}
