package policy

import (
	"context"
	"errors"
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/odds"
)

// DynamicProblem asks for the best shift policy of a Dynamic Player, who starts with Own,
// against an opponent who keeps Opponent all match.
type DynamicProblem struct {
	Rules     env.Rules
	Player    env.Player
	Own       env.Lineup
	Opponent  env.Lineup
	Objective odds.Objective
	Context   context.Context // if set, stops the solve when done (see BasicProblem)
}

// DynamicPolicy is an optimal Dynamic shift policy. It is read-only after SolveDynamic and
// safe for concurrent use.
type DynamicPolicy struct {
	Problem  DynamicProblem
	lengths  []int
	base     []int
	maxDiff  int
	poss     int       // possession slots: 1 (every win earns a shift) or 3 (turnover)
	value    []float64 // V at a throw: (period, throws left, ball, diff, line-up, possession)
	noChange float64
}

// maxDynamicCells bounds the value table (8 bytes a cell), about 640 MB.
const maxDynamicCells = 80_000_000

const (
	possNone = iota
	possOwn
	possOpp
)

// dynamicBases are the offsets of each period's cells in the value table.
func dynamicBases(lengths []int, maxDiff, poss int) []int {
	base := make([]int, len(lengths)+1)
	for i, n := range lengths {
		base[i+1] = base[i] + (n+1)*env.Sectors*(2*maxDiff+1)*env.NumLineups*poss
	}
	return base
}

// CheckDynamicSize reports, without solving, whether a Dynamic policy fits under r (an error
// wrapping ErrTooLarge if not).
func CheckDynamicSize(r env.Rules) error {
	lengths, total := odds.PeriodLengths(r)
	poss := 1
	if r.DynamicTrigger == env.TriggerTurnover {
		poss = 3
	}
	if cells := dynamicBases(lengths, total/odds.ThrowsToScore()+1, poss)[len(lengths)]; cells > maxDynamicCells {
		return fmt.Errorf("%w: a dynamic policy for %d-throw halves needs %d cells, more than %d", ErrTooLarge, r.HalfThrows(), cells, maxDynamicCells)
	}
	return nil
}

func (p *DynamicPolicy) index(per, t, ball, d, l, poss int) int {
	return p.base[per] + ((((t*env.Sectors+ball-1)*(2*p.maxDiff+1)+d+p.maxDiff)*env.NumLineups+l)*p.poss + poss)
}

// SolveDynamic computes the optimal shift policy by backward induction over throws: at a
// throw the value is the expectation over its outcomes; after a throw that earns a shift
// the player takes the best of its current line-up and its one-counter adjacent shifts.
func SolveDynamic(p DynamicProblem) (*DynamicPolicy, error) {
	if err := checkDynamic(p); err != nil {
		return nil, err
	}
	s, err := newDynamicSolver(p)
	if err != nil {
		return nil, err
	}
	ctx := p.Context
	if ctx == nil {
		ctx = context.Background()
	}
	dp := s.dp
	for per := len(s.lengths) - 1; per >= 0; per-- {
		for t := 1; t <= s.lengths[per]; t++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			for b := 1; b <= env.Sectors; b++ {
				for d := -dp.maxDiff; d <= dp.maxDiff; d++ {
					for l := range env.NumLineups {
						for poss := range dp.poss {
							dp.value[dp.index(per, t, b, d, l, poss)] = s.cell(per, t, b, d, l, poss)
						}
					}
				}
			}
		}
	}
	home, away := p.Own, p.Opponent
	if p.Player == env.Away {
		home, away = away, home
	}
	o, err := odds.MatchOdds(home, away, p.Rules)
	if err != nil {
		return nil, err
	}
	dp.noChange = objectiveFromOdds(o, p.Player, p.Objective, p.Rules)
	return dp, nil
}

// checkDynamic refuses a problem SolveDynamic cannot answer.
func checkDynamic(p DynamicProblem) error {
	if err := p.Rules.Validate(); err != nil {
		return err
	}
	switch {
	case !p.Own.Valid() || !p.Opponent.Valid() || p.Player > env.Away:
		return errors.New("solver: dynamic policy needs two valid line-ups and a player")
	case p.Rules.Modes[p.Player] != env.Dynamic:
		return errors.New("solver: the player must be in Dynamic mode (set Rules.Modes)")
	case p.Objective == odds.ObjectiveAdvance && !p.Rules.Knockout:
		return errors.New("solver: objective advance needs knockout rules")
	}
	return CheckDynamicSize(p.Rules)
}

// dynamicSolver holds what SolveDynamic's recursion reads: the throws' odds by own line-up
// and ball (from the player's side), where a won throw takes the ball, each line-up's shifts,
// and the scorer of a finished match.
type dynamicSolver struct {
	r        env.Rules
	dp       *DynamicPolicy
	lengths  []int
	turnover bool
	final    func(d int, shootout bool) float64
	odds     [env.NumLineups][env.Sectors + 1][3]float64 // own win, opponent win, tie
	moved    [env.Sectors + 1][2]struct {
		ball int
		goal bool
	} // [ball][0: own win, 1: the opponent's]
	shifts [][]int
}

