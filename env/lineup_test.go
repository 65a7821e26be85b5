package env_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/env"
)

func TestLineupCountAndOrder(t *testing.T) {
	all := env.AllLineups()
	if len(all) != 121 {
		t.Fatalf("got %d line-ups, want 121", len(all))
	}
	if all[0].String() != "1-1-1-2-5" || all[120].String() != "5-2-1-1-1" {
		t.Fatalf("index 0 = %s, 120 = %s; want 1-1-1-2-5 and 5-2-1-1-1", all[0], all[120])
	}
	for i, l := range all {
		if l.Index() != i || env.LineupAt(i) != l {
			t.Fatalf("line-up %s: Index %d, want %d", l, l.Index(), i)
		}
		prev, cur := all[max(i-1, 0)].Counts(), l.Counts()
		if i > 0 && slices.Compare(prev[:], cur[:]) >= 0 {
			t.Fatalf("%s before %s is not lexicographic", all[i-1], l)
		}
		back, err := env.ParseLineup(l.String())
		if err != nil || back != l {
			t.Fatalf("round trip of %s: %v, %v", l, back, err)
		}
	}
	// Brute force over every 5-tuple 1..5 summing to 10: an independent count.
	n := 0
	for c := 0; c < 5*5*5*5*5; c++ {
		sum, x := 0, c
		for k := 0; k < 5; k++ {
			sum += x%5 + 1
			x /= 5
		}
		if sum == 10 {
			n++
		}
	}
	if n != 121 {
		t.Fatalf("brute force count %d", n)
	}
	if (env.Lineup{}).Valid() || (env.Lineup{}).Index() != -1 {
		t.Fatal("the zero Lineup must not be valid")
	}
}

func TestParseLineupErrors(t *testing.T) {
	for in, want := range map[string]string{
		"6-1-1-1-1":  "env: line-up 6-1-1-1-1: sector 1 holds 6 counters, at most 5",
		"0-2-3-3-2":  "env: line-up 0-2-3-3-2: sector 1 holds 0 counters, at least 1",
		"2-2-2-2-3":  "env: line-up 2-2-2-2-3: 11 outfield counters, want exactly 10",
		"2-2-2-2":    "want 5 numbers",
		"2-2-x-2-2":  `sector 3: "x" is not a count`,
		"":           "want 5 numbers",
		"2-2-2-2-2-": "want 5 numbers",
		"+2-2-2-2-2": "", // Atoi accepts a sign; the value is still checked
	} {
		_, err := env.ParseLineup(in)
		if want == "" {
			if err != nil {
				t.Errorf("%q: %v", in, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", in, err, want)
		}
	}
}

// TestReachableByBudget compares Reachable with a breadth-first search over single moves
// (one counter from any sector to any other), an independent definition of "k moves".
func TestReachableByBudget(t *testing.T) {
	wantSizes := map[int]int{}
	for i, from := range env.AllLineups() {
		dist := map[env.Lineup]int{from: 0}
		frontier := []env.Lineup{from}
		for d := 1; len(frontier) > 0; d++ {
			var next []env.Lineup
			for _, l := range frontier {
				c := l.Counts()
				for a := 0; a < 5; a++ {
					for b := 0; b < 5; b++ {
						if a == b {
							continue
						}
						n := c
						n[a]--
						n[b]++
						m, err := env.NewLineup(n)
						if _, seen := dist[m]; err == nil && !seen {
							dist[m] = d
							next = append(next, m)
						}
					}
				}
			}
			frontier = next
		}
		for k := 0; k <= 6; k++ {
			mask := from.Reachable(k)
			for to, d := range dist {
				if mask.Has(to.Index()) != (d <= k) {
					t.Fatalf("%s → %s: BFS distance %d, Reachable(%d) says %v", from, to, d, k, mask.Has(to.Index()))
				}
				if from.Moves(to) != d {
					t.Fatalf("Moves(%s, %s) = %d, BFS %d", from, to, from.Moves(to), d)
				}
			}
			if i == env.MustParseLineup("2-2-2-2-2").Index() {
				wantSizes[k] = mask.Count()
			}
		}
		if len(dist) != 121 {
			t.Fatalf("%s reaches %d line-ups", from, len(dist))
		}
	}
	// Exact counts from 2-2-2-2-2 (perft-style, pinned from the BFS above; 21 = stay + 5×4
	// single moves; every line-up is within 3 moves since 2-2-2-2-2 is 3 from 5-2-1-1-1).
	for k, want := range []int{1, 21, 81, 121, 121, 121} {
		if wantSizes[k] != want {
			t.Errorf("2-2-2-2-2 within %d moves: %d line-ups, want %d", k, wantSizes[k], want)
		}
	}
}

func TestShifts(t *testing.T) {
	for _, l := range env.AllLineups() {
		m := l.Shifts()
		if !m.Has(l.Index()) {
			t.Fatalf("%s: Shifts must include staying put", l)
		}
		for _, a := range m.Actions() {
			to := env.LineupAt(a)
			c, d := l.Counts(), to.Counts()
			diff := 0
			for k := range c {
				diff += abs(c[k] - d[k])
			}
			if a != l.Index() && (diff != 2 || l.Moves(to) != 1 || !adjacentChange(c, d)) {
				t.Fatalf("%s → %s is not an adjacent one-counter shift", l, to)
			}
		}
	}
	if got := env.MustParseLineup("2-2-2-2-2").Shifts().Count(); got != 9 {
		t.Fatalf("2-2-2-2-2 has %d shift options, want 9 (8 shifts + stay)", got)
	}
	if got := env.MustParseLineup("5-2-1-1-1").Shifts().Count(); got != 3 {
		t.Fatalf("5-2-1-1-1 has %d shift options, want 3 (stay, 4-3-1-1-1, 5-1-2-1-1)", got)
	}
}

func adjacentChange(c, d [5]int) bool {
	for k := 0; k < 4; k++ {
		if c[k]-d[k] != 0 && c[k+1]-d[k+1] == -(c[k]-d[k]) {
			return true
		}
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func FuzzParseLineup(f *testing.F) {
	for _, s := range []string{"1-2-3-3-1", "2-2-2-2-2", "6-1-1-1-1", "1-1-1-1", "", "-", "1--2-3-3-1", "01-2-3-3-1", "9999999999999999999-1-1-1-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := env.ParseLineup(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "env: line-up ") {
				t.Fatalf("error without prefix: %v", err)
			}
			return
		}
		if !l.Valid() || l.Index() < 0 || env.LineupAt(l.Index()) != l {
			t.Fatalf("%q parsed to invalid %v", s, l)
		}
		again, err := env.ParseLineup(l.String())
		if err != nil || again != l {
			t.Fatalf("round trip %q → %s → %v (%v)", s, l, again, err)
		}
	})
}
