package odds

import "github.com/kingoal/kingoal/env"

// StateDist is a probability distribution over env states that keeps its states in the
// order they were first added. Walking it in that order makes every sum over it — and so
// every figure computed from it — the same to the last bit on every run (a Go map's own
// order is random).
type StateDist struct {
	index  map[env.State]int
	States []env.State
	P      []float64
}

func NewStateDist(capacity int) *StateDist {
	return &StateDist{index: make(map[env.State]int, capacity)}
}

func (d *StateDist) Add(s env.State, p float64) {
	if i, ok := d.index[s]; ok {
		d.P[i] += p
		return
	}
	d.index[s] = len(d.States)
	d.States = append(d.States, s)
	d.P = append(d.P, p)
}

func (d *StateDist) Len() int { return len(d.States) }
