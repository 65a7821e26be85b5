package agents

import (
	"context"
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/internal/memo"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
	"github.com/kingoal/kingoal/solver/policy"
)

// Optimal plays the solver's best response at every decision: at a break (Basic) or a shift
// (Dynamic) it looks up the exact optimal policy against the opponent's current line-up,
// assumed kept from then on, solving and caching it the first time that line-up is seen.
// At kick-off it declares Lineup, or samples its side's Mix if that is set.
type Optimal struct {
	Rules     env.Rules
	Objective odds.Objective
	Lineup    env.Lineup        // kick-off line-up when the side's Mix is empty
	Mix       [2][]env.Weighted // kick-off mix per side (the equilibrium agent)
	Context   context.Context   // stops its solves (nil: never)
	rng       env.SeededRand
	basic     policyCache[*policy.BasicPolicy]
	dynamic   policyCache[*policy.DynamicPolicy]
	err       error
}

// policyCache keeps the last few policies by (player, opponent line-up). A Basic policy
// solved from a break holds at most ~3 MB (1,347 breaks × 224 entries × 9 bytes from the
// first break of a default match) and costs at most ~5 ms to solve again, so two are kept.
type policyCache[P any] struct {
	keys []cacheKey
	vals []P
}

type cacheKey struct {
	player env.Player
	opp    env.Lineup
}

const policyCacheSize = 2

// get returns the cached policy for k if usable says it answers here, else solves one and
// caches it in place of the old.
func (c *policyCache[P]) get(k cacheKey, usable func(P) bool, solve func() (P, error)) (P, error) {
	for i, key := range c.keys {
		if key == k {
			if usable(c.vals[i]) {
				return c.vals[i], nil
			}
			c.keys, c.vals = append(c.keys[:i:i], c.keys[i+1:]...), append(c.vals[:i:i], c.vals[i+1:]...)
			break
		}
	}
	p, err := solve()
	if err != nil {
		return p, err
	}
	if len(c.keys) == policyCacheSize { // drop the oldest
		c.keys, c.vals = c.keys[1:], c.vals[1:]
	}
	c.keys, c.vals = append(c.keys, k), append(c.vals, p)
	return p, nil
}

// Reset reseeds the kick-off sampling.
func (o *Optimal) Reset(seed uint64) { o.rng.Reset(seed, streamOptimal) }

// Err returns the first error met while solving or looking up a policy (the agent then kept
// its line-up for that decision, which is always legal, but not its choice); nil in normal
// play. See Failing.
func (o *Optimal) Err() error { return o.err }

// Act decides from the observation; the result is always legal.
func (o *Optimal) Act(obs env.Observation, legal env.Mask) int {
	keep := obs.Own.Index()
	if o.err != nil { // failed once: every later answer is a fallback too, so make it cheap
		if obs.Decision == env.KickOff {
			return o.kickoff(obs.Player)
		}
		return keep
	}
	switch obs.Decision {
	case env.KickOff:
		return o.kickoff(obs.Player)
	case env.Break:
		// A policy solved from the first break at which the opponent shows this line-up
		// answers every later break of the match (they are reachable from it); where it
		// does not (a new match against an opponent that keeps it), solve from here again.
		st := policy.BreakState{Period: obs.Period, ThrowsLeft: obs.ThrowsLeft, GoalDiff: obs.OwnGoals - obs.OppGoals, Own: obs.Own, MovesLeft: obs.OwnMovesLeft}
		pol, err := o.basic.get(cacheKey{obs.Player, obs.Opp}, func(p *policy.BasicPolicy) bool {
			_, err := p.Best(st)
			return err == nil
		}, func() (*policy.BasicPolicy, error) {
			return policy.SolveBasic(policy.BasicProblem{Rules: o.Rules, Player: obs.Player, Own: obs.Own, Opponent: obs.Opp, Objective: o.Objective, Context: o.Context, From: &st})
		})
		if err == nil {
			var to env.Lineup
			to, err = pol.Best(st)
			if err == nil && legal.Has(to.Index()) {
				return to.Index()
			}
		}
		o.fail(err, obs)
	case env.Shift:
		pol, err := o.dynamic.get(cacheKey{obs.Player, obs.Opp}, func(*policy.DynamicPolicy) bool { return true }, func() (*policy.DynamicPolicy, error) {
			return policy.SolveDynamic(policy.DynamicProblem{Rules: o.Rules, Player: obs.Player, Own: obs.Own, Opponent: obs.Opp, Objective: o.Objective, Context: o.Context})
		})
		if err == nil {
			var to env.Lineup
			to, _, err = pol.Best(shiftStateOf(obs))
			if err == nil && legal.Has(to.Index()) {
				return to.Index()
			}
		}
		o.fail(err, obs)
	}
	return keep
}

