package odds

import (
	"cmp"
	"fmt"
	"slices"
	"sync"

	"github.com/kingoal/kingoal/env"
)

// ThrowOdds returns the exact probabilities that one throw of homeDice against awayDice dice
// is won by home, won by away, or tied and counted (only under Rules.TiesCount).
func ThrowOdds(homeDice, awayDice int, r env.Rules) (home, away, tie float64, err error) {
	if homeDice < 1 || homeDice > env.MaxDice || awayDice < 1 || awayDice > env.MaxDice {
		return 0, 0, 0, fmt.Errorf("solver: throw of %d v %d dice: each side throws 1..%d", homeDice, awayDice, env.MaxDice)
	}
	home, away, tie = env.ThrowOdds(homeDice, awayDice, r.TiesCount)
	return home, away, tie, nil
}

// Score is one final score with its probability.
type Score struct {
	Home, Away int
	P          float64
}

// ScoreDist is a distribution over scores (home goals, away goals). The zero value is empty.
type ScoreDist struct {
	n int       // goals 0..n-1 per side
	p []float64 // P(h, a) = p[h*n+a]
}

func newScoreDist(maxGoals int) ScoreDist {
	n := maxGoals + 1
	return ScoreDist{n: n, p: make([]float64, n*n)}
}

// P returns the probability of the score h–a.
func (d ScoreDist) P(h, a int) float64 {
	if h < 0 || a < 0 || h >= d.n || a >= d.n {
		return 0
	}
	return d.p[h*d.n+a]
}

// MaxGoals returns the most goals one side can have in the distribution's support bound.
func (d ScoreDist) MaxGoals() int { return d.n - 1 }

// Total returns the probability mass (1 up to rounding, less any truncated tail).
func (d ScoreDist) Total() float64 {
	t := 0.0
	for _, p := range d.p {
		t += p
	}
	return t
}

// Likeliest returns the k most likely scores, most likely first (ties by fewer goals).
func (d ScoreDist) Likeliest(k int) []Score {
	var all []Score
	for h := 0; h < d.n; h++ {
		for a := 0; a < d.n; a++ {
			if p := d.p[h*d.n+a]; p > 0 {
				all = append(all, Score{h, a, p})
			}
		}
	}
	slices.SortStableFunc(all, func(x, y Score) int {
		return cmp.Or(cmp.Compare(y.P, x.P), (x.Home+x.Away)-(y.Home+y.Away))
	})
	return all[:min(k, len(all))]
}

// convolve returns the distribution of the sum of independent scores from a and b. It
// walks only the non-zero entries (a period's support is a triangle, h+a bounded).
func convolve(a, b ScoreDist) ScoreDist {
	c := newScoreDist(a.n + b.n - 2)
	bs := b.support()
	for _, x := range a.support() {
		for _, y := range bs {
			c.p[(x.Home+y.Home)*c.n+x.Away+y.Away] += x.P * y.P
		}
	}
	return c
}

// support lists the scores with non-zero probability.
func (d ScoreDist) support() []Score {
	s := make([]Score, 0, len(d.p)/2+d.n)
	for i, p := range d.p {
		if p != 0 {
			s = append(s, Score{i / d.n, i % d.n, p})
		}
	}
	return s
}

// Odds are the exact odds of a match between two fixed line-ups (nobody moves or shifts).
type Odds struct {
	Home, Away env.Lineup
	// Score is the distribution of the final score in play (extra time included in a
	// knockout; penalties are not goals).
	Score                  ScoreDist
	HomeWin, Draw, AwayWin float64 // by Score
	HomeGoals, AwayGoals   float64 // expected goals in play
	// HomeAdvance is P(home goes through): HomeWin plus the shoot-out share of Draw in a
	// knockout; equal to HomeWin in a league.
	HomeAdvance float64
	ExtraTime   float64 // knockout: P(extra time is played)
	Shootout    float64 // knockout: P(penalties)
	// Truncated is the probability mass dropped by the goal cap of very long periods
	// (maxPeriodGoals a period and side) and by ending the sudden-death series; it is below
	// 1e-15 for the default rules.
	Truncated float64
}

// maxPeriodGoals caps the goals tracked per side in one period. A goal takes at least
// ThrowsToScore() throws from kick-off (3 under docs/rules.md), so periods of up to
// 3·maxPeriodGoals throws are exact.
const maxPeriodGoals = 200

