package live

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/kingoal/kingoal/env"
)

// Normalise checks a row of probabilities by line-up index — finite, non-negative, on legal
// line-ups only, summing to 1 within 1e-6 — and divides it by its sum. It runs at every live
// decision: a sum and a sign test an entry, then a look at the illegal line-ups only.
func Normalise(row []float64, legal env.Mask) error {
	row = row[:env.NumLineups]
	sum, odd := 0.0, false
	for _, q := range row {
		sum += q
		if !(q >= 0) { // NaN too
			odd = true
		}
	}
	for w, word := range legal {
		illegal := ^word
		if w == len(legal)-1 {
			illegal &= 1<<(env.NumLineups-64*w) - 1
		}
		for ; illegal != 0; illegal &= illegal - 1 {
			if row[64*w+bits.TrailingZeros64(illegal)] != 0 {
				odd = true
			}
		}
	}
	if odd || !(math.Abs(sum-1) <= 1e-6) { // +Inf passes the first tests, not this one
		return fmt.Errorf("%s (sum %v)", Fault(row, legal), sum)
	}
	if sum != 1 {
		for a := range row {
			row[a] /= sum
		}
	}
	return nil
}

// Fault says what is wrong with a row Normalise refuses, in words that follow "row N".
func Fault(row []float64, legal env.Mask) string {
	for a, q := range row {
		switch {
		case math.IsNaN(q) || math.IsInf(q, 0):
			return "holds NaN or infinity"
		case q < 0:
			return "holds a negative probability"
		case q > 0 && !legal.Has(a):
			return "puts weight on an illegal action"
		}
	}
	return "does not sum to 1"
}
