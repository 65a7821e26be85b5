package env

import "fmt"

// Environments are values of their seed and the actions played since Reset: everything else
// (the dice, an opponent reseeded at Reset) follows from those. History returns them and
// Replay rebuilds the environment from them, so a copy (Python's pickle and deepcopy, a
// checkpoint) is a few numbers and continues the same match with the same dice to come.

// History is an environment's episode so far: Started is false before the first Reset.
type History struct {
	Started bool     `json:"started"`
	Seed    uint64   `json:"seed"`
	Actions []int    `json:"actions,omitempty"` // Env: the agent's actions, as given to Step
	Joints  [][2]int `json:"joints,omitempty"`  // ParallelEnv: the joint actions, as given to Step
}

// History returns the agent's episode so far.
func (e *Env) History() History {
	return History{Started: e.par.started, Seed: e.seed, Actions: append([]int(nil), e.actions...)}
}

// Replay resets e to h's seed and plays h's actions: e is then where the environment h was
// taken from was. An action the replay refuses (h is not this environment's: other rules,
// another opponent) is an error, e left mid-replay.
func (e *Env) Replay(h History) error {
	if !h.Started {
		e.steps, e.seed, e.actions = 0, 0, e.actions[:0]
		return e.par.Replay(h)
	}
	e.Reset(h.Seed)
	for i, a := range h.Actions {
		if _, err := e.Step(a); err != nil {
			return fmt.Errorf("env: replaying action %d of %d: %w", i+1, len(h.Actions), err)
		}
	}
	return nil
}

// History returns the match so far.
func (e *ParallelEnv) History() History {
	return History{Started: e.started, Seed: e.seed, Joints: append([][2]int(nil), e.joints...)}
}

// Replay resets e to h's seed and plays h's joint actions (see Env.Replay).
func (e *ParallelEnv) Replay(h History) error {
	if !h.Started {
		e.started, e.done, e.seed, e.joints = false, false, 0, e.joints[:0]
		return nil
	}
	e.Reset(h.Seed)
	for i, j := range h.Joints {
		if _, err := e.Step(j); err != nil {
			return fmt.Errorf("env: replaying joint action %d of %d: %w", i+1, len(h.Joints), err)
		}
	}
	return nil
}

// VecHistory is a VecEnv's state: its seed, and each environment's episode number, whether
// it resets on the next Step, and its episode so far.
type VecHistory struct {
	Started  bool      `json:"started"`
	Seed     uint64    `json:"seed"`
	Episodes []uint64  `json:"episodes"`
	Pending  []bool    `json:"pending"`
	Envs     []History `json:"envs"`
}

// History returns the vector's state.
func (v *VecEnv) History() VecHistory {
	h := VecHistory{Started: v.envs[0].par.started, Seed: v.seed, Episodes: append([]uint64(nil), v.episodes...), Pending: append([]bool(nil), v.pending...)}
	for _, e := range v.envs {
		h.Envs = append(h.Envs, e.History())
	}
	return h
}

// Replay puts every environment of v where h has it. h must be of a vector of v's size.
func (v *VecEnv) Replay(h VecHistory) error {
	n := len(v.envs)
	if len(h.Episodes) != n || len(h.Pending) != n || len(h.Envs) != n {
		return fmt.Errorf("env: the history of a vector of %d environments, not %d", len(h.Envs), n)
	}
	for i, e := range v.envs {
		if err := e.Replay(h.Envs[i]); err != nil {
			return fmt.Errorf("env: environment %d: %w", i, err)
		}
	}
	v.seed = h.Seed
	copy(v.episodes, h.Episodes)
	copy(v.pending, h.Pending)
	return nil
}
