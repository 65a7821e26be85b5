package solver

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/kingoal/kingoal/env"
)

// Objective is what a policy maximises, always from its own player's point of view.
type Objective uint8

const (
	ObjectiveWin      Objective = iota // P(win); in a knockout a shoot-out win counts
	ObjectivePoints                    // expected league points (goals in play)
	ObjectiveWinDraw                   // P(win) + ½ P(draw)
	ObjectiveAdvance                   // P(going through) in a knockout
	ObjectiveWinLoss                   // P(win) − P(loss), a shoot-out counted as a draw
	ObjectiveGoalDiff                  // expected own goals − opponent goals
)

var objectiveNames = [...]string{"win", "points", "win-draw", "advance", "win-loss", "goal-diff"}

func (o Objective) String() string {
	if int(o) < len(objectiveNames) {
		return objectiveNames[o]
	}
	return fmt.Sprintf("objective(%d)", o)
}

// ParseObjective reads win, points, win-draw, advance, win-loss or goal-diff.
func ParseObjective(s string) (Objective, error) {
	for i, n := range objectiveNames {
		if s == n {
			return Objective(i), nil
		}
	}
	return 0, fmt.Errorf("solver: objective %q: want win, points, win-draw, advance, win-loss or goal-diff", s)
}

// periodLengths lists the throws of each period a match may play, in order, walking env's
// period rule (with a level score, the longest path), and their sum.
func periodLengths(r env.Rules) (lengths []int, total int) {
	for _, p := range r.Periods() {
		lengths = append(lengths, r.PeriodLength(p))
		total += r.PeriodLength(p)
	}
	return lengths, total
}

// scorer values the end of a match for one player under an objective.
type scorer struct {
	obj     Objective
	pts     env.Points
	pensWin float64 // P(the player wins a shoot-out)
}

func newScorer(r env.Rules, o Objective, pensWin float64) scorer {
	return scorer{o, r.LeaguePoints(), pensWin}
}

// final values a match ending with goal difference d (own − opponent), or a shoot-out.
func (s scorer) final(d int, shootout bool) float64 {
	switch s.obj {
	case ObjectiveWinLoss:
		return float64(sign(d)) // a shoot-out comes at d = 0
	case ObjectiveGoalDiff:
		return float64(d)
	}
	switch {
	case shootout && s.obj != ObjectivePoints:
		return s.pensWin
	case s.obj == ObjectivePoints:
		switch {
		case d > 0:
			return float64(s.pts.Win)
		case d < 0:
			return float64(s.pts.Loss)
		}
		return float64(s.pts.Draw)
	case d > 0:
		return 1
	case d == 0 && s.obj == ObjectiveWinDraw:
		return 0.5
	}
	return 0
}

// pensWinFor is P(player wins a shoot-out), from env's enumerated shoot-out.
func pensWinFor(p env.Player) (float64, error) {
	so, err := shootoutOdds()
	if err != nil {
		return 0, err
	}
	if p == env.Away {
		return 1 - so.home, nil
	}
	return so.home, nil
}

// BreakPolicy chooses a Basic player's line-up at a break, from that player's BreakState.
// BasicPolicy implements it, so a computed policy can be the opponent of another. As an
// opponent in SolveBasic it is shown the whole state, the player's line-up and remaining
// moves included (those capped at 5: no change costs more). A BreakPolicy whose choice does
// not depend on them may say so with a method IgnoresOpponent() bool: it is then asked once
// per break instead of once per line-up and budget of the player.
type BreakPolicy interface {
	Best(s BreakState) (env.Lineup, error)
}

// MixedBreakPolicy chooses a Basic player's line-up at a break at random: Mix returns the
// line-ups (each within the player's moves) and their probabilities. Game.Strategy is one.
type MixedBreakPolicy interface {
	Mix(s BreakState) ([]Weighted, error)
}

