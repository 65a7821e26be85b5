// PSRO's checkpoint: its populations, meta-game and meta-strategies after an iteration, in
// the full-width learners' framing (kingoal train psro --resume).

package agents

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/kingoal/kingoal/env"
)

// psroLearner names PSRO's checkpoints. Its body (little-endian): the populations' sizes
// (int64 each, home's then away's, the uniform member counted), the meta-game by rows
// (float64), both meta-strategies (float64), then every member but the uniform ones, home's
// then away's: its kick-off line-up (int32), its number of rows (int64), the rows in key order
// — period, throws left, difference, home's entry (int32 each), a choice a byte for every
// away entry (purePolicy's).
const psroLearner = "psro"

// WriteCheckpoint writes p's state, with the curve so far, to w.
func (p *PSRO) WriteCheckpoint(w io.Writer, curve []FictitiousPoint) error {
	head := FictitiousCheckpoint{Learner: psroLearner, Rules: p.rules, Iterations: p.iter, Seconds: p.training.Seconds(), Passes: p.passes, Curve: curve}
	return writeCheckpoint(w, head, func(put func(any)) {
		put([2]int64{int64(len(p.pop[env.Home])), int64(len(p.pop[env.Away]))})
		for _, row := range p.payoff {
			put(row)
		}
		put(p.meta[env.Home])
		put(p.meta[env.Away])
		for _, side := range p.pop {
			for _, m := range side[1:] {
				put(int32(m.kick.Index()))
				put(int64(len(m.rows)))
				for _, k := range sortedKeys(m.rows) {
					put([4]int32{int32(k.per), int32(k.t), int32(k.d), int32(k.h)})
					put(m.rows[k])
				}
			}
		}
	})
}

// ResumePSRO reads a checkpoint written by PSRO's WriteCheckpoint under the rules r (as
// ResumeFictitious) and returns PSRO as it stood, with the checkpoint's header.
func ResumePSRO(rd io.Reader, r env.Rules) (*PSRO, FictitiousCheckpoint, error) {
	p := &PSRO{rules: r}
	c, err := readCheckpoint(rd, r, psroLearner, p.readBody)
	if err != nil {
		return nil, c, err
	}
	p.iter, p.passes, p.training = c.Iterations, c.Passes, time.Duration(c.Seconds*float64(time.Second))
	return p, c, nil
}

// readBody reads WriteCheckpoint's body into the empty p.
func (p *PSRO) readBody(_ FictitiousCheckpoint, get func(any) error) error {
	var sizes [2]int64
	if err := get(&sizes); err != nil {
		return errors.New("truncated")
	}
	if sizes[0] < 1 || sizes[1] < 1 || sizes[0] > 1<<16 || sizes[1] > 1<<16 {
		return fmt.Errorf("damaged population sizes %v", sizes)
	}
	p.payoff = make([][]float64, sizes[0])
	for i := range p.payoff {
		p.payoff[i] = make([]float64, sizes[1])
		if err := get(p.payoff[i]); err != nil {
			return errors.New("truncated")
		}
	}
	for s := range p.meta {
		p.meta[s] = make([]float64, sizes[s])
		if err := get(p.meta[s]); err != nil {
			return errors.New("truncated")
		}
		p.pop[s] = []*purePolicy{nil}
	}
	for s := range p.pop {
		for range sizes[s] - 1 {
			m, err := p.readMember(env.Player(s), get)
			if err != nil {
				return err
			}
			p.pop[s] = append(p.pop[s], m)
		}
	}
	return nil
}

// readMember reads one of side's members, each choice checked legal where it stands.
func (p *PSRO) readMember(side env.Player, get func(any) error) (*purePolicy, error) {
	m := newPurePolicy(p.rules.MoveBudget())
	w := m.moves + 1
	var kick int32
	var n int64
	if get(&kick) != nil || get(&n) != nil {
		return nil, errors.New("truncated")
	}
	if kick < 0 || kick >= env.NumLineups || n < 0 || n > 1<<40 {
		return nil, errors.New("a damaged member")
	}
	m.kick = env.LineupAt(int(kick))
	for range n {
		var k [4]int32
		if err := get(&k); err != nil {
			return nil, errors.New("truncated")
		}
		key := fspKey{int(k[0]), int(k[1]), int(k[2]), int(k[3])}
		if key.h < 0 || key.h >= env.NumLineups*w || m.rows[key] != nil {
			return nil, fmt.Errorf("a row that is not one of these rules' (%v)", k)
		}
		row := make([]uint8, env.NumLineups*w)
		if err := get(row); err != nil {
			return nil, errors.New("truncated")
		}
		for a, c := range row {
			own := key.h // the entry whose line-up and moves the choice is made from
			if side == env.Away {
				own = a
			}
			if c != 0 && (int(c) > env.NumLineups || !env.LineupAt(own/w).Reachable(own%w).Has(int(c)-1)) {
				return nil, fmt.Errorf("a choice that is not legal where it stands (%v, entry %d)", k, a)
			}
		}
		m.rows[key] = row
	}
	return m, nil
}
