package agents

import (
	"fmt"
	"slices"
	"time"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/odds"
)

// MCTSConfig are the hyper-parameters of MCTS. The zero value means the defaults.
type MCTSConfig struct {
	Iterations int           // simulations per decision; 0 means 1000
	Time       time.Duration // if > 0, search this long per decision instead (not reproducible)
	Explore    float64       // share of uniform exploration mixed into regret matching; 0 means 0.1
	Width      int           // candidate line-ups per player at a decision; 0 means 12
	Prior      float64       // weight of the exact priors, in iterations; 0 means 30, < 0 none
}

// MCTS is simultaneous-move Monte Carlo tree search (Lanctot, Lisý, Winands 2013): at a
// decision node every acting player samples its line-up from regret matching over its own
// candidates, mixed with Explore uniform exploration, and updates its regrets with the
// importance-weighted value of the simulation — which, unlike decoupled UCT (see UCT),
// makes the average strategy at a node converge to an equilibrium of its game. The root,
// visited by every simulation, updates with full information instead: each candidate is
// valued against the opponent's sampled choice by that joint action's mean (regret
// matching+, no exploration needed). Strategies are averaged linearly (later visits weigh
// more).
//
// What only an exact solver offers is used at both ends of a simulation:
//   - a new node is valued exactly, not by a random rollout: the rest of the match with both
//     line-ups kept (odds.KeptValues), and so is any state from which nobody can change
//     again;
//   - the root's candidates and their priors are exact too: at kick-off the value of each
//     line-up against the opponent's equilibrium mix of the odds matrix, at a break against
//     the opponent keeping its line-up; the Width best of each side (the current line-up
//     always among them) are searched, and the priors seed the regrets as Prior iterations
//     would. Deeper nodes search the root's candidates still reachable, and keeping.
//
// The move played is drawn from the root's average strategy (mixed) with the agent's own
// seed. Deterministic for a seed unless Time is set.
type MCTS struct {
	Config MCTSConfig
	Rules  env.Rules
	treeSearch

	kept     *odds.KeptValues // the control variates' exact values
	leaves   leafEvaluator    // exactLeaves of kept
	nodes    map[env.State]*smNode
	rootNode *smNode // of the last search; its acts are the candidates deeper nodes draw from
	path     []smStep
}

// NewMCTS returns an MCTS agent for rules r.
func NewMCTS(cfg MCTSConfig, r env.Rules) (*MCTS, error) {
	if cfg.Iterations == 0 {
		cfg.Iterations = 1000
	}
	if cfg.Explore == 0 {
		cfg.Explore = 0.1
	}
	if cfg.Width == 0 {
		cfg.Width = 12
	}
	if cfg.Prior == 0 {
		cfg.Prior = 30
	}
	kv, err := odds.NewKeptValues(r)
	if err != nil {
		return nil, err
	}
	return &MCTS{Config: cfg, Rules: r, treeSearch: newTreeSearch("mcts", streamMCTS, streamMCTSDice), kept: kv, leaves: exactLeaves{kv},
		nodes: map[env.State]*smNode{}}, nil
}

func buildMCTS(p params, s Setup) (Agent, error) {
	var cfg MCTSConfig
	var err error
	if cfg.Iterations, cfg.Time, err = p.searchBudget(); err != nil {
		return nil, err
	}
	if cfg.Explore, err = p.float("explore"); err != nil || cfg.Explore <= 0 || cfg.Explore > 1 {
		return nil, fmt.Errorf("explore=%q: want a number in (0, 1]", p["explore"])
	}
	if cfg.Width, err = p.int("width"); err != nil || cfg.Width < 1 {
		return nil, fmt.Errorf("width=%q: want a whole number ≥ 1", p["width"])
	}
	if cfg.Prior, err = p.float("prior"); err != nil || cfg.Prior < 0 {
		return nil, fmt.Errorf("prior=%q: want a number ≥ 0 (0: no priors)", p["prior"])
	}
	if cfg.Prior == 0 {
		cfg.Prior = -1 // the spec's 0 means none; the config's zero value means the default
	}
	m, err := NewMCTS(cfg, s.Rules)
	if err != nil {
		return nil, err
	}
	m.ctx = s.Context
	return m, nil
}

