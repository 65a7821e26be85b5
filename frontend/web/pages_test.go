package web_test

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"image/color"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/bench"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frame"
	"github.com/kingoal/kingoal/frontend/web"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/solver"
	"github.com/kingoal/kingoal/solver/game"
)

// TestReplayPage: a match's page lists its steps and ends at matches.parquet's score; every
// frame is the pitch's picture; frames past the end, bad IDs and runs being played are 4xx.
func TestReplayPage(t *testing.T) {
	root := t.TempDir()
	c := arena.Config{Agents: []string{"random", "heuristic"}, Rules: env.Rules{ThrowsPerHalf: 5}, Matches: 2, Seed: 8, LogThrows: true, Dice: true}
	if _, err := arena.Play(context.Background(), c, filepath.Join(root, "dice"), arena.Options{}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer((&web.Server{Roots: []string{root}}).Handler())
	defer srv.Close()
	rows, err := datasets.ReadParquet[datasets.MatchRow](filepath.Join(root, "dice", "matches.parquet"), datasets.MatchesSchema)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range rows {
		base := fmt.Sprintf("/run/0/dice/match/%d/", m.MatchID)
		code, body := get(t, srv, base)
		if code != 200 || !strings.Contains(body, fmt.Sprintf(`data-home="%d" data-away="%d"`, m.HomeGoals, m.AwayGoals)) {
			t.Fatalf("%s: %d\n%s", base, code, body)
		}
		last := regexp.MustCompile(`"Home":(\d+),"Away":(\d+),"Goal":(?:true|false)}\]</script>`).FindStringSubmatch(body)
		if last == nil || last[1] != strconv.Itoa(int(m.HomeGoals)) || last[2] != strconv.Itoa(int(m.AwayGoals)) {
			t.Fatalf("%s: the last step's score %v, the row's %d-%d", base, last, m.HomeGoals, m.AwayGoals)
		}
		steps := strings.Count(body, "<li>")
		if !strings.Contains(body, "] v [") { // dice shown
			t.Errorf("%s: no dice in the steps", base)
		}
		for _, k := range []int{0, steps / 2, steps - 1} {
			code, img := get(t, srv, fmt.Sprintf("%sframe/%d.png", base, k))
			pic, err := png.Decode(strings.NewReader(img))
			if code != 200 || err != nil || pic.Bounds().Dx() != frame.Width {
				t.Fatalf("frame %d: %d %v", k, code, err)
			}
		}
		// the same picture everywhere: the page's last frame is frame's (the Gymnasium
		// render's and watch --gif's) of the replayed match's last state with the agents'
		// names, pixel for pixel
		rp, err := arena.NewReplayer(context.Background(), filepath.Join(root, "dice"), arena.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := rp.Match(m.MatchID)
		if err != nil {
			t.Fatal(err)
		}
		lastEvent := rep.Events[len(rep.Events)-1]
		want := frame.Picture{State: lastEvent.After, LastThrow: lastEvent.Describe(), Names: [2]string{m.HomeAgent, m.AwayAgent}}.Draw()
		_, img := get(t, srv, fmt.Sprintf("%sframe/%d.png", base, steps-1))
		pic, err := png.Decode(strings.NewReader(img))
		if err != nil || len(rep.Events) != steps-1 {
			t.Fatalf("%v; %d events, %d steps", err, len(rep.Events), steps)
		}
		for y := range frame.Height {
			for x := range frame.Width {
				if r, g, b, _ := pic.At(x, y).RGBA(); want.RGBAAt(x, y) != (color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0xff}) {
					t.Fatalf("pixel (%d, %d): the page's %v, frame.Draw's %v", x, y, pic.At(x, y), want.RGBAAt(x, y))
				}
			}
		}
		if code, _ := get(t, srv, fmt.Sprintf("%sframe/%d.png", base, steps)); code != 404 {
			t.Errorf("a frame past the end: %d", code)
		}
	}
	for path, want := range map[string]int{"/run/0/dice/match/99/frame/0.png": 404, "/run/0/dice/match/x/": 400, "/run/0/dice/match/0/frame/a.png": 400, "/run/0/dice/matches/?from=-1": 400} {
		if code, body := get(t, srv, path); code != want {
			t.Errorf("%s: %d, want %d: %s", path, code, want, body)
		}
	}
	if code, body := get(t, srv, "/run/0/dice/match/99/"); code != 404 || !strings.Contains(body, "no such match") {
		t.Errorf("match 99 of 4: %d %s", code, body)
	}
	if code, body := get(t, srv, "/run/0/dice/matches/"); code != 200 || strings.Count(body, "aria-label=\"replay match") != len(rows) {
		t.Errorf("matches page: %d\n%s", code, body)
	}
	lock, err := safefile.LockDir(filepath.Join(root, "dice"))
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	if code, body := get(t, srv, "/run/0/dice/match/0/"); code != 409 || !strings.Contains(body, "still being played") {
		t.Errorf("a run being played: %d %s", code, body)
	}
}

var choiceLink = regexp.MustCompile(`<a class="choice[^"]*" href="\?([^"]+)">`)

// TestPlayPage: following the first choice at every decision plays a whole match to its final
// score; the same URL gives the same page; bad parameters and illegal choices are 400s.
func TestPlayPage(t *testing.T) {
	srv := httptest.NewServer((&web.Server{}).Handler())
	defer srv.Close()
	if code, body := get(t, srv, "/play/"); code != 200 || !strings.Contains(body, `name="vs"`) || !strings.Contains(body, `name="throws-per-half"`) {
		t.Fatalf("form: %d\n%s", code, body)
	}
	for _, side := range []string{"home", "away"} {
		path := "/play/?vs=random&side=" + side + "&seed=4&throws-per-half=5"
		decisions := 0
		for {
			code, body := get(t, srv, path)
			if code != 200 {
				t.Fatalf("%s: %d %s", path, code, body)
			}
			if _, again := get(t, srv, path); again != body {
				t.Fatalf("%s: another page the second time", path)
			}
			if strings.Contains(body, `id="final"`) {
				if !strings.Contains(body, "Final score") || !strings.Contains(body, "you are "+side) || decisions < 2 {
					t.Fatalf("%s after %d decisions:\n%s", side, decisions, body)
				}
				break
			}
			m := choiceLink.FindStringSubmatch(body)
			if m == nil {
				t.Fatalf("%s: neither a choice nor the end:\n%s", path, body)
			}
			path = "/play/?" + strings.ReplaceAll(m[1], "&amp;", "&")
			if code, img := get(t, srv, strings.Replace(path, "/play/?", "/play/frame.png?", 1)); code != 200 || !bytes.HasPrefix([]byte(img), []byte("\x89PNG")) {
				t.Fatalf("frame: %d", code)
			}
			if decisions++; decisions > 50 {
				t.Fatal("no end")
			}
		}
	}
	for _, q := range []string{"vs=nosuch", "vs=random&side=middle", "vs=random&seed=-1", "vs=random&throws-per-half=0", "vs=random&choices=500", "vs=random&choices=x",
		"vs=random&throws-per-half=2&moves=0&choices=60.60", "vs=random&throws-per-half=4&moves=1&choices=60.0"} {
		if code, body := get(t, srv, "/play/?"+q); code != 400 {
			t.Errorf("%s: %d %s", q, code, body)
		}
	}
}

// TestPolicyPage: a solve policy file is a heatmap with a cell for each (time, score) of
// its start slice; files are listed, a corrupt one is one message, names out of the root 4xx.
func TestPolicyPage(t *testing.T) {
	root := t.TempDir()
	rows := []datasets.PolicyRow{}
	for _, left := range []int32{2, 1} {
		for d := int32(-1); d <= 1; d++ {
			rows = append(rows, datasets.PolicyRow{Kind: "basic", Period: env.SecondHalf.String(), ThrowsLeft: left, GoalDiff: d, Lineup: "2-2-2-2-2", MovesLeft: 1,
				Action: map[bool]string{true: "1-2-2-2-3", false: "2-2-2-2-2"}[d < 0], Value: 0.5 + 0.2*float64(d), KeepValue: 0.4})
		}
	}
	rows = append(rows, datasets.PolicyRow{Kind: "basic", Period: env.SecondHalf.String(), ThrowsLeft: 1, GoalDiff: 0, Lineup: "1-2-2-2-3", MovesLeft: 0, Action: "1-2-2-2-3", Value: 0.6})
	if err := datasets.WriteParquet(filepath.Join(root, "policy.parquet"), datasets.PolicySchema, rows); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "broken.kgt"), []byte("not a table"), 0o644)
	srv := httptest.NewServer((&web.Server{Roots: []string{root}}).Handler())
	defer srv.Close()
	code, body := get(t, srv, "/policies/")
	if code != 200 || !strings.Contains(body, `href="/policy/0/policy.parquet"`) || !strings.Contains(body, "broken.kgt") {
		t.Fatalf("policies: %d\n%s", code, body)
	}
	code, body = get(t, srv, "/policy/0/policy.parquet")
	if code != 200 || strings.Count(body, "<td style=") != 6 || strings.Count(body, "•") != 2+1 || !strings.Contains(body, "move 1 counter (sector 1 → 5)") {
		t.Fatalf("policy: %d\n%s", code, body) // 6 cells, two of them changes (and the legend's •)
	}
	if code, body = get(t, srv, "/policy/0/policy.parquet?slice="+strings.ReplaceAll("line-up 1-2-2-2-3, 0 moves left", " ", "+")); code != 200 || strings.Count(body, "<td style=") != 1 {
		t.Fatalf("the other slice: %d\n%s", code, body)
	}
	if code, body = get(t, srv, "/policy/0/broken.kgt"); code != 500 || !strings.Contains(body, `class="err"`) {
		t.Errorf("a corrupt table: %d\n%s", code, body)
	}
	for path, want := range map[string]int{"/policy/0/..%2Fx.kgt": 400, "/policy/1/policy.parquet": 404, "/policy/0/none.kgt": 404, "/policy/0/.hidden": 400} {
		if code, _ := get(t, srv, path); code != want {
			t.Errorf("%s: %d, want %d", path, code, want)
		}
	}
	// Game tables, Basic and with a Dynamic side: a heatmap each, for the kick-off's pair, of
	// every (time, score) of 3-throw halves a match reaches with a break — 11 cells: one time
	// at level, then two at level, then three with −1..+1 (a goal takes three throws).
	for name, r := range map[string]env.Rules{"basic.kgt": {ThrowsPerHalf: 3, Moves: 1}, "dynamic.kgt": {ThrowsPerHalf: 3, Moves: 1, Modes: [2]env.Mode{env.Basic, env.Dynamic}}} {
		f, err := os.Create(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		p := game.Problem{Rules: r, Table: f}
		if _, err = solver.Solve(p); err != nil || f.Close() != nil {
			t.Fatal(err)
		}
	}
	if code, body := get(t, srv, "/policy/0/basic.kgt"); code != 200 || strings.Count(body, "<td style=") != 11 || !strings.Contains(body, "from a game table") {
		t.Errorf("a game table: %d\n%s", code, body)
	}
	code, body = get(t, srv, "/policy/0/dynamic.kgt")
	if code != 200 || strings.Count(body, "<td style=") != 11 || !strings.Contains(body, "with a Dynamic side") || !strings.Contains(body, "away (Dynamic") {
		t.Errorf("a Dynamic side's table: %d\n%s", code, body)
	}
	small := httptest.NewServer((&web.Server{Roots: []string{root}, MaxFileBytes: 100}).Handler())
	defer small.Close()
	if code, body := get(t, small, "/policy/0/policy.parquet"); code != 413 || !strings.Contains(body, "--max-file-mib") {
		t.Errorf("a file past the server's bound: %d %s", code, body)
	}
}

