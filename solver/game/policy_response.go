// Exact best responses to any stationary policy of the substitution game: the policy tabulated row by row, then backward induction.

package game

import (
	"context"
	"fmt"
	"runtime"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/policy"
)

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
	// Batch, if positive, asks the policies about that many breaks at once (whole rows: at
	// least one), each worker's next breaks asked on a goroutine of its own while the
	// worker solves the last ones — for policies whose calls cost (a network in another
	// runtime). A worker's policies are still asked one call at a time. 0 asks a row (every
	// away entry of a home entry) at a time, in step; so does a ReplyObserver's pair.
	Batch int
	// MaxBytes bounds the estimated peak memory (0: DefaultMaxBytes), as Problem's.
	MaxBytes int64
	Progress func(done, total int)
	// Skip[side], if set, leaves side's best response unsolved — where the other side's
	// policy only stands in (a Keeper) and nobody asked how exploitable it is. Check's
	// HomeBest (Skip[Home]) or AwayBest, its reply and Exploitability are then NaN and the
	// zero line-up; the other side's best response is solved as ever, the same numbers,
	// without the skipped side's sums at every break.
	Skip [2]bool
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
	return p.run(false)
}

// PlayPolicies is the exact value to home (its payoff) of the home policy played against the
// away policy: the backward induction of RespondToPolicies with both sides' mixes weighed at
// every break instead of either side's best reply — a head-to-head without sampling, for
// meta-games (PSRO's) and checks. Observers are not called.
func PlayPolicies(p PolicyProblem) (float64, error) {
	if p.Payoff != lineup.PayoffWinLoss && p.Payoff != lineup.PayoffAdvance {
		return 0, fmt.Errorf("solver: policies are played for payoff win-loss or advance, not %s", p.Payoff)
	}
	c, err := p.run(true)
	return c.HomeBest, err
}

// run is RespondToPolicies, or with play PlayPolicies, once p is known to fit.
func (p PolicyProblem) run(play bool) (Check, error) {
	moves, err := p.Fits()
	if err != nil {
		return Check{}, err
	}
	workers := p.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	sp := newGameSpace(moves)
	return respond(p.Context, p.Rules, p.Payoff, sp, workers, p.Progress, play, func(w int) (pairStrategy, error) {
		home, away, err := p.Policies(w)
		if err != nil {
			return nil, err
		}
		pp := &policyPair{sp: sp, home: home, away: away, batch: p.Batch, skip: p.Skip}
		if pp.observes() {
			pp.batch = 0 // an observer may change its answers as the replies come: no asking ahead
		}
		return pp, nil
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

// KickOffObserver may be implemented by a Policy to see, once RespondToPolicies has reached
// the first kick-off, the value of each starting line-up against the other side's kick-off
// mix — continued by the side's own best response —, in the side's own terms: values[l] is
// line-up l's. Regret matching learns its kick-off from it.
type KickOffObserver interface {
	ObserveKickOff(side env.Player, values []float64)
}

// observeKickOff hands each observing policy its kick-off values (home's terms in v and u).
func (pp *policyPair) observeKickOff(v, u *[env.NumLineups]float64) {
	if o, ok := pp.home.(KickOffObserver); ok {
		o.ObserveKickOff(env.Home, v[:])
	}
	if o, ok := pp.away.(KickOffObserver); ok {
		away := make([]float64, env.NumLineups)
		for l, x := range u {
			away[l] = -x // away's own terms
		}
		o.ObserveKickOff(env.Away, away)
	}
}

// policyPair is two GamePolicies as a pairStrategy: the policies' answers come in chunks of
// rows (answerChunk), one row a chunk unless batch asks more, then ahead of the solve.
type policyPair struct {
	sp         *gameSpace
	home, away Policy
	batch      int
	skip       [2]bool        // PolicyProblem.Skip
	one        answerChunk    // the chunk of one row, unbatched
	ahead      *prefetch      // batched: the layer's rows, asked ahead
	chunks     []*answerChunk // batched: the chunks in flight, kept from layer to layer
	states     []State        // the row's states, for observe
	hv, av     []float64
	choices    []env.Lineup
}

func (pp *policyPair) skipped() [2]bool { return pp.skip }

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
	c, k := &pp.one, 0
	if pp.ahead != nil {
		var err error
		if c, k, err = pp.ahead.next(per, t, d, h); err != nil {
			return err
		}
	} else {
		c.setRows(per, t, []answeredRow{{d: d, h: h}})
		if err := pp.answer(c); err != nil {
			return err
		}
	}
	r := &c.rows[k]
	m.home, r.m.home = r.m.home, m.home // the answers are the solve's; the chunk keeps its old buffers
	m.away, r.m.away = r.m.away, m.away
	e := pp.sp.entries
	pp.states = c.states[k*e : (k+1)*e]
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
