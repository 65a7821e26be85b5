// The root of MCTS's search: priors and exact leaf values from the solver, its expansion, the strategy it plays.

package agents

import (
	"context"
	"slices"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/lineup"
)

// RootStrategy returns player p's average strategy at the root of the last search, most
// likely first (nil if p did not act there).
func (m *MCTS) RootStrategy(p env.Player) []env.Weighted {
	node := m.rootNode
	if node == nil || node.avg[p] == nil {
		return nil
	}
	total := sum(node.avg[p])
	var mix []env.Weighted
	for i, w := range node.avg[p] {
		if w > 0 {
			mix = append(mix, env.Weighted{Lineup: env.LineupAt(node.acts[p][i]), Prob: w / total})
		}
	}
	slices.SortStableFunc(mix, func(a, b env.Weighted) int {
		switch {
		case a.Prob > b.Prob:
			return -1
		case a.Prob < b.Prob:
			return 1
		}
		return 0
	})
	return mix
}

// updateRoot updates the root's regrets with full information: every candidate of a player
// is valued against the opponent's sampled choice by its joint action's mean estimate
// (exact kept value plus the mean found beyond it), not only the sampled one — the root is
// the one node visited every time, so its joint table fills quickly and this removes the
// importance weights' variance where the move is chosen.
func (m *MCTS) updateRoot(root env.State, st smStep) error {
	node := st.node
	for p := range 2 {
		if st.choice[p] < 0 {
			continue
		}
		joint := [2]int{root.Lineup(env.Home).Index(), root.Lineup(env.Away).Index()}
		if o := 1 - p; st.choice[o] >= 0 {
			joint[o] = node.acts[o][st.choice[o]]
		}
		q := node.q[p]
		mean := 0.0
		for i, a := range node.acts[p] {
			joint[p] = a
			js, err := m.joint(node, root, joint)
			if err != nil {
				return err
			}
			q[i] = float64(1-2*p) * js.mean()
			mean += node.sigma[p][i] * q[i]
		}
		node.visits[p]++
		w := float64(node.visits[p])
		for i := range q {
			node.regret[p][i] = max(node.regret[p][i]+q[i]-mean, 0) // regret matching+: no debt to repay
			node.avg[p][i] += w * node.rm[p][i]
		}
	}
	return nil
}

// expandRoot makes the root node: each acting player's Width best line-ups by their exact
// prior value, the current line-up always among them.
func (m *MCTS) expandRoot(root env.State) error {
	n := &smNode{joints: map[[2]int]*jointStat{}}
	if root.Decision() != env.KickOff { // before kick-off nothing is kept: the baseline is 0
		v, err := m.kept.Value(root)
		if err != nil {
			return err
		}
		n.keep = v
	}
	for p := env.Home; p <= env.Away; p++ {
		if !root.Acting(p) {
			continue
		}
		acts, q, err := m.priors(root, p)
		if err != nil {
			return err
		}
		order := make([]int, len(acts))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { // best first; ties by line-up index
			switch {
			case q[a] > q[b]:
				return -1
			case q[a] < q[b]:
				return 1
			}
			return 0
		})
		var cand []int
		var cq []float64
		if cur := root.Lineup(p); cur.Valid() { // keeping is always a candidate
			i := slices.Index(acts, cur.Index())
			cand, cq = append(cand, acts[i]), append(cq, q[i])
		}
		for _, i := range order {
			if len(cand) >= m.Config.Width {
				break
			}
			if !slices.Contains(cand, acts[i]) {
				cand, cq = append(cand, acts[i]), append(cq, q[i])
			}
		}
		if m.Config.Prior < 0 {
			cq = nil
		}
		for i := range cq {
			cq[i] *= m.Config.Prior
		}
		n.init(int(p), cand, cq)
	}
	m.nodes[root], m.rootNode = n, n
	return nil
}

// priors returns player p's legal line-ups at root and the exact value of each (p's win −
// loss): at kick-off against the opponent's equilibrium mix of the odds matrix, later
// against the opponent keeping its line-up, line-ups kept to the end.
func (m *MCTS) priors(root env.State, p env.Player) ([]int, []float64, error) {
	acts := root.Legal(p).Actions()
	q := make([]float64, len(acts))
	sign := float64(1 - 2*int(p))
	if root.Decision() == env.KickOff {
		payoff := lineup.PayoffWinLoss
		if m.Rules.Knockout {
			payoff = lineup.PayoffAdvance
		}
		ctx := m.ctx
		if ctx == nil {
			ctx = context.Background()
		}
		g, err := LineupGameFor(ctx, m.Rules, payoff)
		if err != nil {
			return nil, nil, err
		}
		opp := g.Equilibrium.Away
		if p == env.Away {
			opp = g.Equilibrium.Home
		}
		all, err := lineup.MixPayoffs(g.Odds, payoff, p, opp)
		if err != nil {
			return nil, nil, err
		}
		for i, a := range acts {
			q[i] = all[a]
		}
		return acts, q, nil
	}
	for i, a := range acts {
		s := root
		joint := [2]int{s.Lineup(env.Home).Index(), s.Lineup(env.Away).Index()}
		joint[p] = a
		s.Apply(joint)
		v, err := m.kept.Value(s)
		if err != nil {
			return nil, nil, err
		}
		q[i] = sign * v
	}
	return acts, q, nil
}
