package cli

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/frontend/web"
)

func fetch(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("%s: %d %s", url, resp.StatusCode, b)
	}
	return string(b)
}

var (
	ratingRow = regexp.MustCompile(`<tr data-agent="([^"]+)"><td class="agent">[^<]*</td><td data-v="([^"]+)">[^<]*</td><td data-low="([^"]+)" data-high="([^"]+)">[^<]*</td>(?:<td data-v="([^"]+)" title="[^"]*">([^<]*)</td>)?(?:<td data-alpharank="([^"]+)">[^<]*</td>)?(?:<td data-nash-mass="([^"]+)">[^<]*</td><td data-nash-average="([^"]+)">[^<]*</td>)?</tr>`)
	tableRow  = regexp.MustCompile(`<tr data-agent="([^"]+)"><td>(\d+)</td><td class="agent">[^<]*</td>((?:<td>-?\d+</td>)+)</tr>`)
	h2hRow    = regexp.MustCompile(`<tr data-agent="([^"]+)"><td class="agent">[^<]*</td>((?:<td[^>]*>[^<]*</td>)+)</tr>`)
	cellValue = regexp.MustCompile(`<td(?: data-v="([^"]+)"(?: style="[^"]*")?)?>([^<]*)</td>`)
)

func float(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(html.UnescapeString(s), 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestServedLeaderboardIsTheCLIs: every number of a run's leaderboard page — the table,
// the ratings and their intervals, the exploitability column, head to head — is the one
// kingoal leaderboard --json gives.
func TestServedLeaderboardIsTheCLIs(t *testing.T) {
	root := t.TempDir()
	srv := httptest.NewServer((&web.Server{Roots: []string{root}}).Handler())
	defer srv.Close()
	for _, c := range []struct{ name, format string }{{"league", "league"}, {"cup", "knockout"}} {
		t.Run(c.name, func(t *testing.T) {
			args := []string{"arena", "--format", c.format, "--out", filepath.Join(root, c.name), "--agents", "random;heuristic:late=0.5;fixed:2-2-2-2-2",
				"--matches", "6", "--throws-per-half", "4", "--seed", "5"}
			if c.format == "knockout" {
				args = append(args, "--knockout")
			}
			if code, _, stderr := run(t, args...); code != 0 {
				t.Fatalf("arena: %s", stderr)
			}
			compareLeaderboards(t, filepath.Join(root, c.name), srv.URL+"/run/0/"+c.name+"/")
		})
	}
}

var cupRow = regexp.MustCompile(`<tr data-agent="([^"]+)"><td>(\d+)</td><td class="agent">[^<]*</td><td>(\d+)</td><td>(\d+)</td><td data-low="([^"]+)" data-high="([^"]+)">[^<]*</td><td>(\d+)</td></tr>`)

// compareLeaderboards compares the page at url with kingoal leaderboard --json of dir.
func compareLeaderboards(t *testing.T, dir, url string) {
	code, out, stderr := run(t, "leaderboard", dir, "--json")
	if code != 0 {
		t.Fatalf("leaderboard: %s", stderr)
	}
	var want arena.LeaderboardJSON
	if err := json.Unmarshal([]byte(out), &want); err != nil {
		t.Fatal(err)
	}
	page := fetch(t, url)
	ratingsPart, h2hPart, _ := strings.Cut(page, `aria-label="head to head"`)

	rows := tableRow.FindAllStringSubmatch(ratingsPart, -1)
	if len(rows) != len(want.Table) {
		t.Fatalf("%d table rows, the CLI %d:\n%s", len(rows), len(want.Table), page)
	}
	for i, m := range rows {
		s := want.Table[i]
		wantCells := fmt.Sprint("<td>", s.P, "</td><td>", s.W, "</td><td>", s.D, "</td><td>", s.L, "</td><td>", s.GF, "</td><td>", s.GA, "</td><td>", s.GD, "</td><td>", s.Points, "</td>")
		if html.UnescapeString(m[1]) != s.Agent || m[2] != strconv.Itoa(s.Rank) || m[3] != wantCells {
			t.Errorf("table row %d: page %q %s %s, CLI %+v", i, m[1], m[2], m[3], s)
		}
	}
	cups := cupRow.FindAllStringSubmatch(ratingsPart, -1)
	if len(cups) != len(want.Cup) {
		t.Fatalf("%d cup rows, the CLI %d:\n%s", len(cups), len(want.Cup), page)
	}
	for i, m := range cups {
		s := want.Cup[i]
		if html.UnescapeString(m[1]) != s.Agent || m[2] != strconv.Itoa(s.Rank) || m[3] != strconv.Itoa(s.Cups) || m[4] != strconv.Itoa(s.Titles) ||
			float(t, m[5]) != s.TitleLow || float(t, m[6]) != s.TitleHigh || m[7] != strconv.Itoa(s.TiesWon) {
			t.Errorf("cup row %d: page %v, CLI %+v", i, m[1:], s)
		}
	}
	ratings := ratingRow.FindAllStringSubmatch(ratingsPart, -1)
	if len(ratings) != len(want.Ratings) {
		t.Fatalf("%d rating rows, the CLI %d", len(ratings), len(want.Ratings))
	}
	for i, m := range ratings {
		r := want.Ratings[i]
		if html.UnescapeString(m[1]) != r.Agent || float(t, m[2]) != r.Rating || float(t, m[3]) != r.Low || float(t, m[4]) != r.High {
			t.Errorf("rating %d: page %v, CLI %+v", i, m[1:5], r)
		}
		if r.Exploitability == nil || m[5] == "" || float(t, m[5]) != r.Exploitability.Value || html.UnescapeString(m[6]) != r.Exploitability.String() {
			t.Errorf("exploitability of %s: page %q (%q), CLI %+v", r.Agent, m[5], m[6], r.Exploitability)
		}
		if (r.AlphaRank == nil) != (m[7] == "") || (r.AlphaRank != nil && float(t, m[7]) != *r.AlphaRank) {
			t.Errorf("α-Rank of %s: page %q, CLI %v", r.Agent, m[7], r.AlphaRank)
		}
		if r.NashMass == nil || m[8] == "" || float(t, m[8]) != *r.NashMass || float(t, m[9]) != *r.NashAverage {
			t.Errorf("Nash averaging of %s: page %q %q, CLI %v %v", r.Agent, m[8], m[9], r.NashMass, r.NashAverage)
		}
	}
	h2h := h2hRow.FindAllStringSubmatch(h2hPart, -1)
	if len(h2h) != len(want.HeadToHead) {
		t.Fatalf("%d head-to-head rows, the CLI %d", len(h2h), len(want.HeadToHead))
	}
	for i, m := range h2h {
		cells := cellValue.FindAllStringSubmatch(m[2], -1)
		if html.UnescapeString(m[1]) != want.Agents[i] || len(cells) != len(want.HeadToHead[i]) {
			t.Fatalf("head-to-head row %d: %q with %d cells", i, m[1], len(cells))
		}
		for j, c := range cells {
			w := want.HeadToHead[i][j]
			if (w == nil) != (c[1] == "") || (w != nil && float(t, c[1]) != *w) {
				t.Errorf("head to head [%d][%d]: page %q, CLI %v", i, j, c[1], w)
			}
		}
	}
}

// TestServedPlayIsKingoalPlay: a game played on the play page — the first choice at every
// decision — is the match kingoal play plays with the same flags and those choices typed in:
// the same events, line for line, and the same final score.
func TestServedPlayIsKingoalPlay(t *testing.T) {
	srv := httptest.NewServer((&web.Server{}).Handler())
	defer srv.Close()
	choice := regexp.MustCompile(`<a class="choice[^"]*" href="\?([^"]+)">`)
	for _, side := range []string{"home", "away"} {
		query := "vs=heuristic&side=" + side + "&seed=9&throws-per-half=6&knockout=true"
		var page string
		for range 60 {
			page = fetch(t, srv.URL+"/play/?"+query)
			m := choice.FindStringSubmatch(page)
			if m == nil {
				break
			}
			query = html.UnescapeString(m[1])
		}
		final := regexp.MustCompile(`Final score [^<]*`).FindString(page)
		if final == "" {
			t.Fatalf("%s: no end:\n%s", side, page)
		}
		q, err := url.ParseQuery(query)
		if err != nil {
			t.Fatal(err)
		}
		var input strings.Builder
		for _, a := range strings.Split(q.Get("choices"), ".") {
			fmt.Fprintln(&input, a)
		}
		code, out, stderr := runWithInput(t, input.String(), "play", "--vs", "heuristic", "--side", side, "--seed", "9", "--throws-per-half", "6", "--knockout")
		if code != 0 {
			t.Fatalf("kingoal play: %s", stderr)
		}
		if !strings.Contains(out, html.UnescapeString(final)) {
			t.Errorf("%s: the page ends %q; kingoal play:\n%s", side, final, out)
		}
		events := regexp.MustCompile(`<li>([^<]*)</li>`).FindAllStringSubmatch(page, -1)
		for _, e := range events {
			if line := html.UnescapeString(e[1]); !strings.Contains(out, "\n"+line+"\n") {
				t.Errorf("%s: the page's %q is not kingoal play's", side, line)
			}
		}
		if len(events) < 10 {
			t.Errorf("%s: %d events", side, len(events))
		}
	}
}
