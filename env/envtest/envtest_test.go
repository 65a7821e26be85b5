package envtest_test

import (
	"strings"
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/env/envtest"
)

func newEnv(t *testing.T, cfg env.Config) func() envtest.Env {
	return func() envtest.Env {
		e, err := env.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
}

func TestEnvConforms(t *testing.T) {
	for _, cfg := range []env.Config{
		{},
		{Player: env.Away, Reward: env.RewardGoalDiff, Dice: env.RolledDice},
		{Rules: env.Rules{Knockout: true, ThrowsPerHalf: 5, Modes: [2]env.Mode{env.Dynamic, env.Dynamic}}, Reward: env.RewardPoints},
		{Rules: env.Rules{TiesCount: true}, MaxSteps: 2},
	} {
		if err := envtest.Check(newEnv(t, cfg), envtest.Options{}); err != nil {
			t.Errorf("%+v: %v", cfg, err)
		}
	}
}

// seedIgnorer breaks the seed contract: every Reset replays seed 1.
type seedIgnorer struct{ *env.Env }

func (s seedIgnorer) Reset(uint64) (env.Observation, env.Info) { return s.Env.Reset(1) }

// anyAction breaks the mask contract: it plays the first legal action instead of refusing.
type anyAction struct{ *env.Env }

func (a anyAction) Step(action int) (env.Transition, error) {
	if !a.State().Legal(env.Home).Has(action) {
		action = a.State().Legal(env.Home).Nth(0)
	}
	return a.Env.Step(action)
}

func TestCheckCatchesBrokenEnvs(t *testing.T) {
	mk := newEnv(t, env.Config{})
	for name, tc := range map[string]struct {
		newEnv func() envtest.Env
		want   string
	}{
		"ignores seed": {func() envtest.Env { return seedIgnorer{mk().(*env.Env)} }, "give the same trajectory"},
		"accepts all":  {func() envtest.Env { return anyAction{mk().(*env.Env)} }, "want ErrIllegalAction"},
	} {
		err := envtest.Check(tc.newEnv, envtest.Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", name, err, tc.want)
		}
	}
}
