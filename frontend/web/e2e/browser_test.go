package e2e_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kingoal/kingoal/analysis"
	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/arena/arenatest"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frame"
	"github.com/kingoal/kingoal/frontend/cli"
	"github.com/kingoal/kingoal/frontend/web"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/internal/testtool"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

// TestInABrowser drives the app in headless Chromium (Debian's chromium through playwright-
// core from npm, pinned in .ci/browser with axe-core; .ci/run installs them): the
// leaderboard, a replay played to its end (its score is matches.parquet's), a whole match
// against random played by clicking and another by keyboard alone, a policy heatmap, and a
// match's analysis (its numbers are kingoal analyse --json's); then every page at a
// phone's width, which must not scroll sideways, and axe-core's WCAG 2.1 A/AA rules, which
// must find nothing serious or critical. Screenshots (desktop and phone) go to
// $KINGOAL_SCREENSHOTS if set.
func TestInABrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the browser test runs in .ci/run's go test ./... (it starts Chromium, a real process)")
	}
	testtool.SkipUnlessHeavy(t, "the browser test (Chromium, about a minute)")
	playwright, _ := filepath.Abs(filepath.Join("..", "..", "..", ".ci", "browser", "node_modules", "playwright-core"))
	_, nodeErr := exec.LookPath("node")
	chromium, chromiumErr := exec.LookPath("chromium")
	_, pwErr := os.Stat(playwright)
	axe, _ := filepath.Abs(filepath.Join("..", "..", "..", ".ci", "browser", "node_modules", "axe-core"))
	_, axeErr := os.Stat(axe)
	testtool.Require(t, "node, chromium, playwright-core and axe-core in .ci/browser", nodeErr == nil && chromiumErr == nil && pwErr == nil && axeErr == nil)

	root := t.TempDir()
	table := filepath.Join(root, "short.kgt")
	for _, args := range [][]string{
		{"arena", "--agents", "random;heuristic;fixed:2-2-2-2-2", "--matches", "4", "--throws-per-half", "8", "--seed", "2", "--out", filepath.Join(root, "league")},
		{"solve", "policy", "--throws-per-half", "6", "--moves", "2", "--out", filepath.Join(root, "policy.parquet")},
		{"solve", "game", "--throws-per-half", "4", "--moves", "2", "--out", table},
		{"arena", "--agents", "heuristic;random;fixed:1-1-4-2-2", "--matches", "2", "--throws-per-half", "4", "--moves", "2", "--out", filepath.Join(root, "short"), "--no-exploitability"},
	} {
		var stderr bytes.Buffer
		if code := cli.Execute(args, strings.NewReader(""), &bytes.Buffer{}, &stderr); code != 0 {
			t.Fatalf("%v: %s", args, stderr.String())
		}
	}
	arenatest.Interrupted(t, filepath.Join(root, "paused"), 300)
	live := filepath.Join(root, "live")
	liveConfig := arenatest.Interrupted(t, live, 1100)
	gate := filepath.Join(t.TempDir(), "gate")
	finished := finishWhenTold(t, live, liveConfig, gate)
	srv := httptest.NewServer((&web.Server{Roots: []string{root}, Tables: []string{table}}).Handler())
	defer srv.Close()
	shots := os.Getenv("KINGOAL_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "e2e.mjs", srv.URL, shots, gate)
	cmd.Env = append(os.Environ(), "CHROMIUM="+chromium, "PLAYWRIGHT_DIR="+playwright, "AXE_DIR="+axe)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("e2e.mjs: %v\n%s\n%s", err, stderr.String(), stdout.String())
	}
	var saw struct {
		LeaderboardAgents, Exploitability, Clicks, HeatCells int
		ReplayScore, StoredScore, ReplayStart, AfterNextGoal string
		Final, PlayURL                                       string
		Analysis                                             analysis.Report
		FirstRowLoss                                         float64
		CurvePoints, Keys, PagesChecked                      int
		KeyboardFinal, PlayedYou                             string
		PlayedDecisions, CounterSubmits                      int
		CountersFinal, CountersKickOff                       string
		Wide, Axe                                            []string
		Pitch                                                pitchSeen
		Live                                                 liveSeen
		Hand                                                 handSeen
		HeatPicked                                           []string
		HeatValues                                           [][2]string
		Explored                                             struct {
			URL   string
			Value float64
			Rows  int
		}
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
	checkPitchSeen(t, saw.Pitch)
	checkHandSeen(t, saw.Hand)
	checkLiveSeen(t, saw.Live, <-finished)
	if !strings.HasPrefix(saw.Final, "Final score") || saw.Clicks < 2 || !strings.Contains(saw.PlayURL, "vs=random") {
		t.Errorf("the match played by clicking: %+v", saw)
	}
	if saw.HeatCells == 0 {
		t.Error("an empty heatmap")
	}
	checkHeatSeen(t, saw.HeatPicked, saw.HeatValues)
	checkExploredSeen(t, saw.Explored.URL, saw.Explored.Value, saw.Explored.Rows)
	checkAnalysisSeen(t, filepath.Join(root, "short"), table, saw.Analysis, saw.FirstRowLoss, saw.CurvePoints)
	if !strings.HasPrefix(saw.KeyboardFinal, "Final score") {
		t.Errorf("the match played by keyboard did not end (%d key presses): %q", saw.Keys, saw.KeyboardFinal)
	}
	if !strings.HasPrefix(saw.CountersFinal, "Final score") || saw.CounterSubmits < 2 || !strings.Contains(saw.CountersKickOff, "1-2-3-3-1") {
		t.Errorf("the match played by setting counters: %d submits, kick-off %q, end %q", saw.CounterSubmits, saw.CountersKickOff, saw.CountersFinal)
	}
	if saw.PlayedDecisions < 2 || saw.PlayedYou != "you" {
		t.Errorf("the analysis of the match played: %d decisions, home %q", saw.PlayedDecisions, saw.PlayedYou)
	}
	if saw.PagesChecked < 11 || len(saw.Wide) > 0 || len(saw.Axe) > 0 {
		t.Errorf("%d pages at 390 px: wider than the screen: %v; axe-core's serious or critical violations: %v", saw.PagesChecked, saw.Wide, saw.Axe)
	}
}