// Act searches from the state the observation describes and draws its move from the
// root's average strategy.
func (m *MCTS) Act(obs env.Observation, legal env.Mask) int {
	root, err := env.StateFromObservation(obs, m.Rules)
	if err == nil && m.err == nil {
		err = m.search(root)
	}
	if err != nil {
		m.fail(err)
	}
	if m.err != nil {
		return legal.Nth(0) // Err says why; the run stops on it
	}
	node, p := m.rootNode, obs.Player
	u := m.rng.Float64() * sum(node.avg[p])
	for i, w := range node.avg[p] {
		if u < w && legal.Has(node.acts[p][i]) {
			return node.acts[p][i]
		}
		u -= w
	}
	return node.acts[p][slices.Index(node.avg[p], slices.Max(node.avg[p]))]
}

// search runs the simulations from root.
func (m *MCTS) search(root env.State) error {
	clear(m.nodes)
	if err := m.expandRoot(root); err != nil {
		return err
	}
	return m.spend(m.Config.Iterations, m.Config.Time, func() error { return m.simulate(root) })
}

// simulate runs one simulation from root and backs its value up the path.
//
// The value backed up to a node is a control variate: the exact value of its joint action
// with line-ups kept from there (cached per node and joint action), plus what the
// simulation below found beyond keeping — its value at the next node minus that node's own
// kept value. Both kept values have the same mean (nothing changes between the two), so the
// estimate is unbiased, and exact whenever nothing is decided below: a joint action's first
// simulation, a match that ends before the next decision.
func (m *MCTS) simulate(root env.State) error {
	s := root
	m.path = m.path[:0]
	var value float64 // home's, at the end of the path
	for {
		if s.Node() == env.Terminal {
			value = float64(s.Result(env.Home))
			break
		}
		if s.Node() == env.Chance {
			if m.settled(s) { // nobody can change again: the exact value
				v, err := m.kept.Value(s)
				if err != nil {
					return err
				}
				value = v
				break
			}
			m.chance(&s)
			continue
		}
		node, ok := m.nodes[s]
		if !ok { // a new node: valued by the leaf evaluator
			v, err := m.leaves.evaluate(s)
			if err != nil {
				return err
			}
			m.nodes[s] = m.newNode(s, v)
			value = v
			break
		}
		st := smStep{node: node, choice: [2]int{-1, -1}}
		joint := [2]int{s.Lineup(env.Home).Index(), s.Lineup(env.Away).Index()}
		for p := range 2 {
			if node.acts[p] != nil {
				st.choice[p] = m.sample(node, p)
				joint[p] = node.acts[p][st.choice[p]]
			}
		}
		js, err := m.joint(node, s, joint)
		if err != nil {
			return err
		}
		s.Apply(joint)
		st.joint = js
		m.path = append(m.path, st)
	}
	below := value // the next node's kept value, or the end's value
	for i := len(m.path) - 1; i >= 0; i-- {
		st := m.path[i]
		u := st.joint.exact + value - below
		st.joint.beyond += value - below
		st.joint.n++
		if i == 0 {
			if err := m.updateRoot(root, st); err != nil {
				return err
			}
		} else {
			for p, a := range st.choice {
				if a >= 0 {
					sgn := float64(1 - 2*p) // away's value is −home's
					st.node.update(p, a, sgn*(u-st.node.keep))
				}
			}
		}
		value, below = u, st.node.keep
	}
	return nil
}

// settled reports whether no player can change its line-up again in s (Basic players out
// of moves, nobody Dynamic).
func (m *MCTS) settled(s env.State) bool {
	for p := env.Home; p <= env.Away; p++ {
		if s.Mode(p) == env.Dynamic || s.MovesLeft(p) > 0 {
			return false
		}
	}
	return true
}
