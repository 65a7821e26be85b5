package env

import (
	"math/bits"
	"math/rand/v2"
)

// The odds of one throw (rules §3). Each side's score is its highest die, so with n dice
//
//	P(score ≤ k) = (k/6)^n,  P(score = k) = (k/6)^n − ((k−1)/6)^n.
//
// A physical throw is won by the higher score; equal scores tie. By default a tie is thrown
// again, so the decided odds are the physical ones divided by 1 − P(tie).

// MaxDice is the most dice one side throws: five counters plus the goalkeeper's die.
const MaxDice = MaxPerLine + 1

// DieFaces is the number of faces of a die, numbered 1 to DieFaces.
const DieFaces = 6

// PenaltyGoal is the probability that a penalty is scored: the taker's die strictly higher
// than the goalkeeper's (rules §8).
const PenaltyGoal = 15.0 / 36.0

// PhysicalThrowOdds returns the probabilities that one physical throw of homeDice against
// awayDice dice is won by home, won by away, or tied. It panics if a count is outside 1..6.
func PhysicalThrowOdds(homeDice, awayDice int) (home, away, tie float64) {
	o := physicalOdds[homeDice][awayDice]
	return o[0], o[1], o[2]
}

// ThrowOdds returns the probabilities of a throw's results under the rules: home wins,
// away wins, tie. With ties rethrown (the default) tie is 0; with TiesCount it is the
// physical tie probability. It panics if a count is outside 1..6.
func ThrowOdds(homeDice, awayDice int, tiesCount bool) (home, away, tie float64) {
	if tiesCount {
		return PhysicalThrowOdds(homeDice, awayDice)
	}
	o := decidedOdds[homeDice][awayDice]
	return o[0], o[1], 0
}

// DiceFor returns how many dice each side throws with the ball in home-sector ball, given
// the two line-ups: the counters facing in that sector plus the defender's goalkeeper die.
func DiceFor(home, away Lineup, ball int) (homeDice, awayDice int) {
	return diceFor(&home, &away, ball)
}

// diceFor is DiceFor reading the line-ups in place: State.Dice through a pointer would
// otherwise copy the whole state to pass them (a third of the cost of logging a throw).
func diceFor(home, away *Lineup, ball int) (homeDice, awayDice int) {
	homeDice = int(home.c[ball-1])
	awayDice = int(away.c[Sectors-ball])
	if ball == 1 {
		homeDice++
	}
	if ball == Sectors {
		awayDice++
	}
	return homeDice, awayDice
}

var (
	physicalOdds [MaxDice + 1][MaxDice + 1][3]float64
	decidedOdds  [MaxDice + 1][MaxDice + 1][3]float64
	// Thresholds for the fast sampler: a uniform 64-bit u gives home if u < t[0], away if
	// u < t[1], a tie otherwise.
	fastTies    [MaxDice + 1][MaxDice + 1][2]uint64
	fastNoTies  [MaxDice + 1][MaxDice + 1][2]uint64
	penaltyGoal = probThreshold(PenaltyGoal)
)

func init() {
	pow := func(x float64, n int) float64 {
		r := 1.0
		for ; n > 0; n-- {
			r *= x
		}
		return r
	}
	for n := 1; n <= MaxDice; n++ {
		for m := 1; m <= MaxDice; m++ {
			var h, a, t float64
			for k := 1; k <= DieFaces; k++ {
				pn := pow(float64(k)/DieFaces, n) - pow(float64(k-1)/DieFaces, n)
				pm := pow(float64(k)/DieFaces, m) - pow(float64(k-1)/DieFaces, m)
				h += pn * pow(float64(k-1)/DieFaces, m)
				a += pm * pow(float64(k-1)/DieFaces, n)
				t += pn * pm
			}
			physicalOdds[n][m] = [3]float64{h, a, t}
			decidedOdds[n][m] = [3]float64{h / (h + a), a / (h + a), 0}
			fastTies[n][m] = [2]uint64{probThreshold(h), probThreshold(h + a)}
			hd := h / (h + a)
			fastNoTies[n][m] = [2]uint64{probThreshold(hd), ^uint64(0)}
		}
	}
}

// probThreshold maps p in [0,1] to the uint64 t with P(u < t) = p for uniform u, to 2^-53.
func probThreshold(p float64) uint64 {
	if p >= 1 {
		return ^uint64(0)
	}
	return uint64(p * (1 << 63) * 2)
}