// checkPitchSeen: at every step the browser scrubbed to, every counter (ten a side once the
// line-ups are chosen) and the ball (until full time) drawn in SVG stands where the step's
// PNG has its colour; an event's link goes to its step.
func checkPitchSeen(t *testing.T, seen pitchSeen) {
	t.Helper()
	if len(seen.Steps) != 4 || !slices.Equal(seen.Linked, []string{"2", "2", "2"}) {
		t.Errorf("the live pitch: %d steps checked; the third event's link went to step, timeline, list item %v", len(seen.Steps), seen.Linked)
	}
	for i, st := range seen.Steps {
		ball, side := 1, 10
		if i == len(seen.Steps)-1 {
			ball = 0 // full time: the ball is off the pitch
		}
		if st.K == 0 {
			side = 0 // before the kick-off: no line-ups yet
		}
		if st.Shown != st.K || st.Home != side || st.Away != side || st.Ball != ball || st.Checked != 2*side+ball || len(st.Wrong) > 0 {
			t.Errorf("the live pitch at step %d: %+v", st.K, st)
		}
	}
}

// finishWhenTold holds the run in dir as a playing arena would, and once the file gate
// exists lets it go and finishes it (the run's progress before that on the channel).
func finishWhenTold(t *testing.T, dir string, c arena.Config, gate string) <-chan finishedRun {
	t.Helper()
	lock, err := safefile.LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	before, err := arena.ReadProgress(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan finishedRun, 1)
	go func() {
		for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if _, err := os.Stat(gate); err == nil {
				break
			}
		}
		lock.Unlock()
		tally, err := arena.Play(context.Background(), c, dir, arena.Options{Resume: true})
		done <- finishedRun{before, tally, err}
	}()
	return done
}

type finishedRun struct {
	before *arena.Progress
	tally  *arena.Tally
	err    error
}

// liveSeen is what frontend/web/e2e/live.mjs saw of a run finished while its page was open.
type liveSeen struct {
	RunsRow, Before           string
	PlayedBefore, PlayedAfter int
	NotReloaded               bool
	ProgressLeft              int
}

