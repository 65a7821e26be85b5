// The game's state space: each side's reachable line-ups and budgets, the configurations of a break.

package solver

import "github.com/kingoal/kingoal/env"

// gameSpace lays out the configurations: entry h = l*(moves+1)+m of a side (line-up l, m
// moves left), configuration h*entries + a (home h, away a).
type gameSpace struct {
	moves   int
	entries int
	// reach[h] lists the entries a side at h can play after a break, h itself first.
	reach [][]int32
}

func newGameSpace(moves int) *gameSpace {
	w := moves + 1
	s := &gameSpace{moves: moves, entries: env.NumLineups * w, reach: reachLists(moves)}
	return s
}

// reachLists lists, for each entry l*(moves+1)+m, the entries (l', m − cost) a side at
// line-up l with m moves left can play after a break (cost = l.Moves(l') ≤ m), itself first.
func reachLists(moves int) [][]int32 {
	w := moves + 1
	out := make([][]int32, env.NumLineups*w)
	for l := range env.NumLineups {
		from := env.LineupAt(l)
		for m := 0; m <= moves; m++ {
			list := []int32{int32(l*w + m)}
			for to := range env.NumLineups {
				if c := from.Moves(env.LineupAt(to)); to != l && c <= m {
					list = append(list, int32(to*w+m-c))
				}
			}
			out[l*w+m] = list
		}
	}
	return out
}

func (s *gameSpace) configs() int { return s.entries * s.entries }
