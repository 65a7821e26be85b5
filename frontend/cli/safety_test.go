package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/internal/safefile"
)

// The guarantees of "nothing is ever lost": a command never replaces results it did not
// create in this invocation unless told to (--force), and --resume continues a run with
// its own settings.

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	code, out, stderr := run(t, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	return out
}

func wantRefusal(t *testing.T, want string, args ...string) {
	t.Helper()
	code, out, stderr := run(t, args...)
	if code != command.ExitUsage || out != "" || !strings.Contains(stderr, want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with %q", args, code, stderr, want)
	}
}

func TestArenaNeverReplacesARunBySurprise(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	args := []string{"arena", "--agents", "random;fixed:2-2-2-2-2", "--matches", "6", "--throws-per-half", "5", "--seed", "4", "--out", dir}
	first := mustRun(t, args...)
	matches := filepath.Join(dir, "matches.parquet")
	before, _ := os.ReadFile(matches)
	wantRefusal(t, "holds a finished run (6 matches)", args...)
	wantRefusal(t, "holds a finished run", "arena", "--agents", "random;heuristic", "--out", dir)
	if after, _ := os.ReadFile(matches); string(after) != string(before) {
		t.Fatal("a refused rerun changed matches.parquet")
	}
	// --resume alone takes every setting from run.json; a finished run re-prints its table.
	if again := mustRun(t, "arena", "--out", dir, "--resume"); again != first {
		t.Errorf("resume of a finished run printed\n%s\nwant\n%s", again, first)
	}
	wantRefusal(t, "--seed 5 differs from", "arena", "--out", dir, "--resume", "--seed", "5")
	wantRefusal(t, "--throws-per-half 45 differs", "arena", "--out", dir, "--resume", "--throws-per-half", "45")
	mustRun(t, "arena", "--out", dir, "--resume", "--agents", "random, fixed:2-2-2-2-2", "--seed", "4")
	wantRefusal(t, "choose one", "arena", "--out", dir, "--resume", "--force")
	// A resume of nothing creates nothing.
	none := filepath.Join(t.TempDir(), "none")
	wantRefusal(t, "holds no run to resume", "arena", "--out", none, "--resume")
	if _, err := os.Stat(none); err == nil {
		t.Error("a refused resume created its directory")
	}
	// A resume of a run being started (its directory held, its run.json not yet written)
	// names the holder.
	starting := filepath.Join(t.TempDir(), "starting")
	held, err := safefile.LockDir(starting)
	if err != nil {
		t.Fatal(err)
	}
	wantRefusal(t, fmt.Sprintf("is in use by another process (pid %d)", os.Getpid()), "arena", "--out", starting, "--resume")
	if err := held.Unlock(); err != nil {
		t.Fatal(err)
	}
	// --force replaces.
	mustRun(t, "arena", "--agents", "random;heuristic", "--matches", "2", "--throws-per-half", "5", "--out", dir, "--force")
	if n, err := datasets.CountRows(matches, datasets.MatchesSchema); err != nil || n != 2 {
		t.Errorf("after --force: %d rows, %v", n, err)
	}
	// The same agent twice runs as random and random#2; resuming with the list as typed agrees.
	twice := filepath.Join(t.TempDir(), "twice")
	mustRun(t, "arena", "--agents", "random;random", "--matches", "2", "--throws-per-half", "3", "--out", twice)
	mustRun(t, "arena", "--agents", "random;random", "--out", twice, "--resume")
	wantRefusal(t, "--out: want a directory name", "arena", "--out", "")
	wantRefusal(t, "--markdown and --json: choose one", "arena", "--out", dir, "--resume", "--markdown", "--json")
}

func TestOutputFilesAreNotReplacedBySurprise(t *testing.T) {
	dir := t.TempDir()
	eq := filepath.Join(dir, "eq.parquet")
	small := []string{"--throws-per-half", "3", "--moves", "0"}
	mustRun(t, append([]string{"solve", "equilibrium", "--out", eq}, small...)...)
	wantRefusal(t, "already exists; replace it with --force", append([]string{"solve", "equilibrium", "--out", eq}, small...)...)
	mustRun(t, append([]string{"solve", "equilibrium", "--out", eq, "--force"}, small...)...)
	csv := filepath.Join(dir, "eq.csv")
	mustRun(t, "datasets", "export", eq, "--out", csv)
	wantRefusal(t, "already exists", "datasets", "export", eq, "--out", csv)
	pol := filepath.Join(dir, "p.parquet")
	mustRun(t, "solve", "policy", "--throws-per-half", "3", "--moves", "1", "--out", pol)
	wantRefusal(t, "already exists", "solve", "policy", "--throws-per-half", "3", "--moves", "1", "--out", pol)
	mdir := filepath.Join(dir, "m")
	mustRun(t, append([]string{"solve", "matrix", "--out", mdir}, small...)...)
	wantRefusal(t, "already exists", append([]string{"solve", "matrix", "--out", mdir}, small...)...)
}

