package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/internal/testtool"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// kingoalBinary builds the CLI once for the tests that need a real process.
func kingoalBinary(t testing.TB) string {
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

// interruptBound is the longest a test lets a command take to exit after Ctrl-C: the
// target is a second, measured by BenchmarkCtrlC; a test asserts only a bound that a
// loaded machine meets too (issue 64: 1.26 s and 1.50 s failed beside another go test).
const interruptBound = 10 * time.Second

// TestCtrlCStopsEveryLongCommand sends SIGINT to real processes in the middle of their
// longest work and requires exit code 130 (within interruptBound; BenchmarkCtrlC measures
// the second), one line on stderr that says so and does not end in Go's "context
// canceled", and what each command promises to keep.
func TestCtrlCStopsEveryLongCommand(t *testing.T) {
	bin := kingoalBinary(t)
	dir := t.TempDir()
	cases := []struct {
		name  string
		args  []string
		after time.Duration // when to press Ctrl-C: mid-work for every case
		want  string        // in the last line of stderr
		kept  func(t *testing.T, stdout string)
		setup func(t *testing.T) // before the process starts
		heavy bool               // KINGOAL_HEAVY only: a plain go test ./... runs one case of each kind of work
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
			}, heavy: true},
		{name: "generate", args: []string{"datasets", "generate", "--agents", "optimal,random", "--episodes", "5000", "--out", filepath.Join(dir, "gen")},
			after: 2 * time.Second, want: "--resume", heavy: true},
		{name: "eval", args: []string{"eval", "optimal", "--vs", "random", "-n", "2000"}, after: 2 * time.Second, want: "interrupted", heavy: true},
		{name: "eval while nash solves", args: []string{"eval", "nash", "--vs", "random", "--throws-per-half", "40"}, after: 1500 * time.Millisecond,
			want: `eval: agents: "nash": interrupted while it was being built`},
		{name: "solve policy", args: []string{"solve", "policy", "--home-mode", "dynamic", "--throws-per-half", "150"}, after: 1500 * time.Millisecond, want: "interrupted", heavy: true},
		{name: "solve game with a Dynamic side", args: []string{"solve", "game", "--away-mode", "dynamic", "--dynamic-trigger", "turnover"}, after: 1500 * time.Millisecond, want: "interrupted", heavy: true},
		{name: "solve odds", args: []string{"solve", "odds", "--throws-per-half", "10000"}, after: 1500 * time.Millisecond, want: "interrupted", heavy: true},
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
		{name: "watch with a long search", args: []string{"watch", "mcts:iters=5000000", "random"}, after: 1500 * time.Millisecond, want: "interrupted", heavy: true},
		{name: "solve matrix", args: []string{"solve", "matrix", "--throws-per-half", "1000", "--out", filepath.Join(dir, "matrix")}, after: 1500 * time.Millisecond, want: "interrupted", heavy: true},
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
			}, heavy: true},
		{name: "solve game", args: []string{"solve", "game", "--throws-per-half", "10", "--moves", "2"}, after: 1500 * time.Millisecond, want: "interrupted", heavy: true},
		{name: "solve game writing its Parquet", args: []string{"solve", "game", "--throws-per-half", "10", "--moves", "2", "--no-verify", "--out", filepath.Join(dir, "game.parquet")},
			after: 1500 * time.Millisecond, want: "interrupted",
			kept: func(t *testing.T, _ string) {
				if left, _ := filepath.Glob(filepath.Join(dir, "*game.parquet*")); len(left) != 0 {
					t.Errorf("an interrupted export left %v", left)
				}
			}, heavy: true},
		{name: "solve game writing its table", args: []string{"solve", "game", "--throws-per-half", "10", "--moves", "2", "--out", filepath.Join(dir, "game.kgt")},
			after: 1500 * time.Millisecond, want: "interrupted",
			kept: func(t *testing.T, _ string) {
				if left, _ := filepath.Glob(filepath.Join(dir, "*game.kgt*")); len(left) != 0 {
					t.Errorf("an interrupted solve left %v", left)
				}
			}},
		{name: "play at the prompt", args: []string{"play", "--vs", "heuristic"}, after: 1500 * time.Millisecond, want: "interrupted", heavy: true},
		{name: "serve", args: []string{"serve", "--runs", dir, "--addr", "127.0.0.1:0"}, after: 1500 * time.Millisecond, want: "serve: stopped"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.heavy && !testtool.Heavy() {
				t.Skip("a case for KINGOAL_HEAVY=1 (.ci/run sets it)")
			}
			t.Parallel() // two at a time (-parallel is GOMAXPROCS): the bound is wide enough for that
			if c.setup != nil {
				c.setup(t)
			}
			got := interrupt(t, bin, c.args, c.after)
			lines := strings.Split(strings.TrimSpace(got.stderr), "\n")
			last := lines[len(lines)-1]
			t.Logf("exit %d after %v: %s", got.code, got.took.Round(time.Millisecond), last)
			if got.code != command.ExitInterrupted {
				t.Errorf("exit code %d, want %d\n%s", got.code, command.ExitInterrupted, got.stderr)
			}
			if got.took > interruptBound {
				t.Errorf("took %v to exit after Ctrl-C, want at most %v", got.took, interruptBound)
			}
			if !strings.Contains(last, c.want) || strings.HasSuffix(last, "context canceled") {
				t.Errorf("last line %q: want %q in it and no \"context canceled\"", last, c.want)
			}
			if c.kept != nil {
				c.kept(t, got.stdout)
			}
		})
	}
}