// BasicProblem asks for the best Basic substitution policy of Player, who starts with Own,
// against an opponent who starts with Opponent and either keeps it (OpponentPolicy nil) or
// plays OpponentPolicy at every break, with the rules' move budget.
type BasicProblem struct {
	Rules          env.Rules
	Player         env.Player
	Own            env.Lineup
	Opponent       env.Lineup
	OpponentPolicy BreakPolicy
	// OpponentMix, instead of OpponentPolicy, is an opponent that draws its line-up at each
	// break from a mix: the player then maximises its expectation over the draw (it cannot
	// see the draw before choosing). Used to find a best response to an equilibrium.
	OpponentMix MixedBreakPolicy
	Objective   Objective
	// Context, if set, stops the solve when it is done: SolveBasic then returns its error
	// within a few milliseconds.
	Context context.Context
	// From, if set (against a fixed opponent only), solves the match from this break on:
	// only the breaks reachable from it, which Best then answers exactly as the whole-match
	// policy would — for a break late in the match a small part of the work. Value and
	// NoChangeValue are then the values at From; ValueFrom is not available.
	From *BreakState
	// MaxBreaks, if > 0, lowers the number of breaks a solve against an opponent policy may
	// hold (default and upper limit 100,000, ~8 KB each): beyond it SolveBasic returns an
	// error wrapping ErrTooLarge.
	MaxBreaks int
}

// adaptive reports whether the opponent may change its line-up.
func (p BasicProblem) adaptive() bool { return p.OpponentPolicy != nil || p.OpponentMix != nil }

// BreakState is what a Basic decision depends on: a break before a kick-off, seen by the
// deciding player. At the start of a period ThrowsLeft is the period's length.
type BreakState struct {
	Period       env.Period // FirstHalf..ExtraSecond: the period about to (re)start
	ThrowsLeft   int        // throws left in that period
	GoalDiff     int        // own goals − opponent goals
	Own          env.Lineup // current line-up
	MovesLeft    int
	OppLineup    env.Lineup // the opponent's current line-up
	OppMovesLeft int
}

// BreakStateOf reads the BreakState of player p from an env state at a Break decision
// (or at the start of a period).
func BreakStateOf(s env.State, p env.Player) BreakState {
	return BreakState{
		Period:       s.Period(),
		ThrowsLeft:   s.ThrowsLeft(),
		GoalDiff:     s.Goals(p) - s.Goals(p.Other()),
		Own:          s.Lineup(p),
		MovesLeft:    s.MovesLeft(p),
		OppLineup:    s.Lineup(p.Other()),
		OppMovesLeft: s.MovesLeft(p.Other()),
	}
}

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

// BasicPolicy is an optimal Basic policy: Best says what to do at any break, Value what it
// is worth. It is read-only after SolveBasic and safe for concurrent use.
type BasicPolicy struct {
	Problem  BasicProblem
	lengths  []int
	maxDiff  int
	moves    int                 // own budget, capped at 5 (no change costs more)
	blocks   map[blockKey]*block // against an opponent policy
	fixed    *fixedPolicy        // against a kept line-up
	start    oppConfig
	kickoff  []float64 // value from kick-off by starting line-up and budget
	value    float64
	noChange float64
}

// maxPolicyBlocks bounds the number of breaks (each ~8 KB) a policy may hold, about 800 MB.
const maxPolicyBlocks = 100_000

// ErrTooLarge is wrapped when a policy would not fit in memory.
var ErrTooLarge = errors.New("solver: policy too large")

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
	if p.OpponentPolicy != nil && p.OpponentMix != nil {
		return nil, errors.New("solver: give OpponentPolicy or OpponentMix, not both")
	}
	if p.adaptive() && r.Modes[p.Player.Other()] != env.Basic {
		return nil, errors.New("solver: an opponent policy needs the opponent in Basic mode")
	}
	if p.Objective == ObjectiveAdvance && !r.Knockout {
		return nil, errors.New("solver: objective advance needs knockout rules")
	}
	lengths, total := periodLengths(r)
	if !p.adaptive() { // refuse what cannot fit before allocating anything
		if err := CheckBasicSize(r); err != nil {
			return nil, err
		}
	}
	pensWin, err := pensWinFor(p.Player)
	if err != nil {
		return nil, err
	}
	oppMoves := 0
	if p.adaptive() {
		oppMoves = r.MoveBudget()
	}
	s := &basicSolver{
		pol: &BasicPolicy{Problem: p, lengths: lengths, maxDiff: total/throwsToScore() + 1, moves: min(r.MoveBudget(), 5),
			blocks: map[blockKey]*block{}, start: oppConfig{uint8(p.Opponent.Index()), uint8(oppMoves)}},
		r: r, final: newScorer(r, p.Objective, pensWin).final, laws: map[uint8][]goalLaw{}, lawsT: map[uint8]*goalLawT{}, ctx: p.Context,
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
	s.layout = newEntryLayout(env.Lineup{}, 0, s.pol.moves, s.neighbours) // every line-up and budget
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
	laws       map[uint8][]goalLaw // by opponent line-up: the law for each own line-up
	lawsT      map[uint8]*goalLawT // the same by throw
	neighbours [][]int
	reach      [][]int32    // reachLists(moves), for a mixed opponent
	layout     *entryLayout // every own line-up and budget, l*(moves+1)+m
	ctx        context.Context
	err        error
}

