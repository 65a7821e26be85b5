// PSRO's population members: deterministic stationary policies, a byte a break state.

package agents

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
)

// purePolicy is one side's deterministic policy: its kick-off line-up and, by row (as
// breakMixes' rows: period, throws left, difference, home's entry), its choice at each away
// entry — the line-up's index + 1 (0: not recorded).
type purePolicy struct {
	kick  env.Lineup
	moves int
	mu    sync.Mutex // the rows, as the oracle's workers record them
	rows  map[fspKey][]uint8
}

func newPurePolicy(moves int) *purePolicy {
	return &purePolicy{moves: moves, rows: map[fspKey][]uint8{}}
}

// pureCache is a worker's way into a purePolicy: the row it met last.
type pureCache struct {
	key fspKey
	row []uint8
}

// at is p's row of s and s's away entry there; with add, the row is made when missing.
func (c *pureCache) at(p *purePolicy, s game.State, add bool) ([]uint8, int) {
	w := p.moves + 1
	k := fspKey{int(s.Period), s.ThrowsLeft, s.GoalDiff, s.Home.Index()*w + s.HomeMoves}
	if c.row == nil || k != c.key {
		p.mu.Lock()
		row := p.rows[k]
		if row == nil && add {
			row = make([]uint8, env.NumLineups*w)
			p.rows[k] = row
		}
		p.mu.Unlock()
		c.key, c.row = k, row
	}
	return c.row, s.Away.Index()*w + s.AwayMoves
}

// set records l as p's choice at s.
func (c *pureCache) set(p *purePolicy, s game.State, l env.Lineup) {
	row, a := c.at(p, s, true)
	row[a] = uint8(l.Index() + 1)
}

// choice is p's line-up index at s: an error where it recorded none (a break its oracle's
// pass did not reach: never under the same rules).
func (c *pureCache) choice(p *purePolicy, s game.State) (int, error) {
	row, a := c.at(p, s, false)
	if row == nil || row[a] == 0 {
		return 0, fmt.Errorf("agents: PSRO: a member has no choice at %v", s)
	}
	return int(row[a]) - 1, nil
}

// equal reports whether p and o choose the same everywhere.
func (p *purePolicy) equal(o *purePolicy) bool {
	if p.kick != o.kick || len(p.rows) != len(o.rows) {
		return false
	}
	for k, row := range p.rows {
		if !bytes.Equal(row, o.rows[k]) {
			return false
		}
	}
	return true
}
