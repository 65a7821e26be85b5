package env_test

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/kingoal/kingoal/env"
)

// alpha is the false-alarm rate of every statistical test here. Seeds are fixed, so a test
// passes or fails the same way every run; alpha says how unlucky a correct sampler would
// have to be for a seed to fail it.
const alpha = 1e-4

// chiSquareCritical returns the 1−alpha quantile of χ² with df degrees of freedom.
func chiSquareCritical(df int) float64 {
	return distuv.ChiSquared{K: float64(df)}.Quantile(1 - alpha)
}

// TestSamplersMatchExactOdds: at every ball position of a lop-sided pairing (dice pairs
// 1v2 … 5v5), with and without ties-count, each sampler's frequencies fit ChanceOutcomes.
func TestSamplersMatchExactOdds(t *testing.T) {
	const n = 20000
	for _, ties := range []bool{false, true} {
		for ball := 1; ball <= 5; ball++ {
			s := mustMatch(t, env.Rules{TiesCount: ties, Moves: env.NoMoves}, "1-2-3-3-1", "5-1-1-1-2")
			for i := 3; i != ball; {
				if i < ball {
					play(t, &s, env.HomeWins)
					i++
				} else {
					play(t, &s, env.AwayWins)
					i--
				}
			}
			outs := s.ChanceOutcomes()
			for name, smp := range map[string]env.Sampler{
				"fast": env.NewFastSampler(rand.NewPCG(uint64(ball), 1)),
				"dice": env.NewDiceSampler(rand.NewPCG(uint64(ball), 2)),
			} {
				counts := map[env.Outcome]int{}
				for range n {
					st := s
					counts[smp.Sample(st)]++
				}
				chi := 0.0
				for _, c := range outs {
					e := c.Prob * n
					d := float64(counts[c.Outcome]) - e
					chi += d * d / e
				}
				if crit := chiSquareCritical(len(outs) - 1); chi > crit {
					h, a := s.Dice()
					t.Errorf("%s sampler, %dv%d dice, ties-count %v: χ²=%.1f > %.1f (counts %v, odds %v)", name, h, a, ties, chi, crit, counts, outs)
				}
			}
		}
	}
}

// TestSamplersAgreeOnMatches compares whole-match results (goal difference, and who
// advances in a knockout with many shoot-outs) from the two samplers with a two-sample χ²
// test of homogeneity.
func TestSamplersAgreeOnMatches(t *testing.T) {
	const n = 6000
	for _, r := range []env.Rules{
		{Moves: env.NoMoves},
		{Moves: env.NoMoves, TiesCount: true, Knockout: true, ThrowsPerHalf: 4, ExtraThrowsPerHalf: 2},
	} {
		start := mustMatch(t, r, "1-2-3-3-1", "2-2-2-2-2")
		hist := [2]map[int]int{{}, {}}
		for i, smp := range []env.Sampler{env.NewFastSampler(rand.NewPCG(11, 1)), env.NewDiceSampler(rand.NewPCG(11, 2))} {
			for range n {
				s := start
				env.Playout(&s, smp)
				d := max(-4, min(4, s.Goals(env.Home)-s.Goals(env.Away)))
				if d == 0 && r.Knockout {
					d = 10 + s.Result(env.Home) // a shoot-out: 9 or 11 by its winner
				}
				hist[i][d]++
			}
		}
		chi, cells := 0.0, 0
		for k := range union(hist[0], hist[1]) {
			a, b := float64(hist[0][k]), float64(hist[1][k])
			if a+b < 10 {
				continue // too rare a cell to test
			}
			e := (a + b) / 2
			chi += (a-e)*(a-e)/e + (b-e)*(b-e)/e
			cells++
		}
		if crit := chiSquareCritical(cells - 1); chi > crit || cells < 5 {
			t.Errorf("%v: samplers disagree: χ²=%.1f > %.1f over %d cells\nfast %v\ndice %v", r, chi, crit, cells, hist[0], hist[1])
		}
	}
}

func union(a, b map[int]int) map[int]bool {
	u := map[int]bool{}
	for k := range a {
		u[k] = true
	}
	for k := range b {
		u[k] = true
	}
	return u
}

