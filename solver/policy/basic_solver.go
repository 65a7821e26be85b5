// The Basic solver: backward induction over breaks against a fixed or adaptive opponent.

package policy

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/internal/induction"
	"github.com/kingoal/kingoal/solver/odds"
	"github.com/kingoal/kingoal/solver/zerosum"
)

// oppConfig is the opponent's line-up index and moves left.
type oppConfig struct{ lineup, moves uint8 }

type blockKey struct {
	per, t, d int16
	opp       oppConfig
}

// block holds the values at one break for every own line-up and budget, index l*(moves+1)+m.
type block struct {
	value  []float64 // before deciding
	target []uint8   // line-up to play after the break
}

// maxPolicyBlocks bounds the number of breaks (each ~8 KB) a policy may hold, about 800 MB.
const maxPolicyBlocks = 100_000

// ErrTooLarge is wrapped when what a solve would hold — a policy, a game's values, a
// learner's strategies — would not fit in memory; the message says which.
var ErrTooLarge = errors.New("solver: too large for memory")

// SolveBasic computes the optimal Basic policy by backward induction over breaks. Between
// two breaks the ball starts at midfield and line-ups are fixed, so the law of the next
// goal (who scores, after how many throws) is all the match contributes. At a break both
// choose at once: the opponent by its policy (which may look at the public state, our
// line-up included), the player the best line-up within its moves, one single move at a
// time (the move cost is the length of the shortest path of single moves, and unspent
// moves never hurt). Breaks are solved on demand from kick-off, so against a policy only
// the opponent configurations it can reach are held; against a fixed opponent every
// break is solved, so Best answers for any state.
func SolveBasic(p BasicProblem) (*BasicPolicy, error) {
	r := p.Rules
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if !p.Own.Valid() || !p.Opponent.Valid() || p.Player > env.Away {
		return nil, errors.New("solver: basic policy needs two valid line-ups and a player")
	}
	if r.Modes[p.Player] != env.Basic {
		return nil, errors.New("solver: the player must be in Basic mode (see SolveDynamic)")
	}
	if p.adaptive() && r.Modes[p.Player.Other()] != env.Basic {
		return nil, errors.New("solver: an opponent policy needs the opponent in Basic mode")
	}
	if p.Objective == odds.ObjectiveAdvance && !r.Knockout {
		return nil, errors.New("solver: objective advance needs knockout rules")
	}
	lengths, total := odds.PeriodLengths(r)
	if !p.adaptive() { // refuse what cannot fit before allocating anything
		if err := CheckBasicSize(r); err != nil {
			return nil, err
		}
	}
	pensWin, err := odds.PensWinFor(p.Player)
	if err != nil {
		return nil, err
	}
	oppMoves := 0
	if p.adaptive() {
		oppMoves = r.MoveBudget()
	}
	s := &basicSolver{
		pol: &BasicPolicy{Problem: p, lengths: lengths, maxDiff: total/odds.ThrowsToScore() + 1, moves: min(r.MoveBudget(), 5),
			blocks: map[blockKey]*block{}, start: oppConfig{uint8(p.Opponent.Index()), uint8(oppMoves)}},
		r: r, final: odds.NewScorer(r, p.Objective, pensWin).Final, laws: map[uint8][]odds.GoalLaw{}, lawsT: map[uint8]*goalLawT{}, ctx: p.Context,
	}
	if s.ctx == nil {
		s.ctx = context.Background()
	}
	s.neighbours = make([][]int, env.NumLineups)
	for l := range s.neighbours {
		for _, n := range env.LineupAt(l).Reachable(1).Actions() {
			if n != l {
				s.neighbours[l] = append(s.neighbours[l], n)
			}
		}
	}
	s.layout = induction.NewEntryLayout(env.Lineup{}, 0, s.pol.moves, s.neighbours) // every line-up and budget
	if err := s.ctx.Err(); err != nil {
		return nil, err
	}
	bp := s.pol
	if !p.adaptive() { // every break (or every one reachable From), so that Best answers anywhere
		return s.solveFixed(p.From)
	}
	if p.From != nil {
		return nil, errors.New("solver: From is for a fixed opponent")
	}
	// The kick-off is not a break: the starting line-ups play the first throws.
	k := s.kick(0, lengths[0], 0, bp.start)
	if s.err != nil {
		return nil, s.err
	}
	bp.kickoff = k
	bp.value = k[p.Own.Index()*(bp.moves+1)+bp.moves]
	bp.noChange = k[p.Own.Index()*(bp.moves+1)]
	return bp, nil
}

