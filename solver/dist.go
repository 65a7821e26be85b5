package solver

import "github.com/kingoal/kingoal/env"

// stateDist is a probability distribution over env states that keeps its states in the
// order they were first added. Walking it in that order makes every sum over it — and so
// every figure computed from it — the same to the last bit on every run (a Go map's own
// order is random).
type stateDist struct {
	index  map[env.State]int
	states []env.State
	p      []float64
}

func newStateDist(capacity int) *stateDist {
	return &stateDist{index: make(map[env.State]int, capacity)}
}

func (d *stateDist) add(s env.State, p float64) {
	if i, ok := d.index[s]; ok {
		d.p[i] += p
		return
	}
	d.index[s] = len(d.states)
	d.states = append(d.states, s)
	d.p = append(d.p, p)
}

func (d *stateDist) len() int { return len(d.states) }
