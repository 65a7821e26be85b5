// The game's state space: each side's reachable line-ups and budgets, the configurations of a break.

package game

import (
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/internal/induction"
)

// gameSpace lays out the configurations: entry h = l*(moves+1)+m of a side (line-up l, m
// moves left), configuration h*entries + a (home h, away a).
type gameSpace struct {
	moves   int
	entries int
	// reach[h] lists the entries a side at h can play after a break, h itself first.
	reach [][]int32
	// cost[from*NumLineups+to] is the moves from line-up index from to index to.
	cost []uint8
}

func newGameSpace(moves int) *gameSpace {
	w := moves + 1
	s := &gameSpace{moves: moves, entries: env.NumLineups * w, reach: induction.ReachLists(moves), cost: make([]uint8, env.NumLineups*env.NumLineups)}
	for from := range env.NumLineups {
		for to := range env.NumLineups {
			s.cost[from*env.NumLineups+to] = uint8(env.LineupAt(from).Moves(env.LineupAt(to)))
		}
	}
	return s
}

func (s *gameSpace) configs() int { return s.entries * s.entries }

func canonicalBreak(mirror bool, lo, n, d, h, a int) bool {
	switch differenceKind(mirror, lo, n, d) {
	case solvedAll:
		return true
	case solvedTriangle:
		return h <= a
	}
	return false
}

func differenceKind(mirror bool, lo, n, d int) int {
	switch {
	case !mirror || -d < lo || -d >= lo+n || d > 0:
		return solvedAll
	case d == 0:
		return solvedTriangle
	}
	return solvedNone
}
