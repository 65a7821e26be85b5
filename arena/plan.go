package arena

import (
	"context"

	"github.com/kingoal/kingoal/agents"
)

// A Plan is a competition ready to play: its Config validated once, every agent built once
// at the door (with the context, so a nash agent's solve there can be interrupted), and the
// numbers every part of a run reads — pairings, units, matches per unit, shards, the run's
// identity — computed once. Workers, the runner and the run directory all take the Plan; the
// Config stays what the user described.
type Plan struct {
	Config
	pairings      [][2]int // league and gauntlet pairs, in order; a cup's ties are numbered by them too
	perUnit       int      // matches per unit
	units         int      // fixtures, or cups
	shardSize     int      // matches a shard aims at
	unitsPerShard int
	runID         string // the hash of the run's identity, in every shard's manifest
	limits        Limits // what its workers' agents may do
}

// NewPlan validates c, builds each of its agents once under ctx (an agent that does not
// build is the error; so is ctx's end) and lays out the run.
func NewPlan(ctx context.Context, c Config) (*Plan, error) { return newPlan(ctx, c, Limits{}) }

// NewPlanWithin is NewPlan with the agents built within limits: where their files are
// opened, how much they may solve, and the live agents (Limits.Live) the run plays.
func NewPlanWithin(ctx context.Context, c Config, limits Limits) (*Plan, error) {
	return newPlan(ctx, c, limits)
}

func newPlan(ctx context.Context, c Config, limits Limits) (*Plan, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	for _, s := range c.Agents {
		if _, err := agents.New(s, limits.setup(ctx, c.Rules)); err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	p := layout(c)
	p.limits = limits
	p.runID = p.info(0, false).RunID()
	return p, nil
}

// layout is c's plan without its agents: its fixtures and shards.
func layout(c Config) *Plan {
	p := &Plan{Config: c, pairings: c.pairings(), perUnit: c.matchesPerUnit(), units: c.units(), shardSize: c.shardSize()}
	p.unitsPerShard = max(1, p.shardSize/p.perUnit)
	return p
}

// useShardSize lays the run out in shards of n matches (a run.json's, which a run resumes
// with: the default has changed between builds) and renews the run's identity with it.
func (c *Plan) useShardSize(n int) {
	c.shardSize, c.unitsPerShard = n, max(1, n/c.perUnit)
	c.runID = c.info(0, false).RunID()
}

// Units is the number of units: fixtures, or cups (see Worker.PlayUnit).
func (c *Plan) Units() int { return c.units }

// Shards is the number of shard files the run's matches are written in.
func (c *Plan) Shards() int { return (c.units + c.unitsPerShard - 1) / c.unitsPerShard }

// ShardUnits returns the units [lo, hi) of shard s.
func (c *Plan) ShardUnits(s int) (lo, hi int) {
	return s * c.unitsPerShard, min((s+1)*c.unitsPerShard, c.units)
}

// ShardOf returns the shard that holds match id.
func (c *Plan) ShardOf(id int64) int { return int(id) / c.shardMatches() }

// shardMatches is the matches of a full shard.
func (c *Plan) shardMatches() int { return c.unitsPerShard * c.perUnit }

// Dir is the run directory path holding this plan's run.
func (c *Plan) Dir(path string) RunDir { return RunDir{Path: path, plan: c} }

// Plan is the plan of the run in the directory.
func (d RunDir) Plan() *Plan { return d.plan }
