package cli

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/kingoal/kingoal/internal/testtool"

	"github.com/kingoal/kingoal/datasets"
)

// requireTool skips the test when an analyst tool is missing, unless KINGOAL_REQUIRE_TOOLS is
// set (.ci/run sets it after installing them), in which case it fails.
func requireTool(t *testing.T, what string, ok bool) { t.Helper(); testtool.Require(t, what, ok) }

// TestDuckDBReadsEveryFile opens every kind of Parquet file the toolkit writes with DuckDB
// (the npm package @duckdb/node-api, pinned in .ci/duckdb) and compares row counts and sums
// with what the Go readers see.
func TestDuckDBReadsEveryFile(t *testing.T) {
	if testing.Short() {
		t.Skip("-short (the race stage): node reads the files; go test ./... runs it")
	}
	module := filepath.Join("..", "..", ".ci", "duckdb")
	_, nodeErr := exec.LookPath("node")
	_, modErr := os.Stat(filepath.Join(module, "node_modules", "@duckdb", "node-api"))
	requireTool(t, "node with @duckdb/node-api in .ci/duckdb", nodeErr == nil && modErr == nil)

	dir := t.TempDir()
	runDir := filepath.Join(dir, "run")
	for _, args := range [][]string{
		{"arena", "--agents", "random;heuristic", "--matches", "12", "--throws-per-half", "6", "--knockout",
			"--log-throws", "--dice", "--log-decisions", "--out", runDir},
		{"arena", "--format", "worldcup", "--agents", "random;heuristic;fixed:2-2-2-2-2;fixed:1-3-3-2-1", "--group-size", "2", "--matches", "8",
			"--throws-per-half", "4", "--no-exploitability", "--out", filepath.Join(dir, "wc")},
		{"solve", "matrix", "--throws-per-half", "5", "--out", dir},
		{"solve", "equilibrium", "--throws-per-half", "3", "--ties-count", "--out", filepath.Join(dir, "equilibrium.parquet")},
		{"solve", "policy", "--throws-per-half", "6", "--moves", "2", "--out", filepath.Join(dir, "policy.parquet")},
		{"solve", "game", "--throws-per-half", "3", "--moves", "1", "--out", filepath.Join(dir, "game.parquet")},
		{"train", "qlearning", "--throws-per-half", "4", "--moves", "1", "--episodes", "400", "--eval-every", "100", "--out", filepath.Join(dir, "q.json")},
	} {
		if code, _, stderr := run(t, args...); code != 0 {
			t.Fatalf("%v: %s", args, stderr)
		}
	}
	// check.mjs names its query by the file's name: the World Cup's matches go under their own.
	if err := os.Rename(filepath.Join(dir, "wc", "matches.parquet"), filepath.Join(dir, "worldcup.parquet")); err != nil {
		t.Fatal(err)
	}
	// Per file: the row count and three sums, the same as check.mjs's query for that file.
	type check struct {
		path string
		want [4]float64
	}
	checks := []check{
		{filepath.Join(runDir, "matches.parquet"), sums(t, filepath.Join(runDir, "matches.parquet"), datasets.MatchesSchema,
			func(m datasets.MatchRow) [3]float64 {
				return [3]float64{float64(m.HomeGoals), float64(m.AwayGoals), float64(m.MatchID)}
			})},
		{filepath.Join(dir, "worldcup.parquet"), sums(t, filepath.Join(dir, "worldcup.parquet"), datasets.MatchesSchema,
			func(m datasets.MatchRow) [3]float64 { // cups, rounds (0: groups) and groups
				return [3]float64{float64(m.Cup), float64(m.Round), float64(m.Leg)}
			})},
		{filepath.Join(runDir, "throws.parquet"), sums(t, filepath.Join(runDir, "throws.parquet"), datasets.ThrowsSchema,
			func(r datasets.ThrowRow) [3]float64 {
				return [3]float64{float64(r.HomeDice), float64(r.BallAfter), float64(r.MatchID)}
			})},
		{filepath.Join(runDir, "decisions.parquet"), sums(t, filepath.Join(runDir, "decisions.parquet"), datasets.DecisionsSchema,
			func(r datasets.DecisionRow) [3]float64 {
				return [3]float64{float64(r.Action), float64(len(r.Observation)), float64(r.Reward)}
			})},
		{filepath.Join(runDir, "ratings.parquet"), sums(t, filepath.Join(runDir, "ratings.parquet"), datasets.RatingsSchema,
			func(r datasets.RatingRow) [3]float64 { return [3]float64{r.Rating, r.Low95, float64(r.AgentIndex)} })},
		{filepath.Join(dir, "matrix.parquet"), sums(t, filepath.Join(dir, "matrix.parquet"), datasets.MatrixSchema,
			func(r datasets.MatrixRow) [3]float64 { return [3]float64{r.HomeWin, r.Draw, float64(r.AwayIndex)} })},
		{filepath.Join(dir, "equilibrium.parquet"), sums(t, filepath.Join(dir, "equilibrium.parquet"), datasets.EquilibriumSchema,
			func(r datasets.EquilibriumRow) [3]float64 {
				return [3]float64{r.Probability, r.Value, float64(r.LineupIndex)}
			})},
		{filepath.Join(dir, "policy.parquet"), sums(t, filepath.Join(dir, "policy.parquet"), datasets.PolicySchema,
			func(r datasets.PolicyRow) [3]float64 { return [3]float64{r.Value, r.KeepValue, float64(r.ThrowsLeft)} })},
		{filepath.Join(dir, "game.parquet"), sums(t, filepath.Join(dir, "game.parquet"), datasets.GameSchema,
			func(r datasets.GameRow) [3]float64 { // |value|: a signed sum over millions of rows cancels to rounding
				return [3]float64{r.Probability, math.Abs(r.Value), float64(r.LineupIndex)}
			})},
		{filepath.Join(dir, "q.curve.parquet"), sums(t, filepath.Join(dir, "q.curve.parquet"), datasets.LearningCurveSchema,
			func(r datasets.LearningCurveRow) [3]float64 {
				return [3]float64{float64(r.Episodes), r.Score, float64(r.States)}
			})},
	}
	var abs []string
	for _, c := range checks {
		p, _ := filepath.Abs(c.path)
		abs = append(abs, p)
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
	for _, c := range checks {
		name := filepath.Base(c.path)
		g, w := got[name], c.want
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

// sums reads a file with the Go reader and returns its row count and the sums of three
// values of each row.
func sums[T any](t *testing.T, path, schema string, of func(T) [3]float64) (w [4]float64) {
	t.Helper()
	rows, err := datasets.ReadParquet[T](path, schema)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		w[0]++
		for i, v := range of(r) {
			w[i+1] += v
		}
	}
	return w
}
