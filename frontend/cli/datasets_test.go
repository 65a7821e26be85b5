package cli

import (
	"bufio"
	"encoding/binary"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/frontend/cli/command"
)

func TestDatasetsInspectAndExport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, stderr := run(t, "arena", "--agents", "random;heuristic", "--matches", "8", "--throws-per-half", "6", "--out", dir); code != 0 {
		t.Fatalf("arena: %s", stderr)
	}
	pq := filepath.Join(dir, "matches.parquet")
	want, err := datasets.ReadParquet[datasets.MatchRow](pq, datasets.MatchesSchema)
	if err != nil {
		t.Fatal(err)
	}
	code, out, stderr := run(t, "datasets", "inspect", pq, "--rows", "2")
	if code != 0 || !strings.Contains(out, "schema: matches/2") || !strings.Contains(out, "rows: 8") || !strings.Contains(out, "dice_seed") {
		t.Fatalf("inspect: exit %d %s\n%s", code, stderr, out)
	}
	code, out, _ = run(t, "datasets", "export", pq, "--format", "csv")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(recs) != 9 {
		t.Fatalf("csv: %v, %d records", err, len(recs))
	}
	col := map[string]int{}
	for i, c := range recs[0] {
		col[c] = i
	}
	for i, w := range want {
		r := recs[i+1]
		if r[col["home_agent"]] != w.HomeAgent || r[col["home_goals"]] != strconv.Itoa(int(w.HomeGoals)) || r[col["dice_seed"]] != strconv.FormatUint(w.DiceSeed, 10) {
			t.Fatalf("csv row %d: %v, want %+v", i, r, w)
		}
	}
	jl := filepath.Join(t.TempDir(), "m.jsonl")
	if code, _, stderr := run(t, "datasets", "export", pq, "--format", "jsonl", "--out", jl); code != 0 {
		t.Fatal(stderr)
	}
	f, _ := os.Open(jl)
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil || m["result"] != want[n].Result {
			t.Fatalf("jsonl line %d: %v %v", n, err, m)
		}
		n++
	}
	if n != 8 {
		t.Fatalf("%d json lines", n)
	}
	bad := filepath.Join(t.TempDir(), "bad.parquet")
	os.WriteFile(bad, []byte("not parquet"), 0o644)
	if code, _, stderr := run(t, "datasets", "inspect", bad); code != command.ExitFailure || !strings.Contains(stderr, "not a readable Parquet file") {
		t.Errorf("corrupt: exit %d %q", code, stderr)
	}
	if code, _, _ := run(t, "datasets", "export", pq, "--format", "xml"); code != command.ExitUsage {
		t.Errorf("bad format: exit %d", code)
	}
}

func TestExportDecisionLists(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, stderr := run(t, "arena", "--agents", "random;heuristic", "--matches", "2", "--throws-per-half", "4", "--log-decisions", "--log-throws", "--out", dir); code != 0 {
		t.Fatalf("arena: %s", stderr)
	}
	code, out, stderr := run(t, "datasets", "export", filepath.Join(dir, "decisions.parquet"), "--format", "jsonl")
	if code != 0 {
		t.Fatal(stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for _, l := range lines {
		var row struct {
			Observation []float64 `json:"observation"`
			Mask        []bool    `json:"mask"`
			Action      int       `json:"action"`
		}
		if err := json.Unmarshal([]byte(l), &row); err != nil || len(row.Observation) != 36 || len(row.Mask) != 121 || !row.Mask[row.Action] {
			t.Fatalf("%v: %s", err, l)
		}
	}
	if code, out, _ := run(t, "datasets", "inspect", filepath.Join(dir, "throws.parquet")); code != 0 || !strings.Contains(out, "schema: throws/2") {
		t.Fatalf("inspect throws:\n%s", out)
	}
}

func TestGenerate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	code, out, stderr := run(t, "datasets", "generate", "--agents", "heuristic,random", "--episodes", "12", "--throws-per-half", "5", "--out", dir, "--seed", "4")
	if code != 0 || !strings.Contains(out, "12 matches") {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	rows, err := datasets.ReadParquet[datasets.DecisionRow](filepath.Join(dir, "decisions.parquet"), datasets.DecisionsSchema)
	if err != nil || len(rows) < 24 { // at least both kick-offs of every match
		t.Fatalf("%d decisions, %v", len(rows), err)
	}
	if code, _, _ := run(t, "datasets", "generate", "--agents", "uct:iters=5,c=1.0;random", "--episodes", "2", "--throws-per-half", "3", "--out", filepath.Join(t.TempDir(), "m")); code != 0 {
		t.Error("a spec with commas, separated by ';', was refused")
	}
	for _, bad := range [][]string{{"datasets", "generate", "--agents", "random"}, {"datasets", "generate", "--episodes", "0"}, {"datasets", "generate", "--agents", "random,nobody"}} {
		if code, _, stderr := run(t, bad...); code != command.ExitUsage || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d %q", bad, code, stderr)
		}
	}
}

// TestInspectReadsEveryPage damages the last page of a file parquet-go wrote (page CRCs,
// no file checksum) and requires inspect to refuse it even when it shows one row: it says a
// file is fine only after reading all of it.
func TestInspectReadsEveryPage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "curve.parquet")
	rows := make([]datasets.LearningCurveRow, 200_000) // four row groups
	for i := range rows {
		rows[i] = datasets.LearningCurveRow{Episodes: int64(i), Score: float64(i%97) / 97, States: int64(i * 7)}
	}
	if err := datasets.WriteParquet(path, datasets.LearningCurveSchema, rows); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "datasets", "inspect", path, "--rows", "1"); code != 0 {
		t.Fatalf("the undamaged file: %s", stderr)
	}
	b, _ := os.ReadFile(path)
	footer := len(b) - 8 - int(binary.LittleEndian.Uint32(b[len(b)-8:]))
	b[footer-40] ^= 0xff // inside the last column chunk's page
	os.WriteFile(path, b, 0o644)
	if code, _, stderr := run(t, "datasets", "inspect", path, "--rows", "1"); code != command.ExitFailure {
		t.Fatalf("a damaged last page: exit %d, %q", code, stderr)
	}
}
