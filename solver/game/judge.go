// Judging play: the exact value to home of any moment of a match, and of any pair of line-ups chosen at a break, from the values the game holds at its breaks.

package game

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/internal/induction"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
)

// ErrNotJudged is wrapped when a state has no value here: a Dynamic decision, a
// penalty shoot-out under way (its kicks are not valued one by one).
var ErrNotJudged = errors.New("solver: no value for this state")

// ValueOf is the exact value to home of the match at s, both sides playing the game's
// equilibrium from there: the game's value at the first kick-off, a break's value, a throw's
// value from the throw recursion over the breaks that follow (the line-ups are kept until
// the next break), the payoff of a finished match. A shoot-out under way is refused with
// ErrNotJudged: its kicks are not valued one by one.
func (g *Game) ValueOf(ctx context.Context, s env.State) (float64, error) {
	if err := g.judges(s); err != nil {
		return 0, err
	}
	switch {
	case s.Node() == env.Terminal:
		d := s.Goals(env.Home) - s.Goals(env.Away)
		if s.PlayedShootout() && g.Problem.Payoff == lineup.PayoffAdvance { // only advance counts the shoot-out
			d = -1
			if w, _ := s.Winner(); w == env.Home {
				d = 1
			}
		}
		return g.final(d), nil
	case s.Period() == env.Penalties:
		return 0, fmt.Errorf("%w: a shoot-out under way", ErrNotJudged)
	case s.Decision() == env.KickOff:
		return g.Value(), nil
	case s.Decision() == env.Break:
		sol, err := g.At(StateOf(s))
		return sol.Value, err
	}
	c := g.configOf(s.Lineup(env.Home), s.MovesLeft(env.Home), s.Lineup(env.Away), s.MovesLeft(env.Away))
	vs, err := g.play(ctx, s.Period(), s.ThrowsLeft(), s.Goals(env.Home)-s.Goals(env.Away), []config{c}, s.Ball())
	if err != nil {
		return 0, err
	}
	return vs[0], nil
}

// ChoiceValues is the value to home of the kick-off after the decision at s (the first
// kick-off or a break) for each pair of line-ups: out[i][j] when home plays homes[i] and
// away aways[j], both then playing the equilibrium — the stage game's payoffs, row by row.
// A line-up a side cannot reach with its moves left is an error.
func (g *Game) ChoiceValues(ctx context.Context, s env.State, homes, aways []env.Lineup) ([][]float64, error) {
	if err := g.judges(s); err != nil {
		return nil, err
	}
	switch s.Decision() {
	case env.KickOff:
		if s.MovesLeft(env.Home) != g.Problem.Rules.MoveBudget() || s.MovesLeft(env.Away) != g.Problem.Rules.MoveBudget() {
			return nil, fmt.Errorf("%w: a kick-off with moves spent", ErrNotJudged)
		}
		a, err := g.kickOffValues(g.moves, g.moves)
		if err != nil {
			return nil, err
		}
		out := make([][]float64, len(homes))
		for i, h := range homes {
			out[i] = make([]float64, len(aways))
			for j, w := range aways {
				out[i][j] = a[h.Index()][w.Index()]
			}
		}
		return out, nil
	case env.Break:
		return g.BreakValues(ctx, StateOf(s), homes, aways)
	}
	return nil, fmt.Errorf("%w: the %s is not a choice of line-ups", ErrNotJudged, s.Decision())
}

// BreakValues is ChoiceValues at the break s: the value to home of the kick-off that
// follows when home plays homes[i] and away aways[j], both then playing the equilibrium.
func (g *Game) BreakValues(ctx context.Context, s State, homes, aways []env.Lineup) ([][]float64, error) {
	if !s.Home.Valid() || !s.Away.Valid() || s.HomeMoves < 0 || s.AwayMoves < 0 {
		return nil, fmt.Errorf("solver: a break needs two valid line-ups and moves left ≥ 0 (%v, %v, %d, %d)", s.Home, s.Away, s.HomeMoves, s.AwayMoves)
	}
	cs := make([]config, 0, len(homes)*len(aways))
	for _, h := range homes {
		hm := s.HomeMoves - s.Home.Moves(h)
		for _, w := range aways {
			am := s.AwayMoves - s.Away.Moves(w)
			if hm < 0 || am < 0 || !h.Valid() || !w.Valid() {
				return nil, fmt.Errorf("solver: %v v %v cannot follow %v (%d moves) v %v (%d moves)", h, w, s.Home, s.HomeMoves, s.Away, s.AwayMoves)
			}
			cs = append(cs, g.configOf(h, hm, w, am))
		}
	}
	vs, err := g.play(ctx, s.Period, s.ThrowsLeft, s.GoalDiff, cs, env.KickOffSector)
	if err != nil {
		return nil, err
	}
	out := make([][]float64, len(homes))
	for i := range homes {
		out[i] = vs[i*len(aways) : (i+1)*len(aways)]
	}
	return out, nil
}