// CheckBasicSize reports, without solving, whether a Basic policy against a fixed opponent
// fits under r (an error wrapping ErrTooLarge if not): agents built on SolveBasic refuse such
// rules when they are built, not at their first break.
func CheckBasicSize(r env.Rules) error {
	lengths, total := periodLengths(r)
	if blocks := policyBlocks(lengths, total/throwsToScore()+1); blocks > maxPolicyBlocks {
		return fmt.Errorf("%w: %d-throw halves need %d breaks of ~8 KB each, more than the limit of %d (about 800 MB)", ErrTooLarge, r.HalfThrows(), blocks, maxPolicyBlocks)
	}
	return nil
}

// policyBlocks is the number of breaks a policy against a fixed opponent holds: every
// throw of every period by every goal difference up to ±maxDiff.
func policyBlocks(lengths []int, maxDiff int) int {
	n := 0
	for _, l := range lengths {
		n += l * (2*maxDiff + 1)
	}
	return n
}

// lawsAgainst returns the goal laws of every own line-up against opponent line-up o.
func (s *basicSolver) lawsAgainst(o uint8) []goalLaw {
	if l, ok := s.laws[o]; ok {
		return l
	}
	p := s.pol.Problem
	longest := max(s.pol.lengths[0], s.pol.lengths[len(s.pol.lengths)-1])
	laws := make([]goalLaw, env.NumLineups)
	for l := range laws {
		home, away := env.LineupAt(l), env.LineupAt(int(o))
		if p.Player == env.Away {
			home, away = away, home
		}
		laws[l] = firstGoalLaw(home, away, s.r.TiesCount, longest)
		if p.Player == env.Away {
			laws[l].home, laws[l].away = laws[l].away, laws[l].home
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
	n := len(laws[0].none)
	t := &goalLawT{home: make([][]float64, n), away: make([][]float64, n), none: make([][]float64, n)}
	for g := range n {
		t.home[g], t.away[g], t.none[g] = make([]float64, env.NumLineups), make([]float64, env.NumLineups), make([]float64, env.NumLineups)
		for l := range laws {
			t.home[g][l], t.away[g][l], t.none[g][l] = laws[l].home[g], laws[l].away[g], laws[l].none[g]
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
	if bp.Problem.OpponentMix != nil {
		s.mixedBlock(b, per, t, d, c)
		return b
	}
	// The opponent's simultaneous choice, for each of our current line-ups and budgets (once
	// for all when it says it does not look at them).
	next := make([]oppConfig, env.NumLineups*w)
	blind := false
	if b, ok := bp.Problem.OpponentPolicy.(interface{ IgnoresOpponent() bool }); ok {
		blind = b.IgnoresOpponent()
	}
	for i := range next {
		next[i] = c
		if blind && i > 0 {
			next[i] = next[0]
			continue
		}
		if pol := bp.Problem.OpponentPolicy; pol != nil && c.moves > 0 {
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
		s.layout.bestWithin(k, wv, wt)
		for i, n := range next {
			if n == oc {
				b.value[i], b.target[i] = wv[i], wt[i]
			}
		}
	}
	return b
}

// breakLimit is the most breaks the solve may hold.
func (p *BasicPolicy) breakLimit() int {
	if m := p.Problem.MaxBreaks; m > 0 && m < maxPolicyBlocks {
		return m
	}
	return maxPolicyBlocks
}

// Value is the policy's value from kick-off (no break before the first throw), or from
// Problem.From.
func (p *BasicPolicy) Value() float64 { return p.value }

// NoChangeValue is the value of never moving.
func (p *BasicPolicy) NoChangeValue() float64 { return p.noChange }

// ValueFrom is the policy's value had the player started with line-up l instead of
// Problem.Own (the same solve covers every starting line-up): the maximum over l is the
// best response's value, kick-off choice included.
// It is NaN for a policy solved From a break.
func (p *BasicPolicy) ValueFrom(l env.Lineup) float64 {
	if p.kickoff == nil {
		return math.NaN()
	}
	return p.kickoff[l.Index()*(p.moves+1)+p.moves]
}

// Breaks returns how many breaks the policy holds (a measure of its size).
func (p *BasicPolicy) Breaks() int {
	if p.fixed != nil {
		return p.fixed.breakCount()
	}
	return len(p.blocks)
}

// lookup returns the value at the break s and the line-up to play there.
func (p *BasicPolicy) lookup(s BreakState) (float64, env.Lineup, error) {
	per := int(s.Period) - int(env.FirstHalf)
	switch {
	case per < 0 || per >= len(p.lengths):
		return 0, env.Lineup{}, fmt.Errorf("solver: no break in period %s under these rules", s.Period)
	case s.ThrowsLeft < 1 || s.ThrowsLeft > p.lengths[per]:
		return 0, env.Lineup{}, fmt.Errorf("solver: %d throws left in a %d-throw period", s.ThrowsLeft, p.lengths[per])
	case s.GoalDiff < -p.maxDiff || s.GoalDiff > p.maxDiff:
		return 0, env.Lineup{}, fmt.Errorf("solver: goal difference %d out of range", s.GoalDiff)
	case !s.Own.Valid():
		return 0, env.Lineup{}, errors.New("solver: invalid line-up")
	case s.MovesLeft < 0:
		return 0, env.Lineup{}, fmt.Errorf("solver: %d moves left", s.MovesLeft)
	}
	if p.fixed != nil {
		return p.fixed.lookup(per, s.ThrowsLeft, s.GoalDiff, s.Own, min(s.MovesLeft, p.moves))
	}
	c := p.start
	if p.Problem.adaptive() {
		if !s.OppLineup.Valid() || s.OppMovesLeft < 0 {
			return 0, env.Lineup{}, errors.New("solver: this policy answers against an opponent policy: give OppLineup and OppMovesLeft")
		}
		c = oppConfig{uint8(s.OppLineup.Index()), uint8(s.OppMovesLeft)}
	}
	b, ok := p.blocks[blockKey{int16(per), int16(s.ThrowsLeft), int16(s.GoalDiff), c}]
	if !ok {
		return 0, env.Lineup{}, fmt.Errorf("solver: break not reachable against the opponent's policy (%s, %d left, difference %d, opponent %s with %d moves)",
			s.Period, s.ThrowsLeft, s.GoalDiff, s.OppLineup, s.OppMovesLeft)
	}
	i := s.Own.Index()*(p.moves+1) + min(s.MovesLeft, p.moves)
	return b.value[i], env.LineupAt(int(b.target[i])), nil
}

// Best returns the line-up to play after the break s (s.Own to keep it).
func (p *BasicPolicy) Best(s BreakState) (env.Lineup, error) {
	_, to, err := p.lookup(s)
	return to, err
}

// ValueAt returns the optimal value at the break s, before deciding.
func (p *BasicPolicy) ValueAt(s BreakState) (float64, error) {
	v, _, err := p.lookup(s)
	return v, err
}

// goalLaw is the law of the first goal after a kick-off: home[k], away[k] = P(the first goal
// is scored at throw k, by that side), none[k] = P(no goal in k throws).
type goalLaw struct{ home, away, none []float64 }

// firstGoalLaw steps the ball's distribution from kick-off with env's odds and MoveBall,
// removing the mass that scores.
func firstGoalLaw(home, away env.Lineup, tiesCount bool, n int) goalLaw {
	law := goalLaw{make([]float64, n+1), make([]float64, n+1), make([]float64, n+1)}
	st := newSectorTable(home, away, tiesCount)
	var cur, nxt [env.Sectors + 1]float64
	cur[env.KickOffSector] = 1
	law.none[0] = 1
	for k := 1; k <= n; k++ {
		nxt = [env.Sectors + 1]float64{}
		for b := 1; b <= env.Sectors; b++ {
			if cur[b] == 0 {
				continue
			}
			nxt[b] += cur[b] * (1 - st.win[b][0] - st.win[b][1]) // a tie that counts
			for w := range 2 {
				q := cur[b] * st.win[b][w]
				switch {
				case !st.scores[b][w]:
					nxt[st.next[b][w]] += q
				case w == int(env.Home):
					law.home[k] += q
				default:
					law.away[k] += q
				}
			}
		}
		cur = nxt
		for _, q := range cur {
			law.none[k] += q
		}
	}
	return law
}
