package env_test

import (
	"errors"
	"testing"

	"github.com/kingoal/kingoal/env"
)

func TestKnobsRoundTrip(t *testing.T) {
	for _, r := range []env.Rules{
		{},
		{Knockout: true, TiesCount: true, ThrowsPerHalf: 7, ExtraThrowsPerHalf: env.NoExtraTime, Moves: env.NoMoves},
		{Modes: [2]env.Mode{env.Dynamic, env.Basic}, DynamicTrigger: env.TriggerTurnover, Points: env.Points{Win: 2, Draw: 1}},
	} {
		got, err := env.KnobsOf(r).Rules()
		if err != nil || got.String() != r.String() {
			t.Errorf("%v → %+v → %v, %v", r, env.KnobsOf(r), got, err)
		}
	}
	if r, err := env.DefaultKnobs().Rules(); err != nil || r != (env.Rules{ThrowsPerHalf: 45, ExtraThrowsPerHalf: 15, Moves: 3, Points: env.Points{Win: 3, Draw: 1}}) {
		t.Errorf("default knobs: %+v %v", r, err)
	}
	for knob, k := range map[string]env.Knobs{
		"throws-per-half": {ThrowsPerHalf: 0},
		"moves":           func() env.Knobs { k := env.DefaultKnobs(); k.Moves = -1; return k }(),
		"home-mode":       func() env.Knobs { k := env.DefaultKnobs(); k.HomeMode = "attack"; return k }(),
		"points":          func() env.Knobs { k := env.DefaultKnobs(); k.Points = "0,1,3"; return k }(),
	} {
		var ke *env.KnobError
		if _, err := k.Rules(); !errors.As(err, &ke) || ke.Knob != knob {
			t.Errorf("%s: %v", knob, err)
		}
	}
}