// judges refuses a state of other rules or with a Dynamic side.
func (g *Game) judges(s env.State) error {
	if !s.Rules().Equal(g.Problem.Rules) {
		return fmt.Errorf("solver: a state under other rules (%s) than the game's (%s)", s.Rules(), g.Problem.Rules)
	}
	if s.Decision() == env.Shift {
		return fmt.Errorf("%w: a Dynamic shift", ErrNotJudged)
	}
	return nil
}

// config is a configuration of the game's recursion: each side's entry, line-up × (moves+1)
// + moves left.
type config struct{ home, away int }

func (g *Game) configOf(h env.Lineup, hm int, a env.Lineup, am int) config {
	w := g.moves + 1
	return config{h.Index()*w + min(hm, g.moves), a.Index()*w + min(am, g.moves)}
}

// play runs the throw recursion from period per, t throws left and difference d for the
// configurations cs, the breaks' values read from the game (a break where nobody can move is
// its kick-off), and returns each configuration's value there with the ball in sector ball.
func (g *Game) play(ctx context.Context, per env.Period, t, d int, cs []config, ball int) ([]float64, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	final, err := induction.GameFinal(g.Problem.Payoff)
	if err != nil {
		return nil, err
	}
	// Every difference: the recursion's shortcut (only those reachable from a kick-off at
	// From) would miss goals from a ball already forward. Breaks no match reaches are NaN,
	// and a NaN in a result is an error.
	ls := induction.GameLayers(g.Problem.Rules, g.Problem.Payoff, final, true)
	from := induction.BreakStart{Period: per, ThrowsLeft: t, GoalDiff: d}
	fp := int(from.Period) - int(env.FirstHalf)
	if fp < 0 || fp >= len(ls.Lengths) || from.ThrowsLeft < 1 || from.ThrowsLeft > ls.Lengths[fp] {
		return nil, fmt.Errorf("%w: %s with %d throws left", ErrNotJudged, from.Period, from.ThrowsLeft)
	}
	ls.From, ls.Size, ls.Ctx, ls.Consts = from, len(cs), ctx, map[float64][]float64{}
	configSectors(ls, cs, g.moves+1)
	out := make([]float64, len(cs))
	var buf stageBuf
	w := g.moves + 1
	ls.Step = func(per, t int, u *induction.BallLayer) (*induction.BreakLayer, error) {
		if per == fp && t == from.ThrowsLeft {
			v, add := ls.Ball(u, from.GoalDiff, ball)
			for i := range out {
				out[i] = v[i] + add
			}
		}
		lay := &induction.BreakLayer{Lo: u.Lo, Value: make([]float64, u.N*len(cs))}
		if per == fp && t == from.ThrowsLeft {
			return lay, nil // no goal reaches these breaks: they are not read
		}
		for dd := range u.N {
			kick, _ := ls.Ball(u, u.Lo+dd, env.KickOffSector)
			for i, c := range cs {
				v := kick[i] // nobody can move: the break is its kick-off
				if c.home%w != 0 || c.away%w != 0 {
					var err error
					if v, err = g.breakValue(per, t, u.Lo+dd, c, &buf); err != nil {
						return nil, err
					}
				}
				lay.Value[dd*len(cs)+i] = v
			}
		}
		return lay, nil
	}
	if err := ls.Run(); err != nil {
		return nil, err
	}
	for _, v := range out {
		if math.IsNaN(v) {
			return nil, fmt.Errorf("%w: %s with %d throws left and difference %+d is not reached by a match", ErrNotSolved, from.Period, from.ThrowsLeft, from.GoalDiff)
		}
	}
	return out, nil
}

// configSectors fills ls's throw coefficients for the configurations cs.
func configSectors(ls *induction.Layers, cs []config, w int) {
	ls.MoveTables(env.Home)
	for b := 1; b <= env.Sectors; b++ {
		for k := range ls.Coef[b] {
			if k < 2 || ls.R.TiesCount {
				ls.Coef[b][k] = make([]float64, ls.Size)
			}
		}
	}
	for i, c := range cs {
		st := odds.NewSectorTable(env.LineupAt(c.home/w), env.LineupAt(c.away/w), ls.R.TiesCount)
		setThrowOdds(ls, i, &st.Win)
	}
}

// breakValue is the value the game holds at the break (per, t, d) of configuration c, d
// held (0 in an additive game); NaN where no match reaches.
func (g *Game) breakValue(per, t, d int, c config, buf *stageBuf) (float64, error) {
	kl := g.kicks[per][t]
	if kl == nil || d < kl.lo || d >= kl.lo+kl.n {
		return math.NaN(), nil
	}
	ans, err := g.answerAt(per, t, d, c.home, c.away, buf)
	return ans.value, err
}
