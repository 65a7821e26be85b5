package main

/*
#include <stdint.h>
*/
import "C"

import (
	"encoding/json"
	"fmt"

	"github.com/kingoal/kingoal/env"
)

// Python pickles and deep-copies an environment as its history (env.History: the seed and
// the actions since Reset) and rebuilds the copy by replaying it into a fresh environment
// of the same configuration.

// historian is what kg_history and kg_replay need of an environment.
type historian interface {
	history() any
	replay(data []byte) error
}

func (s *single) history() any             { return s.e.History() }
func (s *single) replay(data []byte) error { return replayEpisode(data, s.e.Replay, &s.view) }

func (p *parallel) history() any             { return p.e.History() }
func (p *parallel) replay(data []byte) error { return replayEpisode(data, p.e.Replay, &p.view) }

// replayEpisode decodes an env.History and replays it.
func replayEpisode(data []byte, replay func(env.History) error, v *view) error {
	var h env.History
	if err := decode(data, &h, "environment history"); err != nil {
		return err
	}
	return replayed(replay(h), v)
}

func (v *vector) history() any { return v.v.History() }
func (v *vector) replay(data []byte) error {
	var h env.VecHistory
	if err := decode(data, &h, "vector history"); err != nil {
		return err
	}
	return replayed(v.v.Replay(h), nil)
}

// replayed finishes a replay: its events are not news to a transcript, and a history the
// environment refuses is the caller's input.
func replayed(err error, v *view) error {
	if v != nil && v.log != nil {
		v.log.take()
	}
	if err != nil {
		return inputError{fmt.Errorf("kingoal: this environment cannot replay the history (%w): it is not of an environment made like this one", err)}
	}
	return nil
}

//export kg_history
func kg_history(h C.uint64_t, out **C.char, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	return answerJSON(h, historian.history, out, errBuf, errSize)
}

// answerJSON answers a call that returns JSON about the environment h: get's value, in a
// string the caller frees with kg_free.
func answerJSON[T any](h C.uint64_t, get func(T) any, out **C.char, errBuf *C.char, errSize C.int) C.int {
	e, release, err := acquire[T](h)
	if err != nil {
		return report(err, errBuf, errSize)
	}
	defer release()
	b, err := json.Marshal(get(e))
	if err != nil {
		return report(err, errBuf, errSize)
	}
	*out = C.CString(string(b))
	return ok
}

//export kg_replay
func kg_replay(h C.uint64_t, in *C.char, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	e, release, err := acquire[historian](h)
	if err != nil {
		return report(err, errBuf, errSize)
	}
	defer release()
	if err := e.replay([]byte(C.GoString(in))); err != nil {
		return report(err, errBuf, errSize)
	}
	return ok
}
