package main

/*
#include <stdint.h>
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/live"
	"github.com/kingoal/kingoal/solver/game"
)

// The questions to a Python policy and its answers: Go asks a batch of break states at a
// time (kg_policy_request writes their observations and masks into Python's buffers), Python
// runs its policy on them and hands over its result array as it is (kg_policy_answer: float32
// or float64 probabilities, or int64 actions), which Go copies before the call returns and
// checks on the solve's goroutine. A side with no moves left has one legal line-up: Go
// answers it without asking.

// batchBreaks is how many break states the solve asks about at once, ahead of its work
// (game.PolicyProblem.Batch): tens of rows of the game (a row: every away entry against one
// home entry), so that Python's per-call overhead is spread over tens of thousands of decisions.
const batchBreaks = 1 << 15

// maxBatchRows bounds the rows a batch may hold (Python's buffers' rows: policy_start's rows).
const maxBatchRows = 1 << 20

// The kinds of answer kg_policy_answer reads.
const (
	answerFloat32 = 0 // probabilities, float32[n, 121]
	answerFloat64 = 1 // probabilities, float64[n, 121]
	answerActions = 2 // actions, int64[n]
)

// policyBatch is a batch of decisions: their observations and masks (and both as Python's
// buffers hold them, written ahead on the solve's goroutine: Python's thread only copies),
// then the answers as Python gave them (raw, of kind), then checked and renormalised
// (probs[i*maskSize:(i+1)*maskSize] is row i's mix).
type policyBatch struct {
	obs     []env.Observation
	legal   []env.Mask
	vectors []float32
	masks   []int8
	raw     []uint64 // 8-byte words: a float64 answer is read in place
	kind    int
	probs   []float64
	side    env.Player
	answer  chan error
	// unmasked: the policy's rows may put weight on illegal line-ups (a softmax over all
	// 121): that weight is dropped and the legal entries renormalised.
	unmasked bool
}

// pyPolicy is a side's Python policy as a game.DensePolicy; a worker's own (its buffers).
type pyPolicy struct {
	job    *policyJob
	ctx    context.Context
	side   env.Player
	r      env.Rules
	rows   int // a batch's most
	asked  []int
	batch  policyBatch
	forced []float64
}

func (p *pyPolicy) KickOff() ([]env.Weighted, error) {
	start, err := env.NewState(p.r)
	if err != nil {
		return nil, err
	}
	p.batch.obs = append(p.batch.obs[:0], start.Observe(p.side))
	p.batch.legal = append(p.batch.legal[:0], start.Legal(p.side))
	if err := p.ask(); err != nil {
		return nil, err
	}
	return weighted(p.batch.probs, nil), nil
}

func (p *pyPolicy) Breaks(side env.Player, states []game.State, mixes [][]env.Weighted) error {
	return p.BreakProbabilities(side, states, func(i int, probs []float64) error {
		mixes[i] = weighted(probs, mixes[i][:0])
		return nil
	})
}

// weighted is a row of probabilities by line-up index as a mix, appended to mix.
func weighted(probs []float64, mix []env.Weighted) []env.Weighted {
	for l, q := range probs {
		if q != 0 {
			mix = append(mix, env.Weighted{Lineup: env.LineupAt(l), Prob: q})
		}
	}
	return mix
}

// BreakProbabilities asks Python at the states where side has a choice, p.rows at a time;
// where it has one legal line-up (no moves left), that is the answer.
func (p *pyPolicy) BreakProbabilities(side env.Player, states []game.State, answer func(int, []float64) error) error {
	if len(p.forced) == 0 {
		p.forced = make([]float64, maskSize)
	}
	p.asked = p.asked[:0]
	for i, s := range states {
		own, left := s.Home, s.HomeMoves
		if side == env.Away {
			own, left = s.Away, s.AwayMoves
		}
		legal := own.Reachable(left) // env's rule, as BreakObservation's mask
		if legal.Count() != 1 {
			p.asked = append(p.asked, i)
			continue
		}
		only := legal.Nth(0)
		p.forced[only] = 1
		err := answer(i, p.forced)
		p.forced[only] = 0
		if err != nil {
			return err
		}
	}
	for lo := 0; lo < len(p.asked); lo += p.rows {
		batch := p.asked[lo:min(lo+p.rows, len(p.asked))]
		b := &p.batch
		b.obs, b.legal = b.obs[:0], b.legal[:0]
		for _, i := range batch {
			o, m := game.BreakObservation(states[i], side, p.r)
			b.obs, b.legal = append(b.obs, o), append(b.legal, m)
		}
		if err := p.ask(); err != nil {
			return err
		}
		for k, i := range batch {
			if err := answer(i, b.probs[k*maskSize:(k+1)*maskSize]); err != nil {
				return err
			}
		}
	}
	return nil
}

// ask hands p.batch to Python and waits for its answer (or the end of the job).
// The answer, once Python has handed it over, is read and checked here, on the solve's
// goroutine, while Python answers the next batch.
func (p *pyPolicy) ask() error {
	b := &p.batch
	b.side = p.side
	if b.answer == nil {
		b.answer = make(chan error, 1)
	}
	n := len(b.obs)
	b.vectors, b.masks = resize(b.vectors, n*obsSize), resize(b.masks, n*maskSize)
	b.raw, b.probs = resize(b.raw, n*maskSize), resize(b.probs, n*maskSize)
	for i, o := range b.obs {
		o.AppendVector(b.vectors[i*obsSize : i*obsSize])
		legal, row := b.legal[i], b.masks[i*maskSize:(i+1)*maskSize]
		for a := range row {
			row[a] = int8(legal[a>>6] >> uint(a&63) & 1)
		}
	}
	select {
	case p.job.asks <- b:
	case <-p.ctx.Done():
		return p.ctx.Err()
	}
	select {
	case err := <-b.answer:
		if err != nil {
			return err
		}
	case <-p.ctx.Done():
		return p.ctx.Err()
	}
	return b.read(unsafe.Pointer(unsafe.SliceData(b.raw)), b.kind) // an error ends the solve: Python answers until then
}

// resize is buf with n elements, reallocated only to grow.
func resize[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	return buf[:n]
}

// kg_policy_request waits up to ms for the next batch: it writes its observations
// (float32[n, 36]) and masks (int8[n, 121]), returns n in *n and the side whose policy is
// asked in *side (0 home, 1 away); n is 0 when the wait ran out, −1 when the solve has ended
// (policy_result has it). cap is the buffers' rows.
//
//export kg_policy_request
func kg_policy_request(h C.uint64_t, ms C.int, obs *C.float, mask *C.int8_t, capRows C.int64_t, n *C.int64_t, side *C.int, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	job, err := lookup[*policyJob](uint64(h), "exploitability job")
	if err != nil {
		return report(err, errBuf, errSize)
	}
	if job.batch != nil {
		return report(errors.New("kingoal: exploitability: the last batch is not answered"), errBuf, errSize)
	}
	var b *policyBatch
	select {
	case b = <-job.asks:
	case <-job.done:
		*n = -1
		return ok
	case <-time.After(time.Duration(ms) * time.Millisecond):
		*n = 0
		return ok
	}
	if int64(len(b.obs)) > int64(capRows) {
		err := inputf("exploitability: a batch of %d decisions for buffers of %d", len(b.obs), capRows)
		job.cancel()
		b.answer <- err
		return report(err, errBuf, errSize)
	}
	job.batch = b
	copy(floats(obs, len(b.vectors)), b.vectors)
	copy(int8s(mask, len(b.masks)), b.masks)
	*n, *side = C.int64_t(len(b.obs)), C.int(b.side)
	return ok
}

// kg_policy_answer answers the batch kg_policy_request gave: data is Python's result array,
// C-contiguous, of the kind named (answerFloat32, answerFloat64: n rows of 121
// probabilities; answerActions: n actions), copied during this call. Go then checks every
// row (the first bad one fails the solve: policy_result raises a ValueError naming it) and
// renormalises it to sum to 1. A non-empty fail instead fails the solve with that message
// (the policy raised).
//
//export kg_policy_answer
func kg_policy_answer(h C.uint64_t, data unsafe.Pointer, kind C.int, fail *C.char, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	job, err := lookup[*policyJob](uint64(h), "exploitability job")
	if err != nil {
		return report(err, errBuf, errSize)
	}
	b := job.batch
	if b == nil {
		return report(errors.New("kingoal: exploitability: no batch to answer"), errBuf, errSize)
	}
	job.batch = nil
	if msg := C.GoString(fail); msg != "" {
		job.cancel()
		b.answer <- inputError{errors.New(msg)}
		return ok
	}
	width := map[C.int]int{answerFloat32: 4 * maskSize, answerFloat64: 8 * maskSize, answerActions: 8}[kind]
	if width == 0 || (data == nil && len(b.obs) > 0) {
		err := fmt.Errorf("kingoal: exploitability: an answer of kind %d at %p", kind, data)
		job.cancel()
		b.answer <- err
		return report(err, errBuf, errSize)
	}
	raw := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(b.raw))), 8*len(b.raw))
	copy(raw, unsafe.Slice((*byte)(data), width*len(b.obs)))
	b.kind = int(kind)
	b.answer <- nil
	return ok
}

// read checks Python's answers and keeps them, renormalised, in b.probs.
func (b *policyBatch) read(data unsafe.Pointer, kind int) error {
	n := len(b.obs)
	if data == nil && n > 0 {
		return errors.New("kingoal: exploitability: no answers")
	}
	switch kind {
	case answerActions:
		for i, a := range unsafe.Slice((*int64)(data), n) {
			if a < 0 || a >= maskSize || !b.legal[i].Has(int(a)) {
				return inputf("policy: row %d: action %d is not legal there (legal: %s)", i, a, legalList(b.legal[i]))
			}
			row := b.probs[i*maskSize : (i+1)*maskSize]
			clear(row)
			row[a] = 1
		}
	case answerFloat32:
		if b.unmasked {
			return normaliseUnmasked(b, unsafe.Slice((*float32)(data), n*maskSize))
		}
		return normalise(b, unsafe.Slice((*float32)(data), n*maskSize))
	case answerFloat64:
		if b.unmasked {
			return normaliseUnmasked(b, unsafe.Slice((*float64)(data), n*maskSize))
		}
		return normalise(b, unsafe.Slice((*float64)(data), n*maskSize))
	default:
		return inputf("exploitability: an answer of kind %d", kind)
	}
	return nil
}

// normalise checks each row of Python's probabilities — finite, non-negative, on legal
// line-ups only, summing to 1 within 1e-6 — and keeps it in b.probs divided by its sum. It
// runs at every decision asked: its check is one test an entry, and its sum is taken over
// the legal entries alone (the others are 0 once checked, and adding 0 changes no sum), in
// order, so the sum is the same number as over the whole row without waiting on 121
// additions, and only they are divided by it; rowFault says what is wrong with a row that fails.
func normalise[F float32 | float64](b *policyBatch, probs []F) error {
	for i, legal := range b.legal {
		in, row := probs[i*maskSize:(i+1)*maskSize], b.probs[i*maskSize:(i+1)*maskSize]
		odd := false
		for a, f := range in {
			q := float64(f)
			row[a] = q
			if q != 0 && !(q > 0 && legal[a>>6]&(1<<uint(a&63)) != 0) { // NaN fails q > 0
				odd = true
			}
		}
		sum := 0.0
		for w, word := range legal {
			for ; word != 0; word &= word - 1 {
				sum += row[w<<6|bits.TrailingZeros64(word)]
			}
		}
		if odd || !(math.Abs(sum-1) <= 1e-6) { // +Inf passes the first test, not this one
			return rowFault(i, row, legal)
		}
		if sum != 1 { // the legal entries alone: 0 / sum is 0
			for w, word := range legal {
				for ; word != 0; word &= word - 1 {
					row[w<<6|bits.TrailingZeros64(word)] /= sum
				}
			}
		}
	}
	return nil
}

// normaliseUnmasked is normalise for a policy that does not mask (masked=False): each row
// finite, non-negative and summing to 1 within 1e-6 over all 121 entries, with weight on
// some legal line-up; the weight on illegal line-ups is dropped and the legal entries are
// divided by their sum — the mix the mask would have given.
func normaliseUnmasked[F float32 | float64](b *policyBatch, probs []F) error {
	for i, legal := range b.legal {
		in, row := probs[i*maskSize:(i+1)*maskSize], b.probs[i*maskSize:(i+1)*maskSize]
		total, sum := 0.0, 0.0
		for a, f := range in {
			q := float64(f)
			if !(q >= 0) || math.IsInf(q, 0) {
				return inputf("policy: row %d: entry %d is %v: want probabilities (masked=False: over all %d line-ups)", i, a, q, maskSize)
			}
			total += q
			if legal[a>>6]&(1<<uint(a&63)) == 0 {
				q = 0
			}
			row[a] = q
			sum += q
		}
		if !(math.Abs(total-1) <= 1e-6) || !(sum > 0) {
			return inputf("policy: row %d sums to %v over all line-ups and to %v over the legal ones (legal: %s): want 1 over all, "+
				"some of it legal (masked=False)", i, total, sum, legalList(legal))
		}
		for a := range row {
			row[a] /= sum
		}
	}
	return nil
}

// rowFault is the error of row i, which normalise refused, with the sum of all its entries.
func rowFault(i int, row []float64, legal env.Mask) error {
	sum := 0.0
	for _, q := range row {
		sum += q
	}
	return inputf("policy: row %d %s (sum %v)", i, live.Fault(row, legal), sum)
}

// legalList is a mask's legal actions as Python prints a list: [0, 5, 7].
func legalList(m env.Mask) string {
	var s []string
	for a := range maskSize {
		if m.Has(a) {
			s = append(s, strconv.Itoa(a))
		}
	}
	return "[" + strings.Join(s, ", ") + "]"
}
