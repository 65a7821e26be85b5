package lineup

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/odds"
	"github.com/kingoal/kingoal/solver/zerosum"
)

// Payoff is what the line-up game's players maximise (home) and minimise (away).
type Payoff uint8

const (
	PayoffWinLoss  Payoff = iota // P(home win) − P(away win)
	PayoffGoalDiff               // expected home goals − away goals
	PayoffPoints                 // expected league points of home − of away
	PayoffAdvance                // P(home advances) − P(away advances) (knockout)
)

var payoffNames = [...]string{"win-loss", "goal-diff", "points", "advance"}

// payoffScales say what a value under each payoff measures, for every printed figure.
var payoffScales = [...]string{"P(win) − P(loss), from −1 to 1; a fair game is 0", "goals: home's expected goals − away's",
	"league points: home's expected points − away's", "P(advance) − P(out), from −1 to 1; a fair game is 0"}

// Scale says what a value under p measures (issue 64: values on this scale, where the
// symmetric game is 0, stood beside NashConv on the score scale, where it is ½).
func (p Payoff) Scale() string {
	if int(p) < len(payoffScales) {
		return payoffScales[p]
	}
	return p.String()
}

func (p Payoff) String() string {
	if int(p) < len(payoffNames) {
		return payoffNames[p]
	}
	return fmt.Sprintf("payoff(%d)", p)
}

// ParsePayoff reads win-loss, goal-diff, points or advance.
func ParsePayoff(s string) (Payoff, error) {
	for i, n := range payoffNames {
		if s == n {
			return Payoff(i), nil
		}
	}
	return 0, fmt.Errorf("solver: payoff %q: want win-loss, goal-diff, points or advance", s)
}

// Of returns the payoff of one cell under rules r (points come from r).
func (p Payoff) Of(c odds.Cell, r env.Rules) float64 {
	switch p {
	case PayoffGoalDiff:
		return c.HomeGoals - c.AwayGoals
	case PayoffPoints:
		pt := r.LeaguePoints()
		home := c.HomeWin*float64(pt.Win) + c.Draw*float64(pt.Draw) + c.AwayWin*float64(pt.Loss)
		away := c.AwayWin*float64(pt.Win) + c.Draw*float64(pt.Draw) + c.HomeWin*float64(pt.Loss)
		return home - away
	case PayoffAdvance:
		return 2*c.HomeAdvance - 1
	}
	return c.HomeWin - c.AwayWin
}

// LineupEquilibrium is a verified equilibrium of the hidden line-up choice.
type LineupEquilibrium struct {
	Payoff Payoff
	Value  float64        // the game's value to home
	Home   []env.Weighted // home's optimal mix, most likely first
	Away   []env.Weighted // away's optimal mix
	// Exploitability is what a best pure reply gains against the pair: max over home
	// line-ups of their payoff against Away minus min over away line-ups against Home.
	// It is ≥ 0 and 0 for an exact equilibrium.
	Exploitability float64
	Dominated      int // line-ups (rows + columns) removed as dominated before the LP
}

// Equilibrium solves the zero-sum game whose payoff to home for line-ups (i, j) is
// payoff.Of(m.At(i, j)) (zerosum.SolveMatrixGame: dominance removal, each side's linear program,
// the check against every pure reply); an answer off by more than zerosum.VerifyTol is an error
// wrapping ErrUnverified, never a result.
func Equilibrium(m *odds.OddsMatrix, payoff Payoff) (LineupEquilibrium, error) {
	if payoff > PayoffAdvance {
		return LineupEquilibrium{}, fmt.Errorf("solver: payoff %d unknown", payoff)
	}
	if payoff == PayoffAdvance && !m.Rules.Knockout {
		return LineupEquilibrium{}, errors.New("solver: payoff advance needs knockout rules")
	}
	const n = env.NumLineups
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n)
		for j := range a[i] {
			a[i][j] = payoff.Of(m.At(i, j), m.Rules)
		}
	}
	g, err := zerosum.SolveMatrixGame(a)
	if err != nil {
		return LineupEquilibrium{}, err
	}
	return LineupEquilibrium{
		Payoff:         payoff,
		Value:          g.Value,
		Home:           MixOf(g.X),
		Away:           MixOf(g.Y),
		Exploitability: g.Exploitability,
		Dominated:      g.Dominated,
	}, nil
}

