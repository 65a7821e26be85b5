package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"
	"unsafe"

	"github.com/kingoal/kingoal/env"
)

// FuzzPolicyAnswer: whatever bytes Python hands over as a batch's answers, read accepts
// only rows of legal, non-negative probabilities summing to 1 (after renormalising) — or
// legal actions —, and refuses the rest with a message naming a row; it never reads past
// the rows asked. Unmasked (masked=False: weight on illegal line-ups dropped), what it keeps
// is the same: legal, non-negative, summing to 1.
func FuzzPolicyAnswer(f *testing.F) {
	one := make([]byte, 8*maskSize)
	binary.LittleEndian.PutUint64(one[8*startLineup().Index():], math.Float64bits(1))
	f.Add(uint8(answerFloat64), uint8(1), one)
	f.Add(uint8(answerFloat64|8), uint8(1), one)
	f.Add(uint8(answerActions), uint8(2), binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, 3), 121))
	f.Add(uint8(answerFloat32), uint8(1), make([]byte, 4*maskSize))
	f.Add(uint8(7), uint8(1), []byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, kind, rows uint8, data []byte) {
		n := int(rows%4) + 1
		unmasked := kind&8 != 0
		kind &^= 8
		width := map[int]int{answerFloat32: 4 * maskSize, answerFloat64: 8 * maskSize, answerActions: 8}[int(kind)]
		if width == 0 {
			width = 1
		}
		buf := make([]byte, n*width) // exactly what n rows of the kind hold: read must stay inside
		copy(buf, data)
		b := testBatch(n)
		b.unmasked = unmasked
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

// TestUnmaskedRowsAreMasked: masked=False drops the weight on illegal line-ups and
// renormalises the rest, float32 or float64; a row summing to 1 over all line-ups but
// nothing over the legal ones, or not to 1, is refused, naming it.
func TestUnmaskedRowsAreMasked(t *testing.T) {
	b := testBatch(2)
	b.unmasked = true
	own := startLineup().Index()
	legal := b.legal[0]
	other := -1
	for a := range maskSize {
		if a != own && legal.Has(a) {
			other = a
			break
		}
	}
	illegal := -1
	for a := range maskSize {
		if !legal.Has(a) {
			illegal = a
			break
		}
	}
	rows := make([]float64, 2*maskSize)
	rows[own], rows[other], rows[illegal] = 0.3, 0.1, 0.6 // legal weight 0.4 → ¾, ¼
	rows[maskSize+own], rows[maskSize+illegal] = 0.5, 0.5 // row 1: one legal line-up
	if err := b.read(unsafe.Pointer(&rows[0]), answerFloat64); err != nil {
		t.Fatal(err)
	}
	if p := b.probs; math.Abs(p[own]-0.75) > 1e-15 || math.Abs(p[other]-0.25) > 1e-15 || p[illegal] != 0 || p[maskSize+own] != 1 || p[maskSize+illegal] != 0 {
		t.Errorf("renormalised: %v %v %v, row 1 %v %v", p[own], p[other], p[illegal], p[maskSize+own], p[maskSize+illegal])
	}
	f32 := make([]float32, 2*maskSize)
	for i, q := range rows {
		f32[i] = float32(q)
	}
	if err := b.read(unsafe.Pointer(&f32[0]), answerFloat32); err != nil || math.Abs(b.probs[own]-0.75) > 1e-7 {
		t.Errorf("float32: %v, %v", err, b.probs[own])
	}
	rows[maskSize+own], rows[maskSize+illegal] = 0, 1 // nothing legal
	if err := b.read(unsafe.Pointer(&rows[0]), answerFloat64); err == nil || !strings.Contains(err.Error(), "row 1 sums to 1 over all line-ups and to 0 over the legal ones") {
		t.Errorf("no legal weight: %v", err)
	}
	rows[maskSize+illegal] = 0.5 // sums to ½
	if err := b.read(unsafe.Pointer(&rows[0]), answerFloat64); err == nil || !strings.Contains(err.Error(), "row 1 sums to 0.5") {
		t.Errorf("a row of ½: %v", err)
	}
	rows[own] = -0.1
	if err := b.read(unsafe.Pointer(&rows[0]), answerFloat64); err == nil || !strings.Contains(err.Error(), "row 0: entry") {
		t.Errorf("a negative entry: %v", err)
	}
}
