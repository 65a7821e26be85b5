package arena

import (
	"cmp"
	"slices"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
)

// Standing is one agent's line of the league table.
type Standing struct {
	Agent                   string
	Index                   int
	P, W, D, L, GF, GA, Pts int
}

// GD is the goal difference.
func (s Standing) GD() int { return s.GF - s.GA }

// LeagueTable ranks the agents by RULES §7: points, goal difference, goals scored, then the
// points of the matches among the agents still level, then a draw of lots seeded by seed.
// Points are the league points recorded with each match.
func LeagueTable(rows []datasets.MatchRow, agentSpecs []string, seed uint64) []Standing {
	st := make([]Standing, len(agentSpecs))
	for i, a := range agentSpecs {
		st[i] = Standing{Agent: a, Index: i}
	}
	for _, m := range rows {
		h, a := &st[m.HomeIndex], &st[m.AwayIndex]
		h.P++
		a.P++
		h.GF += int(m.HomeGoals)
		h.GA += int(m.AwayGoals)
		a.GF += int(m.AwayGoals)
		a.GA += int(m.HomeGoals)
		h.Pts += int(m.HomePoints)
		a.Pts += int(m.AwayPoints)
		switch m.Result {
		case "home":
			h.W++
			a.L++
		case "away":
			a.W++
			h.L++
		default:
			h.D++
			a.D++
		}
	}
	primary := func(x, y Standing) int {
		return cmp.Or(cmp.Compare(y.Pts, x.Pts), cmp.Compare(y.GD(), x.GD()), cmp.Compare(y.GF, x.GF))
	}
	slices.SortStableFunc(st, primary)
	for i := 0; i < len(st); {
		j := i + 1
		for j < len(st) && primary(st[i], st[j]) == 0 {
			j++
		}
		if j-i > 1 {
			breakTies(st[i:j], rows, seed)
		}
		i = j
	}
	return st
}

// breakTies orders a group level on points, goal difference and goals: by the points of the
// matches among them, then by lots.
func breakTies(group []Standing, rows []datasets.MatchRow, seed uint64) {
	in := map[int]bool{}
	for _, s := range group {
		in[s.Index] = true
	}
	h2h := map[int]int{}
	for _, m := range rows {
		if in[int(m.HomeIndex)] && in[int(m.AwayIndex)] {
			h2h[int(m.HomeIndex)] += int(m.HomePoints)
			h2h[int(m.AwayIndex)] += int(m.AwayPoints)
		}
	}
	lots := func(i int) uint64 { return env.SeededSource(seed^0x1075, uint64(i)).Uint64() }
	slices.SortStableFunc(group, func(x, y Standing) int {
		return cmp.Or(cmp.Compare(h2h[y.Index], h2h[x.Index]), cmp.Compare(lots(x.Index), lots(y.Index)))
	})
}
