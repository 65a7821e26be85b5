package main

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/kingoal/kingoal/datasets"
)

// requireTool skips the test when an analyst tool is missing, unless KINGOAL_REQUIRE_TOOLS is
// set (.ci/run sets it after installing them), in which case it fails.
func requireTool(t *testing.T, what string, ok bool) {
	t.Helper()
	if ok {
		return
	}
	if os.Getenv("KINGOAL_REQUIRE_TOOLS") != "" {
		t.Fatalf("%s is required (KINGOAL_REQUIRE_TOOLS is set) but missing", what)
	}
	t.Skipf("skipping: %s is missing (.ci/run installs it)", what)
}

// TestDuckDBReadsEveryFile opens every kind of Parquet file the toolkit writes with DuckDB
// (the npm package @duckdb/node-api, pinned in .ci/duckdb) and compares row counts and sums
// with what the Go readers see.
func TestDuckDBReadsEveryFile(t *testing.T) {
	module := filepath.Join("..", "..", ".ci", "duckdb")
	_, nodeErr := exec.LookPath("node")
	_, modErr := os.Stat(filepath.Join(module, "node_modules", "@duckdb", "node-api"))
	requireTool(t, "node with @duckdb/node-api in .ci/duckdb", nodeErr == nil && modErr == nil)

	dir := t.TempDir()
	runDir := filepath.Join(dir, "run")
	if code, _, stderr := run(t, "arena", "--agents", "random;heuristic", "--matches", "12", "--throws-per-half", "6", "--knockout",
		"--log-throws", "--dice", "--log-decisions", "--out", runDir); code != 0 {
		t.Fatal(stderr)
	}
	if code, _, stderr := run(t, "solve", "matrix", "--throws-per-half", "5", "--out", dir); code != 0 {
		t.Fatal(stderr)
	}
	files := []string{filepath.Join(runDir, "matches.parquet"), filepath.Join(runDir, "throws.parquet"), filepath.Join(runDir, "decisions.parquet"), filepath.Join(dir, "matrix.parquet")}
	abs := make([]string, len(files))
	for i, f := range files {
		abs[i], _ = filepath.Abs(f)
	}
	cmd := exec.Command("node", append([]string{"check.mjs"}, abs...)...)
	cmd.Dir = module
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("duckdb: %v\n%s", err, out)
	}
	var got map[string]map[string]float64
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := map[string][4]float64{}
	ms, _ := datasets.ReadParquet[datasets.MatchRow](files[0], datasets.MatchesSchema)
	var w [4]float64
	for _, m := range ms {
		w[0]++
		w[1] += float64(m.HomeGoals)
		w[2] += float64(m.AwayGoals)
		w[3] += float64(m.MatchID)
	}
	want["matches.parquet"] = w
	ts, _ := datasets.ReadParquet[datasets.ThrowRow](files[1], datasets.ThrowsSchema)
	w = [4]float64{}
	for _, r := range ts {
		w[0]++
		w[1] += float64(r.HomeDice)
		w[2] += float64(r.BallAfter)
		w[3] += float64(r.MatchID)
	}
	want["throws.parquet"] = w
	ds, _ := datasets.ReadParquet[datasets.DecisionRow](files[2], datasets.DecisionsSchema)
	w = [4]float64{}
	for _, r := range ds {
		w[0]++
		w[1] += float64(r.Action)
		w[2] += float64(len(r.Observation))
		w[3] += float64(r.Reward)
	}
	want["decisions.parquet"] = w
	mx, _ := datasets.ReadParquet[datasets.MatrixRow](files[3], datasets.MatrixSchema)
	w = [4]float64{}
	for _, r := range mx {
		w[0]++
		w[1] += r.HomeWin
		w[2] += r.Draw
		w[3] += float64(r.AwayIndex)
	}
	want["matrix.parquet"] = w
	for name, w := range want {
		g := got[name]
		for i, k := range []string{"n", "a", "b", "c"} {
			if math.Abs(g[k]-w[i]) > 1e-9*max(1, math.Abs(w[i])) {
				t.Errorf("%s %s: DuckDB %v, Go %v", name, k, g[k], w[i])
			}
		}
		if w[0] == 0 {
			t.Errorf("%s is empty", name)
		}
	}
}