func (o *Optimal) fail(err error, obs env.Observation) {
	if o.err == nil {
		if err == nil {
			err = fmt.Errorf("the policy's choice is not legal")
		}
		o.err = fmt.Errorf("agents: optimal at %s, %d left: %w", obs.Period, obs.ThrowsLeft, err)
	}
}

// shiftStateOf turns an observation at a Shift decision into the solver's ShiftState.
func shiftStateOf(obs env.Observation) policy.ShiftState {
	// The solver's states are in home coordinates.
	return policy.ShiftState{Period: obs.Period, ThrowsLeft: obs.ThrowsLeft, Ball: env.HomeSector(obs.Player, obs.Ball), GoalDiff: obs.OwnGoals - obs.OppGoals, Own: obs.Own, Possession: obs.Possession}
}

func (o *Optimal) kickoff(p env.Player) int {
	mix := o.Mix[p]
	if len(mix) == 0 {
		return o.Lineup.Index()
	}
	if o.rng.Rand == nil {
		o.Reset(0)
	}
	return drawFrom(o.rng.Rand, mix).Index()
}

// equilibria memoises the odds matrix and the line-up equilibrium per rules and payoff (pure
// functions of them; the results are read-only), so many agents share one solve. Sixteen at
// most: a process that meets many rule sets (kingoal serve) keeps the recent ones.
var equilibria = memo.Cache[eqKey, LineupGame]{Limit: 16}

type eqKey struct {
	rules  env.Rules // Canonical
	payoff lineup.Payoff
}

// LineupGame is the odds matrix under some rules and the line-up equilibrium under a payoff.
type LineupGame struct {
	Odds        *odds.OddsMatrix
	Equilibrium lineup.LineupEquilibrium
}

func equilibriumFor(ctx context.Context, r env.Rules, p lineup.Payoff) (lineup.LineupEquilibrium, error) {
	g, err := LineupGameFor(ctx, r, p)
	return g.Equilibrium, err
}

// LineupGameFor is the odds matrix under r and its line-up equilibrium under p, computed
// once for every agent of the process (equilibria) and read-only.
func LineupGameFor(ctx context.Context, r env.Rules, p lineup.Payoff) (LineupGame, error) {
	return equilibria.Get(ctx, eqKey{r.Canonical(), p}, func() (LineupGame, error) {
		m, err := odds.ComputeMatrix(ctx, r, odds.MatrixOptions{})
		if err != nil {
			return LineupGame{}, err
		}
		eq, err := lineup.Equilibrium(m, p)
		return LineupGame{m, eq}, err
	})
}

// checkPolicySize refuses, when the agent is built, rules under which its policies cannot be
// solved on this machine: it would otherwise fail at its first break or shift.
func checkPolicySize(r env.Rules) error {
	for p := env.Home; p <= env.Away; p++ {
		check := policy.CheckBasicSize
		if r.Modes[p] == env.Dynamic {
			check = policy.CheckDynamicSize
		}
		if err := check(r); err != nil {
			return err
		}
	}
	return nil
}

func buildOptimal(p params, s Setup) (Agent, error) {
	obj, err := odds.ParseObjective(p["objective"])
	if err != nil {
		return nil, err
	}
	if obj == odds.ObjectiveAdvance && !s.Rules.Knockout {
		return nil, fmt.Errorf("objective advance needs knockout rules")
	}
	if err := checkPolicySize(s.Rules); err != nil {
		return nil, err
	}
	o := &Optimal{Rules: s.Rules, Objective: obj, Context: s.Context}
	if p["lineup"] == "equilibrium" {
		payoff := lineup.PayoffWinLoss
		if s.Rules.Knockout {
			payoff = lineup.PayoffAdvance
		}
		eq, err := equilibriumFor(s.context(), s.Rules, payoff)
		if err != nil {
			return nil, err
		}
		o.Lineup = eq.Home[0].Lineup
	} else if o.Lineup, err = env.ParseLineup(p["lineup"]); err != nil {
		return nil, err
	}
	return o, nil
}

func buildEquilibrium(p params, s Setup) (Agent, error) {
	obj, err := odds.ParseObjective(p["objective"])
	if err != nil {
		return nil, err
	}
	payoff, err := lineup.ParsePayoff(p["payoff"])
	if err != nil {
		return nil, err
	}
	if (payoff == lineup.PayoffAdvance || obj == odds.ObjectiveAdvance) && !s.Rules.Knockout {
		return nil, fmt.Errorf("advance needs knockout rules")
	}
	if err := checkPolicySize(s.Rules); err != nil {
		return nil, err
	}
	eq, err := equilibriumFor(s.context(), s.Rules, payoff)
	if err != nil {
		return nil, err
	}
	// The game is symmetric, but take each side's own mix in case a variant is not.
	o := &Optimal{Rules: s.Rules, Objective: obj, Mix: [2][]env.Weighted{eq.Home, eq.Away}, Context: s.Context}
	o.Reset(0)
	return o, nil
}
