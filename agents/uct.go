package agents

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/kingoal/kingoal/env"
)

// UCTConfig are the hyper-parameters of UCT. The zero value means the defaults.
type UCTConfig struct {
	Iterations int           // simulations per decision; 0 means 2000
	C          float64       // UCB exploration constant; 0 means 1.4
	Time       time.Duration // if > 0, search this long per decision instead (not reproducible)
}

// UCT is Monte Carlo tree search for Kingoal's simultaneous, stochastic decisions by
// decoupled UCT, kept as the baseline MCTS is measured against: decoupled UCT need not
// converge to an equilibrium in a simultaneous-move game (see MCTS for one that does). At a decision node every acting player picks its own action by UCB over
// its own statistics, so no player ever sees the other's choice; chance nodes are sampled
// with the fast sampler (one segment from a decision to the next is a "playout" in the
// benchmark's count); leaves are valued by a rollout to the end with line-ups kept. Results
// are +1/0/−1 for the acting player (a shoot-out decides a knockout). Decision nodes are
// found by their state (equal states share a node). Deterministic for a seed unless
// Time is set.
type UCT struct {
	Config   UCTConfig
	Rules    env.Rules
	Playouts int // segments simulated so far (decision or end to next decision or end)

	rng   *rand.Rand
	src   *rand.PCG
	smp   *env.FastSampler
	nodes map[env.State]*uctNode
	path  []uctStep
	ctx   context.Context // nil: never stops
	err   error
}

type uctNode struct {
	visits float64
	acts   [2][]int // legal actions of each acting player (nil: not acting)
	n      [2][]float64
	w      [2][]float64 // total value from that player's side
}

type uctStep struct {
	node   *uctNode
	choice [2]int // index into acts, −1 if not acting
}

// NewUCT returns an UCT agent for rules r.
func NewUCT(cfg UCTConfig, r env.Rules) *UCT {
	if cfg.Iterations == 0 {
		cfg.Iterations = 2000
	}
	if cfg.C == 0 {
		cfg.C = 1.4
	}
	m := &UCT{Config: cfg, Rules: r, nodes: map[env.State]*uctNode{}, src: rand.NewPCG(0, 0)}
	m.smp = env.NewFastSampler(m.src)
	m.Reset(0)
	return m
}

func buildUCT(p params, s Setup) (Agent, error) {
	var cfg UCTConfig
	var err error
	if cfg.Iterations, cfg.Time, err = p.searchBudget(); err != nil {
		return nil, err
	}
	if cfg.C, err = p.float("c"); err != nil || cfg.C <= 0 {
		return nil, fmt.Errorf("c=%q: want a positive number", p["c"])
	}
	m := NewUCT(cfg, s.Rules)
	m.ctx = s.Context
	return m, nil
}

// Err returns the first failure: a search stopped by its context, or an observation that
// was not one of this agent's decisions (see Failing).
func (m *UCT) Err() error { return m.err }

func (m *UCT) fail(err error) {
	if m.err == nil {
		m.err = fmt.Errorf("agents: uct: %w", err)
	}
}

// Reset reseeds the search's random streams.
func (m *UCT) Reset(seed uint64) {
	m.rng = rand.New(env.SeededSource(seed, streamUCT))
	m.src.Seed(seed, streamUCTDice)
}

// Act searches from the state the observation describes and plays the most visited action.
func (m *UCT) Act(obs env.Observation, legal env.Mask) int {
	root, err := env.StateFromObservation(obs, m.Rules)
	if err != nil {
		m.fail(err)
		return legal.Nth(0) // not a decision of ours: any legal action, and Err says so
	}
	clear(m.nodes)
	deadline := time.Now().Add(m.Config.Time)
	for i := 0; ; i++ {
		if m.ctx != nil && i%64 == 0 && m.ctx.Err() != nil {
			m.fail(m.ctx.Err())
			break
		}
		if m.Config.Time > 0 {
			if i%64 == 0 && time.Now().After(deadline) {
				break
			}
		} else if i >= m.Config.Iterations {
			break
		}
		m.simulate(root)
	}
	node := m.nodes[root]
	p := obs.Player
	best, bestN := legal.Nth(0), -1.0
	if node != nil {
		for i, a := range node.acts[p] {
			if node.n[p][i] > bestN && legal.Has(a) {
				best, bestN = a, node.n[p][i]
			}
		}
	}
	return best
}

func (m *UCT) simulate(root env.State) {
	s := root
	m.path = m.path[:0]
	var value float64 // home's result
	for {
		switch s.Node() {
		case env.Terminal:
			value = float64(s.Result(env.Home))
		case env.Chance:
			env.RunChance(&s, m.smp)
			m.Playouts++
			continue
		default:
			node, ok := m.nodes[s]
			if !ok {
				m.nodes[s] = m.expand(s)
				value = m.rollout(s)
				break
			}
			st := uctStep{node: node, choice: [2]int{-1, -1}}
			joint := [2]int{s.Lineup(env.Home).Index(), s.Lineup(env.Away).Index()}
			for p := range 2 {
				if node.acts[p] != nil {
					st.choice[p] = m.ucb(node, p)
					joint[p] = node.acts[p][st.choice[p]]
				}
			}
			m.path = append(m.path, st)
			s.Apply(joint)
			continue
		}
		break
	}
	for _, st := range m.path {
		st.node.visits++
		for p, i := range st.choice {
			if i >= 0 {
				st.node.n[p][i]++
				st.node.w[p][i] += value * float64(1-2*p) // away's value is −home's
			}
		}
	}
}

func (m *UCT) expand(s env.State) *uctNode {
	n := &uctNode{}
	for p := env.Home; p <= env.Away; p++ {
		if s.Acting(p) {
			n.acts[p] = s.Legal(p).Actions()
			n.n[p] = make([]float64, len(n.acts[p]))
			n.w[p] = make([]float64, len(n.acts[p]))
		}
	}
	return n
}

// ucb picks player p's action: an untried one at random, else the best upper bound.
func (m *UCT) ucb(node *uctNode, p int) int {
	n := node.n[p]
	untried := 0
	for _, c := range n {
		if c == 0 {
			untried++
		}
	}
	if untried > 0 {
		k := m.rng.IntN(untried)
		for i, c := range n {
			if c == 0 {
				if k == 0 {
					return i
				}
				k--
			}
		}
	}
	logN := math.Log(node.visits)
	best, bestV := 0, math.Inf(-1)
	for i, c := range n {
		if v := node.w[p][i]/c + m.Config.C*math.Sqrt(logN/c); v > bestV {
			best, bestV = i, v
		}
	}
	return best
}

// rollout values s by playing it to the end with every line-up kept (random substitutions
// would mostly add noise) and returns home's result.
func (m *UCT) rollout(s env.State) float64 {
	if s.Decision() == env.KickOff { // only the root's first simulation starts here
		s.Apply([2]int{m.rng.IntN(env.NumLineups), m.rng.IntN(env.NumLineups)})
	}
	for {
		env.RunChance(&s, m.smp)
		m.Playouts++
		if s.Node() == env.Terminal {
			return float64(s.Result(env.Home))
		}
		s.Apply([2]int{s.Lineup(env.Home).Index(), s.Lineup(env.Away).Index()})
	}
}
