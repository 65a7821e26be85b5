package agents

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/odds"
)

// What the tree searches (MCTS, UCT) share, in OpenSpiel's shape: a search loop that spends
// a budget of simulations, and a leaf evaluator that values the states a simulation reaches
// but does not expand. What each does at a node — regret matching, UCB — is its own.

// treeSearch is a search's random streams, its chance sampler, the context that stops it
// and its first failure. MCTS and UCT embed it, so Reset and Err are the same for both.
type treeSearch struct {
	Playouts int // segments simulated so far (decision or start to next decision or end)

	name    string // in errors: "mcts", "uct"
	streams [2]uint64
	rng     env.SeededRand // choices
	src     *rand.PCG      // the simulated dice
	smp     *env.FastSampler
	ctx     context.Context // nil: never stops
	err     error
}

func newTreeSearch(name string, choices, dice uint64) treeSearch {
	t := treeSearch{name: name, streams: [2]uint64{choices, dice}, src: rand.NewPCG(0, 0)}
	t.smp = env.NewFastSampler(t.src)
	t.Reset(0)
	return t
}

// Reset reseeds the search's random streams.
func (t *treeSearch) Reset(seed uint64) {
	t.rng.Reset(seed, t.streams[0])
	t.src.Seed(seed, t.streams[1])
}

// Err returns the first failure: a search stopped by its context, a solver error, or an
// observation that was not one of this agent's decisions (see Failing).
func (t *treeSearch) Err() error { return t.err }

func (t *treeSearch) fail(err error) {
	if t.err == nil {
		t.err = fmt.Errorf("agents: %s: %w", t.name, err)
	}
}

// chance plays s's chance events up to the next decision or the end.
func (t *treeSearch) chance(s *env.State) {
	env.RunChance(s, t.smp)
	t.Playouts++
}

// spend runs simulate iterations times or, if d > 0, for d (not reproducible), checking
// the context and the clock every 64 simulations; the context's end is the error.
func (t *treeSearch) spend(iterations int, d time.Duration, simulate func() error) error {
	deadline := time.Now().Add(d)
	for i := 0; ; i++ {
		if i%64 == 0 {
			if t.ctx != nil && t.ctx.Err() != nil {
				return t.ctx.Err()
			}
			if d > 0 && time.Now().After(deadline) {
				return nil
			}
		}
		if d <= 0 && i >= iterations {
			return nil
		}
		if err := simulate(); err != nil {
			return err
		}
	}
}

// A leafEvaluator values a state a simulation reached but did not expand: home's expected
// result from there (OpenSpiel's Evaluator; the priors, which only MCTS uses, are its own).
type leafEvaluator interface {
	evaluate(s env.State) (float64, error)
}

// exactLeaves values a state exactly: the rest of the match with both line-ups kept
// (odds.KeptValues). MCTS's.
type exactLeaves struct{ kept *odds.KeptValues }

func (e exactLeaves) evaluate(s env.State) (float64, error) { return e.kept.Value(s) }

// rolloutLeaves values a state by one playout to the end with every line-up kept (random
// substitutions would mostly add noise), drawn from the search's own streams; at a kick-off
// (only the root's first simulation starts there) the line-ups are drawn at random. UCT's.
type rolloutLeaves struct{ t *treeSearch }

func (r rolloutLeaves) evaluate(s env.State) (float64, error) {
	if s.Decision() == env.KickOff {
		s.Apply([2]int{r.t.rng.IntN(env.NumLineups), r.t.rng.IntN(env.NumLineups)})
	}
	for {
		r.t.chance(&s)
		if s.Node() == env.Terminal {
			return float64(s.Result(env.Home)), nil
		}
		s.Apply([2]int{s.Lineup(env.Home).Index(), s.Lineup(env.Away).Index()})
	}
}
