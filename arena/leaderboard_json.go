package arena

import (
	"encoding/json"
	"math"

	"github.com/kingoal/kingoal/exploit"
)

// StandingJSON is a row of the league table in JSON.
type StandingJSON struct {
	Rank   int    `json:"rank"`            // 1.. by the rules §7 order
	Agent  string `json:"agent"`           // its spec
	P      int    `json:"played"`          // matches played
	W      int    `json:"won"`             // matches won
	D      int    `json:"drawn"`           // matches drawn
	L      int    `json:"lost"`            // matches lost
	GF     int    `json:"goals_for"`       // goals scored
	GA     int    `json:"goals_against"`   // goals conceded
	GD     int    `json:"goal_difference"` // goals_for − goals_against
	Points int    `json:"points"`          // league points
}

// CupStandingJSON is a row of the cup table in JSON.
type CupStandingJSON struct {
	Rank      int     `json:"rank"`              // 1.. by titles, then rounds reached
	Agent     string  `json:"agent"`             // its spec
	Cups      int     `json:"cups"`              // cups played
	Titles    int     `json:"titles"`            // cups won
	TitleLow  float64 `json:"title_rate_low95"`  // 95% interval of the title rate, low end
	TitleHigh float64 `json:"title_rate_high95"` // its high end
	Reached   []int   `json:"reached"`           // `[r-1]`: cups in which the agent played round r (the last is the final)
	TiesWon   int     `json:"ties_won"`          // knockout ties won
	// World Cup only
	GroupPoints  int `json:"group_points,omitempty"`
	GroupMatches int `json:"group_matches,omitempty"` // World Cup: group matches played
	GroupExits   int `json:"group_exits,omitempty"`   // cups in which the agent went out in its group
}

// MarshalJSON encodes lb in the form `kingoal leaderboard --json` prints and Python's
// kingoal.arena returns: the table, the ratings with each agent's exploitability, and the
// head-to-head matrix (null where two agents never met).
func (lb *Leaderboard) MarshalJSON() ([]byte, error) { return json.Marshal(lb.JSON()) }

// JSON is lb in its JSON form (see MarshalJSON).
func (lb *Leaderboard) JSON() LeaderboardJSON {
	info, h2h := lb.Info, lb.HeadToHead
	out := LeaderboardJSON{Format: info.Competition, Rules: info.Rules, Seed: info.Seed, Matches: lb.Tally.Matches(),
		Ratings: make([]RatingJSON, len(lb.Ratings)), HeadToHead: make([][]*float64, len(h2h)), Agents: info.Agents}
	for i, row := range h2h {
		out.HeadToHead[i] = make([]*float64, len(row))
		for j := range row {
			if !math.IsNaN(row[j]) {
				out.HeadToHead[i][j] = &row[j]
			}
		}
	}
	for i, s := range lb.Table {
		out.Table = append(out.Table, StandingJSON{i + 1, s.Agent, s.P, s.W, s.D, s.L, s.GF, s.GA, s.GD(), s.Pts})
	}
	for i, s := range lb.Cup {
		row := CupStandingJSON{Rank: i + 1, Agent: s.Agent, Cups: s.Cups, Titles: s.Titles, TitleLow: s.TitleLow, TitleHigh: s.TitleHigh, Reached: s.Reached[1:], TiesWon: s.TiesWon}
		if lb.IsWorldCup() {
			row.GroupPoints, row.GroupMatches, row.GroupExits = s.GroupPoints, s.GroupMatches, s.Cups-s.Reached[1]
		}
		out.Cup = append(out.Cup, row)
	}
	if lb.AlphaRank != nil {
		out.AlphaRankM, out.AlphaRankAlpha = lb.AlphaRankParams.Population, lb.AlphaRankParams.Intensity
	}
	for i, r := range lb.Ratings {
		out.Ratings[i] = RatingJSON{Agent: r.Agent, Rating: r.Rating, Low: r.Low, High: r.High}
		if lb.Exploitability != nil {
			e := lb.Exploitability[r.Index]
			out.Ratings[i].Exploitability = &e
		}
		if lb.AlphaRank != nil {
			a := lb.AlphaRank[r.Index]
			out.Ratings[i].AlphaRank = &a
		}
		if lb.NashMix != nil {
			m, a := lb.NashMix[r.Index], lb.NashAverage[r.Index]
			out.Ratings[i].NashMass, out.Ratings[i].NashAverage = &m, &a
		}
	}
	return out
}

// RatingJSON is an agent's rating with its interval and exploitability in JSON.
type RatingJSON struct {
	Agent          string                  `json:"agent"`                    // its spec
	Rating         float64                 `json:"rating"`                   // Bradley–Terry rating with draws, Elo scale, mean 0
	Low            float64                 `json:"low95"`                    // bootstrap 95% interval, low end
	High           float64                 `json:"high95"`                   // its high end
	Exploitability *exploit.Exploitability `json:"exploitability,omitempty"` // absent when not measured
	// AlphaRank is the agent's α-Rank mass; absent when some pair of agents never met.
	AlphaRank *float64 `json:"alpharank,omitempty"`
	// NashMass and NashAverage are Nash averaging's (rank.NashAverage); absent when some
	// pair of agents never met.
	NashMass    *float64 `json:"nash_mass,omitempty"`
	NashAverage *float64 `json:"nash_average,omitempty"` // what the agent gains against the Nash averaging equilibrium (≤ 0; absent when some pair never met)
}

// LeaderboardJSON is a leaderboard in JSON: `kingoal leaderboard --json` and `kingoal arena
// --json` print it, Python's kingoal.arena returns it. A league or gauntlet has table, a
// knockout or World Cup has cup (World Cups add the group columns); ratings' alpharank,
// nash_mass and nash_average are absent when some pair of agents never met.
type LeaderboardJSON struct {
	Format         string            `json:"format"`                    // league, gauntlet, knockout, worldcup
	Rules          string            `json:"rules"`                     // in words, as the table's header gives them
	Seed           uint64            `json:"seed"`                      // the run's seed
	Matches        int               `json:"matches"`                   // matches played
	Agents         []string          `json:"agents"`                    // the agents' specs, in --agents order
	Table          []StandingJSON    `json:"table,omitempty"`           // league and gauntlet
	Cup            []CupStandingJSON `json:"cup,omitempty"`             // knockout
	Ratings        []RatingJSON      `json:"ratings"`                   // one per agent
	HeadToHead     [][]*float64      `json:"head_to_head"`              // `[row][column]`: the row agent's score; null where they never met
	AlphaRankM     int               `json:"alpharank_m,omitempty"`     // α-Rank's population m behind the ratings' alpharank masses; absent with them
	AlphaRankAlpha float64           `json:"alpharank_alpha,omitempty"` // α-Rank's intensity α behind them; absent with them
}
