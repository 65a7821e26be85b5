// What the solve commands share: the words of a score, the times the summaries show, a mix
// in JSON (solve game and solve equilibrium print it; a command file calls no other).

package command

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
)

// ScoreWord is a goal difference in words: "2 up", "1 down", "level".
func ScoreWord(d int) string {
	switch {
	case d > 0:
		return fmt.Sprintf("%d up", d)
	case d < 0:
		return fmt.Sprintf("%d down", -d)
	}
	return "level"
}

// SummaryTime is a break the readable summaries show.
type SummaryTime struct {
	Name string
	Per  env.Period
	Left int
}

// SummaryTimes are half time and goals a third and a ninth of a half from the end.
func SummaryTimes(r env.Rules) []SummaryTime {
	out := []SummaryTime{{"half time", env.SecondHalf, r.HalfThrows()}}
	for _, left := range []int{r.HalfThrows() / 3, r.HalfThrows() / 9} {
		if left >= 1 && left != out[len(out)-1].Left {
			out = append(out, SummaryTime{fmt.Sprintf("goal, %s left", Plural(left, "throw")), env.SecondHalf, left})
		}
	}
	return out
}

// WeightedJSON is a line-up and its weight in a mix.
type WeightedJSON struct {
	Lineup string  `json:"lineup"` // a line-up in the mix's support
	Prob   float64 `json:"prob"`   // its weight
}

// ToWeightedJSON is a mix as solve game and solve equilibrium print it.
func ToWeightedJSON(ws []env.Weighted) []WeightedJSON {
	out := make([]WeightedJSON, len(ws))
	for i, w := range ws {
		out[i] = WeightedJSON{w.Lineup.String(), w.Prob}
	}
	return out
}