// plainThrow applies a throw won by winner if it is the plain kind — the ball moves on, no
// goal, not the period's last throw, no Dynamic shift to earn — and reports whether it was:
// the fast path applies plain throws in place and leaves the rest to applyThrow.
func (s *State) plainThrow(winner Player) bool {
	next := ballAfter[s.ball][winner]
	if !plain(next, s.throwsLeft, s.rules.modes[winner]) {
		return false
	}
	s.ball, s.possession = next, int8(winner)
	s.throwsLeft--
	return true
}

// plain reports whether a throw won by a player in mode m, moving the ball to next (0: a
// goal) with left throws left before it, is plain (see plainThrow).
func plain(next uint8, left uint16, m Mode) bool {
	return next != 0 && left > 1 && m == Basic
}

// plainRun plays throws while they are plain, each decided by one number from src against
// the per-sector thresholds (home wins if u < home[b], away if u < away[b], else a tie that
// counts), with the ball, possession and throws left in registers, and returns the outcome of
// the first throw that is not plain, not yet applied (for applyThrow). It draws exactly what
// FastSampler.Sample would.
func (s *State) plainRun(src *rand.PCG, home, away *[Sectors + 1]uint64) Outcome {
	ball, left, poss := s.ball, s.throwsLeft, s.possession // no defer: its closure kept them in memory
	modes := s.rules.modes                                 // a local copy: no load through s a throw
	if modes == [2]Mode{Basic, Basic} && !s.rules.tiesCount {
		// The common match, two Basic sides and ties rethrown: no tie to test, no shift to
		// earn; a throw is plain unless it scores or ends the period.
		for {
			_, homeWon := bits.Sub64(src.Uint64(), home[ball], 0)
			loser := homeWon & 1
			next := ballAfterLoser[ball][loser]
			if next == 0 || left <= 1 {
				s.ball, s.throwsLeft, s.possession = ball, left, poss
				return Outcome(loser ^ 1)
			}
			ball, poss, left = next, int8(loser^1), left-1
		}
	}
	for {
		u := src.Uint64()
		_, homeWon := bits.Sub64(u, home[ball], 0) // the winner without a branch: a coin flip mispredicts
		winner := Player(homeWon&1) ^ 1
		o := Outcome(winner) // HomeWins, AwayWins
		if u >= away[ball] {
			o = Tie
		} else if next := ballAfterLoser[ball][homeWon&1]; plain(next, left, modes[winner]) {
			ball, poss, left = next, int8(winner), left-1
			continue
		}
		s.ball, s.throwsLeft, s.possession = ball, left, poss
		return o
	}
}

// applyThrow applies any throw (rules §3–§5).
func (s *State) applyThrow(o Outcome) {
	winner := Home
	switch o {
	case HomeWins:
	case AwayWins:
		winner = Away
	default: // a tie that counts: the ball stays, possession too
		s.throwsLeft--
		if s.throwsLeft == 0 {
			s.endPeriod()
		}
		return
	}
	if !s.plainThrow(winner) {
		s.eventfulThrow(winner)
	}
}

// earnsShift is rules §6: a throw won by a Dynamic player earns a shift — under the turnover
// trigger only if that player did not win the last decided throw since the kick-off (hadBall).
func earnsShift(m Mode, turnover, hadBall bool) bool { return m == Dynamic && (!turnover || !hadBall) }

// EarnsShift reports whether a throw won by winner earns a Dynamic shift under r when the last
// decided throw since the kick-off was won by lastWinner (possessed false: none yet). Solvers
// ask it instead of restating the trigger.
func (r Rules) EarnsShift(winner, lastWinner Player, possessed bool) bool {
	return earnsShift(r.Modes[winner], r.DynamicTrigger == TriggerTurnover, possessed && lastWinner == winner)
}

// eventfulThrow applies a throw won by winner that is not plain (see plainThrow): it scores,
// ends the period or earns a Dynamic shift. The fast path calls it directly for the throws
// plainRun stops at.
func (s *State) eventfulThrow(winner Player) {
	s.throwsLeft--
	ball, goal := MoveBall(int(s.ball), winner)
	s.ball = uint8(ball)
	if goal {
		s.score[winner]++
	}
	earned := earnsShift(s.rules.modes[winner], s.rules.turnover, s.possession == int8(winner))
	s.possession = int8(winner)
	if goal {
		s.possession = noPossession
	}
	switch {
	case s.throwsLeft == 0:
		s.endPeriod()
	case goal:
		s.breakOrThrow()
	}
	// A shift earned by the throw comes before whatever follows it, unless nothing follows
	// that a formation could change (the end of the match or the shoot-out).
	if earned && (s.phase == phaseThrow || s.phase == phaseBreak) {
		s.resume = s.phase
		s.phase = phaseShift
		s.shifter = winner
	}
}
