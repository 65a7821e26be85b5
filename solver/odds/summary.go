package odds

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
)

// MatchSummary returns the Cell of MatchOdds(home, away, r) — win/draw/loss, expected goals,
// P(advance) — without the joint score distribution: it tracks only the goal difference
// of each period (and expected goals by linearity), which is several times cheaper. Matrix
// uses it; a test checks it against MatchOdds cell by cell.
func MatchSummary(home, away env.Lineup, r env.Rules) (Cell, error) {
	if err := r.Validate(); err != nil {
		return Cell{}, err
	}
	if !home.Valid() || !away.Valid() {
		return Cell{}, fmt.Errorf("solver: invalid line-up %v v %v", home, away)
	}
	var c Cell
	half, eh, ea := periodDiff(home, away, r.TiesCount, r.HalfThrows())
	regular := convolveDiff(half, half)
	c.HomeGoals, c.AwayGoals = 2*eh, 2*ea
	mid := len(regular) / 2
	for d, p := range regular {
		switch {
		case d > mid:
			c.HomeWin += p
		case d < mid:
			c.AwayWin += p
		}
	}
	level := regular[mid]
	c.Draw = level
	if r.Knockout {
		c.Draw = 0
		if et := r.ExtraThrows(); et > 0 {
			eHalf, eeh, eea := periodDiff(home, away, r.TiesCount, et)
			extra := convolveDiff(eHalf, eHalf)
			c.HomeGoals += level * 2 * eeh
			c.AwayGoals += level * 2 * eea
			m := len(extra) / 2
			for d, p := range extra {
				switch {
				case d > m:
					c.HomeWin += level * p
				case d < m:
					c.AwayWin += level * p
				default:
					c.Draw += level * p
				}
			}
		} else {
			c.Draw = level
		}
	}
	c.HomeAdvance = c.HomeWin
	if r.Knockout {
		so, err := ShootoutLaw()
		if err != nil {
			return Cell{}, err
		}
		c.HomeAdvance += c.Draw * so.Home
	}
	return c, nil
}

// periodDiff returns the distribution of (home − away) goals in one period of t throws
// from kick-off (a centred array) and the expected goals of each side.
func periodDiff(home, away env.Lineup, tiesCount bool, t int) (diff []float64, homeGoals, awayGoals float64) {
	diff, _, homeGoals, awayGoals = diffFrom(home, away, tiesCount, t, env.KickOffSector)
	return diff, homeGoals, awayGoals
}

// convolveDiff adds two independent goal differences (both centred arrays).
func convolveDiff(a, b []float64) []float64 {
	c := make([]float64, len(a)+len(b)-1)
	for i, p := range a {
		if p == 0 {
			continue
		}
		for j, q := range b {
			c[i+j] += p * q
		}
	}
	return c
}

// diffFrom is the law of the goal difference scored in t throws from the ball in home
// sector ball, indexed d+mid, and the expected goals of each side. It steps a distribution
// over (goal difference, ball) throw by throw with env's throw odds and env.MoveBall.
func diffFrom(home, away env.Lineup, tiesCount bool, t, ball int) (diff []float64, mid int, homeGoals, awayGoals float64) {
	g := MostGoals(t)
	w := 2*g + 1
	pw, next, scores := NewSectorTable(home, away, tiesCount).unpack()
	const nb = env.Sectors + 1
	cur, nxt := make([]float64, w*nb), make([]float64, w*nb)
	cur[g*nb+ball] = 1
	for s := range t {
		reach := MostGoals(s)
		lo, hi := g-reach, g+reach
		clear(nxt[max(lo-1, 0)*nb : min(hi+2, w)*nb])
		for d := lo; d <= hi; d++ {
			for b := 1; b <= env.Sectors; b++ {
				p := cur[d*nb+b]
				if p == 0 {
					continue
				}
				if tiesCount {
					nxt[d*nb+b] += p * (1 - pw[b][0] - pw[b][1])
				}
				for pl, delta := range [2]int{1, -1} {
					q := p * pw[b][pl]
					if scores[b][pl] {
						nxt[(d+delta)*nb+next[b][pl]] += q
						if pl == 0 {
							homeGoals += q
						} else {
							awayGoals += q
						}
					} else {
						nxt[d*nb+next[b][pl]] += q
					}
				}
			}
		}
		cur, nxt = nxt, cur
	}
	diff = make([]float64, w)
	for d := range diff {
		for b := 1; b <= env.Sectors; b++ {
			diff[d] += cur[d*nb+b]
		}
	}
	return diff, g, homeGoals, awayGoals
}
