package agents

import (
	"fmt"
	"math"
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
	Config UCTConfig
	Rules  env.Rules
	treeSearch

	leaves leafEvaluator // rolloutLeaves
	nodes  map[env.State]*uctNode
	path   []uctStep
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
	m := &UCT{Config: cfg, Rules: r, treeSearch: newTreeSearch("uct", streamUCT, streamUCTDice), nodes: map[env.State]*uctNode{}}
	m.leaves = rolloutLeaves{&m.treeSearch}
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

// Act searches from the state the observation describes and plays the most visited action.
func (m *UCT) Act(obs env.Observation, legal env.Mask) int {
	root, err := env.StateFromObservation(obs, m.Rules)
	if err != nil {
		m.fail(err)
		return legal.Nth(0) // not a decision of ours: any legal action, and Err says so
	}
	clear(m.nodes)
	if err := m.spend(m.Config.Iterations, m.Config.Time, func() error { return m.simulate(root) }); err != nil {
		m.fail(err)
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

func (m *UCT) simulate(root env.State) error {
	s := root
	m.path = m.path[:0]
	var value float64 // home's result
	for {
		switch s.Node() {
		case env.Terminal:
			value = float64(s.Result(env.Home))
		case env.Chance:
			m.chance(&s)
			continue
		default:
			node, ok := m.nodes[s]
			if !ok {
				m.nodes[s] = m.expand(s)
				v, err := m.leaves.evaluate(s)
				if err != nil {
					return err
				}
				value = v
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
	return nil
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
