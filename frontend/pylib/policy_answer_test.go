package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"
	"unsafe"

	"github.com/kingoal/kingoal/env"
)

// FuzzPolicyAnswer: whatever bytes Python hands over as a batch's answers, read accepts
// only rows of legal, non-negative probabilities summing to 1 (after renormalising) — or
// legal actions —, and refuses the rest with a message naming a row; it never reads past
// the rows asked.
func FuzzPolicyAnswer(f *testing.F) {
	one := make([]byte, 8*maskSize)
	binary.LittleEndian.PutUint64(one[8*startLineup().Index():], math.Float64bits(1))
	f.Add(uint8(answerFloat64), uint8(1), one)
	f.Add(uint8(answerActions), uint8(2), binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, 3), 121))
	f.Add(uint8(answerFloat32), uint8(1), make([]byte, 4*maskSize))
	f.Add(uint8(7), uint8(1), []byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, kind, rows uint8, data []byte) {
		n := int(rows%4) + 1
		width := map[int]int{answerFloat32: 4 * maskSize, answerFloat64: 8 * maskSize, answerActions: 8}[int(kind)]
		if width == 0 {
			width = 1
		}
		buf := make([]byte, n*width) // exactly what n rows of the kind hold: read must stay inside
		copy(buf, data)
		b := testBatch(n)
		if err := b.read(unsafe.Pointer(&buf[0]), int(kind)); err != nil {
			return
		}
		if width == 1 {
			t.Fatalf("kind %d accepted", kind)
		}
		for i := range n {
			sum := 0.0
			for a, q := range b.probs[i*maskSize : (i+1)*maskSize] {
				if q < 0 || (q > 0 && !b.legal[i].Has(a)) {
					t.Fatalf("row %d: %v on line-up %d accepted", i, q, a)
				}
				sum += q
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Fatalf("row %d sums to %v", i, sum)
			}
		}
	})
}

// testBatch is n decisions from 1-2-3-3-1: even rows with three moves left, odd rows with
// none (one legal line-up).
func testBatch(n int) *policyBatch {
	b := &policyBatch{probs: make([]float64, n*maskSize)}
	for i := range n {
		b.obs = append(b.obs, env.Observation{})
		b.legal = append(b.legal, startLineup().Reachable(3-3*(i%2)))
	}
	return b
}

func TestPolicyAnswerNamesTheFirstBadRow(t *testing.T) {
	b := testBatch(2)
	rows := make([]float32, 2*maskSize)
	own := startLineup().Index()
	rows[own], rows[maskSize+own] = 1, 0.5 // row 1 sums to ½
	err := b.read(unsafe.Pointer(&rows[0]), answerFloat32)
	if err == nil || err.Error() != "policy: row 1 does not sum to 1 (sum 0.5)" {
		t.Fatalf("got %v", err)
	}
	acts := []int64{int64(own), int64(own + 1)} // row 1 has no moves left
	err = b.read(unsafe.Pointer(&acts[0]), answerActions)
	if err == nil || err.Error() != fmt.Sprintf("policy: row 1: action %d is not legal there (legal: [%d])", own+1, own) {
		t.Fatalf("got %v", err)
	}
}

func startLineup() env.Lineup {
	l, err := env.ParseLineup("1-2-3-3-1")
	if err != nil {
		panic(err)
	}
	return l
}