// sectorTable holds, for each ball sector (home coordinates 1..5), the throw's odds for
// home and away and where each winner sends the ball (and whether that scores).
type sectorTable struct {
	Win    [env.Sectors + 1][2]float64
	next   [env.Sectors + 1][2]int
	scores [env.Sectors + 1][2]bool
}

func NewSectorTable(home, away env.Lineup, tiesCount bool) sectorTable {
	var st sectorTable
	for b := 1; b <= env.Sectors; b++ {
		hd, ad := env.DiceFor(home, away, b)
		h, a, _ := env.ThrowOdds(hd, ad, tiesCount)
		st.Win[b] = [2]float64{h, a}
		for w := env.Home; w <= env.Away; w++ {
			st.next[b][w], st.scores[b][w] = env.MoveBall(b, w)
		}
	}
	return st
}

func (st sectorTable) unpack() ([env.Sectors + 1][2]float64, [env.Sectors + 1][2]int, [env.Sectors + 1][2]bool) {
	return st.Win, st.next, st.scores
}

// ThrowsToScore is the fewest throws from a kick-off to a goal, read off env.MoveBall: a
// difference of d needs at least d times as many throws.
func ThrowsToScore() int {
	n := 0
	for ball, goal := env.KickOffSector, false; !goal; n++ {
		ball, goal = env.MoveBall(ball, env.Home)
	}
	return n
}

// MostGoals bounds the goals one side can score in n throws from any state: the first can
// come at once (the ball in front of the goal), then one every ThrowsToScore() throws from
// the kick-off that follows.
func MostGoals(n int) int {
	k := ThrowsToScore()
	return (max(n, 0) + k - 1) / k
}

// MatchOdds returns the exact odds of home against away under r, both line-ups fixed.
// Rules.Modes are ignored (nobody shifts) and so is the move budget.
//
// Every period starts at kick-off with the same line-ups, so periods are independent: the
// score of a half is computed once by a forward pass over (ball, home goals, away goals)
// and the halves are convolved.
//
// The sequence of periods (two halves; in a level knockout extra time if it has any, then
// penalties) is env.Rules.AfterPeriod's, written out here because walking it generically
// costs 1.2–1.6× (measured); TestMatchOddsEqualsEnumeration compares this function with a
// plain enumeration of env states under league, knockout, extra-time and no-extra-time rules,
// so any drift from env's rule fails there.
func MatchOdds(home, away env.Lineup, r env.Rules) (Odds, error) {
	if err := r.Validate(); err != nil {
		return Odds{}, err
	}
	if !home.Valid() || !away.Valid() {
		return Odds{}, fmt.Errorf("solver: invalid line-up %v v %v", home, away)
	}
	o := Odds{Home: home, Away: away}
	half, cut := periodScores(home, away, r.TiesCount, r.HalfThrows())
	o.Truncated += 2 * cut
	regular := convolve(half, half)
	final := regular
	if r.Knockout {
		final = newScoreDist(regular.n - 1)
		copy(final.p, regular.p)
		level := 0.0
		for g := 0; g < regular.n; g++ {
			level += regular.P(g, g)
		}
		if et := r.ExtraThrows(); et > 0 {
			o.ExtraTime = level
			eh, cut := periodScores(home, away, r.TiesCount, et)
			o.Truncated += 2 * cut * level
			extra := convolve(eh, eh)
			final = newScoreDist(regular.n + extra.n - 2)
			for h := 0; h < regular.n; h++ {
				for a := 0; a < regular.n; a++ {
					if h != a {
						final.p[h*final.n+a] += regular.P(h, a)
					}
				}
			}
			for g := 0; g < regular.n; g++ {
				pg := regular.P(g, g)
				for x := 0; x < extra.n; x++ {
					for y := 0; y < extra.n; y++ {
						final.p[(g+x)*final.n+g+y] += pg * extra.P(x, y)
					}
				}
			}
		}
	}
	o.Score = final
	for h := 0; h < final.n; h++ {
		for a := 0; a < final.n; a++ {
			p := final.p[h*final.n+a]
			switch {
			case h > a:
				o.HomeWin += p
			case h == a:
				o.Draw += p
			default:
				o.AwayWin += p
			}
			o.HomeGoals += p * float64(h)
			o.AwayGoals += p * float64(a)
		}
	}
	o.HomeAdvance = o.HomeWin
	if r.Knockout {
		so, err := shootoutLaw()
		if err != nil {
			return Odds{}, err
		}
		o.Shootout = o.Draw
		o.HomeAdvance += o.Draw * so.Home
		o.Truncated += o.Draw * so.Truncated
	}
	return o, nil
}

