package arena

import (
	"fmt"
	"math/rand/v2"

	"github.com/kingoal/kingoal/env"
)

// A World Cup is Config.Matches tournaments of all the agents. Each draws its groups afresh
// from (run seed, cup): GroupSize agents a group (as even as the numbers allow), a round
// robin in each under league rules, ranked by the rules §7 table. The top two of every group
// go into a knockout bracket under knockout rules (extra time, then penalties), in the usual
// pairing: groups go in pairs (A with B, C with D, …), each winner meets the other group's
// runner-up, and the two ties of a pair of groups lie in opposite halves, so two teams of
// one group can meet again only in the final. The bracket needs 1, 2, 4, 8, … groups.
//
// A cup's matches are numbered group by group (round 0; Leg holds the group, 0 = A), then
// round by round of the bracket (round 1 … the final), so IDs are fixed before anything is
// played.

// DefaultGroupSize is a World Cup group's size when Config.GroupSize is zero.
const DefaultGroupSize = 4

func (c Config) groupSize() int {
	if c.GroupSize == 0 {
		return DefaultGroupSize
	}
	return c.GroupSize
}

// groupCount is the number of groups: the agents divided by the group size, rounded up.
func (c Config) groupCount() int { return len(GroupSizes(len(c.Agents), c.groupSize())) }

// groupSizes spreads the agents over the groups (GroupSizes).
func (c Config) groupSizes() []int { return GroupSizes(len(c.Agents), c.groupSize()) }

// GroupSizes spreads n agents over ⌈n / size⌉ groups as evenly as possible, larger groups
// first: 6 agents in groups of at most 4 play in two groups of 3.
func GroupSizes(n, size int) []int {
	g := (n + size - 1) / size
	sizes := make([]int, g)
	for i := range sizes {
		sizes[i] = n / g
		if i < n%g {
			sizes[i]++
		}
	}
	return sizes
}

// groupMatches is the number of group-stage matches of one cup.
func (c Config) groupMatches() int {
	n := 0
	for _, s := range c.groupSizes() {
		n += s * (s - 1) / 2
	}
	return n
}

// FinalRound is the round of a cup's final: Rounds of the agents in a knockout, of the
// qualifiers (two a group) in a World Cup; 0 in a league or gauntlet.
func (c Config) FinalRound() int {
	switch c.Format {
	case Knockout:
		return Rounds(len(c.Agents))
	case WorldCup:
		return Rounds(2 * c.groupCount())
	}
	return 0
}

func (c Config) validateGroups() error {
	g, n := c.groupSize(), len(c.Agents)
	if c.GroupSize < 0 || g < 2 {
		return fmt.Errorf("arena: group size %d: want at least 2 agents a group", c.GroupSize)
	}
	sizes := c.groupSizes()
	if groups := len(sizes); groups&(groups-1) != 0 {
		return fmt.Errorf("arena: %d agents in groups of %d make %d groups; a World Cup's bracket needs 1, 2, 4, 8, … groups (%s)", n, g, groups, groupSizeHint(n))
	}
	if !groupsWork(sizes) {
		return fmt.Errorf("arena: %d agents in groups of %d leave a group of %d; want at least 2 a group (%s)", n, g, sizes[len(sizes)-1], groupSizeHint(n))
	}
	return nil
}

// groupsWork reports whether groups of these sizes make a World Cup: 1, 2, 4, … groups (a
// bracket without byes) of at least two agents (the smallest is last).
func groupsWork(sizes []int) bool {
	groups := len(sizes)
	return groups&(groups-1) == 0 && sizes[groups-1] >= 2
}

// groupSizeHint lists the group sizes that work for n agents.
func groupSizeHint(n int) string {
	var ok []int
	for g := 2; g <= n; g++ {
		if groupsWork(GroupSizes(n, g)) {
			ok = append(ok, g)
		}
	}
	return fmt.Sprintf("group sizes that work for %d agents: %v", n, ok)
}

// Groups returns the groups of World Cup cup: agent indices, drawn from (run seed, cup).
func (c *Plan) Groups(cup int) [][]int {
	order := make([]int, len(c.Agents))
	for i := range order {
		order[i] = i
	}
	rand.New(env.SeededSource(c.Seed^streamWorldCupDraw, uint64(cup))).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	var out [][]int
	for _, s := range c.groupSizes() {
		out, order = append(out, order[:s:s]), order[s:]
	}
	return out
}

// KnockoutDraw places each group's winner and runner-up (qualified[g] = {winner,
// runner-up}) in the bracket: the upper half holds A1–B2, C1–D2, …, the lower half B1–A2,
// D1–C2, …; with one group its two meet in the final.
func KnockoutDraw(qualified [][2]int) []int {
	if len(qualified) == 1 {
		return []int{qualified[0][0], qualified[0][1]}
	}
	var upper, lower []int
	for g := 0; g+1 < len(qualified); g += 2 {
		upper = append(upper, qualified[g][0], qualified[g+1][1])
		lower = append(lower, qualified[g+1][0], qualified[g][1])
	}
	return append(upper, lower...)
}
