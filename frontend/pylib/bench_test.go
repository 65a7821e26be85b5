package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
)

// FuzzBenchNetwork: whatever kingoal.bench.keep_network hands over, it is refused with one
// line of the user's input class, or it is a network that checks and reads back as written.
func FuzzBenchNetwork(f *testing.F) {
	zeros := func(n int) []float32 { return make([]float32, n) }
	member := []agents.NetworkMember{{Weight: 1, Layers: []agents.NetworkLayer{
		{In: env.ObservationSize, Out: 2, Weight: zeros(2 * env.ObservationSize), Bias: []float32{0.5, -1}, Activation: "relu"},
		{In: 2, Out: env.NumActions, Weight: zeros(2 * env.NumActions), Bias: zeros(env.NumActions)},
	}}}
	valid, err := json.Marshal(map[string]any{"dir": "zoo", "key": "ppo_seed1", "card_name": "ppo", "learner": "ppo",
		"rules": map[string]any{"throws_per_half": 3, "moves": 1}, "budget": 10, "seed": 1, "exploitability": 0.25,
		"home": member, "away": member})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(valid)
	f.Add(bytes.Replace(valid, []byte(`"relu"`), []byte(`"gelu"`), 1))
	f.Add(bytes.Replace(valid, []byte(`"weight":1`), []byte(`"weight":1e99`), 1))
	f.Add([]byte(`{"dir":"zoo","key":"k","card_name":"n","learner":"l","rules":{},"home":[{"weight":1,"layers":[]}],"away":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, file, err := parseNetwork(data)
		if err != nil {
			var in inputError
			if !errors.As(err, &in) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("not a one-line input error: %v", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := file.Write(&buf); err != nil {
			t.Fatal(err)
		}
		back, err := agents.ReadNetworkFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatalf("a checked network does not read back: %v", err)
		}
		if !back.Rules.Equal(file.Rules) || len(back.Home) != len(file.Home) || len(back.Away) != len(file.Away) {
			t.Fatalf("read back as another network")
		}
	})
}