func TestTrainNeverReplacesAModelBySurprise(t *testing.T) {
	model := filepath.Join(t.TempDir(), "q.json")
	base := []string{"train", "qlearning", "--vs", "fixed:1-3-3-2-1", "--throws-per-half", "4", "--moves", "1", "--seed", "6", "--out", model}
	mustRun(t, append(base, "--episodes", "40")...)
	before, _ := os.ReadFile(model)
	wantRefusal(t, "already exists; continue its training with --resume or replace it with --force", append(base, "--episodes", "10")...)
	if after, _ := os.ReadFile(model); string(after) != string(before) {
		t.Fatal("a refused run changed the model")
	}
	// The resume takes vs, seed and rules from the model; a different opponent is refused.
	wantRefusal(t, "--vs random differs", "train", "qlearning", "--out", model, "--resume", "--episodes", "80", "--vs", "random")
	mustRun(t, "train", "qlearning", "--out", model, "--resume", "--episodes", "80")
	// The same model as one uninterrupted run of 80 episodes.
	other := filepath.Join(t.TempDir(), "q.json")
	mustRun(t, append(append([]string{}, base[:len(base)-1]...), other, "--episodes", "80")...)
	a, _ := os.ReadFile(model)
	b, _ := os.ReadFile(other)
	if len(a) == 0 || string(a) != string(b) {
		t.Error("the resumed model differs from the uninterrupted one")
	}
	// A no-op resume adds no row to the learning curve; the seconds only grow.
	curve := strings.TrimSuffix(model, ".json") + ".curve.parquet"
	rows, _ := datasets.ReadParquet[datasets.LearningCurveRow](curve, datasets.LearningCurveSchema)
	mustRun(t, "train", "qlearning", "--out", model, "--resume", "--episodes", "80")
	again, _ := datasets.ReadParquet[datasets.LearningCurveRow](curve, datasets.LearningCurveSchema)
	if len(rows) == 0 || len(again) != len(rows) {
		t.Errorf("curve rows: %d, after a no-op resume %d", len(rows), len(again))
	}
	for i := 1; i < len(rows); i++ {
		if rows[i].Seconds < rows[i-1].Seconds || rows[i].Episodes <= rows[i-1].Episodes {
			t.Errorf("curve row %d: %+v after %+v", i, rows[i], rows[i-1])
		}
	}
	wantRefusal(t, "there is no model", "train", "qlearning", "--out", filepath.Join(t.TempDir(), "none.json"), "--resume")
}

// FuzzResumeRunJSON: whatever run.json holds, `arena --out DIR --resume` either refuses with
// one line or reaches the engine with a valid competition (the engine here stops there).
func FuzzResumeRunJSON(f *testing.F) {
	f.Add([]byte(`{"format":"kingoal-run","competition":"league","agents":["random","heuristic"],"rules_config":{},"seed":3,"matches_per_pairing":4}`))
	f.Add([]byte(`{"format":"kingoal-run","competition":"knockout","agents":["random","random#2","fixed:1-3-3-2-1"],"rules_config":{"Knockout":true,"Moves":-1,"ExtraThrowsPerHalf":-1},"matches_per_pairing":2,"draw_bracket":true}`))
	f.Add([]byte(`{"format":"kingoal-run","competition":"cup","agents":["x;y"],"rules_config":{"ThrowsPerHalf":-4,"Points":{"Win":0}},"matches_per_pairing":-1}`))
	f.Add([]byte(`{"format":"kingoal-run","competition":"worldcup","agents":["random","heuristic","fixed:1-3-3-2-1","fixed:2-2-2-2-2","random#2"],"rules_config":{"Knockout":true},"matches_per_pairing":2,"group_size":3,"sampler":"goals"}`))
	f.Add([]byte(`{"format":"kingoal-run","competition":"world-cup","agents":["random","heuristic","fixed:1-3-3-2-1"],"rules_config":{},"matches_per_pairing":1,"group_size":-2,"sampler":"dice"}`))
	f.Add([]byte(`not json`))
	stop := errors.New("stop before playing")
	f.Fuzz(func(t *testing.T, runJSON []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "run.json"), runJSON, 0o644); err != nil {
			t.Fatal(err)
		}
		var reached bool
		engine := func(_ context.Context, c *arena.Plan, _ string, o arena.Options) (*arena.Tally, error) {
			if err := c.Validate(); err != nil || !o.Resume {
				t.Fatalf("the engine got an invalid competition %+v: %v", c, err)
			}
			reached = true
			return nil, stop
		}
		var out, errOut bytes.Buffer
		cmd := ArenaCommand(command.Streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, engine)
		Configure(cmd, command.Streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
		cmd.SetArgs([]string{"--out", dir, "--resume"})
		err := cmd.Execute()
		if reached {
			if !errors.Is(err, stop) {
				t.Fatalf("reached the engine, then: %v", err)
			}
			return
		}
		var u command.UsageError
		if err == nil || !errors.As(err, &u) || strings.Contains(err.Error(), "\n") {
			t.Fatalf("not a one-line usage error: %v", err)
		}
	})
}

// TestArenaRerunOfTheDefault: the README's first command run twice works both times — a
// rerun without --out goes into a new numbered directory and says so (issue 64); --resume
// and --force without --out take the newest; an explicit --out is never numbered.
func TestArenaRerunOfTheDefault(t *testing.T) {
	t.Chdir(t.TempDir())
	args := []string{"arena", "--agents", "random;fixed:2-2-2-2-2", "--matches", "4", "--throws-per-half", "3", "--no-exploitability"}
	first := mustRun(t, args...)
	code, second, stderr := run(t, args...)
	if code != 0 || second != first || !strings.Contains(stderr, "kingoal-arena holds an earlier run: this one goes into kingoal-arena-2") {
		t.Fatalf("the rerun: exit %d, stderr %q; want exit 0, the same table and a line naming kingoal-arena-2", code, stderr)
	}
	for _, dir := range []string{"kingoal-arena", "kingoal-arena-2"} {
		if _, err := os.Stat(filepath.Join(dir, "matches.parquet")); err != nil {
			t.Errorf("%s: %v", dir, err)
		}
	}
	if again := mustRun(t, "arena", "--resume"); again != first { // the newest, finished: its table again
		t.Errorf("--resume printed %q, want %q", again, first)
	}
	if _, err := os.Stat("kingoal-arena-3"); err == nil {
		t.Error("--resume made kingoal-arena-3")
	}
	wantRefusal(t, "kingoal-arena holds a finished run", append(args, "--out", "kingoal-arena")...)
}
