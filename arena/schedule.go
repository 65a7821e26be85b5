package arena

import (
	"fmt"
	"math/rand/v2"

	"github.com/kingoal/kingoal/env"
)

// Fixture is one scheduled match.
type Fixture struct {
	ID           int64
	Pairing, Leg int
	Cup, Round   int // knockout only: the cup (0..) and its round (1 = first … the final)
	Tie          int // knockout only: the tie's place in its round's bracket (0..)
	Home, Away   int // agent indices
	DiceSeed     uint64
	homeS, awayS uint64 // the agents' seeds
}

// A unit is what one worker plays in one go and what an interruption never splits: a
// fixture in a league or gauntlet, a whole cup in a knockout (its later rounds depend on the
// earlier results). Unit u owns the matches u·matchesPerUnit … (u+1)·matchesPerUnit − 1, so
// match IDs are fixed before anything is played.

// matchesPerUnit is 1, the n − 1 matches of a cup of n agents, or a World Cup's group and
// knockout matches.
func (c Config) matchesPerUnit() int {
	switch c.Format {
	case Knockout:
		return len(c.Agents) - 1
	case WorldCup:
		return c.groupMatches() + 2*c.groupCount() - 1
	}
	return 1
}

// units is the number of units: fixtures, or cups.
func (c Config) units() int {
	if c.cups() {
		return c.matches()
	}
	return len(c.pairings()) * c.matches()
}

// totalMatches is the number of matches c plays (Plan.TotalMatches, once it is planned).
func (c Config) totalMatches() int { return c.units() * c.matchesPerUnit() }

// shardSize is the matches a shard aims at: ShardSize, or with logs LoggedShardSize halved
// until a shard's throws are no more than those of LoggedShardSize default-length matches —
// the logs are what fills memory, and they grow with the match (a run with 450-throw halves
// and shards of 512 peaked at 486 MB).
func (c Config) shardSize() int {
	if !c.LogThrows && !c.LogDecisions {
		return ShardSize
	}
	n, budget := LoggedShardSize, LoggedShardSize*Config{}.expectedThrows()
	for n > 1 && n*c.expectedThrows() > budget {
		n /= 2
	}
	return n
}

// pairings lists the pairs of agents that meet, (i, j) with i < j in order; in a gauntlet
// only i = 0. A cup's ties are numbered by the same list (every pair may meet).
func (c Config) pairings() [][2]int {
	var out [][2]int
	for i := range c.Agents {
		if c.Format == Gauntlet && i > 0 {
			break
		}
		for j := i + 1; j < len(c.Agents); j++ {
			out = append(out, [2]int{i, j})
		}
	}
	return out
}

// pairingOf numbers the pair {a, b} as in the league's pairings.
func pairingOf(a, b, n int) int {
	i, j := min(a, b), max(a, b)
	return i*n - i*(i+1)/2 + (j - i - 1)
}

// withSeeds fills the agents' seeds, which come from (run seed, match, side) in every format.
func (c *Plan) withSeeds(f Fixture) Fixture {
	f.homeS = env.SeededSource(c.Seed^streamFixtureSides, uint64(f.ID)<<1).Uint64()
	f.awayS = env.SeededSource(c.Seed^streamFixtureSides, uint64(f.ID)<<1|1).Uint64()
	return f
}

// leagueFixture is match id of a league or gauntlet: pairing id / matches, then match k =
// id % matches of that pairing, with leg k/2; odd k swaps the sides, so a fixture and its
// mirror share a leg and so their dice.
func (c *Plan) leagueFixture(id int64) Fixture {
	m := int64(c.matches())
	p, k := int(id/m), int(id%m)
	f := Fixture{ID: id, Pairing: p, Leg: k / 2, Home: c.pairings[p][0], Away: c.pairings[p][1]}
	if k%2 == 1 {
		f.Home, f.Away = f.Away, f.Home
	}
	f.DiceSeed = env.SeededSource(c.Seed, uint64(p)<<32|uint64(f.Leg)).Uint64()
	return c.withSeeds(f)
}

// Schedule lists a league's or gauntlet's matches in ID order (Run computes them one at a
// time instead). A knockout's schedule depends on its results: see Bracket.
func (c *Plan) Schedule() []Fixture {
	if c.cups() {
		return nil
	}
	out := make([]Fixture, c.TotalMatches())
	for i := range out {
		out[i] = c.leagueFixture(int64(i))
	}
	return out
}

// RoundName names round r of a cup of the given number of rounds: "final", "semi-final",
// "quarter-final", then "round of 16", "round of 32", ….
func RoundName(r, rounds int) string {
	switch rounds - r {
	case 0:
		return "final"
	case 1:
		return "semi-final"
	case 2:
		return "quarter-final"
	}
	return fmt.Sprintf("round of %d", 1<<(rounds-r+1))
}

// bracketSeeds lists the seed numbers (1..size) in bracket order, so that seed k meets seed
// size+1−k in the first round and the top two seeds can meet only in the final: 1, 8, 4, 5,
// 2, 7, 3, 6 for size 8.
func bracketSeeds(size int) []int {
	out := []int{1}
	for len(out) < size {
		next := make([]int, 0, 2*len(out))
		for _, s := range out {
			next = append(next, s, 2*len(out)+1-s)
		}
		out = next
	}
	return out
}

// Bracket returns cup's first-round draw: agent indices in bracket order, −1 for a bye, with
// the agents seeded in the order given or, with DrawBracket, in an order drawn for each cup
// from (run seed, cup). Byes go to the top seeds, so two byes never meet.
func (c *Plan) Bracket(cup int) []int {
	n := len(c.Agents)
	seeded := make([]int, n)
	for i := range seeded {
		seeded[i] = i
	}
	if c.DrawBracket {
		rand.New(env.SeededSource(c.Seed^streamBracketDraw, uint64(cup))).Shuffle(n, func(i, j int) { seeded[i], seeded[j] = seeded[j], seeded[i] })
	}
	seeds := bracketSeeds(1 << Rounds(n))
	out := make([]int, len(seeds))
	for i, s := range seeds {
		out[i] = -1
		if s <= n {
			out[i] = seeded[s-1]
		}
	}
	return out
}

// cupFixture is tie t of round r of cup, numbered id: the upper slot of the bracket plays
// at home; the dice come from (run seed, cup, round, tie).
func (c *Plan) cupFixture(id int64, cup, r, t, home, away int) Fixture {
	f := Fixture{ID: id, Pairing: pairingOf(home, away, len(c.Agents)), Cup: cup, Round: r, Tie: t, Home: home, Away: away}
	f.DiceSeed = env.SeededSource(c.Seed, 1<<63|uint64(cup)<<24|uint64(r)<<16|uint64(t)).Uint64()
	return c.withSeeds(f)
}

// cups reports whether the competition is made of cups (knockout, World Cup): a unit is a
// whole cup, and Matches counts cups.
func (c Config) cups() bool { return c.Format == Knockout || c.Format == WorldCup }

func (c Config) matches() int {
	if c.Matches == 0 {
		return 20
	}
	return c.Matches
}

// expectedThrows is room for a match's chance events: every regulation throw (an
// extra-time match or a shoot-out grows the slice once).
func (c Config) expectedThrows() int {
	return 2*c.Rules.PeriodLength(env.FirstHalf) + 2
}

// TotalMatches is the number of matches the competition plays.
func (c *Plan) TotalMatches() int { return c.units * c.perUnit }
