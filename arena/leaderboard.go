package arena

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/exploit"
	"github.com/kingoal/kingoal/rank"
)

// RatingBootstrap is the number of bootstrap refits behind the rating intervals.
const RatingBootstrap = 200

// Leaderboard is everything a finished run's standings say, computed from its tally: the
// league table (league, gauntlet) or the cup table (knockout), the ratings, the head-to-head
// matrix and — if it was measured — each agent's exploitability. It is a value: the CLI
// renders it, and it writes its data file where it is told.
type Leaderboard struct {
	Info       RunInfo
	Tally      *Tally
	Table      []Standing    // league and gauntlet; nil for cups
	Cup        []CupStanding // knockout and World Cup; nil otherwise
	Ratings    []Rating      // best first
	HeadToHead [][]float64   // [row][column]: the row agent's score; NaN where they never met
	// Exploitability is each agent's, in the run's order; nil when it was not measured.
	Exploitability []exploit.Exploitability
	// AlphaRank is each agent's α-Rank mass (rank.AlphaRank with AlphaRankParams), in the
	// run's order; nil when some pair never met.
	AlphaRank []float64
	// AlphaRankParams are the population m and intensity α behind AlphaRank, resolved (the
	// defaults unless WithAlphaRank chose others).
	AlphaRankParams rank.AlphaRankParams
	// NashMix and NashAverage are Nash averaging's (rank.NashAverage): the maximum-entropy
	// equilibrium's mass on each agent and each agent's Nash average, in the run's order;
	// nil when some pair never met.
	NashMix, NashAverage []float64
}

// NewLeaderboard computes the leaderboard of the run info describes from its tally; expl
// (nil: not measured) is the exploitability column, in the run's order.
func NewLeaderboard(ctx context.Context, info RunInfo, tally *Tally, expl []exploit.Exploitability) (*Leaderboard, error) {
	if expl != nil && len(expl) != len(info.Agents) {
		return nil, fmt.Errorf("arena: %d exploitabilities for %d agents", len(expl), len(info.Agents))
	}
	ratings, err := Ratings(ctx, tally, info.Agents, RatingBootstrapFor(len(info.Agents)), info.Seed)
	if err != nil {
		return nil, err
	}
	lb := &Leaderboard{Info: info, Tally: tally, Ratings: ratings, HeadToHead: tally.HeadToHead(), Exploitability: expl}
	if err := lb.setAlphaRank(rank.AlphaRankParams{}); err != nil {
		return nil, err
	}
	if lb.NashMix, lb.NashAverage, err = rank.NashAverage(lb.HeadToHead); errors.Is(err, rank.ErrIncomplete) {
		lb.NashMix, lb.NashAverage = nil, nil
	} else if err != nil {
		return nil, err
	}
	if lb.IsCup() {
		lb.Cup = CupTable(tally, info.Agents, info.MatchesPerPairing)
	} else if info.Competition == Gauntlet.String() {
		lb.Table = GauntletTable(tally, info.Agents, info.Seed)
	} else {
		lb.Table = LeagueTable(tally, info.Agents, info.Seed)
	}
	return lb, nil
}

// WithAlphaRank returns a copy of lb whose α-Rank column is computed with p (its zero fields:
// the defaults), or an error naming a knob out of range.
func (lb *Leaderboard) WithAlphaRank(p rank.AlphaRankParams) (*Leaderboard, error) {
	out := *lb
	if err := out.setAlphaRank(p); err != nil {
		return nil, err
	}
	return &out, nil
}

// setAlphaRank computes the α-Rank column with p, recording p; nil when some pair never met.
func (lb *Leaderboard) setAlphaRank(p rank.AlphaRankParams) error {
	p, err := p.Resolved()
	if err != nil {
		return err
	}
	lb.AlphaRankParams = p
	if lb.AlphaRank, err = rank.AlphaRank(lb.HeadToHead, p); errors.Is(err, rank.ErrIncomplete) {
		lb.AlphaRank = nil
	} else if err != nil {
		return err
	}
	return nil
}

// Leaderboard reads the finished run — run.json, matches.parquet and the cached
// exploitability column, if any — and computes its leaderboard. It writes nothing. ctx
// abandons the read of a large run.
func (r RunFiles) Leaderboard(ctx context.Context) (*Leaderboard, error) {
	dir := r.Path()
	info, err := r.Info()
	if err != nil {
		return nil, err
	}
	if !info.Complete {
		return nil, fmt.Errorf("arena: the run in %s is not finished; finish it with kingoal arena --out %s --resume", dir, dir)
	}
	tally, err := r.Tally(info)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	expl, _, err := r.Exploitability(info, 0) // none if it was skipped
	if err != nil {
		return nil, err
	}
	return NewLeaderboard(ctx, info, tally, expl)
}

// IsCup reports whether the run was cups: knockout or World Cup.
func (lb *Leaderboard) IsCup() bool {
	return lb.Info.Competition == Knockout.String() || lb.IsWorldCup()
}

// IsWorldCup reports whether the run was World Cups (group stages, then a bracket).
func (lb *Leaderboard) IsWorldCup() bool { return lb.Info.Competition == WorldCup.String() }

// RatingsFile is the name of the ratings' data file in a run directory.
const RatingsFile = "ratings.parquet"

// WriteRatings writes the ratings (with the exploitability columns, NaN where not measured)
// as a ratings/3 Parquet file at path, atomically.
func (lb *Leaderboard) WriteRatings(path string) error {
	rows := make([]datasets.RatingRow, len(lb.Ratings))
	for i, r := range lb.Ratings {
		rows[i] = datasets.RatingRow{Agent: r.Agent, AgentIndex: int32(r.Index), Rating: r.Rating, Low95: r.Low, High95: r.High, Resamples: int32(RatingBootstrapFor(len(lb.Info.Agents))),
			ScoreExploitability: math.NaN(), ScoreExploitabilityCI95: math.NaN()}
		if lb.Exploitability != nil {
			e := lb.Exploitability[r.Index]
			rows[i].ScoreExploitability, rows[i].ScoreExploitabilityCI95, rows[i].ExploitabilityExact = e.Value, e.CI, e.Exact
		}
	}
	return datasets.WriteParquet(path, datasets.RatingsSchema, rows)
}

// ReadLeaderboard reads the finished run in dir — run.json, matches.parquet and the cached
// exploitability column, if any — and computes its leaderboard. It writes nothing. ctx
// abandons the read of a large run.
func ReadLeaderboard(ctx context.Context, dir string) (*Leaderboard, error) {
	return withRun(dir, func(r RunFiles) (*Leaderboard, error) { return r.Leaderboard(ctx) })
}
