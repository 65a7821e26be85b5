package arena

import (
	"cmp"
	"slices"

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

// LeagueTable ranks the agents by rules §7: points, goal difference, goals scored, then the
// points of the matches among the agents still level, then a draw of lots seeded by seed.
// Points are the league points recorded with each match.
func LeagueTable(t *Tally, agentSpecs []string, seed uint64) []Standing {
	st := make([]Standing, len(agentSpecs))
	for i, a := range agentSpecs {
		st[i] = Standing{Agent: a, Index: i}
	}
	for hi := range t.N {
		for ai, p := range t.Pairs[hi] {
			h, a := &st[hi], &st[ai]
			h.P += p.Matches
			a.P += p.Matches
			h.GF += p.HomeGoals
			h.GA += p.AwayGoals
			a.GF += p.AwayGoals
			a.GA += p.HomeGoals
			h.Pts += p.HomePoints
			a.Pts += p.AwayPoints
			h.W += p.HomeWins
			h.D += p.Draws
			h.L += p.AwayWins
			a.W += p.AwayWins
			a.D += p.Draws
			a.L += p.HomeWins
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
			breakTies(st[i:j], t, seed)
		}
		i = j
	}
	return st
}

// GauntletTable ranks a gauntlet's agents by points a match, then goal difference and goals
// a match: the challenger plays every match and each other agent one pairing, so totals would
// put the challenger first whatever it scored. Rows level on all three keep LeagueTable's
// order (its head-to-head and lots).
func GauntletTable(t *Tally, agentSpecs []string, seed uint64) []Standing {
	st := LeagueTable(t, agentSpecs, seed)
	perMatch := func(a, pa, b, pb int) int { return cmp.Compare(b*pa, a*pb) } // a/pa v b/pb, descending, without division
	slices.SortStableFunc(st, func(x, y Standing) int {
		return cmp.Or(perMatch(x.Pts, x.P, y.Pts, y.P), perMatch(x.GD(), x.P, y.GD(), y.P), perMatch(x.GF, x.P, y.GF, y.P))
	})
	return st
}

// breakTies orders a group level on points, goal difference and goals: by the points of the
// matches among them, then by lots.
func breakTies(group []Standing, t *Tally, seed uint64) {
	h2h := map[int]int{}
	for _, x := range group {
		for _, y := range group {
			p := t.Pairs[x.Index][y.Index]
			h2h[x.Index] += p.HomePoints
			h2h[y.Index] += p.AwayPoints
		}
	}
	lots := func(i int) uint64 { return env.SeededSource(seed^streamTieBreakLots, uint64(i)).Uint64() }
	slices.SortStableFunc(group, func(x, y Standing) int {
		return cmp.Or(cmp.Compare(h2h[y.Index], h2h[x.Index]), cmp.Compare(lots(x.Index), lots(y.Index)))
	})
}

// CupStanding is one agent's record over the cups of a knockout or World Cup run.
type CupStanding struct {
	Agent               string
	Index               int
	Cups, Titles        int
	Reached             []int // [r]: cups in which it played round r (1 … the final)
	TiesWon             int
	TitleLow, TitleHigh float64 // 95% Wilson interval of the title rate
	// World Cup only: points and matches in the group stages (0 otherwise); the cups in
	// which it went out in its group are Cups − Reached[1].
	GroupPoints, GroupMatches int
}

// CupTable ranks the agents of a cup run by titles, then finals, semi-finals, … reached, then
// knockout ties won, then (World Cup) group points, then the index. cups is the number of
// cups played.
func CupTable(t *Tally, agentSpecs []string, cups int) []CupStanding {
	rounds := t.finalRound()
	st := make([]CupStanding, len(agentSpecs))
	for i, a := range agentSpecs {
		st[i] = CupStanding{Agent: a, Index: i, Cups: cups, Reached: make([]int, rounds+1)}
		if t.Reached != nil {
			st[i].Titles, st[i].TiesWon = t.Titles[i], t.Ties[i]
			copy(st[i].Reached, t.Reached[i])
		}
		if t.GroupPoints != nil {
			st[i].GroupPoints, st[i].GroupMatches = t.GroupPoints[i], t.GroupMatches[i]
		}
		st[i].TitleLow, st[i].TitleHigh = env.WilsonInterval(st[i].Titles, cups)
	}
	slices.SortStableFunc(st, func(x, y CupStanding) int {
		if c := cmp.Compare(y.Titles, x.Titles); c != 0 {
			return c
		}
		for r := rounds; r >= 1; r-- {
			if c := cmp.Compare(y.Reached[r], x.Reached[r]); c != 0 {
				return c
			}
		}
		return cmp.Or(cmp.Compare(y.TiesWon, x.TiesWon), cmp.Compare(y.GroupPoints, x.GroupPoints), cmp.Compare(x.Index, y.Index))
	})
	return st
}
