// Exact best responses to any stationary policy of the substitution game: the policy tabulated row by row, then backward induction.

package game

import (
	"context"
	"fmt"
	"math"
	"runtime"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/policy"
)

// Policy is one side's stationary strategy in Basic-mode Kingoal — its choices a
// function of the break state alone (time, score, both line-ups and moves left) — for
// RespondToPolicies. Deterministic or mixed.
type Policy interface {
	// KickOff is the side's mix of starting line-ups.
	KickOff() ([]env.Weighted, error)
	// Breaks writes the side's mix at each break into mixes[i] (reusing its storage): over
	// line-ups the side can reach with its moves left. The states are seen from home.
	Breaks(side env.Player, states []State, mixes [][]env.Weighted) error
}

// PolicyProblem asks for each side's exact best response to the other side's Policy.
type PolicyProblem struct {
	Rules env.Rules
	// Payoff is win-loss or (knockout) advance: payoffs of the result, which a policy's
	// choices may depend on through the score.
	Payoff lineup.Payoff
	// Policies returns worker w's home and away policies; each worker asks only its own, so
	// a policy need not be safe for concurrent use.
	Policies func(worker int) (home, away Policy, err error)
	Context  context.Context
	Workers  int // 0: every core
	// MaxBytes bounds the estimated peak memory (0: DefaultMaxBytes), as Problem's.
	MaxBytes int64
	Progress func(done, total int)
}

// Fits checks, without solving, that RespondToPolicies can answer p: its rules and payoff,
// and its estimated peak memory under MaxBytes (an error wrapping policy.ErrTooLarge if not). It
// returns the game's move budget.
func (p PolicyProblem) Fits() (moves int, err error) {
	moves, err = checkGame(Problem{Rules: p.Rules, Payoff: p.Payoff})
	if err != nil {
		return 0, err
	}
	size, err := Estimate(p.Rules, p.Payoff)
	if err != nil {
		return 0, err
	}
	limit := p.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	if peak := size.PeakResponses(); peak > limit {
		return 0, fmt.Errorf("%w: best responses under these rules hold %d break states and need ~%s at their peak, more than the limit of %s",
			policy.ErrTooLarge, size.BreakStates, formatBytes(peak), formatBytes(limit))
	}
	return moves, nil
}

// RespondToPolicies solves, exactly, home's best response to the away policy (HomeBest: home's
// payoff) and away's best response to the home policy (AwayBest: home's payoff then), in one
// backward induction over every break state a match can reach, the policies asked for their
// mixes row by row (a difference, home's line-up and moves, every away line-up and moves);
// Exploitability is HomeBest − AwayBest. For one agent playing both sides, its
// exploitability in score terms (P(win) + ½ P(draw), or P(advance)) is Exploitability / 4.
func RespondToPolicies(p PolicyProblem) (Check, error) {
	if p.Payoff != lineup.PayoffWinLoss && p.Payoff != lineup.PayoffAdvance {
		return Check{}, fmt.Errorf("solver: best responses to a policy are solved for payoff win-loss or advance, not %s", p.Payoff)
	}
	moves, err := p.Fits()
	if err != nil {
		return Check{}, err
	}
	workers := p.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	sp := newGameSpace(moves)
	return respond(p.Context, p.Rules, p.Payoff, sp, workers, p.Progress, func(w int) (pairStrategy, error) {
		home, away, err := p.Policies(w)
		if err != nil {
			return nil, err
		}
		return &policyPair{sp: sp, home: home, away: away}, nil
	})
}

// ReplyObserver may be implemented by a Policy to see, at every break of
// RespondToPolicies, the value of each line-up its side could play against the other side's
// mix — each continued by the side's own best response —, in the side's own terms (home's
// payoff for home, its negation for away): what its best reply maximises. values[i] is
// choices[i]'s. Learners use it (fictitious play best-responds with it); it is called by the
// worker that asked the policy for the row, after the row's replies, and may change the
// policy's answers there (the pass never reads them again).
type ReplyObserver interface {
	ObserveReplies(side env.Player, s State, choices []env.Lineup, values []float64)
}

// policyPair is two GamePolicies as a pairStrategy, with a row's buffers.
type policyPair struct {
	sp         *gameSpace
	home, away Policy
	states     []State
	hm, am     [][]env.Weighted
	hv, av     []float64
	choices    []env.Lineup
}

func (pp *policyPair) observes() bool {
	_, h := pp.home.(ReplyObserver)
	_, a := pp.away.(ReplyObserver)
	return h || a
}

// observe hands each observing policy its replies' values at every break of the row just
// answered (pp.states holds its states).
func (pp *policyPair) observe(h int, m *rowMixes, kh, ka []float64) {
	sp := pp.sp
	if pp.hv == nil {
		pp.hv, pp.av = make([]float64, env.NumLineups), make([]float64, env.NumLineups)
	}
	ho, _ := pp.home.(ReplyObserver)
	ao, _ := pp.away.(ReplyObserver)
	w := sp.moves + 1
	for a := range sp.entries {
		sp.replyValues(h, a, m.home[a], m.away[a], kh, ka, pp.hv, pp.av)
		if ho != nil {
			ho.ObserveReplies(env.Home, pp.states[a], pp.lineups(sp.reach[h], w), pp.hv[:len(sp.reach[h])])
		}
		if ao != nil {
			vals := pp.av[:len(sp.reach[a])]
			for i := range vals {
				vals[i] = -vals[i] // away's own terms
			}
			ao.ObserveReplies(env.Away, pp.states[a], pp.lineups(sp.reach[a], w), vals)
		}
	}
}

