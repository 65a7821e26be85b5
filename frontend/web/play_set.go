// Choosing a line-up by setting the counters: the form's answer, played if the rules allow it.

package web

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/kingoal/kingoal/env"
)

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
