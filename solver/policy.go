package solver

import (
	"errors"
	"fmt"

	"github.com/kingoal/kingoal/env"
)

// Objective is what a policy maximises, always from its own player's point of view.
type Objective uint8

const (
	ObjectiveWin     Objective = iota // P(win); in a knockout a shoot-out win counts
	ObjectivePoints                   // expected league points (goals in play)
	ObjectiveWinDraw                  // P(win) + ½ P(draw)
	ObjectiveAdvance                  // P(going through) in a knockout
)

var objectiveNames = [...]string{"win", "points", "win-draw", "advance"}

func (o Objective) String() string {
	if int(o) < len(objectiveNames) {
		return objectiveNames[o]
	}
	return fmt.Sprintf("objective(%d)", o)
}

// ParseObjective reads win, points, win-draw or advance.
func ParseObjective(s string) (Objective, error) {
	for i, n := range objectiveNames {
		if s == n {
			return Objective(i), nil
		}
	}
	return 0, fmt.Errorf("solver: objective %q: want win, points, win-draw or advance", s)
}

// periodLengths lists the throws of each period a match may play (two halves, and two
// extra-time halves in a knockout that has them) and their sum.
func periodLengths(r env.Rules) (lengths []int, total int) {
	lengths = []int{r.HalfThrows(), r.HalfThrows()}
	if r.Knockout && r.ExtraThrows() > 0 {
		lengths = append(lengths, r.ExtraThrows(), r.ExtraThrows())
	}
	for _, n := range lengths {
		total += n
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

// BasicProblem asks for the best Basic substitution policy of Player, who starts with Own,
// against an opponent who keeps Opponent all match.
type BasicProblem struct {
	Rules     env.Rules
	Player    env.Player
	Own       env.Lineup
	Opponent  env.Lineup
	Objective Objective
}

// BreakState is what a Basic decision depends on: a break before a kick-off, seen by the
// deciding player. At the start of a period ThrowsLeft is the period's length.
type BreakState struct {
	Period     env.Period // FirstHalf..ExtraSecond: the period about to (re)start
	ThrowsLeft int        // throws left in that period
	GoalDiff   int        // own goals − opponent goals
	Own        env.Lineup // current line-up
	MovesLeft  int
}

// BreakStateOf reads the BreakState of player p from an env state at a Break decision
// (or at the start of a period).
func BreakStateOf(s env.State, p env.Player) BreakState {
	return BreakState{
		Period:     s.Period(),
		ThrowsLeft: s.ThrowsLeft(),
		GoalDiff:   s.Goals(p) - s.Goals(p.Other()),
		Own:        s.Lineup(p),
		MovesLeft:  s.MovesLeft(p),
	}
}

// BasicPolicy is an optimal Basic policy: Act says what to do at any break, Value what it
// is worth. It is read-only after SolveBasic and safe for concurrent use.
type BasicPolicy struct {
	Problem BasicProblem
	grid    breakGrid
	value   []float64 // V at a break, before deciding
	target  []uint8   // the line-up index to play after the break
	kick    []float64 // K: value right after kick-off, line-up decided
}

// breakGrid indexes (period, throws left, goal difference, line-up, moves left).
type breakGrid struct {
	lengths []int // per period index: 0 first half, 1 second, 2-3 extra time
	base    []int // offset of each period
	maxDiff int
	moves   int
}

func (g breakGrid) size() int { return g.base[len(g.base)-1] }

func (g breakGrid) index(per, t, d, l, m int) int {
	return g.base[per] + (((t*(2*g.maxDiff+1)+d+g.maxDiff)*env.NumLineups+l)*(g.moves+1) + m)
}

// maxPolicyCells bounds the table size (each cell costs 17 bytes), about 700 MB.
const maxPolicyCells = 40_000_000

// SolveBasic computes the optimal Basic policy by backward induction over breaks. Between
// two breaks the ball starts at midfield and line-ups are fixed, so the law of the next
// goal (who scores, after how many throws) is all the match contributes; at a break the
// player picks the best line-up within its moves, one single move at a time (the move cost
// is the length of the shortest path of single moves, and unspent moves never hurt).
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
	if p.Objective == ObjectiveAdvance && !r.Knockout {
		return nil, errors.New("solver: objective advance needs knockout rules")
	}
	lengths, total := periodLengths(r)
	g := breakGrid{lengths: lengths, maxDiff: total/throwsToScore() + 1, moves: min(r.MoveBudget(), 5)}
	g.base = make([]int, len(lengths)+1)
	for i, n := range lengths {
		g.base[i+1] = g.base[i] + (n+1)*(2*g.maxDiff+1)*env.NumLineups*(g.moves+1)
	}
	if g.size() > maxPolicyCells {
		return nil, fmt.Errorf("solver: a policy for %d-throw halves needs %d cells, more than %d", r.HalfThrows(), g.size(), maxPolicyCells)
	}
	pensWin, err := pensWinFor(p.Player)
	if err != nil {
		return nil, err
	}
	bp := &BasicPolicy{Problem: p, grid: g, value: make([]float64, g.size()), target: make([]uint8, g.size()), kick: make([]float64, g.size())}

	// The law of the next goal for each own line-up, up to the longest period.
	longest := max(lengths[0], lengths[len(lengths)-1])
	laws := make([]goalLaw, env.NumLineups)
	for l := range laws {
		home, away := env.LineupAt(l), p.Opponent
		if p.Player == env.Away {
			home, away = away, home
		}
		laws[l] = firstGoalLaw(home, away, r.TiesCount, longest)
		if p.Player == env.Away {
			laws[l].home, laws[l].away = laws[l].away, laws[l].home
		}
	}
	neighbours := make([][]int, env.NumLineups)
	for l := range neighbours {
		m := env.LineupAt(l).Reachable(1)
		for _, n := range m.Actions() {
			if n != l {
				neighbours[l] = append(neighbours[l], n)
			}
		}
	}
	final := newScorer(r, p.Objective, pensWin).final
	// end is the value at the end of period per with difference d, line-up l, m moves left.
	end := func(per, d, l, m int) float64 {
		last := per == len(lengths)-1
		switch {
		case per == 0 || per == 2:
			return bp.value[g.index(per+1, lengths[per+1], d, l, m)] // the next half's break
		case !r.Knockout || d != 0:
			return final(d, false)
		case per == 1 && !last:
			return bp.value[g.index(2, lengths[2], d, l, m)] // the break before extra time
		}
		return final(0, true)
	}
	// afterGoal is the value after a goal with t throws left: a break, or the period's end.
	afterGoal := func(per, t, d, l, m int) float64 {
		switch {
		case d < -g.maxDiff || d > g.maxDiff:
			return final(d, false) // unreachable: more goals than the throws allow
		case t == 0:
			return end(per, d, l, m)
		}
		return bp.value[g.index(per, t, d, l, m)]
	}
	for per := len(lengths) - 1; per >= 0; per-- {
		for t := 1; t <= lengths[per]; t++ {
			for d := -g.maxDiff; d <= g.maxDiff; d++ {
				for l := 0; l < env.NumLineups; l++ {
					law := &laws[l]
					for m := 0; m <= g.moves; m++ {
						k := law.none[t] * end(per, d, l, m)
						for s := 1; s <= t; s++ {
							if law.home[s] != 0 {
								k += law.home[s] * afterGoal(per, t-s, d+1, l, m)
							}
							if law.away[s] != 0 {
								k += law.away[s] * afterGoal(per, t-s, d-1, l, m)
							}
						}
						bp.kick[g.index(per, t, d, l, m)] = k
					}
				}
				// Decide, cheapest budgets first: V(l, m) = max(K(l, m), V(n, m−1) for one-move neighbours n).
				for m := 0; m <= g.moves; m++ {
					for l := 0; l < env.NumLineups; l++ {
						i := g.index(per, t, d, l, m)
						best, arg := bp.kick[i], l
						if m > 0 {
							for _, n := range neighbours[l] {
								j := g.index(per, t, d, n, m-1)
								if v := bp.value[j]; v > best+1e-15 {
									best, arg = v, int(bp.target[j])
								}
							}
						}
						bp.value[i], bp.target[i] = best, uint8(arg)
					}
				}
			}
		}
	}
	return bp, nil
}

// Value is the policy's value from kick-off (no break before the first throw).
func (p *BasicPolicy) Value() float64 {
	return p.kick[p.grid.index(0, p.grid.lengths[0], 0, p.Problem.Own.Index(), p.grid.moves)]
}

// NoChangeValue is the value of never moving.
func (p *BasicPolicy) NoChangeValue() float64 {
	return p.kick[p.grid.index(0, p.grid.lengths[0], 0, p.Problem.Own.Index(), 0)]
}

func (p *BasicPolicy) cell(s BreakState) (int, error) {
	per := int(s.Period) - int(env.FirstHalf)
	g := p.grid
	switch {
	case per < 0 || per >= len(g.lengths):
		return 0, fmt.Errorf("solver: no break in period %s under these rules", s.Period)
	case s.ThrowsLeft < 1 || s.ThrowsLeft > g.lengths[per]:
		return 0, fmt.Errorf("solver: %d throws left in a %d-throw period", s.ThrowsLeft, g.lengths[per])
	case s.GoalDiff < -g.maxDiff || s.GoalDiff > g.maxDiff:
		return 0, fmt.Errorf("solver: goal difference %d out of range", s.GoalDiff)
	case !s.Own.Valid():
		return 0, errors.New("solver: invalid line-up")
	case s.MovesLeft < 0:
		return 0, fmt.Errorf("solver: %d moves left", s.MovesLeft)
	}
	return g.index(per, s.ThrowsLeft, s.GoalDiff, s.Own.Index(), min(s.MovesLeft, g.moves)), nil
}

// Act returns the line-up to play after the break s (s.Own to keep it).
func (p *BasicPolicy) Act(s BreakState) (env.Lineup, error) {
	i, err := p.cell(s)
	if err != nil {
		return env.Lineup{}, err
	}
	return env.LineupAt(int(p.target[i])), nil
}

// ValueAt returns the optimal value at the break s, before deciding.
func (p *BasicPolicy) ValueAt(s BreakState) (float64, error) {
	i, err := p.cell(s)
	if err != nil {
		return 0, err
	}
	return p.value[i], nil
}

// goalLaw is the law of the first goal after a kick-off: home[k], away[k] = P(the first goal
// is scored at throw k, by that side), none[k] = P(no goal in k throws).
type goalLaw struct{ home, away, none []float64 }

// firstGoalLaw steps the ball's distribution from kick-off with env's odds and MoveBall,
// removing the mass that scores.
func firstGoalLaw(home, away env.Lineup, tiesCount bool, n int) goalLaw {
	law := goalLaw{make([]float64, n+1), make([]float64, n+1), make([]float64, n+1)}
	var cur, nxt [env.Sectors + 1]float64
	cur[env.KickOffSector] = 1
	law.none[0] = 1
	for k := 1; k <= n; k++ {
		nxt = [env.Sectors + 1]float64{}
		for b := 1; b <= env.Sectors; b++ {
			if cur[b] == 0 {
				continue
			}
			hd, ad := env.DiceFor(home, away, b)
			ph, pa, pt := env.ThrowOdds(hd, ad, tiesCount)
			nxt[b] += cur[b] * pt
			for w, pw := range [2]float64{ph, pa} {
				to, goal := env.MoveBall(b, env.Player(w))
				switch {
				case !goal:
					nxt[to] += cur[b] * pw
				case w == int(env.Home):
					law.home[k] += cur[b] * pw
				default:
					law.away[k] += cur[b] * pw
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
