package env

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
)

// GoalSampler plays Basic-mode matches goal by goal instead of throw by throw — the idea of
// Gillespie's algorithm: between a kick-off and the next break nothing happens but throws
// with fixed line-ups, a Markov chain on (ball sector, possession) whose law of "who scores
// first, after how many throws, or nobody before the period ends (and where the ball and
// possession are then)" is computed once per pair of line-ups (goalLaw) and drawn with one
// uniform number. A 90-throw match with ~5 goals takes ~7 draws instead of 90.
//
// The law of every state it returns at a decision node or the end is exactly that of
// FastSampler (TestGoalSamplerIsExact compares both with exact enumeration); the random
// numbers differ, so the same seed plays other matches. It jumps only from a kick-off (ball
// in midfield, nobody in possession) with Basic players on both sides and periods of at
// most MaxGoalLawThrows throws; anywhere else it throws one throw at a time, exactly as
// FastSampler. The process keeps the laws of the last maxGoalLaws pairs of line-ups its
// samplers met (~6 KB each at 45-throw halves), shared by them all. Not safe for
// concurrent use (one sampler a goroutine).
type GoalSampler struct {
	fast FastSampler
	// the last law used, and for what: a match asks for the same one at every kick-off
	last               *goalLaw
	lastHome, lastAway Lineup
	lastTies           bool
}

// MaxGoalLawThrows bounds the period length GoalSampler jumps through (its tables grow with it).
const MaxGoalLawThrows = 256

// maxGoalLaws bounds the laws the process keeps (sharedLaws): beyond it the cache starts afresh.
const maxGoalLaws = 4096

// NewGoalSampler returns a GoalSampler reading src.
func NewGoalSampler(src rand.Source) *GoalSampler {
	return &GoalSampler{fast: *NewFastSampler(src)}
}

// Reseed makes g read SeededSource(seed, stream) from now on, keeping its laws: a
// simulator reseeds one sampler per match rather than building one (and its laws) each time.
func (g *GoalSampler) Reseed(seed, stream uint64) {
	if g.fast.pcg == nil {
		g.fast.pcg = &rand.PCG{}
	}
	*g.fast.pcg = *SeededSource(seed, stream)
	g.fast.src = g.fast.pcg
}

// Sample draws one chance node's outcome, as FastSampler.Sample (callers that step node by
// node get no jumps).
func (g *GoalSampler) Sample(s State) Outcome { return g.fast.Sample(s) }

// runThrows plays throws while the node is a throw, jumping from kick-off to the next goal
// or the end of the period where it can.
func (g *GoalSampler) runThrows(s *State) {
	if s.rules.modes != [2]Mode{Basic, Basic} || max(s.rules.halfThrows, s.rules.extraThrows) > MaxGoalLawThrows {
		g.fast.runThrows(s)
		return
	}
	for s.phase == phaseThrow {
		g.step(s)
	}
}

// step plays s, at a throw, through the next jump — returning the throws it stood for and
// the last one's outcome (Tie for a jump to the end of the period without a goal) — or,
// where it cannot jump, one throw (jumped 0): the unit an observed goal-by-goal match is
// shown in.
func (g *GoalSampler) step(s *State) (jumped int, o Outcome) {
	if s.rules.modes != [2]Mode{Basic, Basic} || max(s.rules.halfThrows, s.rules.extraThrows) > MaxGoalLawThrows ||
		s.ball != midfield || s.possession != noPossession { // only until the next goal or period: then it is a kick-off again
		o = g.fast.Sample(*s)
		s.ApplyChance(o)
		return 0, o
	}
	return g.jump(s, g.law(s))
}

// jump plays s from a kick-off to its next goal or the end of its period with one draw.
func (g *GoalSampler) jump(s *State, law *goalLaw) (throws int, o Outcome) {
	t := int(s.throwsLeft)
	u := g.fast.next()
	if u >= law.cum[t-1] { // nobody scores in the t throws left: draw where the ball and possession end
		i := endState(u, &law.end[t-1])
		s.ball, s.possession = uint8(i/3+1), int8(i%3)-1
		s.throwsLeft = 0
		s.endPeriod()
		return t, Tie
	}
	lo := law.firstGoal(u)
	// The k throws before the goal leave the ball where the scorer shoots from; the goal
	// itself is applied by the rules' own code.
	winner, o := Home, HomeWins
	if u >= law.home[lo] {
		winner, o = Away, AwayWins
	}
	s.throwsLeft -= uint16(lo)
	s.ball = uint8(shootingSector(winner))
	s.applyThrow(o)
	return lo + 1, o
}

// firstGoal is the first throw k (0-based) with u < cum[k], for a u below the period's
// last threshold (so the walk stops by then). The guide gives the first k whose threshold
// passes the start of u's bucket; the walk from it is a step or two, not a binary search's
// six unpredictable branches.
func (l *goalLaw) firstGoal(u uint64) int {
	k := int(l.guide[u>>(64-goalGuideBits)])
	for u >= l.cum[k] {
		k++
	}
	return k
}

// endState is the first state i with u < end[i]: the number of thresholds at or below u,
// as they ascend and the last is the maximum, counted without a branch a state.
func endState(u uint64, end *[goalStates]uint64) int {
	i := 0
	for _, e := range end[:goalStates-1] {
		i += int(b2u(u >= e))
	}
	return i
}

// shootingSector is the sector (home coordinates) from which a throw won by p scores.
func shootingSector(p Player) int {
	if p == Home {
		return Sectors
	}
	return 1
}

