package env

import (
	"math/bits"
	"math/rand/v2"
)

// Sampler draws the outcome of a chance node of s. Implementations own their random
// stream; they are not safe for concurrent use.
type Sampler interface {
	Sample(s State) Outcome
}

// FastSampler draws each chance outcome with one uniform number from the exact odds
// (the same table ThrowOdds reads). It is the simulator's default.
type FastSampler struct {
	src rand.Source
	pcg *rand.PCG // src when it is a PCG: a direct call in the hot loop
	// runThrows's per-sector thresholds, kept for the line-ups and tie rule they were made
	// for: the next run between the same line-ups (the next half, a playout) reuses them.
	// The zero line-ups are never legal, so a new sampler always computes them.
	home, away [Sectors + 1]uint64
	lineups    [2]Lineup
	ties       bool
}

// NewFastSampler returns a FastSampler reading src.
func NewFastSampler(src rand.Source) *FastSampler {
	pcg, _ := src.(*rand.PCG)
	return &FastSampler{src: src, pcg: pcg}
}

func (f *FastSampler) next() uint64 {
	if f.pcg != nil {
		return f.pcg.Uint64()
	}
	return f.src.Uint64()
}

// Sample draws the current chance node's outcome. It panics at a non-chance node.
func (f *FastSampler) Sample(s State) Outcome { return f.sample(&s) }

// sample is Sample without copying the state (Play's observed path draws every throw so).
func (f *FastSampler) sample(s *State) Outcome {
	u := f.next()
	switch s.phase {
	case phaseThrow:
		hd, ad := diceFor(&s.lineups[Home], &s.lineups[Away], int(s.ball))
		if s.rules.tiesCount {
			t := &fastTies[hd][ad]
			switch {
			case u < t[0]:
				return HomeWins
			case u < t[1]:
				return AwayWins
			}
			return Tie
		}
		if u < fastNoTies[hd][ad][0] {
			return HomeWins
		}
		return AwayWins
	case phaseCoin:
		if u>>63 == 0 {
			return HomeKicksFirst
		}
		return AwayKicksFirst
	case phaseKick:
		if u < penaltyGoal {
			return KickScored
		}
		return KickSaved
	}
	panic("env: Sample at a " + s.Node().String() + " node")
}

// runThrows plays throws while the node is a throw. Between decisions the line-ups are
// fixed, so a per-sector threshold table serves the whole run; each throw is applied by
// plainThrow, or by applyThrow when it scores, ends the period or earns a shift (the rule
// lives there, not here). The winner comes from the borrow of u − threshold, not from a
// branch: which side wins is a coin flip no predictor guesses, and a mispredicted branch a
// throw cost more than the rest of the throw (BENCHMARKS.md, issue 15).
// The outcomes, and the random numbers used, are exactly those of Sample.
func (f *FastSampler) runThrows(s *State) {
	if f.lineups != s.lineups || f.ties != s.rules.tiesCount {
		for b := 1; b <= Sectors; b++ {
			hd, ad := DiceFor(s.lineups[Home], s.lineups[Away], b)
			f.home[b], f.away[b] = fastNoTies[hd][ad][0], ^uint64(0)
			if s.rules.tiesCount {
				f.home[b], f.away[b] = fastTies[hd][ad][0], fastTies[hd][ad][1]
			}
		}
		f.lineups, f.ties = s.lineups, s.rules.tiesCount
	}
	home, away := &f.home, &f.away
	for s.phase == phaseThrow {
		if f.pcg != nil {
			if o := s.plainRun(f.pcg, home, away); o == Tie {
				s.applyThrow(o)
			} else {
				s.eventfulThrow(Player(o)) // HomeWins, AwayWins are Home, Away
			}
			continue
		}
		u := f.src.Uint64() // any other source: the same law, a throw at a time
		b := s.ball
		_, homeWon := bits.Sub64(u, home[b], 0)
		winner := Player(homeWon ^ 1)
		switch {
		case u >= away[b]: // only when ties count
			s.applyThrow(Tie)
		case !s.plainThrow(winner):
			s.applyThrow(Outcome(winner)) // HomeWins, AwayWins
		}
	}
}