func TestDiceRollsAreConsistent(t *testing.T) {
	smp := env.NewDiceSampler(rand.NewPCG(3, 3))
	s := mustMatch(t, env.Rules{Knockout: true, ThrowsPerHalf: 3, ExtraThrowsPerHalf: env.NoExtraTime, Moves: env.NoMoves}, "1-2-3-3-1", "1-2-3-3-1")
	for s.Node() != env.Terminal {
		period, kicker := s.Period(), s.NextKicker()
		hd, ad := s.Dice()
		o := smp.Sample(s)
		r := smp.LastRoll()
		for _, v := range append(r.Home[:r.HomeCount:r.HomeCount], r.Away[:r.AwayCount]...) {
			if v < 1 || v > 6 {
				t.Fatalf("die value %d", v)
			}
		}
		switch {
		case period == env.Penalties && (o == env.KickScored || o == env.KickSaved):
			taker, keeper := r.HomeHigh(), r.AwayHigh()
			if kicker == env.Away {
				taker, keeper = keeper, taker
			}
			if (o == env.KickScored) != (taker > keeper) {
				t.Fatalf("kick %v with taker %d, keeper %d", o, taker, keeper)
			}
		case period < env.Penalties:
			if int(r.HomeCount) != hd || int(r.AwayCount) != ad {
				t.Fatalf("rolled %d v %d dice, want %d v %d", r.HomeCount, r.AwayCount, hd, ad)
			}
			if (o == env.HomeWins) != (r.HomeHigh() > r.AwayHigh()) || r.HomeHigh() == r.AwayHigh() {
				t.Fatalf("outcome %v from %v", o, r)
			}
		}
		s.ApplyChance(o)
	}
}

// TestFastPathEqualsSample: RunChance's in-place throw runs must give exactly the
// outcomes of Sample followed by ApplyChance, for every rule variant.
func TestFastPathEqualsSample(t *testing.T) {
	for vi, r := range []env.Rules{
		{}, {Knockout: true, ThrowsPerHalf: 3}, {TiesCount: true, Knockout: true, ThrowsPerHalf: 5}, {Modes: [2]env.Mode{env.Dynamic, env.Basic}, Knockout: true},
		{Modes: [2]env.Mode{env.Basic, env.Dynamic}, DynamicTrigger: env.TriggerTurnover, TiesCount: true},
	} {
		for seed := uint64(0); seed < 200; seed++ {
			// a PCG takes the in-register run of plain throws; any other source a throw at a time
			src := func() rand.Source { return rand.NewPCG(seed, 5) }
			if seed%2 == 1 {
				src = func() rand.Source { return rand.NewChaCha8([32]byte{byte(seed)}) }
			}
			start := mustMatch(t, r, "1-2-3-3-1", "3-1-2-2-2")
			fast, slow := start, start
			env.Playout(&fast, env.NewFastSampler(src()))
			smp := env.NewFastSampler(src())
			for slow.Node() != env.Terminal {
				if slow.Node() == env.Decision {
					keepAll(t, &slow)
					continue
				}
				slow.ApplyChance(smp.Sample(slow))
			}
			if fast != slow {
				t.Fatalf("variant %d seed %d: fast path %s, Sample loop %s", vi, seed, fast, slow)
			}
		}
	}
}

// A SeededRand reseeded in place draws what a fresh rand.Rand over SeededSource draws,
// whatever it drew before, and a copy shares its source.
func TestSeededRandIsSeededSource(t *testing.T) {
	var r env.SeededRand
	for _, seed := range []uint64{0, 1, 7, 1 << 63} {
		r.Reset(seed, 3)
		fresh := rand.New(env.SeededSource(seed, 3))
		for i := range 5 {
			if got, want := r.Uint64(), fresh.Uint64(); got != want {
				t.Fatalf("seed %d draw %d: %d, want %d", seed, i, got, want)
			}
		}
		r.IntN(10) // left mid-stream before the next reset
	}
	r.Reset(9, 3)
	c := r
	first := c.Uint64()
	r.Reset(9, 3)
	if second := r.Uint64(); first != second {
		t.Fatalf("after a reset: %d, want %d again", second, first)
	}
	if c.Uint64() == first { // the copy read on from the shared source
		t.Fatal("a copy of a SeededRand did not share its source")
	}
}
