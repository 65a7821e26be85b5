package env_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/env"
)

func TestRulesJSONIsKnobs(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 10, Moves: env.NoMoves, Knockout: true, Modes: [2]env.Mode{env.Basic, env.Dynamic}, DynamicTrigger: env.TriggerTurnover,
		Points: env.Points{Win: 2, Draw: 1}}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"knockout":true,"ties_count":false,"throws_per_half":10,"extra_throws":15,"moves":0,"home_mode":"basic","away_mode":"dynamic","dynamic_trigger":"turnover","points":"2,1,0"}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	var back env.Rules
	if err := json.Unmarshal(b, &back); err != nil || !back.Equal(r) {
		t.Fatalf("round trip: %v, %v ≠ %v", err, back, r)
	}
	if err := json.Unmarshal([]byte(`{"moves":1}`), &back); err != nil || !back.Equal(env.Rules{Moves: 1}) {
		t.Fatalf("a missing knob is not its default: %v, %v", err, back)
	}
	// Files of 0.9.0-dev wrote Go's field names: they read as written.
	legacy := `{"ThrowsPerHalf":10,"ExtraThrowsPerHalf":0,"Moves":-1,"TiesCount":false,"DynamicTrigger":1,"Points":{"Win":2,"Draw":1,"Loss":0},"Knockout":true,"Modes":[0,1]}`
	if err := json.Unmarshal([]byte(legacy), &back); err != nil || !back.Equal(r) {
		t.Fatalf("legacy form: %v, %v ≠ %v", err, back, r)
	}
	for _, bad := range []string{`{"throws":10}`, `{"moves":-2}`, `{"home_mode":"bsaic"}`, `{"ThrowsPerHalf":-4}`, `{"Throws":1}`, `[1]`, `{"moves":"1"}`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil || !strings.HasPrefix(err.Error(), "env: ") {
			t.Errorf("%s: want an env error, got %v", bad, err)
		}
	}
}

// FuzzRulesJSON: whatever a file holds, reading rules either fails with an env error or gives
// valid rules that write and read back Equal.
func FuzzRulesJSON(f *testing.F) {
	f.Add([]byte(`{"knockout":true,"throws_per_half":10,"points":"2,1,0"}`))
	f.Add([]byte(`{"ThrowsPerHalf":10,"Moves":-1,"Modes":[0,1]}`))
	f.Add([]byte(`{"home_mode":"dynamic","dynamic_trigger":"turnover"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r env.Rules
		if err := json.Unmarshal(data, &r); err != nil {
			var syntax *json.SyntaxError // encoding/json's own, before our method is called
			if !errors.As(err, &syntax) && !strings.Contains(err.Error(), "env: ") {
				t.Fatalf("%q: %v", data, err)
			}
			return
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("%q read as invalid rules: %v", data, err)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back env.Rules
		if err := json.Unmarshal(b, &back); err != nil || !back.Equal(r) {
			t.Fatalf("%q: %s does not read back: %v", data, b, err)
		}
	})
}
