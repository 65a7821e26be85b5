package arena_test

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/arena/arenatest"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
)

var wcAgents = []string{"heuristic", "random", "fixed:2-2-2-2-2", "fixed:1-3-3-2-1", "fixed:1-2-3-2-2", "fixed:2-3-2-2-1", "fixed:1-1-4-2-2", "fixed:3-2-2-2-1"}

func worldCupConfig(agents, groupSize, cups int) arena.Config {
	return arena.Config{Format: arena.WorldCup, Agents: wcAgents[:agents], GroupSize: groupSize,
		Rules: env.Rules{Knockout: true, ThrowsPerHalf: 6, ExtraThrowsPerHalf: 2}, Matches: cups, Seed: 33}
}

func TestWorldCupRefusesBadGroups(t *testing.T) {
	for _, bc := range []struct {
		c    arena.Config
		want string
	}{
		{worldCupConfig(6, 2, 1), "make 3 groups"}, // 3 groups: no bracket
		{worldCupConfig(3, 2, 1), "group of 1"},
		{worldCupConfig(4, 1, 1), "at least 2"},
		{func() arena.Config { c := worldCupConfig(4, 4, 1); c.Rules.Knockout = false; return c }(), "knockout rules"},
		{func() arena.Config { c := cfg(1); c.GroupSize = 4; return c }(), "for World Cups"},
	} {
		if err := bc.c.Validate(); err == nil || !strings.Contains(err.Error(), bc.want) {
			t.Errorf("%d agents, groups of %d: %v, want an error saying %q", len(bc.c.Agents), bc.c.GroupSize, err, bc.want)
		}
	}
	if err := worldCupConfig(6, 2, 1).Validate(); !strings.Contains(err.Error(), "[3 4 5 6]") {
		t.Errorf("the hint does not list the sizes that work: %v", err)
	}
}

func TestKnockoutDrawPairsGroups(t *testing.T) {
	q := [][2]int{{10, 11}, {20, 21}, {30, 31}, {40, 41}} // {winner, runner-up} of groups A–D
	if got, want := arena.KnockoutDraw(q), []int{10, 21, 30, 41, 20, 11, 40, 31}; !slices.Equal(got, want) {
		t.Fatalf("draw %v, want A1–B2, C1–D2, B1–A2, D1–C2 = %v", got, want)
	}
	if got := arena.KnockoutDraw(q[:1]); !slices.Equal(got, []int{10, 11}) {
		t.Fatalf("one group: %v", got)
	}
}

// groupRow is an independent group table: points, goal difference, goals.
type groupRow struct{ agent, pts, gd, gf int }

// TestWorldCups plays World Cups of several shapes and checks every cup from its rows
// alone: each group a complete single round robin under league rules, the qualifiers its
// top two by points, goal difference and goals (ties beyond those are the table's to
// break), the bracket's first round pairing each winner with the paired group's runner-up,
// and the bracket played out to one champion under knockout rules.
func TestWorldCups(t *testing.T) {
	for _, bc := range []struct{ agents, groupSize, groups int }{{8, 4, 2}, {5, 3, 2}, {4, 4, 1}, {8, 2, 4}} {
		c := arenatest.Plan(t, worldCupConfig(bc.agents, bc.groupSize, 40))
		dir := t.TempDir()
		tally, err := c.Run(context.Background(), dir, arena.Options{})
		if err != nil {
			t.Fatal(err)
		}
		rows, err := datasets.ReadParquet[datasets.MatchRow](filepath.Join(dir, "matches.parquet"), datasets.MatchesSchema)
		if err != nil || len(rows) != c.TotalMatches() {
			t.Fatalf("%d rows of %d (%v)", len(rows), c.TotalMatches(), err)
		}
		per := c.TotalMatches() / 40
		titles := make([]int, bc.agents)
		for cup := range 40 {
			titles[checkWorldCup(t, c, cup, bc.groups, rows[cup*per:(cup+1)*per])]++
		}
		groupMatches := 0
		for _, g := range c.Groups(0) {
			groupMatches += len(g) * (len(g) - 1) / 2
		}
		played := 0
		for _, s := range arena.CupTable(tally, c.Agents, 40) {
			played += s.GroupMatches
			if s.Titles != titles[s.Index] || s.Cups-s.Reached[1] < 0 {
				t.Fatalf("%+v: the tally says %d titles, the rows %d", s, s.Titles, titles[s.Index])
			}
		}
		if played != 2*40*groupMatches {
			t.Fatalf("the tally counts %d group appearances, want %d", played, 2*40*groupMatches)
		}
	}
}

