// Package envtest checks that an environment behaves as Kingoal's Gymnasium-style API
// promises, like Gymnasium's check_env. Run it on env.Env, on wrappers around it, or on
// an environment of your own:
//
//	err := envtest.Check(func() envtest.Env { e, _ := env.New(cfg); return e }, envtest.Options{})
//
// Check plays seeded episodes with seeded random legal actions and reports every
// violation it finds, joined into one error.
package envtest

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"

	"github.com/kingoal/kingoal/env"
)

// Env is the single-agent API Check exercises (env.Env implements it).
type Env interface {
	Reset(seed uint64) (env.Observation, env.Info)
	Step(action int) (env.Transition, error)
}

// Options tune Check. The zero value plays 4 seeds (1..4) with a cap of 10,000 steps an
// episode.
type Options struct {
	Seeds    []uint64 // episode seeds; at least two, all different
	MaxSteps int      // an episode longer than this is a violation
}

func (o Options) withDefaults() Options {
	if len(o.Seeds) == 0 {
		o.Seeds = []uint64{1, 2, 3, 4}
	}
	if o.MaxSteps == 0 {
		o.MaxSteps = 10000
	}
	return o
}

// step is one recorded step of a trajectory.
type step struct {
	Action int
	T      env.Transition
}

// Check returns nil if environments made by newEnv pass every check:
//   - the same seed (and the same actions) gives the same trajectory, on a fresh
//     environment and after Reset of a used one; different seeds give different trajectories;
//   - every mask before the end is non-empty, every observation vector has
//     env.ObservationSize slots, rewards are finite;
//   - an action outside the mask is refused with an error wrapping env.ErrIllegalAction
//     and changes nothing (the trajectory goes on exactly as without it);
//   - every episode ends within MaxSteps; terminated and truncated are never both true;
//     after the end the mask is empty and Step returns an error until Reset.
func Check(newEnv func() Env, opt Options) error {
	opt = opt.withDefaults()
	if len(opt.Seeds) < 2 {
		return errors.New("envtest: need at least two seeds")
	}
	var errs []error
	fail := func(format string, a ...any) { errs = append(errs, fmt.Errorf("envtest: "+format, a...)) }

	used := newEnv()
	var first [][]step
	for _, seed := range opt.Seeds {
		a, err := play(newEnv(), seed, false, opt.MaxSteps)
		if err != nil {
			fail("seed %d: %v", seed, err)
			continue
		}
		b, err := play(newEnv(), seed, true, opt.MaxSteps)
		switch {
		case err != nil:
			fail("seed %d with illegal attempts: %v", seed, err)
		case !reflect.DeepEqual(a, b):
			fail("seed %d: an illegal action changed the trajectory", seed)
		}
		c, err := play(used, seed, false, opt.MaxSteps) // the same env object, reset again
		if err == nil && !reflect.DeepEqual(a, c) {
			fail("seed %d: a reused environment does not replay the same trajectory after Reset", seed)
		}
		for j, prev := range first {
			if reflect.DeepEqual(prev, a) {
				fail("seeds %d and %d give the same trajectory", opt.Seeds[j], seed)
			}
		}
		first = append(first, a)
	}
	return errors.Join(errs...)
}

// play runs one episode with seeded random legal actions; with illegal set it first tries an
// action outside the mask at every step and checks it is refused.
func play(e Env, seed uint64, illegal bool, maxSteps int) ([]step, error) {
	// The same action stream for every seed: trajectories may differ only through the env.
	rng := rand.New(rand.NewPCG(0xac7, 0))
	obs, info := e.Reset(seed)
	var traj []step
	for n := 0; ; n++ {
		if n >= maxSteps {
			return traj, fmt.Errorf("episode longer than %d steps", maxSteps)
		}
		if got := len(obs.Vector()); got != env.ObservationSize {
			return traj, fmt.Errorf("step %d: observation vector of %d slots, want %d", n, got, env.ObservationSize)
		}
		if info.Mask.Count() == 0 {
			return traj, fmt.Errorf("step %d: empty action mask before the end", n)
		}
		if illegal && info.Mask.Count() < env.NumActions {
			bad := -1
			for a := 0; a < env.NumActions && bad < 0; a++ {
				if !info.Mask.Has(a) {
					bad = a
				}
			}
			if _, err := e.Step(bad); !errors.Is(err, env.ErrIllegalAction) {
				return traj, fmt.Errorf("step %d: action %d outside the mask: got error %v, want ErrIllegalAction", n, bad, err)
			}
		}
		a := info.Mask.Nth(rng.IntN(info.Mask.Count()))
		t, err := e.Step(a)
		if err != nil {
			return traj, fmt.Errorf("step %d: legal action %d refused: %v", n, a, err)
		}
		traj = append(traj, step{a, t})
		if math.IsNaN(t.Reward) || math.IsInf(t.Reward, 0) {
			return traj, fmt.Errorf("step %d: reward %v", n, t.Reward)
		}
		if t.Terminated && t.Truncated {
			return traj, fmt.Errorf("step %d: both terminated and truncated", n)
		}
		if t.Terminated || t.Truncated {
			if t.Info.Mask.Count() != 0 {
				return traj, fmt.Errorf("step %d: the episode ended but the mask is not empty", n)
			}
			if _, err := e.Step(a); err == nil {
				return traj, fmt.Errorf("step %d: Step after the end did not fail", n)
			}
			return traj, nil
		}
		obs, info = t.Obs, t.Info
	}
}
