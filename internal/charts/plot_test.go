package charts

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/plot"
)

func TestRoundTicks(t *testing.T) {
	for _, r := range [][2]float64{{-320, 150}, {-5, 5}, {0.2, 0.9}, {-1200, -20}, {3, 3000}} {
		ticks := roundTicks{}.Ticks(r[0], r[1])
		if len(ticks) < 3 || len(ticks) > 9 {
			t.Errorf("%v: %d ticks", r, len(ticks))
		}
		step := ticks[1].Value - ticks[0].Value
		for i, tk := range ticks {
			if tk.Value < r[0] || tk.Value > r[1]+1e-9 || i > 0 && math.Abs(tk.Value-ticks[i-1].Value-step) > step*1e-6 {
				t.Errorf("%v: tick %v out of range or step", r, tk.Value)
			}
			if r[0] < 0 && r[1] > 0 && tk.Value == 0 && tk.Label != "0" {
				t.Errorf("%v: zero labelled %q", r, tk.Label)
			}
		}
		if r[0] < 0 && r[1] > 0 && !slices.ContainsFunc(ticks, func(tk plot.Tick) bool { return tk.Value == 0 }) {
			t.Errorf("%v: no tick at 0: %v", r, ticks)
		}
	}
}