// goalStates are the chain's states: ball sector 1–5 × possession (none, home, away).
const goalStates = Sectors * 3

// goalLawKey packs the line-up indices (home << 8 | away << 1) and ties-count (bit 0).
type goalLawKey uint32

// goalLaw is the law of the first goal from a kick-off for one pair of line-ups, as 64-bit
// thresholds for a uniform u (P(u < t) = t / 2^64): a goal by throw k+1 if u < cum[k], by
// home at throw k+1 if cum[k−1] ≤ u < home[k], by away if home[k] ≤ u < cum[k]. If no goal
// in t throws (u ≥ cum[t−1]), the chain's state after them is the first i with u < end[t−1][i]
// (state i: sector i/3+1, possession i%3−1), the last taking what rounding leaves.
type goalLaw struct {
	cum, home []uint64
	end       [][goalStates]uint64
	// guide[j] is the first k with cum[k] > j<<(64−goalGuideBits) (len(cum) if none): where
	// the search for a u in bucket j starts.
	guide [1 << goalGuideBits]uint16
}

// goalGuideBits sizes goalLaw's guide: 128 buckets for at most MaxGoalLawThrows thresholds.
const goalGuideBits = 7

// law returns the law for s's line-ups, computing it on first use.
func (g *GoalSampler) law(s *State) *goalLaw {
	need := int(max(s.rules.halfThrows, s.rules.extraThrows))
	home, away, ties := s.lineups[Home], s.lineups[Away], s.rules.tiesCount
	if g.last != nil && home == g.lastHome && away == g.lastAway && ties == g.lastTies && len(g.last.cum) >= need {
		return g.last
	}
	key := goalLawKey(home.Index())<<8 | goalLawKey(away.Index())<<1
	if ties {
		key |= 1
	}
	l := sharedLaws.get(key, home, away, ties, need)
	g.last, g.lastHome, g.lastAway, g.lastTies = l, home, away, ties
	return l
}

// sharedLaws are the goal laws of every GoalSampler in the process: a law is a function of
// its key and never changes once built, and an arena's workers (a hundred of them when a
// live policy plays) would otherwise each build and hold the same ones.
var sharedLaws goalLaws

// goalLaws holds laws by key, read without a lock: under a read lock (a map's) the
// workers' samplers fought over the lock's counter, ~120 ns a look-up on two cores when an
// arena's random agent changed the pair every match.
type goalLaws struct {
	laws  [maxGoalLawKey + 1]atomic.Pointer[goalLaw]
	mu    sync.Mutex // held to add a law
	count int        // laws held
}

// maxGoalLawKey is the largest goalLawKey.
const maxGoalLawKey = (NumLineups-1)<<8 | (NumLineups-1)<<1 | 1

// get returns the law of key, at least need throws long, building it if it is not held.
func (c *goalLaws) get(key goalLawKey, home, away Lineup, ties bool, need int) *goalLaw {
	if l := c.laws[key].Load(); l != nil && len(l.cum) >= need {
		return l
	}
	l := newGoalLaw(home, away, ties, need)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.count >= maxGoalLaws { // start afresh: the laws in use stay with their samplers
		for i := range c.laws {
			c.laws[i].Store(nil)
		}
		c.count = 0
	}
	switch old := c.laws[key].Load(); {
	case old == nil:
		c.count++
		c.laws[key].Store(l)
	case len(old.cum) < need:
		c.laws[key].Store(l)
	}
	return l
}

// newGoalLaw runs the chain from a kick-off for n throws: v[i] is P(no goal yet, state i).
func newGoalLaw(home, away Lineup, tiesCount bool, n int) *goalLaw {
	var odds [Sectors + 1][3]float64 // home wins, away wins, tie (0 unless ties count)
	for b := 1; b <= Sectors; b++ {
		hd, ad := DiceFor(home, away, b)
		odds[b] = decidedOdds[hd][ad]
		if tiesCount {
			odds[b] = physicalOdds[hd][ad]
		}
	}
	l := &goalLaw{cum: make([]uint64, n), home: make([]uint64, n), end: make([][goalStates]uint64, n)}
	var v [goalStates]float64
	v[(midfield-1)*3] = 1
	scored := 0.0 // P(a goal so far)
	for k := range n {
		var next [goalStates]float64
		var goal [2]float64
		for i, p := range v {
			if p == 0 {
				continue
			}
			b := i/3 + 1
			for w := Home; w <= Away; w++ {
				q := p * odds[b][w]
				if nb, g := MoveBall(b, w); g {
					goal[w] += q
				} else {
					next[(nb-1)*3+int(w)+1] += q
				}
			}
			next[i] += p * odds[b][2] // a tie that counts: ball and possession stay
		}
		l.home[k] = probThreshold(scored + goal[Home])
		scored += goal[Home] + goal[Away]
		l.cum[k] = probThreshold(scored)
		v = next
		acc := scored
		for i, p := range v {
			acc += p
			l.end[k][i] = probThreshold(acc)
		}
		l.end[k][goalStates-1] = ^uint64(0)
	}
	k := 0
	for j := range l.guide {
		for k < n && l.cum[k] <= uint64(j)<<(64-goalGuideBits) {
			k++
		}
		l.guide[j] = uint16(k)
	}
	return l
}

// b2u is 1 for true, 0 for false (compiled to a flag set, not a branch).
func b2u(b bool) uint8 {
	var u uint8
	if b {
		u = 1
	}
	return u
}
