package main

/*
#include <stdint.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"time"
	"unsafe"

	"github.com/kingoal/kingoal/live"
)

// Python policies played live in an arena or an evaluation (kingoal.arena, kingoal.evaluate
// with a policy): the run's live agents queue their decisions in a live.Hub; Python takes
// every decision waiting (kg_live_request writes their observations, masks, match IDs and
// first-decision flags into its buffers and names the policy), runs that policy once on them
// and answers (kg_live_answer), until the run ends. Each answer is checked by the agent that
// asked, on its own goroutine (live.Normalise).

// liveBatch is the batch Python is answering.
type liveBatch struct {
	reqs []*live.Request
	open bool
}

// kg_live_request waits up to ms for decisions of the run's live policies and writes those
// of one policy (the one with most waiting, at most capRows): observations float32[n, 36],
// masks int8[n, 121], match IDs int64[n] and first int8[n] (1 at a match's first decision of
// that policy). It returns n in *n and the policy's index (in arena_start's live) in *agent;
// n is 0 when the wait ran out, −1 when the run has ended (compete_wait has its result).
//
//export kg_live_request
func kg_live_request(h C.uint64_t, ms C.int, obs *C.float, mask *C.int8_t, match *C.int64_t, first *C.int8_t, capRows C.int64_t,
	n *C.int64_t, agent *C.int, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	job, err := lookup[*competeJob](uint64(h), "run")
	if err != nil {
		return report(err, errBuf, errSize)
	}
	switch {
	case job.hub == nil:
		return report(errors.New("kingoal: live: this run plays no live policy"), errBuf, errSize)
	case job.live.open:
		return report(errors.New("kingoal: live: the last batch is not answered"), errBuf, errSize)
	case capRows < 1:
		return report(inputf("live: buffers of %d rows", capRows), errBuf, errSize)
	}
	i, reqs, err := job.hub.Next(time.Duration(max(ms, 0))*time.Millisecond, int(min(capRows, 1<<20)), job.live.reqs)
	job.live.reqs = reqs
	if err != nil {
		*n = -1
		return ok
	}
	if i < 0 {
		*n = 0
		return ok
	}
	k := len(reqs)
	vectors, masks, matches, firsts := floats(obs, k*obsSize), int8s(mask, k*maskSize), int64s(match, k), int8s(first, k)
	for j, r := range reqs {
		r.Obs.AppendVector(vectors[j*obsSize : j*obsSize])
		row := masks[j*maskSize : (j+1)*maskSize]
		for a := range row {
			row[a] = int8(r.Legal[a>>6] >> uint(a&63) & 1)
		}
		matches[j], firsts[j] = r.Match, 0
		if r.First {
			firsts[j] = 1
		}
	}
	job.live.open = true
	*n, *agent = C.int64_t(k), C.int(i)
	return ok
}

// kg_live_answer answers the batch kg_live_request gave: data is Python's result array,
// C-contiguous, of the kind named (answerFloat32, answerFloat64: n rows of 121
// probabilities; answerActions: n actions), read during this call; each agent checks its
// row (a bad one fails the run, naming the match and decision). A non-empty fail instead
// ends the run with that message (the policy raised).
//
//export kg_live_answer
func kg_live_answer(h C.uint64_t, data unsafe.Pointer, kind C.int, fail *C.char, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	job, err := lookup[*competeJob](uint64(h), "run")
	if err != nil {
		return report(err, errBuf, errSize)
	}
	if job.hub == nil || !job.live.open {
		return report(errors.New("kingoal: live: no batch to answer"), errBuf, errSize)
	}
	job.live.open = false
	reqs := job.live.reqs
	if msg := C.GoString(fail); msg != "" {
		job.hub.Close(inputError{errors.New(msg)})
		return ok
	}
	k := len(reqs)
	switch {
	case data == nil && k > 0:
	case kind == answerActions:
		for j, a := range unsafe.Slice((*int64)(data), k) {
			reqs[j].AnswerAction(a)
		}
		return ok
	case kind == answerFloat32:
		answerRows(reqs, unsafe.Slice((*float32)(data), k*maskSize))
		return ok
	case kind == answerFloat64:
		answerRows(reqs, unsafe.Slice((*float64)(data), k*maskSize))
		return ok
	}
	err = fmt.Errorf("kingoal: live: an answer of kind %d at %p", kind, data)
	job.hub.Close(err)
	return report(err, errBuf, errSize)
}

// answerRows sends each request its row of probabilities.
func answerRows[F float32 | float64](reqs []*live.Request, probs []F) {
	for j, r := range reqs {
		row := r.Row()
		for a, q := range probs[j*maskSize : (j+1)*maskSize] {
			row[a] = float64(q)
		}
		r.Answer()
	}
}

// kg_live_exchange is kg_live_answer then kg_live_request in one call (Python's loop crosses
// into Go once a batch).
//
//export kg_live_exchange
func kg_live_exchange(h C.uint64_t, data unsafe.Pointer, kind C.int, ms C.int, obs *C.float, mask *C.int8_t, match *C.int64_t, first *C.int8_t,
	capRows C.int64_t, n *C.int64_t, agent *C.int, errBuf *C.char, errSize C.int) C.int {
	if rc := kg_live_answer(h, data, kind, nil, errBuf, errSize); rc != ok {
		return rc
	}
	return kg_live_request(h, ms, obs, mask, match, first, capRows, n, agent, errBuf, errSize)
}