// checkLiveSeen: the runs page and the leaderboard showed the run being played as far as it
// had come (its shards done, its league table summing the matches on disk), and the open
// page became the finished run's without a reload.
func checkLiveSeen(t *testing.T, seen liveSeen, run finishedRun) {
	t.Helper()
	if run.err != nil {
		t.Fatalf("finishing the live run: %v", run.err)
	}
	p := run.before
	if !strings.Contains(seen.RunsRow, "being played") || !strings.Contains(seen.RunsRow, fmt.Sprintf("%d matches on disk", p.Matches)) ||
		seen.Before != fmt.Sprintf("%d of %d shards", p.Done, p.Shards) || seen.PlayedBefore != 2*p.Matches {
		t.Errorf("the run being played (%d of %d shards, %d matches on disk): the browser saw %+v", p.Done, p.Shards, p.Matches, seen)
	}
	if !seen.NotReloaded || seen.ProgressLeft != 0 || seen.PlayedAfter != 2*run.tally.Matches() {
		t.Errorf("the run once finished (%d matches): the browser saw %+v", run.tally.Matches(), seen)
	}
}

// checkHeatSeen: a cell clicked and the next reached by the arrow key each wrote their own
// words; with the values written in, each cell shows its value (the last number of its
// words) to two decimals.
func checkHeatSeen(t *testing.T, picked []string, values [][2]string) {
	t.Helper()
	if len(picked) != 4 || picked[0] == "" || picked[1] != picked[0] || picked[3] != picked[2] || picked[2] == picked[0] {
		t.Errorf("heatmap cells picked: %q", picked)
	}
	if len(values) == 0 {
		t.Error("no heatmap values written")
	}
	for _, v := range values {
		var x float64
		words := strings.Fields(strings.Split(v[1], ";")[0])
		if _, err := fmt.Sscan(words[len(words)-1], &x); err != nil || fmt.Sprintf("%.2f", x) != v[0] {
			t.Errorf("a heatmap cell shows %q, its words say %q", v[0], v[1])
		}
	}
}

// checkExploredSeen: the break typed into the explorer's form (second half, 4 throws left,
// level, home 2-2-2-2-2 with a move v 1-2-3-2-2 with two, at the form's 4-throw halves and
// two moves; the server has its table) is worth what the solver says, and home may choose every
// line-up its move reaches.
func checkExploredSeen(t *testing.T, url string, value float64, rows int) {
	t.Helper()
	g, err := game.Solve(game.Problem{Rules: env.Rules{ThrowsPerHalf: 4, Moves: 2}, Payoff: lineup.PayoffWinLoss})
	if err != nil {
		t.Fatal(err)
	}
	st := game.State{Period: env.SecondHalf, ThrowsLeft: 4, GoalDiff: 0, Home: env.MustParseLineup("2-2-2-2-2"), HomeMoves: 1,
		Away: env.MustParseLineup("1-2-3-2-2"), AwayMoves: 2}
	sol, err := g.At(st)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(value-sol.Value) > 1e-9 || rows != len(st.Home.Reachable(1).Actions()) { // the 1e-9: the server reads this game from short.kgt, whose mixes are float32 (1.7e-10 apart here)
		t.Errorf("the explorer at %s: value %v, %d home choices; the solver: %v, %d", url, value, rows, sol.Value, len(st.Home.Reachable(1).Actions()))
	}
}

// handSeen is what frontend/web/e2e/board.mjs saw of a counter moved on the Play page's picture.
type handSeen struct {
	Side                    string
	Legal                   []string
	Before, After, Back     []int
	LitInHand               int
	TakeOffered, PutOffered []int
	From, To                int
	SubmitInHand            bool
	Status                  string
	Discs                   [][2]float64
}

