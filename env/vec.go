package env

import "fmt"

// VecEnv steps N single-agent environments together, for training throughput. It uses
// Gymnasium's next-step autoreset: after an environment's episode ends, the next Step
// ignores its action, resets it and returns the new episode's first observation with
// reward 0 and both flags false. Environments are stepped in index order on the calling
// goroutine, so one opponent policy may be shared. Episode k of environment i is seeded
// from (seed, i, k), so a run is reproducible from the seed given to Reset.
type VecEnv struct {
	envs     []*Env
	seed     uint64
	episodes []uint64
	pending  []bool // reset on the next Step
	out      VecStep
}

// VecStep holds the batch results. A finished environment's mask (Terminated or Truncated)
// holds one action, the line-up it ended with: the next Step ignores the action and resets it,
// and a learner that samples from the mask, or softmaxes masked logits, needs one to pick. Its slices belong to the VecEnv and are overwritten by
// the next Reset or Step: copy what you keep.
type VecStep struct {
	Obs          []float32 // N × ObservationSize, environment i at [i*ObservationSize:]
	Rewards      []float64
	Terminated   []bool
	Truncated    []bool
	Masks        []Mask
	Observations []Observation // the typed observations
	// IllegalAction[i]: environment i's action was illegal and its line-up kept (KeepOnIllegal).
	IllegalAction []bool
}

// NewVecEnv returns n environments configured by cfg (sharing cfg.Opponent).
func NewVecEnv(n int, cfg Config) (*VecEnv, error) {
	return NewVecEnvFunc(n, func(int) (Config, error) { return cfg, nil })
}

// NewVecEnvFunc returns n environments, environment i configured by config(i) — for an
// opponent of its own per environment, so that environment i plays exactly as a single Env
// reset with EpisodeSeed(seed, i, k) for its k-th episode.
func NewVecEnvFunc(n int, config func(i int) (Config, error)) (*VecEnv, error) {
	if n <= 0 {
		return nil, fmt.Errorf("env: vector of %d environments: want at least 1", n)
	}
	v := &VecEnv{envs: make([]*Env, n), episodes: make([]uint64, n), pending: make([]bool, n)}
	for i := range v.envs {
		cfg, err := config(i)
		if err != nil {
			return nil, err
		}
		e, err := New(cfg)
		if err != nil {
			return nil, err
		}
		v.envs[i] = e
	}
	v.out = VecStep{
		Obs:           make([]float32, n*ObservationSize),
		Rewards:       make([]float64, n),
		Terminated:    make([]bool, n),
		Truncated:     make([]bool, n),
		Masks:         make([]Mask, n),
		Observations:  make([]Observation, n),
		IllegalAction: make([]bool, n),
	}
	return v, nil
}

// Len returns the number of environments.
func (v *VecEnv) Len() int { return len(v.envs) }

// Env returns environment i (for inspection; stepping it directly breaks the batch).
func (v *VecEnv) Env(i int) *Env { return v.envs[i] }

// Reset starts every environment's first episode from seed.
func (v *VecEnv) Reset(seed uint64) VecStep {
	v.seed = seed
	for i := range v.envs {
		v.episodes[i] = 0
		v.resetOne(i)
	}
	return v.out
}

// EpisodeSeed is the seed VecEnv gives episode k of environment i after Reset(seed).
func EpisodeSeed(seed uint64, i, k int) uint64 { return mix64(mix64(seed+uint64(i)) + uint64(k)) }

func (v *VecEnv) resetOne(i int) {
	obs, info := v.envs[i].Reset(EpisodeSeed(v.seed, i, int(v.episodes[i])))
	v.episodes[i]++
	v.pending[i] = false
	v.record(i, obs, 0, false, false, info)
}

func (v *VecEnv) record(i int, obs Observation, r float64, term, trunc bool, info Info) {
	obs.AppendVector(v.out.Obs[i*ObservationSize : i*ObservationSize])
	v.out.Observations[i] = obs
	mask := info.Mask
	if term || trunc { // the next Step ignores the action and resets: one action, safe to sample
		e := v.envs[i]
		mask = singleMask(e.par.state.Lineup(e.me).Index())
	}
	v.out.Rewards[i], v.out.Terminated[i], v.out.Truncated[i], v.out.Masks[i] = r, term, trunc, mask
	v.out.IllegalAction[i] = info.IllegalAction
}

// Step plays actions[i] in environment i. All actions are checked first: an illegal one
// (under RaiseIllegal; one outside the action space under KeepOnIllegal) returns an error
// naming its environment and steps none.
func (v *VecEnv) Step(actions []int) (VecStep, error) {
	if len(actions) != len(v.envs) {
		return v.out, fmt.Errorf("env: %d actions for %d environments", len(actions), len(v.envs))
	}
	for i, e := range v.envs {
		if !v.pending[i] {
			if err := e.checkAction(actions[i]); err != nil {
				return v.out, fmt.Errorf("env: environment %d: %w", i, err)
			}
		}
	}
	for i, e := range v.envs {
		if v.pending[i] {
			v.resetOne(i)
			continue
		}
		t, err := e.Step(actions[i])
		if err != nil {
			return v.out, fmt.Errorf("env: environment %d: %w", i, err)
		}
		v.record(i, t.Obs, t.Reward, t.Terminated, t.Truncated, t.Info)
		v.pending[i] = t.Terminated || t.Truncated
	}
	return v.out, nil
}
