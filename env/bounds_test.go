package env_test

import (
	"math/rand/v2"
	"testing"

	"github.com/kingoal/kingoal/env"
)

// TestObservationBoundsHold plays random matches under several rule sets and checks every
// slot of every observation against ObservationBounds.
func TestObservationBoundsHold(t *testing.T) {
	for _, r := range []env.Rules{
		{ThrowsPerHalf: 12},
		{Knockout: true, ThrowsPerHalf: 6, ExtraThrowsPerHalf: 3, TiesCount: true},
		{Modes: [2]env.Mode{env.Dynamic, env.Basic}, ThrowsPerHalf: 9, DynamicTrigger: env.TriggerTurnover},
	} {
		low, high := env.ObservationBounds(r)
		rng := rand.New(rand.NewPCG(1, 2))
		random := env.PolicyFunc(func(_ env.Observation, m env.Mask) int { return m.Nth(rng.IntN(m.Count())) })
		for i := range 300 {
			e, err := env.NewParallel(env.ParallelConfig{Rules: r})
			if err != nil {
				t.Fatal(err)
			}
			obs, info := e.Reset(uint64(i))
			for {
				for p := range obs {
					for k, v := range obs[p].Vector() {
						if v < low[k] || v > high[k] {
							t.Fatalf("%v: slot %d = %v outside [%v, %v]", r, k, v, low[k], high[k])
						}
					}
				}
				var joint [2]int
				for p := range joint {
					if info[p].Acting {
						joint[p] = random.Act(obs[p], info[p].Mask)
					}
				}
				tr, err := e.Step(joint)
				if err != nil {
					t.Fatal(err)
				}
				obs, info = tr.Obs, tr.Info
				if tr.Terminated || tr.Truncated {
					break
				}
			}
		}
	}
}
