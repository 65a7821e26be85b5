package arena

import (
	"fmt"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
)

// PairTally sums the matches one agent played at home against another.
type PairTally struct {
	Matches, HomeWins, Draws, AwayWins int
	HomeGoals, AwayGoals               int
	HomePoints, AwayPoints             int
}

// Tally is everything the leaderboard needs, summed per (home agent, away agent): the table,
// head-to-head, and the ratings with their bootstrap all read it, so a run of any size is
// ranked in memory proportional to the number of agents squared.
type Tally struct {
	N     int
	Pairs [][]PairTally // [home][away]
	// Cups: Reached[a][r] counts the cups in which agent a played in round r (1 … FinalRound;
	// a bye is not a match), Titles[a] the finals it won, Ties[a] the knockout ties it won.
	Reached      [][]int
	Titles, Ties []int
	// FinalRound is the round of a cup's final (0: Rounds(N), a knockout of all N agents).
	FinalRound int
	// World Cups (nil otherwise): GroupPoints[a] sums agent a's points in the group stages
	// (round 0), GroupMatches[a] counts those matches.
	GroupPoints, GroupMatches []int
}

// NewTally returns an empty tally for n agents (league, gauntlet or a knockout of all n; see
// Config.NewTally for a World Cup's).
func NewTally(n int) *Tally {
	t := &Tally{N: n, Pairs: make([][]PairTally, n)}
	for i := range t.Pairs {
		t.Pairs[i] = make([]PairTally, n)
	}
	return t
}

// NewTally returns an empty tally for c's competition.
func (c Config) NewTally() *Tally {
	t := NewTally(len(c.Agents))
	if c.Format == WorldCup {
		t.FinalRound = c.FinalRound()
		t.GroupPoints, t.GroupMatches = make([]int, t.N), make([]int, t.N)
	}
	return t
}

// finalRound is the round of a cup's final.
func (t *Tally) finalRound() int {
	if t.FinalRound == 0 {
		return Rounds(t.N)
	}
	return t.FinalRound
}

// Add counts one match.
func (t *Tally) Add(m datasets.MatchRow) error {
	switch {
	case m.HomeIndex < 0 || m.AwayIndex < 0 || int(m.HomeIndex) >= t.N || int(m.AwayIndex) >= t.N:
		return fmt.Errorf("arena: match %d names agents %d and %d, but the tally has %d", m.MatchID, m.HomeIndex, m.AwayIndex, t.N)
	case m.Round < 0 || int(m.Round) > t.finalRound():
		return fmt.Errorf("arena: match %d is in round %d; these cups have %d", m.MatchID, m.Round, t.finalRound())
	case m.Result != "home" && m.Result != "away" && m.Result != "draw":
		return fmt.Errorf("arena: match %d has result %q: want home, away or draw", m.MatchID, m.Result)
	}
	if m.Round > 0 {
		t.addCupMatch(m)
	} else if t.GroupPoints != nil {
		t.GroupPoints[m.HomeIndex] += int(m.HomePoints)
		t.GroupPoints[m.AwayIndex] += int(m.AwayPoints)
		t.GroupMatches[m.HomeIndex]++
		t.GroupMatches[m.AwayIndex]++
	}
	p := &t.Pairs[m.HomeIndex][m.AwayIndex]
	p.Matches++
	p.HomeGoals += int(m.HomeGoals)
	p.AwayGoals += int(m.AwayGoals)
	p.HomePoints += int(m.HomePoints)
	p.AwayPoints += int(m.AwayPoints)
	switch m.Result {
	case "home":
		p.HomeWins++
	case "away":
		p.AwayWins++
	default:
		p.Draws++
	}
	return nil
}

// cupCounts allocates the cup counters on first use.
func (t *Tally) cupCounts() {
	if t.Reached == nil {
		t.Reached, t.Titles, t.Ties = make([][]int, t.N), make([]int, t.N), make([]int, t.N)
		for i := range t.Reached {
			t.Reached[i] = make([]int, t.finalRound()+1)
		}
	}
}

func (t *Tally) addCupMatch(m datasets.MatchRow) {
	t.cupCounts()
	t.Reached[m.HomeIndex][m.Round]++
	t.Reached[m.AwayIndex][m.Round]++
	w := m.HomeIndex
	if side, _ := m.WinnerSide(); side == env.Away {
		w = m.AwayIndex
	}
	t.Ties[w]++
	if int(m.Round) == t.finalRound() {
		t.Titles[w]++
	}
}

// Merge adds the counts of o (a tally of other matches of the same agents) to t.
func (t *Tally) Merge(o *Tally) {
	for h := range t.Pairs {
		for a := range t.Pairs[h] {
			p, q := &t.Pairs[h][a], o.Pairs[h][a]
			p.Matches += q.Matches
			p.HomeWins += q.HomeWins
			p.Draws += q.Draws
			p.AwayWins += q.AwayWins
			p.HomeGoals += q.HomeGoals
			p.AwayGoals += q.AwayGoals
			p.HomePoints += q.HomePoints
			p.AwayPoints += q.AwayPoints
		}
	}
	if t.GroupPoints == nil && o.GroupPoints != nil {
		t.FinalRound = o.FinalRound
		t.GroupPoints, t.GroupMatches = make([]int, t.N), make([]int, t.N)
	}
	for i := range o.GroupPoints {
		t.GroupPoints[i] += o.GroupPoints[i]
		t.GroupMatches[i] += o.GroupMatches[i]
	}
	if o.Reached == nil {
		return
	}
	t.cupCounts()
	for i := range t.N {
		t.Titles[i] += o.Titles[i]
		t.Ties[i] += o.Ties[i]
		for r := range t.Reached[i] {
			t.Reached[i][r] += o.Reached[i][r]
		}
	}
}

// TallyOf sums rows for n agents (see Add for the rows it refuses).
func TallyOf(rows []datasets.MatchRow, n int) (*Tally, error) {
	t := NewTally(n)
	for _, m := range rows {
		if err := t.Add(m); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// Matches returns the number of matches counted.
func (t *Tally) Matches() int {
	n := 0
	for i := range t.Pairs {
		for _, p := range t.Pairs[i] {
			n += p.Matches
		}
	}
	return n
}

// HeadToHead returns each agent's score (win 1, draw ½) against each other; NaN where two
// agents never met (and on the diagonal).
func (t *Tally) HeadToHead() [][]float64 {
	pts, played := make([][]float64, t.N), make([][]float64, t.N)
	for i := range pts {
		pts[i], played[i] = make([]float64, t.N), make([]float64, t.N)
	}
	for h := range t.N {
		for a, p := range t.Pairs[h] {
			played[h][a] += float64(p.Matches)
			played[a][h] += float64(p.Matches)
			pts[h][a] += float64(p.HomeWins) + float64(p.Draws)/2
			pts[a][h] += float64(p.AwayWins) + float64(p.Draws)/2
		}
	}
	for i := range pts {
		for j := range pts {
			if played[i][j] == 0 {
				pts[i][j] = nan
			} else {
				pts[i][j] /= played[i][j]
			}
		}
	}
	return pts
}