// lineups are the line-ups of a reach list's entries.
func (pp *policyPair) lineups(reach []int32, w int) []env.Lineup {
	pp.choices = pp.choices[:0]
	for _, r := range reach {
		pp.choices = append(pp.choices, env.LineupAt(int(r)/w))
	}
	return pp.choices
}

func (pp *policyPair) row(per, t, d, h int, m *rowMixes) error {
	sp := pp.sp
	e, w := sp.entries, sp.moves+1
	if len(pp.states) != e {
		pp.states, pp.hm, pp.am = make([]State, e), make([][]env.Weighted, e), make([][]env.Weighted, e)
	}
	for a := range e {
		pp.states[a] = State{Period: env.FirstHalf + env.Period(per), ThrowsLeft: t, GoalDiff: d,
			Home: env.LineupAt(h / w), HomeMoves: h % w, Away: env.LineupAt(a / w), AwayMoves: a % w}
	}
	if err := pp.home.Breaks(env.Home, pp.states, pp.hm); err != nil {
		return err
	}
	if err := pp.away.Breaks(env.Away, pp.states, pp.am); err != nil {
		return err
	}
	m.reset(e)
	var err error
	for a := range e {
		if m.home[a], err = policyEntries(pp.hm[a], h, w, m.home[a]); err == nil {
			m.away[a], err = policyEntries(pp.am[a], a, w, m.away[a])
		}
		if err != nil {
			s := pp.states[a]
			return fmt.Errorf("solver: the policy at %v: %w", s, err)
		}
	}
	return nil
}

func (pp *policyPair) kickOff() (home, away []float64, err error) {
	if home, err = kickOffMix(pp.home); err == nil {
		away, err = kickOffMix(pp.away)
	}
	return home, away, err
}

func kickOffMix(p Policy) ([]float64, error) {
	mix, err := p.KickOff()
	if err != nil {
		return nil, err
	}
	x := make([]float64, env.NumLineups)
	if err := checkMixSum(mix); err != nil {
		return nil, fmt.Errorf("solver: the policy's kick-off: %w", err)
	}
	for _, w := range mix {
		if !w.Lineup.Valid() {
			return nil, fmt.Errorf("solver: the policy's kick-off: %v is not a line-up", w.Lineup)
		}
		x[w.Lineup.Index()] += w.Prob
	}
	return x, nil
}

// policyEntries is a mix of line-ups played from entry (line-up, moves left) as entries.
func policyEntries(mix []env.Weighted, entry, w int, out []mixEntry) ([]mixEntry, error) {
	if err := checkMixSum(mix); err != nil {
		return nil, err
	}
	from, left := env.LineupAt(entry/w), entry%w
	for _, m := range mix {
		if m.Prob == 0 {
			continue
		}
		if !m.Lineup.Valid() {
			return nil, fmt.Errorf("%v is not a line-up", m.Lineup)
		}
		cost := from.Moves(m.Lineup)
		if cost > left {
			return nil, fmt.Errorf("it plays %v, %d moves from %v, with %d left", m.Lineup, cost, from, left)
		}
		out = append(out, mixEntry{int32(m.Lineup.Index()*w + left - cost), m.Prob})
	}
	return out, nil
}

// checkMixSum: probabilities in [0, 1] summing to 1.
func checkMixSum(mix []env.Weighted) error {
	total := 0.0
	for _, m := range mix {
		if !(m.Prob >= 0 && m.Prob <= 1) {
			return fmt.Errorf("a probability %v", m.Prob)
		}
		total += m.Prob
	}
	if len(mix) == 0 || math.Abs(total-1) > 1e-9 {
		return fmt.Errorf("its mix does not sum to 1 (%v)", total)
	}
	return nil
}

// BreakObservation is what side observes at the break s (seen from home), and its legal
// line-ups: the goal difference as goals (the leader's count, 0 for the other), the ball at
// kick-off — what a policy is asked at every break state by RespondToPolicies' callers.
func BreakObservation(s State, side env.Player, r env.Rules) (env.Observation, env.Mask) {
	own, opp, ownMoves, oppMoves, diff := s.Home, s.Away, s.HomeMoves, s.AwayMoves, s.GoalDiff
	if side == env.Away {
		own, opp, ownMoves, oppMoves, diff = s.Away, s.Home, s.AwayMoves, s.HomeMoves, -s.GoalDiff
	}
	return env.Observation{Player: side, Decision: env.Break, Period: s.Period, ThrowsLeft: s.ThrowsLeft,
		Own: own, Opp: opp, Ball: env.KickOffSector, OwnGoals: max(diff, 0), OppGoals: max(-diff, 0),
		OwnMovesLeft: ownMoves, OppMovesLeft: oppMoves, Knockout: r.Knockout, HalfThrows: r.HalfThrows(), ExtraThrows: r.ExtraThrows()}, own.Reachable(ownMoves)
}