// basicSolver holds SolveBasic's working state.
type basicSolver struct {
	pol        *BasicPolicy
	r          env.Rules
	final      func(d int, shootout bool) float64
	laws       map[uint8][]odds.GoalLaw // by opponent line-up: the law for each own line-up
	lawsT      map[uint8]*goalLawT      // the same by throw
	neighbours [][]int
	reach      [][]int32              // induction.ReachLists(moves), for a mixed opponent
	layout     *induction.EntryLayout // every own line-up and budget, l*(moves+1)+m
	ctx        context.Context
	err        error
}

// lawsAgainst returns the goal laws of every own line-up against opponent line-up o.
func (s *basicSolver) lawsAgainst(o uint8) []odds.GoalLaw {
	if l, ok := s.laws[o]; ok {
		return l
	}
	p := s.pol.Problem
	longest := max(s.pol.lengths[0], s.pol.lengths[len(s.pol.lengths)-1])
	laws := make([]odds.GoalLaw, env.NumLineups)
	for l := range laws {
		home, away := env.LineupAt(l), env.LineupAt(int(o))
		if p.Player == env.Away {
			home, away = away, home
		}
		laws[l] = odds.FirstGoalLaw(home, away, s.r.TiesCount, longest)
		if p.Player == env.Away {
			laws[l].Home, laws[l].Away = laws[l].Away, laws[l].Home
		}
	}
	s.laws[o] = laws
	return laws
}

// afterGoal returns the values (per own line-up and budget) once a goal leaves t throws in
// period per with difference d and the opponent in configuration c; nil means the constant
// final(d).
func (s *basicSolver) afterGoal(per, t, d int, c oppConfig) []float64 {
	bp := s.pol
	switch {
	case d < -bp.maxDiff || d > bp.maxDiff:
		return nil // unreachable: more goals than the throws allow
	case t > 0:
		return s.block(per, t, d, c).value
	}
	return s.end(per, d, c)
}

// end returns the values at the end of period per (nil: the match is over, see endValue).
func (s *basicSolver) end(per, d int, c oppConfig) []float64 {
	next := s.r.AfterPeriod(env.FirstHalf+env.Period(per), d == 0)
	if next == env.FullTime || next == env.Penalties {
		return nil
	}
	np := int(next - env.FirstHalf)
	return s.block(np, s.pol.lengths[np], d, c).value // the break before the next period
}

// endValue is the constant value of a match over after period per with difference d.
func (s *basicSolver) endValue(per, d int) float64 {
	if s.r.AfterPeriod(env.FirstHalf+env.Period(per), d == 0) == env.Penalties {
		return s.final(0, true)
	}
	return s.final(d, false)
}

