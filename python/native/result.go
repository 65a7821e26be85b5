package main

/*
#include <stdint.h>
*/
import "C"

import (
	"github.com/kingoal/kingoal/env"
)

// matchJSON is a finished match as the terminal info of the Python environments gives it.
type matchJSON struct {
	Goals     [2]int  `json:"goals"`     // home, away, in play
	Penalties [2]int  `json:"penalties"` // scored in the shoot-out (0, 0 without one)
	Winner    *string `json:"winner"`    // "home", "away", or null for a draw
	Result    int     `json:"result"`    // +1, 0, −1 for the agent (home in the two-player env)
	ExtraTime bool    `json:"extra_time"`
	Shootout  bool    `json:"shootout"`
	Periods   int     `json:"periods"` // periods played: 2, 4 with extra time, +1 for a shoot-out
}

func matchOf(s env.State, me env.Player) *matchJSON {
	if s.Node() != env.Terminal {
		return nil
	}
	_, scored := s.Shootout()
	m := &matchJSON{Goals: [2]int{s.Goals(env.Home), s.Goals(env.Away)}, Penalties: scored, Result: s.Result(me),
		ExtraTime: s.PlayedExtraTime(), Shootout: s.PlayedShootout(), Periods: 2}
	if w, ok := s.Winner(); ok {
		name := w.String()
		m.Winner = &name
	}
	if m.ExtraTime {
		m.Periods += 2
	}
	if m.Shootout {
		m.Periods++
	}
	return m
}

// resulter is what kg_result needs of an environment: each match's result, null for one
// not finished (a vector's environments in index order).
type resulter interface{ results() any }

func (s *single) results() any   { return matchOf(s.e.State(), s.e.Player()) }
func (p *parallel) results() any { return matchOf(p.e.State(), env.Home) }
func (v *vector) results() any {
	out := make([]*matchJSON, v.v.Len())
	for i := range out {
		e := v.v.Env(i)
		out[i] = matchOf(e.State(), e.Player())
	}
	return out
}

//export kg_result
func kg_result(h C.uint64_t, out **C.char, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	return answerJSON(h, resulter.results, out, errBuf, errSize)
}
