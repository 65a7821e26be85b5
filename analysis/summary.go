// Many matches summed by agent: what each gives away a match on average, and at its worst.

package analysis

import (
	"cmp"
	"slices"
)

// Summary is one agent's decisions over many matches, either side.
type Summary struct {
	Agent     string `json:"agent"`
	Matches   int    `json:"matches"`
	Decisions int    `json:"decisions"`
	// PerMatch is the points it gave away a match on average; Worst at its worst decision,
	// in match WorstMatch.
	PerMatch     float64 `json:"points_per_match"`
	Worst        float64 `json:"worst_points"`
	WorstMatch   int64   `json:"worst_match"`
	Inaccuracies int     `json:"inaccuracies"`
	Mistakes     int     `json:"mistakes"`
	Blunders     int     `json:"blunders"`
}

// Tally sums reports by agent as they come (nothing of a report is kept).
type Tally struct{ by map[string]*tallied }

type tallied struct {
	Summary
	points float64 // given away in all
}

// Add counts one match's report.
func (t *Tally) Add(r Report) {
	if t.by == nil {
		t.by = map[string]*tallied{}
	}
	for p, a := range r.Agents {
		if p == 1 && a.Agent == r.Agents[0].Agent {
			continue // self-play: one match
		}
		s := t.by[a.Agent]
		if s == nil {
			s = &tallied{Summary: Summary{Agent: a.Agent, WorstMatch: -1}}
			t.by[a.Agent] = s
		}
		s.Matches++
	}
	for _, d := range r.Decisions {
		s := t.by[d.Agent]
		s.Decisions++
		s.points += d.Points
		if s.WorstMatch < 0 || d.Points > s.Worst {
			s.Worst, s.WorstMatch = d.Points, r.Match
		}
		switch d.Grade {
		case Inaccuracy:
			s.Inaccuracies++
		case Mistake:
			s.Mistakes++
		case Blunder:
			s.Blunders++
		}
	}
}

// Agents is the summary of each agent, the one giving away least a match first.
func (t *Tally) Agents() []Summary {
	out := make([]Summary, 0, len(t.by))
	for _, s := range t.by {
		c := s.Summary
		c.PerMatch = s.points / float64(c.Matches)
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Summary) int {
		return cmp.Or(cmp.Compare(a.PerMatch, b.PerMatch), cmp.Compare(a.Agent, b.Agent))
	})
	return out
}