// kick returns K: the value right after a kick-off with t throws left in period per,
// difference d, the opponent in configuration c, for every own line-up and budget: the end
// of the period and then each throw's home and away goal, each weighted by every line-up's
// law of the next goal (the laws are held by throw, so the hot loop reads memory in order).
func (s *basicSolver) kick(per, t, d int, c oppConfig) []float64 {
	bp := s.pol
	w := bp.moves + 1
	k := make([]float64, env.NumLineups*w)
	law := s.lawsByThrow(c.lineup)
	add := func(q []float64, vals []float64, constant float64) {
		for l, ql := range q {
			if ql == 0 {
				continue
			}
			row := k[l*w : (l+1)*w]
			if vals == nil {
				for m := range row {
					row[m] += ql * constant
				}
				continue
			}
			for m, v := range vals[l*w : (l+1)*w] {
				row[m] += ql * v
			}
		}
	}
	add(law.none[t], s.end(per, d, c), s.endValue(per, d))
	for g := 1; g <= t; g++ {
		add(law.home[g], s.afterGoal(per, t-g, d+1, c), s.goalValue(per, t-g, d+1))
		add(law.away[g], s.afterGoal(per, t-g, d-1, c), s.goalValue(per, t-g, d-1))
	}
	return k
}

// lawsByThrow is lawsAgainst(o) held by throw: [g][l] is own line-up l's probability.
func (s *basicSolver) lawsByThrow(o uint8) *goalLawT {
	if t, ok := s.lawsT[o]; ok {
		return t
	}
	laws := s.lawsAgainst(o)
	n := len(laws[0].None)
	t := &goalLawT{home: make([][]float64, n), away: make([][]float64, n), none: make([][]float64, n)}
	for g := range n {
		t.home[g], t.away[g], t.none[g] = make([]float64, env.NumLineups), make([]float64, env.NumLineups), make([]float64, env.NumLineups)
		for l := range laws {
			t.home[g][l], t.away[g][l], t.none[g][l] = laws[l].Home[g], laws[l].Away[g], laws[l].None[g]
		}
	}
	s.lawsT[o] = t
	return t
}

// goalLawT is a set of goal laws by throw, then line-up.
type goalLawT struct{ home, away, none [][]float64 }

// goalValue is the constant value afterGoal stands for when it returns nil.
func (s *basicSolver) goalValue(per, t, d int) float64 {
	if d < -s.pol.maxDiff || d > s.pol.maxDiff || t > 0 {
		return s.final(d, false)
	}
	return s.endValue(per, d)
}

// block solves the break (per, t, d) with the opponent in configuration c, once.
func (s *basicSolver) block(per, t, d int, c oppConfig) *block {
	bp := s.pol
	key := blockKey{int16(per), int16(t), int16(d), c}
	if b, ok := bp.blocks[key]; ok {
		return b
	}
	w := bp.moves + 1
	b := &block{value: make([]float64, env.NumLineups*w), target: make([]uint8, env.NumLineups*w)}
	bp.blocks[key] = b
	if limit := bp.breakLimit(); len(bp.blocks) > limit && s.err == nil {
		s.err = fmt.Errorf("%w: more than %d breaks", ErrTooLarge, limit)
	}
	if s.err == nil && len(bp.blocks)%64 == 0 { // ~1 ms of work between two looks
		s.err = s.ctx.Err()
	}
	if s.err != nil {
		return b
	}
	if bp.Problem.OpponentBreaks.mix != nil {
		s.mixedBlock(b, per, t, d, c)
		return b
	}
	// The opponent's simultaneous choice, for each of our current line-ups and budgets (once
	// for all when it says it does not look at them).
	next := make([]oppConfig, env.NumLineups*w)
	ob, blind := bp.Problem.OpponentBreaks.policy.(env.OpponentBlind)
	blind = blind && ob.IgnoresOpponent()
	for i := range next {
		next[i] = c
		if blind && i > 0 {
			next[i] = next[0]
			continue
		}
		if pol := bp.Problem.OpponentBreaks.policy; pol != nil && c.moves > 0 {
			cur := env.LineupAt(int(c.lineup))
			to, err := pol.Best(BreakState{Period: env.FirstHalf + env.Period(per), ThrowsLeft: t, GoalDiff: -d, Own: cur,
				MovesLeft: int(c.moves), OppLineup: env.LineupAt(i / w), OppMovesLeft: i % w})
			if err != nil || !to.Valid() || cur.Moves(to) > int(c.moves) {
				s.err = fmt.Errorf("solver: opponent policy at %s, %d left: %v → %v (%v)", env.FirstHalf+env.Period(per), t, cur, to, err)
				return b
			}
			next[i] = oppConfig{uint8(to.Index()), c.moves - uint8(cur.Moves(to))}
		}
	}
	// For each distinct opponent choice, the best reachable line-up one move at a time:
	// W(l, m) = max(K(l, m), W(n, m−1) for one-move neighbours n).
	done := map[oppConfig]bool{}
	for _, oc := range next {
		if done[oc] {
			continue
		}
		done[oc] = true
		k := s.kick(per, t, d, oc)
		wv, wt := make([]float64, len(k)), make([]uint8, len(k))
		s.layout.BestWithin(k, wv, wt)
		for i, n := range next {
			if n == oc {
				b.value[i], b.target[i] = wv[i], wt[i]
			}
		}
	}
	return b
}

