package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/internal/cli"
	"github.com/kingoal/kingoal/internal/testtool"
	"github.com/kingoal/kingoal/web"
)

// TestInABrowser drives the app in headless Chromium (Debian's chromium through playwright-
// core from npm, pinned in .ci/browser; .ci/run installs both): the leaderboard, a replay
// played to its end (its score is matches.parquet's), a whole match against random played by
// clicking, and a policy heatmap. Screenshots go to $KINGOAL_SCREENSHOTS if set.
func TestInABrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the browser test runs in go test ./... (it starts Chromium, a real process)")
	}
	playwright, _ := filepath.Abs(filepath.Join("..", ".ci", "browser", "node_modules", "playwright-core"))
	_, nodeErr := exec.LookPath("node")
	chromium, chromiumErr := exec.LookPath("chromium")
	_, pwErr := os.Stat(playwright)
	testtool.Require(t, "node, chromium and playwright-core in .ci/browser", nodeErr == nil && chromiumErr == nil && pwErr == nil)

	root := t.TempDir()
	for _, args := range [][]string{
		{"arena", "--agents", "random;heuristic;fixed:2-2-2-2-2", "--matches", "4", "--throws-per-half", "8", "--seed", "2", "--out", filepath.Join(root, "league")},
		{"solve", "policy", "--throws-per-half", "6", "--moves", "2", "--out", filepath.Join(root, "policy.parquet")},
	} {
		var stderr bytes.Buffer
		if code := cli.Execute(args, strings.NewReader(""), &bytes.Buffer{}, &stderr); code != 0 {
			t.Fatalf("%v: %s", args, stderr.String())
		}
	}
	srv := httptest.NewServer((&web.Server{Roots: []string{root}}).Handler())
	defer srv.Close()
	shots := os.Getenv("KINGOAL_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", filepath.Join("e2e", "e2e.mjs"), srv.URL, shots)
	cmd.Env = append(os.Environ(), "CHROMIUM="+chromium, "PLAYWRIGHT_DIR="+playwright)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("e2e.mjs: %v\n%s\n%s", err, stderr.String(), stdout.String())
	}
	var saw struct {
		LeaderboardAgents, Exploitability, Clicks, HeatCells int
		ReplayScore, StoredScore, ReplayStart, AfterNextGoal string
		Final, PlayURL                                       string
	}
	if err := json.Unmarshal(stdout.Bytes(), &saw); err != nil {
		t.Fatalf("e2e.mjs printed %q: %v", stdout.String(), err)
	}
	t.Logf("browser saw %+v; screenshots in %s", saw, shots)
	rows, err := datasets.ReadParquet[datasets.MatchRow](filepath.Join(root, "league", "matches.parquet"), datasets.MatchesSchema)
	if err != nil {
		t.Fatal(err)
	}
	if row := fmt.Sprintf("%d-%d", rows[1].HomeGoals, rows[1].AwayGoals); saw.ReplayScore != row || saw.StoredScore != row {
		t.Errorf("the replay of match 1 ends %s (the page's stored %s), matches.parquet says %s", saw.ReplayScore, saw.StoredScore, row)
	}
	if saw.LeaderboardAgents != 3 || saw.Exploitability != 1 || saw.ReplayStart != "0-0" || saw.AfterNextGoal == "0-0" && rows[1].HomeGoals+rows[1].AwayGoals > 0 {
		t.Errorf("leaderboard or replay controls: %+v", saw)
	}
	if !strings.HasPrefix(saw.Final, "Final score") || saw.Clicks < 2 || !strings.Contains(saw.PlayURL, "vs=random") {
		t.Errorf("the match played by clicking: %+v", saw)
	}
	if saw.HeatCells == 0 {
		t.Error("an empty heatmap")
	}
}