func newDynamicSolver(p DynamicProblem) (*dynamicSolver, error) {
	r := p.Rules
	pensWin, err := odds.PensWinFor(p.Player)
	if err != nil {
		return nil, err
	}
	lengths, total := odds.PeriodLengths(r)
	s := &dynamicSolver{r: r, lengths: lengths, turnover: r.DynamicTrigger == env.TriggerTurnover,
		final: odds.NewScorer(r, p.Objective, pensWin).Final, shifts: make([][]int, env.NumLineups)}
	s.dp = &DynamicPolicy{Problem: p, lengths: lengths, maxDiff: total/odds.ThrowsToScore() + 1, poss: 1}
	if s.turnover {
		s.dp.poss = 3
	}
	s.dp.base = dynamicBases(lengths, s.dp.maxDiff, s.dp.poss)
	s.dp.value = make([]float64, s.dp.base[len(lengths)])
	me, them := p.Player, p.Player.Other()
	for l := range env.NumLineups {
		for b := 1; b <= env.Sectors; b++ {
			home, away := env.LineupAt(l), p.Opponent
			if me == env.Away {
				home, away = away, home
			}
			hd, ad := env.DiceFor(home, away, b)
			h, a, t := env.ThrowOdds(hd, ad, r.TiesCount)
			if me == env.Away {
				h, a = a, h
			}
			s.odds[l][b] = [3]float64{h, a, t}
		}
	}
	for b := 1; b <= env.Sectors; b++ {
		for w, pl := range [2]env.Player{me, them} {
			s.moved[b][w].ball, s.moved[b][w].goal = env.MoveBall(b, pl)
		}
	}
	for l := range s.shifts {
		s.shifts[l] = env.LineupAt(l).Shifts().Actions()
	}
	return s, nil
}

// cell is the value before a throw with t throws left in period per, ball b, difference d,
// own line-up l and possession poss: the expectation over the throw's outcomes, the best
// shift taken after one won.
func (s *dynamicSolver) cell(per, t, b, d, l, poss int) float64 {
	o := &s.odds[l][b]
	v := 0.0
	if o[0] != 0 { // own win: maybe a shift
		mv := s.moved[b][0]
		nd, np := d, s.possAfter(possOwn, mv.goal)
		if mv.goal {
			nd++
		}
		best := s.after(per, t-1, mv.ball, nd, l, np)
		if me := s.dp.Problem.Player; s.r.EarnsShift(me, me, poss == possOwn) {
			for _, sh := range s.shifts[l] {
				best = max(best, s.after(per, t-1, mv.ball, nd, sh, np))
			}
		}
		v += o[0] * best
	}
	if o[1] != 0 {
		mv := s.moved[b][1]
		nd := d
		if mv.goal {
			nd--
		}
		v += o[1] * s.after(per, t-1, mv.ball, nd, l, s.possAfter(possOpp, mv.goal))
	}
	if o[2] != 0 {
		v += o[2] * s.after(per, t-1, b, d, l, poss)
	}
	return v
}

// after is the value once a throw has left t throws in period per, ball b, difference d.
func (s *dynamicSolver) after(per, t, b, d, l, poss int) float64 {
	dp := s.dp
	if d < -dp.maxDiff || d > dp.maxDiff {
		return s.final(d, false) // unreachable: more goals than the throws allow
	}
	if t > 0 {
		return dp.value[dp.index(per, t, b, d, l, poss)]
	}
	switch next := s.r.AfterPeriod(env.FirstHalf+env.Period(per), d == 0); next {
	case env.FullTime:
		return s.final(d, false)
	case env.Penalties:
		return s.final(0, true)
	default: // the next period's kick-off
		np := int(next - env.FirstHalf)
		return dp.value[dp.index(np, s.lengths[np], env.KickOffSector, d, l, possNone)]
	}
}

// possAfter is the possession after a throw won by winner (possOwn or possOpp): nobody's
// after a goal, and only the turnover trigger tracks it.
func (s *dynamicSolver) possAfter(winner int, goal bool) int {
	if !s.turnover || goal {
		return possNone
	}
	return winner
}

// objectiveFromOdds is the objective of player me for a match with fixed line-ups.
func objectiveFromOdds(o odds.Odds, me env.Player, obj odds.Objective, r env.Rules) float64 {
	pts := r.LeaguePoints()
	points := func(w, d, l float64) float64 { return w*float64(pts.Win) + d*float64(pts.Draw) + l*float64(pts.Loss) }
	awayAdvance := o.AwayWin // a league: going through means winning
	if r.Knockout {
		awayAdvance = 1 - o.HomeAdvance - o.Truncated
	}
	e := Evaluation{HomeWin: o.HomeWin, Draw: o.Draw, AwayWin: o.AwayWin, HomeAdvance: o.HomeAdvance, AwayAdvance: awayAdvance,
		HomeGoals: o.HomeGoals, AwayGoals: o.AwayGoals, Truncated: o.Truncated,
		HomePoints: points(o.HomeWin, o.Draw, o.AwayWin), AwayPoints: points(o.AwayWin, o.Draw, o.HomeWin)}
	return e.Objective(obj, me, r)
}

