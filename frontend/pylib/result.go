package main

/*
#include <stdint.h>
*/
import "C"

import (
	"github.com/kingoal/kingoal/env"
)

// The terminal info of the Python environments: a finished match as matchFields int64s —
// goals home, away; penalties scored home, away; winner (0 home, 1 away, −1 a draw); the
// result for the agent (+1, 0, −1; home in the two-player env); extra time and shoot-out
// played (0/1); periods played (2, 4 with extra time, +1 for a shoot-out). A match not over
// is all zeros (0 periods). Typed buffers, not JSON: a vector asks after every step on which
// an environment ends.
const matchFields = 9

func writeMatch(dst []int64, s env.State, me env.Player) {
	clear(dst)
	if s.Node() != env.Terminal {
		return
	}
	_, scored := s.Shootout()
	dst[0], dst[1], dst[2], dst[3] = int64(s.Goals(env.Home)), int64(s.Goals(env.Away)), int64(scored[env.Home]), int64(scored[env.Away])
	dst[4] = -1
	if w, ok := s.Winner(); ok {
		dst[4] = int64(w)
	}
	dst[5], dst[6], dst[7], dst[8] = int64(s.Result(me)), int64(b2i(s.PlayedExtraTime())), int64(b2i(s.PlayedShootout())), int64(s.PeriodsPlayed())
}

// matcher is what kg_match needs of an environment: its matches' fields, one row of
// matchFields an environment (a vector's in index order).
type matcher interface {
	matches() int
	writeMatches(dst []int64)
}

func (s *single) matches() int               { return 1 }
func (s *single) writeMatches(dst []int64)   { writeMatch(dst, s.e.State(), s.e.Player()) }
func (p *parallel) matches() int             { return 1 }
func (p *parallel) writeMatches(dst []int64) { writeMatch(dst, p.e.State(), env.Home) }
func (v *vector) matches() int               { return v.v.Len() }
func (v *vector) writeMatches(dst []int64) {
	for i := range v.v.Len() {
		e := v.v.Env(i)
		writeMatch(dst[i*matchFields:(i+1)*matchFields], e.State(), e.Player())
	}
}

//export kg_match
func kg_match(h C.uint64_t, out *C.int64_t, size C.int64_t, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	m, release, err := acquire[matcher](h)
	if err != nil {
		return report(err, errBuf, errSize)
	}
	defer release()
	if n := m.matches() * matchFields; int64(size) != int64(n) {
		return report(inputf("kingoal: %d int64s for the matches, not %d", n, int64(size)), errBuf, errSize)
	}
	m.writeMatches(int64s(out, int(size)))
	return ok
}
