package arena_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/arena/arenatest"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
)

func cupConfig(cups int) arena.Config {
	return arena.Config{Format: arena.Knockout, Agents: []string{"heuristic", "random", "fixed:2-2-2-2-2", "fixed:1-3-3-2-1", "fixed:1-2-3-2-2"},
		Rules: env.Rules{Knockout: true, ThrowsPerHalf: 6, ExtraThrowsPerHalf: 2}, Matches: cups, Seed: 21}
}

func TestBracketSeeding(t *testing.T) {
	c := arenatest.Plan(t, cupConfig(1))
	// 5 agents in a bracket of 8: seeds 1, 2, 3 have byes; 4 and 5 play; 1 and 2 meet only in the final.
	want := []int{0, -1, 3, 4, 1, -1, 2, -1}
	if got := c.Bracket(0); !slices.Equal(got, want) {
		t.Fatalf("bracket %v, want %v", got, want)
	}
	drawn := cupConfig(1)
	drawn.DrawBracket = true
	c = arenatest.Plan(t, drawn)
	draws := map[string]bool{}
	for cup := range 20 {
		b := c.Bracket(cup)
		if !slices.Equal(b, c.Bracket(cup)) {
			t.Fatal("a draw is not reproducible")
		}
		seen := map[int]bool{}
		for i, a := range b {
			if a >= 0 {
				seen[a] = true
			} else if i%2 == 0 || b[i-1] < 0 {
				t.Fatalf("bye in the wrong place: %v", b)
			}
		}
		if len(seen) != 5 {
			t.Fatalf("draw %v lost an agent", b)
		}
		draws[string(rune(b[0]+1))+string(rune(b[2]+1))+string(rune(b[3]+1))] = true
	}
	if len(draws) < 5 {
		t.Fatalf("20 draws gave %d brackets", len(draws))
	}
	if got := arena.RoundName(1, 4) + "," + arena.RoundName(3, 4) + "," + arena.RoundName(4, 4); got != "round of 16,semi-final,final" {
		t.Fatal(got)
	}
	bad := cupConfig(1)
	bad.Rules.Knockout = false
	if err := bad.Validate(); err == nil {
		t.Fatal("a cup under league rules was accepted")
	}
}

func TestKnockoutCups(t *testing.T) {
	c := cupConfig(60)
	dirs := [2]string{t.TempDir(), t.TempDir()}
	var tally *arena.Tally
	for i, w := range []int{1, 3} {
		c.Workers = w
		var err error
		if tally, err = arena.Play(context.Background(), c, dirs[i], arena.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(matchesBytes(t, dirs[0]), matchesBytes(t, dirs[1])) {
		t.Fatal("1 and 3 workers wrote different cups")
	}
	rows, err := datasets.ReadParquet[datasets.MatchRow](filepath.Join(dirs[0], "matches.parquet"), datasets.MatchesSchema)
	if err != nil || len(rows) != 60*4 || arenatest.Plan(t, c).TotalMatches() != 240 {
		t.Fatalf("%d rows (%v)", len(rows), err)
	}
	for cup := range 60 {
		ms := rows[cup*4 : cup*4+4]
		rounds := []int32{ms[0].Round, ms[1].Round, ms[2].Round, ms[3].Round}
		if !slices.Equal(rounds, []int32{1, 2, 2, 3}) {
			t.Fatalf("cup %d rounds %v", cup, rounds)
		}
		winner := func(m datasets.MatchRow) int32 {
			if m.Winner == "away" {
				return m.AwayIndex
			}
			if m.Winner != "home" {
				t.Fatalf("a cup tie without a winner: %+v", m)
			}
			return m.HomeIndex
		}
		// Seeds 4 v 5 (agents 3, 4) open; the winner meets seed 1 (agent 0); 2 v 3 (agents 1, 2).
		if ms[0].HomeIndex != 3 || ms[0].AwayIndex != 4 || ms[1].HomeIndex != 0 || ms[1].AwayIndex != winner(ms[0]) ||
			ms[2].HomeIndex != 1 || ms[2].AwayIndex != 2 || ms[3].HomeIndex != winner(ms[1]) || ms[3].AwayIndex != winner(ms[2]) {
			t.Fatalf("cup %d does not follow its bracket: %+v", cup, ms)
		}
		for _, m := range ms {
			if int(m.Cup) != cup || m.Kind != "knockout" || (m.HomeGoals == m.AwayGoals) != m.Penalties {
				t.Fatalf("cup %d row %+v", cup, m)
			}
		}
	}
	table := arena.CupTable(tally, c.Agents, 60)
	sum := 0
	for _, s := range table {
		sum += s.Titles
		if s.Reached[3] < s.Titles || s.TitleLow > float64(s.Titles)/60 || s.TitleHigh < float64(s.Titles)/60 {
			t.Fatalf("standing %+v", s)
		}
	}
	if sum != 60 || table[0].Titles < table[len(table)-1].Titles {
		t.Fatalf("%d titles in 60 cups; table %+v", sum, table)
	}
}

func TestInterruptedCupsResume(t *testing.T) {
	c := cupConfig(3000) // 12,000 matches: 2,048 cups a shard, so two shards
	c.Workers = 2
	want := t.TempDir()
	if _, err := arena.Play(context.Background(), c, want, arena.Options{}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	_, err := arena.Play(ctx, c, dir, arena.Options{Events: arena.Events{Matches: func(done, _ int) {
		if done >= 1000 {
			cancel()
		}
	}}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	kept, err := datasets.ReadParquet[datasets.MatchRow](filepath.Join(dir, "shards", "matches-00000.parquet"), datasets.MatchesSchema)
	if err != nil || len(kept)%4 != 0 || len(kept) < 1000 {
		t.Fatalf("kept %d matches (%v): whole cups only", len(kept), err)
	}
	if _, err := arena.Play(context.Background(), c, dir, arena.Options{Resume: true}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(matchesBytes(t, want), matchesBytes(t, dir)) {
		t.Fatal("the resumed cups differ from the uninterrupted ones")
	}
}

// Merge is what a distributed combine does with partial tallies: tallying the halves of
// a run apart and merging them must give the tally of the whole, cups included.
func TestTallyMergeEqualsWhole(t *testing.T) {
	for _, c := range []arena.Config{cupConfig(30), cfg(2), worldCupConfig(8, 4, 30)} {
		dir := t.TempDir()
		whole, err := arena.Play(context.Background(), c, dir, arena.Options{})
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := datasets.ReadParquet[datasets.MatchRow](filepath.Join(dir, "matches.parquet"), datasets.MatchesSchema)
		tallyOf := func(rows []datasets.MatchRow) *arena.Tally {
			t.Helper()
			tally := c.NewTally()
			for _, m := range rows {
				if err := tally.Add(m); err != nil {
					t.Fatal(err)
				}
			}
			return tally
		}
		merged := c.NewTally() // empty first: the combine's accumulators start empty
		for _, part := range [][]datasets.MatchRow{rows[:len(rows)/3], rows[len(rows)/3:]} {
			merged.Merge(tallyOf(part))
		}
		if !reflect.DeepEqual(merged, whole) || !reflect.DeepEqual(tallyOf(rows), whole) {
			t.Fatalf("%s: merged halves differ from the whole", c.Format)
		}
	}
}