// checkHandSeen: − was offered on exactly the sectors a counter can leave for a legal
// line-up, + on exactly the sectors that make one with the counter in hand, the form could
// not be sent with a counter in hand, the counters drawn stand at frame's places for the
// line-up set, and clicks on the pitch moved the counter back, lighting the legal sectors.
func checkHandSeen(t *testing.T, seen handSeen) {
	t.Helper()
	legal := map[string]bool{}
	for _, l := range seen.Legal {
		legal[l] = true
	}
	key := func(c []int) string { return strings.Trim(strings.Join(strings.Fields(fmt.Sprint(c)), "-"), "[]") }
	moved := func(c []int, from, to int) []int {
		m := slices.Clone(c)
		m[from-1]--
		m[to-1]++
		return m
	}
	if len(seen.Before) != env.Sectors || !legal[key(seen.Before)] {
		t.Fatalf("the counters at the break: %+v", seen)
	}
	var take, put []int
	for k := 1; k <= env.Sectors; k++ {
		for to := 1; to <= env.Sectors; to++ {
			if to != k && legal[key(moved(seen.Before, k, to))] {
				take = append(take, k)
				break
			}
		}
		if seen.From > 0 && legal[key(moved(seen.Before, seen.From, k))] {
			put = append(put, k)
		}
	}
	after := moved(seen.Before, seen.From, seen.To)
	if !slices.Equal(seen.TakeOffered, take) || !slices.Equal(seen.PutOffered, put) || seen.SubmitInHand || !slices.Equal(seen.After, after) ||
		!strings.HasPrefix(seen.Status, key(after)+": 1 move") {
		t.Errorf("setting counters on the picture: − offered on %v (want %v), + on %v (want %v); the browser saw %+v", seen.TakeOffered, take, seen.PutOffered, put, seen)
	}
	side := env.Home
	if seen.Side == "away" {
		side = env.Away
	}
	var want [][2]float64
	for k := 1; k <= env.Sectors; k++ {
		for j := range after[k-1] {
			x, y := frame.CounterAt(side, env.HomeSector(side, k), j)
			want = append(want, [2]float64{float64(x), float64(y)})
		}
	}
	sortPoints := func(p [][2]float64) {
		slices.SortFunc(p, func(a, b [2]float64) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	}
	sortPoints(want)
	sortPoints(seen.Discs)
	if !slices.Equal(seen.Discs, want) {
		t.Errorf("your counters drawn at %v, frame puts %v at %v", seen.Discs, after, want)
	}
	var back []int // the sectors the counter taken back from To may go to
	for k := 1; k <= env.Sectors; k++ {
		if legal[key(moved(after, seen.To, k))] {
			back = append(back, k)
		}
	}
	if !slices.Equal(seen.Back, seen.Before) || seen.LitInHand != len(back) {
		t.Errorf("the move undone by clicks on the pitch: counters %v (want %v), %d sectors lit (want %v)", seen.Back, seen.Before, seen.LitInHand, back)
	}
}

// pitchSeen is what frontend/web/e2e/pitch.mjs saw of the live pitch.
type pitchSeen struct {
	Steps []struct {
		K, Shown, Checked, Home, Away, Ball int
		Wrong                               []string
	}
	Linked []string
}

// checkAnalysisSeen: the analysis page's numbers are kingoal analyse --json's, to 1e-9 (the
// same table), and the row shown is its first decision.
func checkAnalysisSeen(t *testing.T, run, table string, seen analysis.Report, rowLoss float64, points int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := cli.Execute([]string{"analyse", run, "--match", "1", "--table", table, "--json"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("kingoal analyse: %s", stderr.String())
	}
	var want analysis.Report
	if err := json.Unmarshal(stdout.Bytes(), &want); err != nil {
		t.Fatal(err)
	}
	if len(seen.Decisions) != len(want.Decisions) || len(seen.Curve) != len(want.Curve) || len(want.Decisions) == 0 || points != len(want.Curve) {
		t.Fatalf("the page shows %d decisions and %d points (%d drawn), kingoal analyse %d and %d", len(seen.Decisions), len(seen.Curve), points, len(want.Decisions), len(want.Curve))
	}
	for i, d := range seen.Decisions {
		w := want.Decisions[i]
		if d.Chose != w.Chose || math.Abs(d.Loss-w.Loss) > 1e-9 || math.Abs(d.Got-w.Got) > 1e-9 || d.Grade != w.Grade {
			t.Errorf("decision %d: the page %+v, kingoal analyse %+v", i, d, w)
		}
	}
	for i, p := range seen.Curve {
		if math.Abs(p.Value-want.Curve[i].Value) > 1e-9 {
			t.Errorf("point %d: the page %v, kingoal analyse %v", i, p.Value, want.Curve[i].Value)
		}
	}
	if math.Abs(rowLoss-want.Decisions[0].Loss) > 1e-9 {
		t.Errorf("the first row shows loss %v, kingoal analyse %v", rowLoss, want.Decisions[0].Loss)
	}
}