// mixedBlock solves the break (per, t, d) against an opponent in configuration c who draws
// its next line-up from OpponentBreaks (Drawing): for each own line-up and budget, the mix the opponent
// plays there (it sees them), then the best own line-up reachable within the budget against
// that mix — the expectation over the draw is taken before the choice, since the player
// cannot see the draw. The opponent's configurations' kick-off values are computed once.
func (s *basicSolver) mixedBlock(b *block, per, t, d int, c oppConfig) {
	bp := s.pol
	w := bp.moves + 1
	if s.reach == nil {
		s.reach = induction.ReachLists(bp.moves)
	}
	kicks := map[oppConfig][]float64{}
	kick := func(oc oppConfig) []float64 {
		k, ok := kicks[oc]
		if !ok {
			k = s.kick(per, t, d, oc)
			kicks[oc] = k
		}
		return k
	}
	cur := env.LineupAt(int(c.lineup))
	type draw struct {
		k []float64
		p float64
	}
	var mix []draw
	for i := range env.NumLineups * w {
		mix = mix[:0]
		if c.moves == 0 {
			mix = append(mix, draw{kick(c), 1})
		} else {
			ws, err := bp.Problem.OpponentBreaks.mix.Mix(BreakState{Period: env.FirstHalf + env.Period(per), ThrowsLeft: t, GoalDiff: -d, Own: cur,
				MovesLeft: int(c.moves), OppLineup: env.LineupAt(i / w), OppMovesLeft: i % w})
			if err == nil {
				err = checkDraws(ws, cur, int(c.moves))
			}
			if err != nil {
				s.err = fmt.Errorf("solver: opponent mix at %s, %d left, from %v: %w", env.FirstHalf+env.Period(per), t, cur, err)
				return
			}
			for _, x := range ws {
				mix = append(mix, draw{kick(oppConfig{uint8(x.Lineup.Index()), c.moves - uint8(cur.Moves(x.Lineup))}), x.Prob})
			}
		}
		value := func(j int32) float64 {
			v := 0.0
			for _, x := range mix {
				v += x.p * x.k[j]
			}
			return v
		}
		list := s.reach[i]
		k, v := induction.BestKeepingTies(len(list), func(k int) float64 { return value(list[k]) })
		b.value[i], b.target[i] = v, uint8(int(list[k])/w)
	}
}

// checkDraws checks that a mix is a probability law over line-ups reachable from cur within
// moves.
func checkDraws(ws []env.Weighted, cur env.Lineup, moves int) error {
	sum := 0.0
	for _, x := range ws {
		if !x.Lineup.Valid() || cur.Moves(x.Lineup) > moves || !(x.Prob >= 0) {
			return fmt.Errorf("%v with probability %v is not a choice within %d moves", x.Lineup, x.Prob, moves)
		}
		sum += x.Prob
	}
	if math.Abs(sum-1) > zerosum.VerifyTol {
		return fmt.Errorf("the probabilities sum to %v", sum)
	}
	return nil
}
