package env_test

import (
	"math/rand/v2"
	"testing"

	"github.com/kingoal/kingoal/env"
)

// A Keeper's promise only saves work: Play must reach the same end as when it asks the
// same policy at every decision (the promise hidden behind a PolicyFunc).
func TestPlayKeeperFastPathChangesNothing(t *testing.T) {
	rules := []env.Rules{
		{},
		{Knockout: true, ThrowsPerHalf: 8, ExtraThrowsPerHalf: 3},
		{Modes: [2]env.Mode{env.Dynamic, env.Basic}, DynamicTrigger: env.TriggerTurnover},
		{Modes: [2]env.Mode{env.Dynamic, env.Dynamic}, Knockout: true},
	}
	keeper := env.Keep(env.MustParseLineup("1-3-3-2-1"))
	var hidden env.Policy = env.PolicyFunc(keeper.Act)
	if _, ok := hidden.(env.Keeper); ok {
		t.Fatal("the hidden policy still promises")
	}
	for ri, r := range rules {
		for seed := range uint64(200) {
			rng := rand.New(rand.NewPCG(seed, 9))
			random := env.PolicyFunc(func(_ env.Observation, m env.Mask) int { return m.Nth(rng.IntN(m.Count())) })
			s, _ := env.NewState(r)
			fast, err := env.Play(s, keeper, random, env.NewFastSampler(env.SeededSource(seed, 1)), nil)
			if err != nil {
				t.Fatal(err)
			}
			rng = rand.New(rand.NewPCG(seed, 9))
			slow, err := env.Play(s, hidden, random, env.NewFastSampler(env.SeededSource(seed, 1)), nil)
			if err != nil {
				t.Fatal(err)
			}
			if fast != slow {
				t.Fatalf("rules %d seed %d: fast path %v, asking %v", ri, seed, fast, slow)
			}
		}
	}
}