// interrupted is what a process did after Ctrl-C.
type interrupted struct {
	code           int
	took           time.Duration // from SIGINT to its exit
	stdout, stderr string
}

// interrupt runs bin with args and presses Ctrl-C after its first output (its first line
// or progress bar: its setup is done and the work has begun) where that comes within after
// of its start — a quick machine only gets further into the work — and after its start for
// commands silent until their result.
func interrupt(tb testing.TB, bin string, args []string, after time.Duration) interrupted {
	tb.Helper()
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	started := make(chan struct{})
	var once sync.Once
	var mu sync.Mutex // the buffers are written by exec's goroutines
	cmd.Stdout = signWriter{&stdout, &mu, func() { once.Do(func() { close(started) }) }}
	cmd.Stderr = signWriter{&stderr, &mu, func() { once.Do(func() { close(started) }) }}
	stdin, err := cmd.StdinPipe() // open and silent: play waits at its prompt
	if err != nil {
		tb.Fatal(err)
	}
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.After(after)
	select {
	case err := <-exited:
		tb.Fatalf("finished before any output or Ctrl-C (%v): the case needs more work\n%s", err, stderr.String())
	case <-started:
		deadline = time.After(after)
	case <-deadline:
		deadline = time.After(0)
	}
	select {
	case err := <-exited: // Wait has copied every output: the buffers are ours
		tb.Fatalf("finished before Ctrl-C (%v): the case needs more work\n%s", err, stderr.String())
	case <-deadline:
	}
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		tb.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		<-exited
		tb.Fatalf("still running 60 s after Ctrl-C\n%s", stderr.String())
	}
	return interrupted{code: cmd.ProcessState.ExitCode(), took: time.Since(sent), stdout: stdout.String(), stderr: stderr.String()}
}

// BenchmarkCtrlC measures what TestCtrlCStopsEveryLongCommand bounds loosely: how long
// commands in their longest work take to exit after Ctrl-C (ms/exit; the brief's target is
// a second). One process a case and iteration.
func BenchmarkCtrlC(b *testing.B) {
	bin := kingoalBinary(b)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"eval-nash-solving", []string{"eval", "nash", "--vs", "random", "--throws-per-half", "40"}},
		{"arena-optimal", []string{"arena", "--agents", "optimal;random;mcts:iters=20000", "--matches", "400", "--out", filepath.Join(b.TempDir(), "arena")}},
		{"solve-game", []string{"solve", "game", "--throws-per-half", "10", "--moves", "2"}},
		{"solve-policy-dynamic", []string{"solve", "policy", "--home-mode", "dynamic", "--throws-per-half", "150"}},
		{"simulate", []string{"simulate", "-n", "10000000000"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var total time.Duration
			for i := 0; i < b.N; i++ {
				args := c.args
				if c.name == "arena-optimal" { // a fresh run directory each time
					args = append(slices.Clone(args[:len(args)-1]), filepath.Join(b.TempDir(), "arena"))
				}
				got := interrupt(b, bin, args, 1500*time.Millisecond)
				if got.code != command.ExitInterrupted {
					b.Fatalf("exit %d\n%s", got.code, got.stderr)
				}
				total += got.took
			}
			b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/exit")
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
// exited 0) — at 80% of a run measured first, in the summary here — still exits 130 (within
// interruptBound; KINGOAL_HEAVY only: two solves). The machine's speed varies by up to 2×
// from run to run: a run that ends before the signal, or within lateExit of it (exit 0),
// finished before it could see it, and is tried again — at 70%, then 60%, of that run's own
// length; one that goes on and exits 0 ignored it, as the bug did.
func TestCtrlCLateInASolve(t *testing.T) {
	testtool.SkipUnlessHeavy(t, "Ctrl-C late in a solve (two solves)")
	const lateExit = 100 * time.Millisecond
	bin := kingoalBinary(t)
	args := []string{"solve", "policy", "--home-mode", "dynamic", "--throws-per-half", "150"}
	began := time.Now()
	if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	whole := time.Since(began)
	for _, at := range []float64{0.8, 0.7, 0.6} {
		cmd := exec.Command(bin, args...)
		started := time.Now()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		select {
		case <-exited: // a quicker run than the first: nothing to interrupt
			whole = time.Since(started)
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
		took, code := time.Since(sent), cmd.ProcessState.ExitCode()
		if code == 0 && took < lateExit {
			whole = time.Since(started)
			continue // it was ending as the signal came: earlier next time
		}
		if code != command.ExitInterrupted || took > interruptBound {
			t.Errorf("Ctrl-C at %.0f%% of a %v run: exit %d after %v, want %d within %v", 100*at, whole.Round(time.Millisecond), code, took.Round(time.Millisecond), command.ExitInterrupted, interruptBound)
		}
		return
	}
	t.Errorf("every run ended before Ctrl-C could reach it (the first took %v)", whole.Round(time.Millisecond))
}
