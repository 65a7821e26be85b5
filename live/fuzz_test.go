package live_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/live"
)

// FuzzNormalise: whatever row a live policy answers (the bytes of 121 float64s) and whatever
// the legal line-ups, Normalise accepts only a mix over the legal ones, summing to 1.
func FuzzNormalise(f *testing.F) {
	one := make([]byte, 8*env.NumLineups)
	binary.LittleEndian.PutUint64(one[8*60:], math.Float64bits(1))
	f.Add(uint8(60), uint8(3), one)
	f.Add(uint8(0), uint8(0), make([]byte, 8*env.NumLineups))
	f.Fuzz(func(t *testing.T, lineup, moves uint8, data []byte) {
		legal := env.LineupAt(int(lineup) % env.NumLineups).Reachable(int(moves % 4))
		row := make([]float64, env.NumLineups)
		for a := range row {
			if len(data) >= 8*(a+1) {
				row[a] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*a:]))
			}
		}
		if live.Normalise(row, legal) != nil {
			return
		}
		sum := 0.0
		for a, q := range row {
			if !(q >= 0) || (q > 0 && !legal.Has(a)) {
				t.Fatalf("%v on line-up %d accepted (legal %v)", q, a, legal.Has(a))
			}
			sum += q
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("accepted, sums to %v", sum)
		}
	})
}
