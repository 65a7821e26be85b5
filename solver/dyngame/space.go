// The state space of the game with a Dynamic side: each side's entries, what a side can
// play at a break or after a shift, possession.

package dyngame

import (
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/internal/induction"
)

// dynSpace lays out the configurations: a Basic side's entry is l*(moves+1)+m (line-up l, m
// moves left), a Dynamic side's is its line-up; configuration h*entries[Away] + a.
type dynSpace struct {
	modes   [2]env.Mode
	width   [2]int // entries a line-up: moves+1 (Basic) or 1 (Dynamic)
	entries [2]int
	configs int
	moves   int // a Basic side's budget held, capped at 5
	// options[p][e] lists what side p at entry e may play at its decision, e first: the
	// reachable entries at a break (Basic) or the line-ups one shift away (Dynamic).
	options [2][][]int32
	// poss is the possession slots: 1 (not tracked: every won throw earns a shift) or 3
	// (turnover: none, home, away).
	poss int
}

func newDynSpace(r env.Rules) *dynSpace {
	sp := &dynSpace{modes: r.Modes, moves: min(r.MoveBudget(), 5), poss: 1}
	if r.DynamicTrigger == env.TriggerTurnover {
		sp.poss = 3
	}
	for p := range 2 {
		if sp.modes[p] == env.Dynamic {
			sp.width[p] = 1
			sp.options[p] = shiftLists()
		} else {
			sp.width[p] = sp.moves + 1
			sp.options[p] = induction.ReachLists(sp.moves)
		}
		sp.entries[p] = env.NumLineups * sp.width[p]
	}
	sp.configs = sp.entries[0] * sp.entries[1]
	return sp
}

// shiftLists lists, for each line-up, itself and the line-ups one Dynamic shift away.
func shiftLists() [][]int32 {
	out := make([][]int32, env.NumLineups)
	for l := range out {
		list := []int32{int32(l)}
		for _, to := range env.LineupAt(l).Shifts().Actions() {
			if to != l {
				list = append(list, int32(to))
			}
		}
		out[l] = list
	}
	return out
}

// dynamicSides counts the Dynamic sides (1 or 2).
func (sp *dynSpace) dynamicSides() int {
	n := 0
	for _, m := range sp.modes {
		if m == env.Dynamic {
			n++
		}
	}
	return n
}

// basicSide is the Basic side, if there is one.
func (sp *dynSpace) basicSide() (env.Player, bool) {
	for p := env.Home; p <= env.Away; p++ {
		if sp.modes[p] == env.Basic {
			return p, true
		}
	}
	return 0, false
}

// decisionsPerConfig is the decision bytes a layer keeps per configuration and difference:
// each Dynamic side's shift after a throw (ball anywhere) and after a goal, the Basic side's
// break.
func (sp *dynSpace) decisionsPerConfig() int64 {
	n := int64(sp.dynamicSides()) * (env.Sectors + 1)
	if _, ok := sp.basicSide(); ok {
		n++
	}
	return n
}

// entry is side p's entry for line-up l with m moves left.
func (sp *dynSpace) entry(p env.Player, l env.Lineup, m int) int {
	if sp.modes[p] == env.Dynamic {
		return l.Index()
	}
	return l.Index()*sp.width[p] + min(max(m, 0), sp.moves)
}

// lineupOf is the line-up of side p's entry e.
func (sp *dynSpace) lineupOf(p env.Player, e int) env.Lineup { return env.LineupAt(e / sp.width[p]) }

// config is the configuration of home entry h and away entry a.
func (sp *dynSpace) config(h, a int) int { return h*sp.entries[env.Away] + a }

// option is the configuration after side p at configuration c plays its option i.
func (sp *dynSpace) option(p env.Player, c, i int) int {
	ea := sp.entries[env.Away]
	h, a := c/ea, c%ea
	if p == env.Home {
		return int(sp.options[p][h][i])*ea + a
	}
	return h*ea + int(sp.options[p][a][i])
}

// optionCount is how many options side p has at configuration c.
func (sp *dynSpace) optionCount(p env.Player, c int) int {
	ea := sp.entries[env.Away]
	if p == env.Home {
		return len(sp.options[p][c/ea])
	}
	return len(sp.options[p][c%ea])
}

// possessionOf is the env possession of a slot (possessed false: none, or not tracked).
func (sp *dynSpace) possessionOf(slot int) (env.Player, bool) {
	if slot == 0 {
		return env.Home, false
	}
	return env.Player(slot - 1), true
}

// possSlot is the possession slot of an env possession (who won the last decided throw).
func (sp *dynSpace) possSlot(w env.Player, ok bool) int {
	if sp.poss == 1 || !ok {
		return 0
	}
	return 1 + int(w)
}

// HasDynamic reports whether either side of r plays Dynamic: the game Solve
// solves, not SolveGame.
func HasDynamic(r env.Rules) bool {
	return r.Modes[env.Home] == env.Dynamic || r.Modes[env.Away] == env.Dynamic
}