// Value is the policy's value from kick-off.
func (p *DynamicPolicy) Value() float64 {
	return p.value[p.index(0, p.lengths[0], env.KickOffSector, 0, p.Problem.Own.Index(), possNone)]
}

// NoChangeValue is the value of never shifting (MatchOdds of the starting line-ups).
func (p *DynamicPolicy) NoChangeValue() float64 { return p.noChange }

// ShiftState is what a Dynamic decision depends on: the throw about to be played, seen by
// the deciding player, with its line-up candidate in Own.
type ShiftState struct {
	Period     env.Period // FirstHalf..ExtraSecond
	ThrowsLeft int        // throws left in the period
	Ball       int        // home coordinates, 1..5
	GoalDiff   int        // own − opponent
	Own        env.Lineup
	Possession int // +1 the player won the last throw since kick-off, −1 the opponent, 0 none
}

// ShiftStateOf reads player p's ShiftState from an env state whose next node is a throw (a
// Shift decision is followed by one; a break in between changes nothing p can shift).
func ShiftStateOf(s env.State, p env.Player) ShiftState {
	st := ShiftState{Period: s.Period(), ThrowsLeft: s.ThrowsLeft(), Ball: s.Ball(), GoalDiff: s.Goals(p) - s.Goals(p.Other()), Own: s.Lineup(p)}
	if w, ok := s.Possession(); ok {
		st.Possession = -1
		if w == p {
			st.Possession = 1
		}
	}
	return st
}

func (p *DynamicPolicy) key(s ShiftState) (int, error) {
	per := int(s.Period) - int(env.FirstHalf)
	switch {
	case per < 0 || per >= len(p.lengths):
		return 0, fmt.Errorf("solver: no throws in period %s under these rules", s.Period)
	case s.ThrowsLeft < 1 || s.ThrowsLeft > p.lengths[per]:
		return 0, fmt.Errorf("solver: %d throws left in a %d-throw period", s.ThrowsLeft, p.lengths[per])
	case s.Ball < 1 || s.Ball > env.Sectors:
		return 0, fmt.Errorf("solver: ball in sector %d", s.Ball)
	case s.GoalDiff < -p.maxDiff || s.GoalDiff > p.maxDiff:
		return 0, fmt.Errorf("solver: goal difference %d out of range", s.GoalDiff)
	case !s.Own.Valid():
		return 0, errors.New("solver: invalid line-up")
	}
	poss := possNone
	if p.poss == 3 {
		switch {
		case s.Possession > 0:
			poss = possOwn
		case s.Possession < 0:
			poss = possOpp
		}
	}
	return p.index(per, s.ThrowsLeft, s.Ball, s.GoalDiff, s.Own.Index(), poss), nil
}

// Best returns the best of s.Own and its one-counter adjacent shifts for the throw s, and
// its value; s.Own is kept unless a shift is strictly better.
func (p *DynamicPolicy) Best(s ShiftState) (env.Lineup, float64, error) {
	i, err := p.key(s)
	if err != nil {
		return env.Lineup{}, 0, err
	}
	arg, best := s.Own, p.value[i]
	for _, a := range s.Own.Shifts().Actions() {
		c := s
		c.Own = env.LineupAt(a)
		j, _ := p.key(c)
		if v := p.value[j]; v > best+1e-15 {
			best, arg = v, c.Own
		}
	}
	return arg, best, nil
}

// BestIn returns the best choice at a Shift decision of the policy's player in the env
// state s.
func (p *DynamicPolicy) BestIn(s env.State) (env.Lineup, error) {
	me := p.Problem.Player
	if s.Decision() != env.Shift || s.Shifter() != me {
		return env.Lineup{}, fmt.Errorf("solver: not a shift decision of %s", me)
	}
	if s.Lineup(me.Other()) != p.Problem.Opponent {
		return env.Lineup{}, fmt.Errorf("solver: the policy was solved against %s, not %s", p.Problem.Opponent, s.Lineup(me.Other()))
	}
	l, _, err := p.Best(ShiftStateOf(s, me))
	return l, err
}

// ValueAt returns the value of the throw s with the line-up s.Own.
func (p *DynamicPolicy) ValueAt(s ShiftState) (float64, error) {
	i, err := p.key(s)
	if err != nil {
		return 0, err
	}
	return p.value[i], nil
}

// Action plays the Dynamic policy: its starting line-up at kick-off, BestIn at shifts.
func (dp *DynamicPolicy) Action(s env.State, p env.Player) (int, error) {
	switch s.Decision() {
	case env.KickOff:
		return dp.Problem.Own.Index(), nil
	case env.Shift:
		l, err := dp.BestIn(s)
		return l.Index(), err
	}
	return s.Lineup(p).Index(), nil
}
