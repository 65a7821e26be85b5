package archtest

import (
	"slices"
	"testing"
)

// TestChecksCatchABreach feeds every check of this package a breach of its rule, and the
// same without it: each check fails on the first and passes the second (issue 65: a
// three-file call cycle passed), so none of the architecture's tests passes for want of
// looking.
func TestChecksCatchABreach(t *testing.T) {
	toy := [][]string{{"low"}, {"mid", "mid/midtest"}, {"high"}}
	for _, c := range []struct {
		name  string
		pkgs  []pkgImports
		found int
	}{
		{"downward imports", []pkgImports{{path: "high", imports: []string{"mid", "low"}}, {path: "mid", imports: []string{"low"}}}, 0},
		{"an upward import", []pkgImports{{path: "mid", imports: []string{"high"}}}, 1},
		{"an import within the layer", []pkgImports{{path: "mid", imports: []string{"mid/midtest"}}}, 1},
		{"a package in no layer", []pkgImports{{path: "nowhere"}}, 1},
		{"a test's upward import", []pkgImports{{path: "low", testOnly: []string{"mid"}}}, 1},
		{"a test importing its package's helpers", []pkgImports{{path: "mid", testOnly: []string{"mid/midtest", "low"}}}, 0},
	} {
		if got := importViolations(c.pkgs, toy); len(got) != c.found {
			t.Errorf("importViolations, %s: %q, want %d", c.name, got, c.found)
		}
	}

	doors := map[string]string{"mid/inner": "mid"}
	for _, c := range []struct {
		name  string
		pkgs  []pkgImports
		found int
	}{
		{"the front door's own packages", []pkgImports{{path: "mid", imports: []string{"mid/inner"}}, {path: "mid/other", testOnly: []string{"mid/inner"}}}, 0},
		{"an import from outside", []pkgImports{{path: "high", imports: []string{"mid/inner"}}}, 1},
		{"a test's import from outside", []pkgImports{{path: "middle", testOnly: []string{"mid/inner"}}}, 1},
	} {
		if got := behindDoorViolations(c.pkgs, doors); len(got) != c.found {
			t.Errorf("behindDoorViolations, %s: %q", c.name, got)
		}
	}

	for _, c := range []struct {
		name  string
		pkgs  []pkgImports
		found int
	}{
		{"folders importing downward", []pkgImports{{path: "frontend/cli", imports: []string{"arena", "internal/safefile"}}, {path: "arena", imports: []string{"internal/safefile"}}, {path: "cmd/kingoal", imports: []string{"frontend/cli"}}}, 0},
		{"a helper importing up", []pkgImports{{path: "internal/memo", imports: []string{"datasets"}}}, 1},
		{"a job importing a front end", []pkgImports{{path: "bench", testOnly: []string{"frontend/web"}}}, 1},
		{"two folders in a cycle", []pkgImports{{path: "arena", imports: []string{"exploit/x"}}, {path: "exploit", imports: []string{"arena/y"}}}, 1},
	} {
		if got := folderViolations(c.pkgs); len(got) != c.found {
			t.Errorf("folderViolations, %s: %q", c.name, got)
		}
	}

	cycle := map[[2]string][]string{{"a.go", "b.go"}: {"f"}, {"b.go", "c.go"}: {"g"}, {"c.go", "a.go"}: {"h"}, {"c.go", "d.go"}: {"k"}}
	if got := fileCycles(cycle); len(got) != 1 || !slices.Equal(got[0], []string{"a.go", "b.go", "c.go"}) {
		t.Errorf("fileCycles of a three-file cycle: %q", got)
	}
	delete(cycle, [2]string{"c.go", "a.go"})
	if got := fileCycles(cycle); len(got) != 0 {
		t.Errorf("fileCycles of a chain: %q", got)
	}

	calls := map[[2]string][]string{
		{"root.go", "arena.go"}:             {"newArenaCmd", "ArenaCommand"},
		{"datasets.go", "generate.go"}:      {"newGenerateCmd"},
		{"game.go", "game_render.go"}:       {"renderGame"},
		{"train_fictitious.go", "train.go"}: {"learnerFrom"},
	}
	if got := crossCommandCalls(calls); len(got) != 0 {
		t.Errorf("crossCommandCalls of allowed calls: %q", got)
	}
	calls[[2]string{"arena.go", "leaderboard.go"}] = []string{"writeLeaderboard"}
	if got := crossCommandCalls(calls); len(got) != 1 {
		t.Errorf("crossCommandCalls of arena.go calling leaderboard.go: %q", got)
	}

	py := [][]string{{"_native"}, {"data"}, {"gym"}}
	if got := pythonViolations(map[string][]string{"gym": {"data", "_native"}, "data": {"_native"}}, py); len(got) != 0 {
		t.Errorf("pythonViolations of downward imports: %q", got)
	}
	if got := pythonViolations(map[string][]string{"data": {"gym"}}, py); len(got) != 1 {
		t.Errorf("pythonViolations of data importing gym: %q", got)
	}

	if got := parquetDeps([]string{"fmt", module + "/env", "github.com/parquet-go/parquet-go", module + "/datasets"}); len(got) != 2 {
		t.Errorf("parquetDeps: %q", got)
	}
}
