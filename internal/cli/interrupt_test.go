package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/internal/cli/command"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// kingoalBinary builds the CLI once for the tests that need a real process.
func kingoalBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("skipping the real-process tests in -short mode")
	}
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "kingoal-bin")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "kingoal")
		if out, err := exec.Command("go", "build", "-o", binPath, "../../cmd/kingoal").CombinedOutput(); err != nil {
			binErr = errors.New(string(out))
		}
	})
	if binErr != nil {
		t.Fatalf("go build: %v", binErr)
	}
	return binPath
}

// interruptLimit is the longest a command may take to exit after Ctrl-C.
const interruptLimit = time.Second

// TestCtrlCAnswersWithinASecond sends SIGINT to real processes in the middle of their
// longest work and requires exit code 130 within a second, one line on stderr that does
// not end in Go's "context canceled", and what each command promises to keep.
func TestCtrlCAnswersWithinASecond(t *testing.T) {
	bin := kingoalBinary(t)
	dir := t.TempDir()
	cases := []struct {
		name  string
		args  []string
		after time.Duration // when to press Ctrl-C: mid-work for every case
		want  string        // in the last line of stderr
		kept  func(t *testing.T, stdout string)
		setup func(t *testing.T) // before the process starts
	}{
		{name: "arena with optimal solving", args: []string{"arena", "--agents", "optimal;random;mcts:iters=20000", "--matches", "400", "--out", filepath.Join(dir, "arena")},
			after: 2 * time.Second, want: "--resume", kept: func(t *testing.T, _ string) {
				if _, err := os.Stat(filepath.Join(dir, "arena", "run.json")); err != nil {
					t.Error("run.json is gone: the run cannot be resumed")
				}
			}},
		{name: "arena measuring exploitability", args: []string{"arena", "--agents", "mcts:iters=3000;random", "--matches", "2", "--throws-per-half", "10",
			"--exploitability-matches", "1000000", "--out", filepath.Join(dir, "expl")},
			after: 3 * time.Second, want: "kingoal leaderboard", kept: func(t *testing.T, _ string) {
				if _, err := arena.ReadLeaderboard(context.Background(), filepath.Join(dir, "expl")); err != nil {
					t.Errorf("the finished run was not kept: %v", err)
				}
			}},
		{name: "generate", args: []string{"datasets", "generate", "--agents", "optimal,random", "--episodes", "5000", "--out", filepath.Join(dir, "gen")},
			after: 2 * time.Second, want: "--resume"},
		{name: "eval", args: []string{"eval", "optimal", "--vs", "random", "-n", "2000"}, after: 2 * time.Second, want: "interrupted"},
		{name: "solve policy", args: []string{"solve", "policy", "--home-mode", "dynamic", "--throws-per-half", "150"}, after: 1500 * time.Millisecond, want: "interrupted"},
		{name: "solve game with a Dynamic side", args: []string{"solve", "game", "--away-mode", "dynamic", "--dynamic-trigger", "turnover"}, after: 1500 * time.Millisecond, want: "interrupted"},
		{name: "solve odds", args: []string{"solve", "odds", "--throws-per-half", "10000"}, after: 1500 * time.Millisecond, want: "interrupted"},
		{name: "simulate", args: []string{"simulate", "-n", "10000000000"}, after: 1500 * time.Millisecond, want: "partial result",
			kept: func(t *testing.T, stdout string) {
				if !strings.Contains(stdout, "home win") {
					t.Errorf("no partial result on stdout:\n%s", stdout)
				}
			}},
		{name: "train", args: []string{"train", "qlearning", "--vs", "heuristic", "--episodes", "10000000", "--out", filepath.Join(dir, "q.json")},
			after: 2 * time.Second, want: "--resume", kept: func(t *testing.T, _ string) {
				if _, err := os.Stat(filepath.Join(dir, "q.json")); err != nil {
					t.Error("the model was not saved")
				}
			}},
		{name: "watch with a long search", args: []string{"watch", "mcts:iters=5000000", "random"}, after: 1500 * time.Millisecond, want: "interrupted"},
		{name: "solve matrix", args: []string{"solve", "matrix", "--throws-per-half", "1000", "--out", filepath.Join(dir, "matrix")}, after: 1500 * time.Millisecond, want: "interrupted"},
		{name: "datasets export of a large file", args: []string{"datasets", "export", filepath.Join(dir, "big", "decisions.parquet"), "--out", filepath.Join(dir, "big.csv")},
			after: 1500 * time.Millisecond, want: "nothing was written",
			setup: func(t *testing.T) {
				if code, _, stderr := run(t, "arena", "--agents", "random;fixed:2-2-2-2-2", "--matches", "30000", "--log-decisions", "--out", filepath.Join(dir, "big")); code != 0 {
					t.Fatal(stderr)
				}
			},
			kept: func(t *testing.T, _ string) {
				if left, _ := filepath.Glob(filepath.Join(dir, "*big.csv*")); len(left) != 0 {
					t.Errorf("an interrupted export left %v", left)
				}
			}},
		{name: "solve game", args: []string{"solve", "game", "--throws-per-half", "10", "--moves", "2"}, after: 1500 * time.Millisecond, want: "interrupted"},
		{name: "solve game writing its Parquet", args: []string{"solve", "game", "--throws-per-half", "10", "--moves", "2", "--no-verify", "--out", filepath.Join(dir, "game.parquet")},
			after: 1500 * time.Millisecond, want: "interrupted",
			kept: func(t *testing.T, _ string) {
				if left, _ := filepath.Glob(filepath.Join(dir, "*game.parquet*")); len(left) != 0 {
					t.Errorf("an interrupted export left %v", left)
				}
			}},
		{name: "solve game writing its table", args: []string{"solve", "game", "--throws-per-half", "10", "--moves", "2", "--out", filepath.Join(dir, "game.kgt")},
			after: 1500 * time.Millisecond, want: "interrupted",
			kept: func(t *testing.T, _ string) {
				if left, _ := filepath.Glob(filepath.Join(dir, "*game.kgt*")); len(left) != 0 {
					t.Errorf("an interrupted solve left %v", left)
				}
			}},
		{name: "play at the prompt", args: []string{"play", "--vs", "heuristic"}, after: 1500 * time.Millisecond, want: "interrupted"},
		{name: "serve", args: []string{"serve", "--runs", dir, "--addr", "127.0.0.1:0"}, after: 1500 * time.Millisecond, want: "serve: stopped"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.setup != nil {
				c.setup(t)
			}
			cmd := exec.Command(bin, c.args...)
			var stdout, stderr bytes.Buffer
			started := make(chan struct{})
			var once sync.Once
			var mu sync.Mutex // the buffers are written by exec's goroutines
			cmd.Stdout = signWriter{&stdout, &mu, func() { once.Do(func() { close(started) }) }}
			cmd.Stderr = signWriter{&stderr, &mu, func() { once.Do(func() { close(started) }) }}
			stdin, err := cmd.StdinPipe() // open and silent: play waits at its prompt
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			// Ctrl-C goes c.after the command's first output (its first line or progress
			// bar: its setup is done and the work has begun) where that comes within c.after
			// of its start — a quick machine only gets further into the work — and c.after
			// its start for commands silent until their result.
			deadline := time.After(c.after)
			select {
			case err := <-exited:
				t.Fatalf("finished before any output or Ctrl-C (%v): the case needs more work\n%s", err, stderr.String())
			case <-started:
				deadline = time.After(c.after)
			case <-deadline:
				deadline = time.After(0)
			}
			select {
			case err := <-exited: // Wait has copied every output: the buffers are ours
				t.Fatalf("finished before Ctrl-C (%v): the case needs more work\n%s", err, stderr.String())
			case <-deadline:
			}
			sent := time.Now()
			if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			select {
			case <-exited:
			case <-time.After(30 * time.Second):
				cmd.Process.Kill()
				<-exited
				t.Fatalf("still running 30 s after Ctrl-C\n%s", stderr.String())
			}
			took := time.Since(sent)
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			last := lines[len(lines)-1]
			t.Logf("exit %d after %v: %s", cmd.ProcessState.ExitCode(), took.Round(time.Millisecond), last)
			if code := cmd.ProcessState.ExitCode(); code != command.ExitInterrupted {
				t.Errorf("exit code %d, want %d\n%s", code, command.ExitInterrupted, stderr.String())
			}
			if took > interruptLimit {
				t.Errorf("took %v to exit after Ctrl-C, want at most %v", took, interruptLimit)
			}
			if !strings.Contains(last, c.want) || strings.HasSuffix(last, "context canceled") {
				t.Errorf("last line %q: want %q in it and no \"context canceled\"", last, c.want)
			}
			if c.kept != nil {
				c.kept(t, stdout.String())
			}
		})
	}
}

