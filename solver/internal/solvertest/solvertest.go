// Package solvertest holds what the solver packages' tests share.
package solvertest

import (
	"math"
	"testing"
)

// Near fails t (without stopping it) when got is NaN or further than tol from want.
func Near(t testing.TB, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol || math.IsNaN(got) {
		t.Errorf("%s: got %.12g, want %.12g (±%g)", what, got, want, tol)
	}
}