// TestZooListing: the policies page lists a served directory's model zoo (bench's DIR/zoo):
// each card with the spec that plays its table; a zoo whose table was replaced is one message;
// a zoo directory, a card or a table that is a symbolic link out of the root is not read.
func TestZooListing(t *testing.T) {
	root := t.TempDir()
	bench.ZooMatches = 50
	suite := bench.Suite{Name: "web", Entries: []bench.Entry{{Learner: "fictitious", Rules: env.Rules{ThrowsPerHalf: 3, Moves: 1}, Budget: 1}}}
	if _, err := bench.Run(context.Background(), suite, bench.Options{Dir: root}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer((&web.Server{Roots: []string{root}}).Handler())
	defer srv.Close()
	code, body := get(t, srv, "/policies/")
	zoo := filepath.Join(root, "zoo")
	cards, _ := bench.ReadZoo(zoo)
	if code != 200 || len(cards) != 1 || !strings.Contains(body, html.EscapeString(cards[0].Spec(zoo))) || !strings.Contains(body, "fictitious, budget 1") {
		t.Fatalf("policies: %d\n%s", code, body)
	}
	if err := os.WriteFile(filepath.Join(zoo, cards[0].Table), []byte("another table"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, body = get(t, srv, "/policies/"); code != 200 || !strings.Contains(body, `class="err"`) || strings.Contains(body, "fictitious, budget 1") {
		t.Errorf("a replaced table: %d\n%s", code, body)
	}
	// The zoo moved out of the root, linked back: not read.
	outside := filepath.Join(t.TempDir(), "zoo")
	if err := os.Rename(zoo, outside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, zoo); err != nil {
		t.Fatal(err)
	}
	if code, body = get(t, srv, "/policies/"); code != 200 || strings.Contains(body, "model zoo in") || strings.Contains(body, cards[0].Table) {
		t.Errorf("a zoo linked from outside the root was listed: %d\n%s", code, body)
	}
	// A card and its table linked from outside: refused with one message, never read.
	if err := os.Remove(zoo); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(zoo, 0o755)
	for _, e := range []string{cards[0].Table, strings.TrimSuffix(cards[0].Table, ".kgp") + ".card.json"} {
		if err := os.Symlink(filepath.Join(outside, e), filepath.Join(zoo, e)); err != nil {
			t.Fatal(err)
		}
	}
	if code, body = get(t, srv, "/policies/"); code != 200 || !strings.Contains(body, "is not a regular file") || strings.Contains(body, "fictitious, budget 1") {
		t.Errorf("a card linked from outside the root: %d\n%s", code, body)
	}
}
