// The first-goal law of two line-ups kept to the end of a period.

package odds

import "github.com/kingoal/kingoal/env"

// GoalLaw is the law of the first goal after a kick-off: home[k], away[k] = P(the first goal
// is scored at throw k, by that side), none[k] = P(no goal in k throws).
type GoalLaw struct{ Home, Away, None []float64 }

// FirstGoalLaw steps the ball's distribution from kick-off with env's odds and MoveBall,
// removing the mass that scores.
func FirstGoalLaw(home, away env.Lineup, tiesCount bool, n int) GoalLaw {
	law := GoalLaw{make([]float64, n+1), make([]float64, n+1), make([]float64, n+1)}
	st := NewSectorTable(home, away, tiesCount)
	var cur, nxt [env.Sectors + 1]float64
	cur[env.KickOffSector] = 1
	law.None[0] = 1
	for k := 1; k <= n; k++ {
		nxt = [env.Sectors + 1]float64{}
		for b := 1; b <= env.Sectors; b++ {
			if cur[b] == 0 {
				continue
			}
			nxt[b] += cur[b] * (1 - st.Win[b][0] - st.Win[b][1]) // a tie that counts
			for w := range 2 {
				q := cur[b] * st.Win[b][w]
				switch {
				case !st.scores[b][w]:
					nxt[st.next[b][w]] += q
				case w == int(env.Home):
					law.Home[k] += q
				default:
					law.Away[k] += q
				}
			}
		}
		cur = nxt
		for _, q := range cur {
			law.None[k] += q
		}
	}
	return law
}
