package live

import (
	"fmt"
	"math"

	"github.com/kingoal/kingoal/env"
)

// Normalise checks a row of probabilities by line-up index — finite, non-negative, on legal
// line-ups only, summing to 1 within 1e-6 — and divides it by its sum.
func Normalise(row []float64, legal env.Mask) error {
	sum, odd := 0.0, false
	for a, q := range row {
		sum += q
		if q != 0 && !(q > 0 && legal.Has(a)) { // NaN fails q > 0
			odd = true
		}
	}
	if odd || !(math.Abs(sum-1) <= 1e-6) { // +Inf passes the first test, not this one
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