// signWriter writes to w under mu, calling first before every write (a sign of life).
type signWriter struct {
	w     *bytes.Buffer
	mu    *sync.Mutex
	first func()
}

func (s signWriter) Write(p []byte) (int, error) {
	s.first()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// TestCtrlCLateInASolve: Ctrl-C in the last phases of solve policy (after the solve, while
// its summary reads every state: seconds at 150-throw halves, which ignored Ctrl-C and
// exited 0) — at 80% of a run measured first, in the summary here — still exits 130 within a
// second.
func TestCtrlCLateInASolve(t *testing.T) {
	bin := kingoalBinary(t)
	args := []string{"solve", "policy", "--home-mode", "dynamic", "--throws-per-half", "150"}
	began := time.Now()
	if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	whole := time.Since(began)
	for _, at := range []float64{0.8} {
		cmd := exec.Command(bin, args...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		select {
		case <-exited: // a quicker run than the first: nothing to interrupt
			continue
		case <-time.After(time.Duration(at * float64(whole))):
		}
		sent := time.Now()
		cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-exited:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
		if took, code := time.Since(sent), cmd.ProcessState.ExitCode(); code != command.ExitInterrupted || took > interruptLimit {
			t.Errorf("Ctrl-C at %.0f%% of a %v run: exit %d after %v, want %d within %v", 100*at, whole.Round(time.Millisecond), code, took.Round(time.Millisecond), command.ExitInterrupted, interruptLimit)
		}
	}
}
