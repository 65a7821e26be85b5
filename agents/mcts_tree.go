// The simultaneous-move tree of MCTS: nodes, their regret-matching statistics, how a joint action is sampled.

package agents

import "github.com/kingoal/kingoal/env"

// smNode is a decision node. For each player p who acts there (acts[p] non-nil):
//   - acts[p]: its candidate line-ups (indices);
//   - regret[p][i]: cumulative regret of not having played acts[p][i];
//   - avg[p][i]: cumulative probability of acts[p][i] over the visits (the average strategy);
//   - sigma[p][i]: the current strategy, set at each visit.
//   - keep: home's exact value of the node's state with line-ups kept (its value as a leaf,
//     and the baseline its regrets are measured from);
//   - joints[joint]: what is known of a joint action (jointStat);
//   - q[p]: scratch for the root's full-information update.
type smNode struct {
	keep   float64
	joints map[[2]int]*jointStat
	q      [2][]float64
	acts   [2][]int
	regret [2][]float64
	avg    [2][]float64
	sigma  [2][]float64
	rm     [2][]float64 // the regret-matching part of sigma
	visits [2]int
}

type smStep struct {
	node   *smNode
	choice [2]int     // index into acts, −1 if not acting
	joint  *jointStat // of the joint action taken
}

func sum(xs []float64) float64 {
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t
}

// jointStat is what a node knows of one joint action: home's exact value with line-ups
// kept from there, and the sum and count of what simulations found beyond keeping.
type jointStat struct {
	exact, beyond float64
	n             int
}

func (j *jointStat) mean() float64 {
	if j.n == 0 {
		return j.exact
	}
	return j.exact + j.beyond/float64(j.n)
}

// sample sets the node's current strategy for player p — regret matching mixed with
// uniform exploration — and draws from it.
func (m *MCTS) sample(node *smNode, p int) int {
	r, sg := node.regret[p], node.sigma[p]
	pos := 0.0
	for _, x := range r {
		pos += max(x, 0)
	}
	g, rm := m.Config.Explore, node.rm[p]
	if node == m.rootNode {
		g = 0 // the root values every candidate (updateRoot): no need to explore, and no bias
	}
	for i, x := range r {
		rm[i] = 1 / float64(len(r))
		if pos > 0 {
			rm[i] = max(x, 0) / pos
		}
		sg[i] = g/float64(len(r)) + (1-g)*rm[i]
	}
	u := m.rng.Float64()
	for i, q := range sg {
		if u < q {
			return i
		}
		u -= q
	}
	return len(sg) - 1
}

// update adds one simulation's value v (player p's, less the node's baseline) for the
// sampled action i: the importance-weighted regret estimate of every action, and the
// regret-matching part of the strategy to the average (exploration is not a choice).
func (n *smNode) update(p, i int, v float64) {
	sg, rm := n.sigma[p], n.rm[p]
	n.visits[p]++
	w := float64(n.visits[p]) // linear averaging: later, better-informed strategies count more
	for a := range n.regret[p] {
		n.regret[p][a] -= v
		n.avg[p][a] += w * rm[a]
	}
	n.regret[p][i] += v / sg[i]
}

// newNode makes a node below the root: each acting player's candidates are the root's
// still reachable, and its current line-up.
func (m *MCTS) newNode(s env.State, keep float64) *smNode {
	n := &smNode{keep: keep, joints: map[[2]int]*jointStat{}}
	for p := env.Home; p <= env.Away; p++ {
		if !s.Acting(p) {
			continue
		}
		legal := s.Legal(p)
		acts := []int{s.Lineup(p).Index()}
		for _, a := range m.rootNode.acts[p] {
			if a != acts[0] && legal.Has(a) {
				acts = append(acts, a)
			}
		}
		n.init(int(p), acts, nil)
	}
	return n
}

// init sets player p's candidates and seeds its regrets with prior values q (nil: none):
// Prior iterations' worth of full-information regret against the uniform strategy.
func (n *smNode) init(p int, acts []int, q []float64) {
	n.acts[p] = acts
	k := len(acts)
	n.regret[p], n.avg[p], n.sigma[p], n.rm[p], n.q[p] = make([]float64, k), make([]float64, k), make([]float64, k), make([]float64, k), make([]float64, k)
	if q == nil {
		return
	}
	mean := sum(q[:len(acts)]) / float64(len(acts))
	for i := range acts {
		n.regret[p][i] = q[i] - mean
	}
}

// joint returns the node's statistics of a joint action from s, computing its exact kept
// value the first time.
func (m *MCTS) joint(node *smNode, s env.State, joint [2]int) (*jointStat, error) {
	if js, ok := node.joints[joint]; ok {
		return js, nil
	}
	s.Apply(joint)
	v, err := m.kept.Value(s)
	if err != nil {
		return nil, err
	}
	js := &jointStat{exact: v}
	node.joints[joint] = js
	return js, nil
}
