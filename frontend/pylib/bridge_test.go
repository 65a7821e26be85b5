package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/cli"
	"github.com/kingoal/kingoal/internal/testtool"
)

// The Python modules the package's tests import: without the first two nothing runs; without
// any of the rest, the tests that use it skip (pytest's importorskip). .ci/run installs all of
// them (python/requirements-ci.txt, python/requirements-sb3.txt) and sets
// KINGOAL_REQUIRE_TOOLS, which turns any of them missing into a failure.
var (
	pythonNeeds    = []string{"numpy", "pytest"}
	pythonOptional = []string{"gymnasium", "pettingzoo", "stable_baselines3", "sb3_contrib", "supersuit",
		"pyarrow", "polars", "pandas", "duckdb", "minari", "moviepy"}
)

// TestPythonPackage builds this library, writes what the Python tests compare against —
// trajectories played by the Go env and one Parquet file of every kind — and runs the
// Python package's tests (python/tests) with pytest under the interpreter $KINGOAL_PYTHON
// (python3 on the PATH if unset), against the Gymnasium, PettingZoo, SB3, … installed there.
// What is missing is decided before anything is built: without NumPy or pytest it skips, and
// a missing optional module is named; KINGOAL_REQUIRE_TOOLS makes either a failure.
func TestPythonPackage(t *testing.T) {
	testtool.SkipUnlessHeavy(t, "the Python package's suite (pytest, minutes)")
	python, missing := findPython()
	testtool.Require(t, fmt.Sprintf("a Python with %s (%s lacks %s; set KINGOAL_PYTHON, see python/README.md)",
		strings.Join(pythonNeeds, " and "), python, strings.Join(missing.needs, ", ")), len(missing.needs) == 0)
	testtool.Partial(t, fmt.Sprintf("Python modules %s under %s (pip install -r python/requirements-ci.txt)",
		strings.Join(missing.optional, ", "), python), len(missing.optional) == 0)
	if testing.Short() {
		t.Skip("skipping the Python tests in -short mode")
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	work := t.TempDir()
	lib := filepath.Join(work, "libkingoal.so")
	if out, err := exec.Command("go", "build", "-buildmode=c-shared", "-o", lib, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build -buildmode=c-shared: %v\n%s", err, out)
	}
	ref := filepath.Join(work, "reference.json")
	writeReference(t, ref)
	data := filepath.Join(work, "data")
	writeDataFiles(t, data)

	cmd := exec.Command(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", filepath.Join(root, "python", "tests"))
	cmd.Env = append(os.Environ(), "KINGOAL_LIB="+lib, "KINGOAL_REFERENCE="+ref, "KINGOAL_TEST_DATA="+data,
		"PYTHONPATH="+filepath.Join(root, "python"), "PYTHONDONTWRITEBYTECODE=1")
	if os.Getenv("KINGOAL_REQUIRE_TOOLS") != "" {
		cmd.Env = append(cmd.Env, "KINGOAL_REQUIRE_TOOLS=1")
	}
	out, err := cmd.CombinedOutput()
	t.Logf("pytest (%s):\n%s", python, tailLines(string(out), 25))
	if err != nil {
		t.Fatalf("pytest failed: %v\n%s", err, string(out))
	}
	pythonPolicyInArena(t, data, work)
}

// pythonPolicyInArena: the heuristic (late=1) written in Python, saved by the Python tests as a
// policy table, plays a `kingoal arena` beside the registry agents, and its leaderboard shows
// it with the Go heuristic's exact exploitability.
func pythonPolicyInArena(t *testing.T, data, work string) {
	table := filepath.Join(data, "py-heuristic.kgp")
	run := filepath.Join(work, "python-arena")
	var stdout, stderr bytes.Buffer
	args := []string{"arena", "--agents", "table:file=" + table + ";heuristic:late=1;random", "--matches", "6", "--throws-per-half", "3", "--moves", "1", "--out", run}
	if code := cli.Execute(args, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("kingoal %v: %s", args, stderr.String())
	}
	stdout.Reset()
	if code := cli.Execute([]string{"leaderboard", run, "--json"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("kingoal leaderboard: %s", stderr.String())
	}
	var board struct {
		Ratings []struct {
			Agent          string
			Exploitability struct {
				Value float64
				Exact bool
			}
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &board); err != nil {
		t.Fatal(err)
	}
	x := map[string]float64{}
	for _, r := range board.Ratings {
		if !r.Exploitability.Exact {
			t.Errorf("%s: exploitability not exact", r.Agent)
		}
		x[r.Agent] = r.Exploitability.Value
	}
	py, found := x["table:file="+table]
	if !found || math.Abs(py-x["heuristic:late=1"]) > 1e-12 || py < 0.01 {
		t.Fatalf("the Python policy on the leaderboard: %v (found %v), heuristic %v", py, found, x["heuristic:late=1"])
	}
	// Decision by decision, the Python heuristic's table is the Go heuristic: matches of it
	// against random, both sides, the Go agent asked beside it every time.
	r := env.Rules{ThrowsPerHalf: 3, Moves: 1}
	played, err := agents.New("table:file="+table, agents.Setup{Rules: r})
	if err != nil {
		t.Fatal(err)
	}
	heuristic, _ := agents.New("heuristic:late=1", agents.Setup{Rules: r})
	asked, differ, moved := 0, 0, 0
	both := env.PolicyFunc(func(obs env.Observation, legal env.Mask) int {
		a, b := played.Act(obs, legal), heuristic.Act(obs, legal)
		if asked++; a != b {
			differ++
		}
		if obs.Decision == env.Break && b != obs.Own.Index() {
			moved++ // the heuristic's changes, not only its keeping
		}
		return a
	})
	for i := range 200 {
		start, _ := env.NewState(r)
		players := []env.Policy{both, agents.NewRandom(uint64(i))}
		if i%2 == 1 {
			players[0], players[1] = players[1], players[0]
		}
		if _, err := env.Play(start, players[0], players[1], env.NewFastSampler(rand.NewPCG(uint64(i), 9)), nil); err != nil {
			t.Fatal(err)
		}
	}
	if differ != 0 || asked < 400 || moved == 0 {
		t.Fatalf("the Python heuristic's table and the Go heuristic differ at %d of %d decisions (%d changes)", differ, asked, moved)
	}
}

type missingModules struct{ needs, optional []string }

// findPython names the interpreter the tests run under and the modules it cannot import,
// asking it once (one process, no build).
func findPython() (string, missingModules) {
	python := os.Getenv("KINGOAL_PYTHON")
	if python == "" {
		python = "python3"
	}
	path, err := exec.LookPath(python)
	if err != nil {
		return python + " (not found)", missingModules{needs: pythonNeeds, optional: pythonOptional}
	}
	probe := `import importlib.util, sys
print(" ".join(m for m in sys.argv[1:] if importlib.util.find_spec(m) is None))`
	out, err := exec.Command(path, append([]string{"-c", probe}, append(pythonNeeds, pythonOptional...)...)...).Output()
	if err != nil {
		return path + " (does not run)", missingModules{needs: pythonNeeds, optional: pythonOptional}
	}
	var m missingModules
	for _, name := range strings.Fields(string(out)) {
		if slices.Contains(pythonNeeds, name) {
			m.needs = append(m.needs, name)
		} else {
			m.optional = append(m.optional, name)
		}
	}
	return path, m
}

func tailLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// trajectory is one episode of the Go env with a fixed rule for the agent's action (the
// first legal one), as the Python tests replay it.
type trajectory struct {
	Config     map[string]any `json:"config"` // KingoalEnv keyword arguments
	NativeSeed uint64         `json:"native_seed"`
	Obs        [][]float32    `json:"obs"`
	Masks      [][]int        `json:"masks"` // legal actions
	Rewards    []float64      `json:"rewards"`
	Terminated []bool         `json:"terminated"`
}

func writeReference(t *testing.T, path string) {
	t.Helper()
	cases := []struct {
		kwargs map[string]any
		cfg    env.Config
		spec   string
	}{
		{map[string]any{"opponent": "heuristic", "throws_per_half": 10}, env.Config{Rules: env.Rules{ThrowsPerHalf: 10}}, "heuristic"},
		{map[string]any{"opponent": "random", "player": "away", "reward": "goal-diff", "knockout": true, "throws_per_half": 6, "extra_throws": 2},
			env.Config{Rules: env.Rules{Knockout: true, ThrowsPerHalf: 6, ExtraThrowsPerHalf: 2}, Player: env.Away, Reward: env.RewardGoalDiff}, "random"},
		{map[string]any{"opponent": "fixed:1-3-3-2-1", "home_mode": "dynamic", "throws_per_half": 8, "dice": "rolled"},
			env.Config{Rules: env.Rules{Modes: [2]env.Mode{env.Dynamic, env.Basic}, ThrowsPerHalf: 8}, Dice: env.RolledDice}, "fixed:1-3-3-2-1"},
	}
	var out []trajectory
	for i, c := range cases {
		opp, err := agents.New(c.spec, agents.Setup{Rules: c.cfg.Rules})
		if err != nil {
			t.Fatal(err)
		}
		c.cfg.Opponent = opp
		e, err := env.New(c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		tr := trajectory{Config: c.kwargs, NativeSeed: uint64(1000 + i)}
		obs, info := e.Reset(tr.NativeSeed)
		for {
			tr.Obs = append(tr.Obs, obs.Vector())
			tr.Masks = append(tr.Masks, info.Mask.Actions())
			if info.Mask.Count() == 0 {
				break
			}
			st, err := e.Step(info.Mask.Nth(0))
			if err != nil {
				t.Fatal(err)
			}
			tr.Rewards = append(tr.Rewards, st.Reward)
			tr.Terminated = append(tr.Terminated, st.Terminated)
			obs, info = st.Obs, st.Info
			if st.Terminated || st.Truncated {
				tr.Obs = append(tr.Obs, obs.Vector())
				tr.Masks = append(tr.Masks, info.Mask.Actions())
				break
			}
		}
		out = append(out, tr)
	}
	b, _ := json.Marshal(out)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeDataFiles makes one file of every kind the toolkit writes, with the CLI.
func writeDataFiles(t *testing.T, dir string) {
	t.Helper()
	small := []string{"--throws-per-half", "6", "--moves", "1"}
	for _, args := range [][]string{
		{"solve", "matrix", "--out", filepath.Join(dir, "matrix")},
		{"solve", "equilibrium", "--out", filepath.Join(dir, "equilibrium.parquet")},
		{"solve", "policy", "--out", filepath.Join(dir, "policy.parquet")},
		{"arena", "--agents", "random;heuristic;fixed:2-2-2-2-2", "--matches", "4", "--log-throws", "--log-decisions", "--out", filepath.Join(dir, "run")},
		{"train", "qlearning", "--episodes", "400", "--out", filepath.Join(dir, "q.json")},
		{"solve", "game", "--out", filepath.Join(dir, "game.parquet")},
		{"datasets", "generate", "--agents", "heuristic,random", "--episodes", "8", "--out", filepath.Join(dir, "generated")},
	} {
		var stdout, stderr bytes.Buffer
		if code := cli.Execute(append(args, small...), strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("kingoal %v: %s", args, stderr.String())
		}
	}
	// The Go agents' exact exploitability, for the Python callables written as them.
	// heuristic:late=1 moves after every goal: at 3-throw halves the default waits too long to.
	for name, spec := range map[string]string{"fixed": "fixed:1-2-3-3-1", "heuristic": "heuristic:late=1", "random": "random"} {
		var stdout, stderr bytes.Buffer
		args := []string{"eval", spec, "--vs", "fixed:2-2-2-2-2", "-n", "1", "--json", "--throws-per-half", "3", "--moves", "1"}
		if code := cli.Execute(args, strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("kingoal %v: %s", args, stderr.String())
		}
		if err := os.WriteFile(filepath.Join(dir, "eval-"+name+".json"), stdout.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestWritePythonTestData writes what the Python tests compare against (as TestPythonPackage
// does) into $KINGOAL_WRITE_TEST_DATA, for running them elsewhere — on an installed wheel, in
// a venv with no Go (.ci/run): reference.json and data/ there. Without the variable it skips.
func TestWritePythonTestData(t *testing.T) {
	dir := os.Getenv("KINGOAL_WRITE_TEST_DATA")
	if dir == "" {
		t.Skip("KINGOAL_WRITE_TEST_DATA is not set: nothing asked for")
	}
	writeReference(t, filepath.Join(dir, "reference.json"))
	writeDataFiles(t, filepath.Join(dir, "data"))
}
