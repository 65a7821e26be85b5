package web_test

import (
	"context"
	"html"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/web"
)

// TestAnalysisLinksItsSteps: every decision of a match's analysis links the replay's step
// that shows it — the step whose line is that decision, its line-up chosen (the page's numbers
// were one short, issue 56); the summary counts inaccuracies beside mistakes and blunders,
// and the curve has its axes.
func TestAnalysisLinksItsSteps(t *testing.T) {
	root := t.TempDir()
	c := arena.Config{Agents: []string{"random", "heuristic"}, Rules: env.Rules{ThrowsPerHalf: 4, Moves: 2}, Matches: 1, Seed: 5, EveryThrow: true}
	if _, err := arena.Play(context.Background(), c, filepath.Join(root, "run"), arena.Options{}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer((&web.Server{Roots: []string{root}}).Handler())
	defer srv.Close()
	code, page := get(t, srv, "/run/0/run/match/0/analysis/")
	if code != 200 || strings.Contains(page, `class="err"`) {
		t.Fatalf("analysis %d:\n%s", code, page)
	}
	_, replay := get(t, srv, "/run/0/run/match/0/")
	lines := regexp.MustCompile(`<li><a href="#step-(\d+)">([^<]*)</a></li>`).FindAllStringSubmatch(replay, -1)
	rows := regexp.MustCompile(`<td data-label="step"><a href="\.\./#step-(\d+)"[^>]*>(\d+)</a></td><td class="agent (home|away)".*?<td class="agent mono" data-label="chose">([^<]*)</td>`).FindAllStringSubmatch(page, -1)
	if len(rows) == 0 || len(lines) == 0 {
		t.Fatalf("%d decisions linked, %d replay steps", len(rows), len(lines))
	}
	for _, r := range rows {
		step, _ := strconv.Atoi(r[1])
		if r[1] != r[2] || step >= len(lines) {
			t.Fatalf("a decision links step %s, shows %s, of %d", r[1], r[2], len(lines))
		}
		line, chose := html.UnescapeString(lines[step][2]), html.UnescapeString(r[4])
		if !strings.Contains(line, chose) && !(chose == "keep" && strings.Contains(line, "break")) {
			t.Errorf("step %d is %q, not the %s decision %q", step, line, r[3], chose)
		}
	}
	for _, want := range []string{"<th>inaccuracies</th>", `class="axis y"`, `class="axis x"`, "step of the replay"} {
		if !strings.Contains(page, want) {
			t.Errorf("the analysis page lacks %s", want)
		}
	}
}
