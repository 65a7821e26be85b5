// Choosing a line-up by setting the counters: five numbers, one a sector, instead of one of
// up to 121 links.

package web

import (
	"fmt"
	"maps"
	"net/http"
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

// playSet plays the line-up the counters form sets, if the rules allow it here: a redirect
// to the game with that choice, or 400 saying why not.
func (s *Server) playSet(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var counts [env.Sectors]int
	for k := range env.Sectors {
		name := "sector" + strconv.Itoa(k+1)
		n, err := strconv.Atoi(q.Get(name))
		if err != nil {
			http.Error(w, fmt.Sprintf("play: %s %q: want the counters in sector %d, a whole number", name, q.Get(name), k+1), http.StatusBadRequest)
			return
		}
		counts[k] = n
		q.Del(name)
	}
	l, err := env.NewLineup(counts)
	if err != nil {
		http.Error(w, "play: "+err.Error(), http.StatusBadRequest)
		return
	}
	g, p, ok := s.gameOf(w, r, q)
	if !ok {
		return
	}
	if p.prompt == nil {
		http.Error(w, "play: the match is over", http.StatusBadRequest)
		return
	}
	if err := p.state.CheckAction(g.m.Side, l.Index()); err != nil {
		http.Error(w, "play: "+err.Error(), http.StatusBadRequest)
		return
	}
	http.Redirect(w, r, "/play/"+g.with(l.Index()), http.StatusSeeOther)
}