// periodScores returns the distribution of the goals scored in one period of t throws
// from kick-off, and the mass dropped by the goal cap. It steps a distribution over
// (home goals, away goals, ball) throw by throw with env's throw odds and env.MoveBall.
func periodScores(home, away env.Lineup, tiesCount bool, t int) (ScoreDist, float64) {
	k := ThrowsToScore()
	g := min(t/k+1, maxPeriodGoals)
	n := g + 1
	pw, next, scores := NewSectorTable(home, away, tiesCount).unpack()
	const nb = env.Sectors + 1 // ball index 1..5; slot 0 unused
	cur := make([]float64, n*n*nb)
	nxt := make([]float64, n*n*nb)
	cur[env.KickOffSector] = 1
	cut := 0.0
	for step := 0; step < t; step++ {
		reach := min(step/k, 2*g) // goals so far: at most one per k throws
		// Clear what this throw can write (a superset of what nxt held two throws ago).
		for h := 0; h <= min(reach+1, g); h++ {
			clear(nxt[h*n*nb : (h*n+min(reach+1-h, g)+1)*nb])
		}
		for h := 0; h <= min(reach, g); h++ {
			for a := 0; a <= min(reach-h, g); a++ {
				base := (h*n + a) * nb
				for b := 1; b <= env.Sectors; b++ {
					p := cur[base+b]
					if p == 0 {
						continue
					}
					if tiesCount {
						nxt[base+b] += p * (1 - pw[b][0] - pw[b][1])
					}
					for w := env.Home; w <= env.Away; w++ {
						q := p * pw[b][w]
						switch {
						case !scores[b][w]:
							nxt[base+next[b][w]] += q
						case w == env.Home && h < g:
							nxt[((h+1)*n+a)*nb+next[b][w]] += q
						case w == env.Away && a < g:
							nxt[(h*n+a+1)*nb+next[b][w]] += q
						default:
							cut += q
						}
					}
				}
			}
		}
		cur, nxt = nxt, cur
	}
	d := newScoreDist(g)
	for i := range d.p {
		for b := 1; b <= env.Sectors; b++ {
			d.p[i] += cur[i*nb+b]
		}
	}
	return d, cut
}

// Shootout is the shoot-out's law from the coin toss (rules §8, no knobs).
type Shootout struct {
	Home      float64 // P(home wins)
	Truncated float64 // the mass left in sudden death when the enumeration stops (< 1e-16)
}

// ShootoutLaw enumerates env's shoot-out once (shootoutLaw) and returns its law.
func ShootoutLaw() (Shootout, error) { return shootoutLaw() }

// ShootoutOdds is the exact probability that home wins a shoot-out (rules §8, from the coin
// toss), summed over every way it can go until less than 1e-16 of the mass is left in sudden
// death: one chance outcome for a game that stops at the shoot-out (OpenSpiel's form).
func ShootoutOdds() (home float64, err error) {
	so, err := shootoutLaw()
	return so.Home, err
}

// shootoutLaw enumerates env's shoot-out (rules §8, no knobs) from the coin toss:
// P(home wins) and the mass left in sudden death when the enumeration stops (< 1e-16).
var shootoutLaw = sync.OnceValues(func() (Shootout, error) {
	s, err := env.NewShootout(env.Rules{})
	if err != nil {
		return Shootout{}, err
	}
	var res Shootout
	dist := NewStateDist(1)
	dist.Add(s, 1)
	var buf []env.ChanceOutcome
	for round := 0; dist.Len() > 0; round++ {
		left := 0.0
		for _, p := range dist.P {
			left += p
		}
		if left < 1e-16 || round > 10000 {
			res.Truncated = left
			break
		}
		next := NewStateDist(dist.Len())
		for i, st := range dist.States {
			p := dist.P[i]
			buf = st.AppendChanceOutcomes(buf[:0])
			for _, c := range buf {
				n := st
				n.ApplyChance(c.Outcome)
				if n.Node() == env.Terminal {
					if w, _ := n.Winner(); w == env.Home {
						res.Home += p * c.Prob
					}
					continue
				}
				next.Add(n, p*c.Prob)
			}
		}
		dist = next
	}
	return res, nil
})