// checkWorldCup checks one cup's rows and returns its champion.
func checkWorldCup(t *testing.T, c *arena.Plan, cup, groups int, ms []datasets.MatchRow) int {
	t.Helper()
	gs := c.Groups(cup)
	if len(gs) != groups {
		t.Fatalf("cup %d: %d groups, want %d", cup, len(gs), groups)
	}
	k := 0
	qualified := make([][2]int, len(gs))
	for g, members := range gs {
		met := map[[2]int]bool{}
		table := map[int]*groupRow{}
		for _, a := range members {
			table[a] = &groupRow{agent: a}
		}
		for range len(members) * (len(members) - 1) / 2 {
			m := ms[k]
			k++
			h, a := int(m.HomeIndex), int(m.AwayIndex)
			if m.Round != 0 || int(m.Leg) != g || int(m.Cup) != cup || m.Kind != "league" || m.ExtraTime || table[h] == nil || table[a] == nil {
				t.Fatalf("cup %d group %d: row %+v", cup, g, m)
			}
			met[[2]int{min(h, a), max(h, a)}] = true
			for _, s := range []struct {
				row                 *groupRow
				scored, let, points int32
			}{{table[h], m.HomeGoals, m.AwayGoals, m.HomePoints}, {table[a], m.AwayGoals, m.HomeGoals, m.AwayPoints}} {
				s.row.pts += int(s.points)
				s.row.gd += int(s.scored - s.let)
				s.row.gf += int(s.scored)
			}
		}
		if len(met) != len(members)*(len(members)-1)/2 {
			t.Fatalf("cup %d group %d: not a round robin", cup, g)
		}
		better := func(x, y *groupRow) int {
			return cmp.Or(cmp.Compare(x.pts, y.pts), cmp.Compare(x.gd, y.gd), cmp.Compare(x.gf, y.gf))
		}
		qualified[g] = firstTwo(t, ms[k:], cup, g, gs)
		for _, q := range qualified[g] {
			for _, a := range members {
				if a != qualified[g][0] && a != qualified[g][1] && better(table[a], table[q]) > 0 {
					t.Fatalf("cup %d group %d: agent %d %+v qualified ahead of agent %d %+v", cup, g, q, *table[q], a, *table[a])
				}
			}
		}
		// the winner is ahead of the runner-up, or level with it on all three
		if better(table[qualified[g][0]], table[qualified[g][1]]) < 0 {
			t.Fatalf("cup %d group %d: the runner-up %+v is ahead of the winner %+v", cup, g, *table[qualified[g][1]], *table[qualified[g][0]])
		}
	}
	ko := ms[k:]
	if len(ko) != 2*groups-1 {
		t.Fatalf("cup %d: %d knockout matches, want %d", cup, len(ko), 2*groups-1)
	}
	first := arena.KnockoutDraw(qualified)
	winner := func(m datasets.MatchRow) int {
		if w, ok := m.WinnerSide(); !ok || m.Kind != "knockout" {
			t.Fatalf("cup %d: knockout row %+v", cup, m)
		} else if w == env.Away {
			return int(m.AwayIndex)
		}
		return int(m.HomeIndex)
	}
	alive := first
	i := 0
	for r := 1; len(alive) > 1; r++ {
		next := make([]int, len(alive)/2)
		for tie := range next {
			m := ko[i]
			i++
			if int(m.Round) != r || int(m.HomeIndex) != alive[2*tie] || int(m.AwayIndex) != alive[2*tie+1] {
				t.Fatalf("cup %d round %d tie %d: %+v, want %d v %d", cup, r, tie, m, alive[2*tie], alive[2*tie+1])
			}
			next[tie] = winner(m)
		}
		alive = next
	}
	return alive[0]
}

// firstTwo reads a group's qualifiers off the bracket's first round, where every group
// winner plays at home and every runner-up away.
func firstTwo(t *testing.T, rest []datasets.MatchRow, cup, g int, gs [][]int) [2]int {
	t.Helper()
	out := [2]int{-1, -1}
	for _, m := range rest {
		if m.Round != 1 {
			continue
		}
		for side, a := range []int{int(m.HomeIndex), int(m.AwayIndex)} {
			if slices.Contains(gs[g], a) {
				if out[side] >= 0 {
					t.Fatalf("cup %d: group %d has two %s sides in the first round", cup, g, []string{"home", "away"}[side])
				}
				out[side] = a
			}
		}
	}
	if out[0] < 0 || out[1] < 0 {
		t.Fatalf("cup %d: group %d sent %v into the bracket", cup, g, out)
	}
	return out
}

func TestWorldCupIsReproducibleAndResumes(t *testing.T) {
	c := worldCupConfig(8, 4, 1200) // 15 matches a cup, 546 cups a shard: three shards
	c.Workers = 1
	want := t.TempDir()
	if _, err := arena.Play(context.Background(), c, want, arena.Options{}); err != nil {
		t.Fatal(err)
	}
	c.Workers = 3
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	_, err := arena.Play(ctx, c, dir, arena.Options{Events: arena.Events{Matches: func(done, _ int) {
		if done >= 3000 {
			cancel()
		}
	}}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	kept, err := datasets.ReadParquet[datasets.MatchRow](filepath.Join(dir, "shards", "matches-00000.parquet"), datasets.MatchesSchema)
	if err != nil || len(kept)%15 != 0 || len(kept) == 0 {
		t.Fatalf("kept %d matches (%v): whole cups only", len(kept), err)
	}
	if _, err := arena.Play(context.Background(), c, dir, arena.Options{Resume: true}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(matchesBytes(t, want), matchesBytes(t, dir)) {
		t.Fatal("1 worker, and 3 workers interrupted and resumed, wrote different World Cups")
	}
	other := c
	other.GroupSize = 2
	if _, err := arena.Play(context.Background(), other, dir, arena.Options{Resume: true}); err == nil {
		t.Fatal("resuming with another group size was accepted")
	}
}
