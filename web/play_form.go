// The counters form: five numbers, one a sector, instead of one of up to 121 links.

package web

import (
	"maps"
	"slices"
	"strconv"

	"github.com/kingoal/kingoal/env"
)

// setField is a hidden field of the counters form: the game so far.
type setField struct{ Name, Value string }

// sectorField is one sector's counters in the form.
type sectorField struct {
	Sector, Count int
	Label         string
}

// counterForm is the counters form of a prompt: the game's fields and one number a sector,
// set to the player's line-up (the equilibrium's likeliest at the kick-off, if hinted).
func counterForm(g playedGame, own env.Lineup) (fields []setField, sectors []sectorField) {
	for _, k := range slices.Sorted(maps.Keys(g.query)) {
		fields = append(fields, setField{k, g.query.Get(k)})
	}
	if len(g.choices) > 0 {
		fields = append(fields, setField{"choices", choicesParam(g.choices)})
	}
	names := [env.Sectors]string{"1 (your goal's)", "2", "3 (midfield)", "4", "5 (their goal's)"}
	counts := own.Counts()
	if !own.Valid() {
		counts = [env.Sectors]int{2, 2, 2, 2, 2}
	}
	for k := range env.Sectors {
		sectors = append(sectors, sectorField{k + 1, counts[k], names[k]})
	}
	return fields, sectors
}

func choicesParam(choices []int) string {
	b := make([]byte, 0, 4*len(choices))
	for i, c := range choices {
		if i > 0 {
			b = append(b, '.')
		}
		b = strconv.AppendInt(b, int64(c), 10)
	}
	return string(b)
}