// MixOf lists the line-ups with probability above zerosum.SupportTol, renormalised, most likely
// first.
func MixOf(p []float64) []env.Weighted {
	var out []env.Weighted
	total := 0.0
	for i, q := range p {
		if q > zerosum.SupportTol {
			out = append(out, env.Weighted{Lineup: env.LineupAt(i), Prob: q})
			total += q
		}
	}
	for k := range out {
		out[k].Prob /= total
	}
	slices.SortStableFunc(out, func(a, b env.Weighted) int {
		return cmp.Or(cmp.Compare(b.Prob, a.Prob), a.Lineup.Index()-b.Lineup.Index())
	})
	return out
}

// Reply is one home line-up's result against an away mix.
type Reply struct {
	Lineup    env.Lineup
	Payoff    float64 // expected payoff to home
	odds.Cell         // expected odds against the mix
}

// checkMix refuses a mix that is not a probability distribution over line-ups.
func checkMix(mix []env.Weighted) error {
	total := 0.0
	for _, w := range mix {
		if !w.Lineup.Valid() || w.Prob < 0 || math.IsNaN(w.Prob) {
			return fmt.Errorf("solver: bad mix entry %v %v", w.Lineup, w.Prob)
		}
		total += w.Prob
	}
	if math.Abs(total-1) > zerosum.VerifyTol {
		return fmt.Errorf("solver: mix probabilities sum to %v, want 1", total)
	}
	return nil
}

// MixPayoffs returns, for every line-up l of player p (by index), p's expected payoff when p
// plays l and the opponent plays the mix opp — from p's point of view, so away's is the
// negated payoff to home. BestResponses ranks home's with the rest of the odds.
func MixPayoffs(m *odds.OddsMatrix, payoff Payoff, p env.Player, opp []env.Weighted) ([]float64, error) {
	if err := checkMix(opp); err != nil {
		return nil, err
	}
	q := make([]float64, env.NumLineups)
	for l := range q {
		for _, w := range opp {
			if p == env.Home {
				q[l] += w.Prob * payoff.Of(m.At(l, w.Lineup.Index()), m.Rules)
			} else {
				q[l] -= w.Prob * payoff.Of(m.At(w.Lineup.Index(), l), m.Rules)
			}
		}
	}
	return q, nil
}

// BestResponses ranks every home line-up by its expected payoff against the away mix
// (a single line-up is a mix of one), best first.
func BestResponses(m *odds.OddsMatrix, payoff Payoff, away []env.Weighted) ([]Reply, error) {
	if err := checkMix(away); err != nil {
		return nil, err
	}
	out := make([]Reply, env.NumLineups)
	for i := range out {
		r := Reply{Lineup: env.LineupAt(i)}
		for _, w := range away {
			c := m.At(i, w.Lineup.Index())
			r.Payoff += w.Prob * payoff.Of(c, m.Rules)
			r.HomeWin += w.Prob * c.HomeWin
			r.Draw += w.Prob * c.Draw
			r.AwayWin += w.Prob * c.AwayWin
			r.HomeGoals += w.Prob * c.HomeGoals
			r.AwayGoals += w.Prob * c.AwayGoals
			r.HomeAdvance += w.Prob * c.HomeAdvance
		}
		out[i] = r
	}
	slices.SortStableFunc(out, func(a, b Reply) int {
		return cmp.Or(cmp.Compare(b.Payoff, a.Payoff), a.Lineup.Index()-b.Lineup.Index())
	})
	return out, nil
}
