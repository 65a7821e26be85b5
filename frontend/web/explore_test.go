package web_test

import (
	"context"
	"math"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/web"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

var (
	choiceRow = regexp.MustCompile(`<tr><td class="agent mono">([^<]+)</td><td>([^<]*)</td><td data-v="([^"]+)">`)
	valueOf   = regexp.MustCompile(`id="value" data-v="([^"]+)"`)
)

// TestExplorePage: the explorer's break, solved in the request, is the game's: home's value
// is At's, every line-up of a side's mix gets the value against the other's mix and no
// choice gets more (the equilibrium, read off the page), and the payoffs are BreakValues';
// a bad break is one message.
func TestExplorePage(t *testing.T) {
	srv := httptest.NewServer((&web.Server{}).Handler())
	defer srv.Close()
	code, page := get(t, srv, "/explore/?period=second+half&throws-left=3&diff=-1&home=1-1-4-2-2&home-moves=1&away=1-2-3-2-2&away-moves=1&throws-per-half=3&moves=1")
	if code != 200 || strings.Contains(page, `class="err"`) {
		t.Fatalf("%d\n%s", code, page)
	}
	g, err := game.Solve(game.Problem{Rules: env.Rules{ThrowsPerHalf: 3, Moves: 1}, Payoff: lineup.PayoffWinLoss})
	if err != nil {
		t.Fatal(err)
	}
	st := game.State{Period: env.SecondHalf, ThrowsLeft: 3, GoalDiff: -1, Home: env.MustParseLineup("1-1-4-2-2"), HomeMoves: 1, Away: env.MustParseLineup("1-2-3-2-2"), AwayMoves: 1}
	sol, err := g.At(st)
	if err != nil {
		t.Fatal(err)
	}
	m := valueOf.FindStringSubmatch(page)
	if m == nil || parse(t, m[1]) != sol.Value {
		t.Fatalf("value %v, At's %v", m, sol.Value)
	}
	home, away := strings.Index(page, "<h3>home</h3>"), strings.Index(page, "<h3>away</h3>")
	if home < 0 || away < home {
		t.Fatal("no table of each side's choices")
	}
	for side, part := range map[string]string{"home": page[home:away], "away": page[away:]} {
		rows := choiceRow.FindAllStringSubmatch(part, -1)
		want := len(st.Home.Reachable(st.HomeMoves).Actions())
		if side == "away" {
			want = len(st.Away.Reachable(st.AwayMoves).Actions())
		}
		if len(rows) != want {
			t.Fatalf("%s: %d choices, %d reachable", side, len(rows), want)
		}
		for _, r := range rows {
			v := parse(t, r[3])
			better := v > sol.Value+1e-9
			if side == "away" {
				better = v < sol.Value-1e-9
			}
			if better || r[2] != "" && math.Abs(v-sol.Value) > 1e-9 {
				t.Errorf("%s's %s (in the mix: %q) gets %v, the value is %v", side, r[1], r[2], v, sol.Value)
			}
			if side == "home" {
				c, err := g.BreakValues(context.Background(), st, []env.Lineup{env.MustParseLineup(r[1])}, lineupsOf(sol.Away))
				if err != nil {
					t.Fatal(err)
				}
				mean := 0.0
				for j, w := range sol.Away {
					mean += w.Prob * c[0][j]
				}
				if math.Abs(mean-v) > 1e-12 {
					t.Errorf("home's %s: page %v, BreakValues %v", r[1], v, mean)
				}
			}
		}
	}
	for query, want := range map[string]string{
		"period=half+time&throws-left=3&diff=0&home=1-1-4-2-2&home-moves=1&away=1-2-3-2-2&away-moves=1&throws-per-half=4&moves=2":  "period",
		"period=second+half&throws-left=x&diff=0&home=1-1-4-2-2&home-moves=1&away=1-2-3-2-2&away-moves=1&throws-per-half=4":        "throws-left",
		"period=first+half&throws-left=4&diff=2&home=1-1-4-2-2&home-moves=1&away=1-2-3-2-2&away-moves=1&throws-per-half=4&moves=2": "no match reaches",
		"period=second+half&throws-left=3&diff=0&home=1-1-4-2-2&home-moves=1&away=1-2-3-2-2&away-moves=1":                          "kingoal serve --table",
	} {
		code, page := get(t, srv, "/explore/?"+query)
		if code != 400 || !strings.Contains(page, want) || !strings.Contains(page, `class="err"`) {
			t.Errorf("%s: %d, want 400 and the message %q", query, code, want)
		}
	}
}

func parse(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func lineupsOf(m []env.Weighted) []env.Lineup {
	out := make([]env.Lineup, len(m))
	for i, w := range m {
		out[i] = w.Lineup
	}
	return out
}