// Roll is what the dice showed at the last chance node a DiceSampler resolved.
type Roll struct {
	// Home and Away hold the dice of the deciding physical throw; only the first
	// HomeCount and AwayCount values are meaningful. For a penalty, the kicker's die is
	// in the kicker's slot and the goalkeeper's die in the other side's; for the coin,
	// Home[0] is 1 (heads: home first) or 2.
	Home, Away           [MaxDice]uint8
	HomeCount, AwayCount uint8
	// Rethrows counts the tied physical throws thrown again before the deciding one
	// (always 0 when ties count).
	Rethrows int
}

// HomeHigh returns home's score (its highest die).
func (r Roll) HomeHigh() int { return int(highest(r.Home[:r.HomeCount])) }

// AwayHigh returns away's score (its highest die).
func (r Roll) AwayHigh() int { return int(highest(r.Away[:r.AwayCount])) }

func highest(d []uint8) uint8 {
	var m uint8
	for _, v := range d {
		m = max(m, v)
	}
	return m
}

// DiceSampler rolls every die, as players do at the table, so logs can show the values.
// Its outcomes have the same law as FastSampler's (a test checks it).
type DiceSampler struct {
	rng  *rand.Rand
	last Roll
}

// NewDiceSampler returns a DiceSampler reading src.
func NewDiceSampler(src rand.Source) *DiceSampler { return &DiceSampler{rng: rand.New(src)} }

// LastRoll returns the dice of the last chance node sampled.
func (d *DiceSampler) LastRoll() Roll { return d.last }

func (d *DiceSampler) die() uint8 { return uint8(d.rng.IntN(DieFaces) + 1) }

// Sample rolls the dice for the current chance node. It panics at a non-chance node.
func (d *DiceSampler) Sample(s State) Outcome {
	d.last = Roll{}
	r := &d.last
	switch s.phase {
	case phaseThrow:
		hd, ad := s.Dice()
		r.HomeCount, r.AwayCount = uint8(hd), uint8(ad)
		for {
			for i := range hd {
				r.Home[i] = d.die()
			}
			for i := range ad {
				r.Away[i] = d.die()
			}
			h, a := r.HomeHigh(), r.AwayHigh()
			switch {
			case h > a:
				return HomeWins
			case a > h:
				return AwayWins
			case s.rules.tiesCount:
				return Tie
			}
			r.Rethrows++
		}
	case phaseCoin:
		r.HomeCount, r.Home[0] = 1, uint8(d.rng.IntN(2)+1)
		if r.Home[0] == 1 {
			return HomeKicksFirst
		}
		return AwayKicksFirst
	case phaseKick:
		taker, keeper := d.die(), d.die()
		r.HomeCount, r.AwayCount = 1, 1
		if s.NextKicker() == Home {
			r.Home[0], r.Away[0] = taker, keeper
		} else {
			r.Home[0], r.Away[0] = keeper, taker
		}
		if taker > keeper {
			return KickScored
		}
		return KickSaved
	}
	panic("env: Sample at a " + s.Node().String() + " node")
}

// SeededSource returns the random source for seed and stream: PCG with the two words
// mixed, so (seed, stream) pairs give independent-looking streams. Every random stream of
// the toolkit comes from here or from a caller's own Source.
// (Small enough to inline: then the PCG stays on the caller's stack.)
func SeededSource(seed, stream uint64) *rand.PCG {
	return rand.NewPCG(mix64(seed), mix64(stream^0x9e3779b97f4a7c15))
}

// SeededRand is a rand.Rand over SeededSource that reseeds without allocating: agents are
// reseeded every match, and the two allocations were ~7% of a random agent's arena match
// (BENCHMARKS, "The arena's rate"). A copy shares the source, as a *rand.Rand would, and
// unlike one, resetting either copy reseeds both. The zero value must be Reset before use.
type SeededRand struct {
	*rand.Rand
	pcg *rand.PCG
}

// Reset makes r read SeededSource(seed, stream) from its start.
func (r *SeededRand) Reset(seed, stream uint64) {
	if r.pcg == nil {
		r.pcg = &rand.PCG{}
		r.Rand = rand.New(r.pcg) // a rand.Rand keeps no state of its own: reusing it is reseeding it
	}
	*r.pcg = *SeededSource(seed, stream)
}

// mix64 is SplitMix64's finaliser: consecutive inputs give unrelated outputs.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
