package agents_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/odds"
	"github.com/kingoal/kingoal/solver/policy"
)

// TestQLearningReachesTheBestResponse: after 1,000,000 episodes against fixed:2-2-2-2-2
// (10-throw halves, 1 move; sides alternate), the greedy policy's exact value (Evaluate)
// is within 0.02 of the best-response value on both sides. The return (+1/0/−1) maps to
// the win-draw objective: (1 + E[result]) / 2 = P(win) + ½ P(draw). Fixed seed.
func TestQLearningReachesTheBestResponse(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 10, Moves: 1}
	opp := env.MustParseLineup("2-2-2-2-2")
	best := 0.0
	for _, l := range env.AllLineups() {
		p, err := policy.SolveBasic(policy.BasicProblem{Rules: r, Own: l, Opponent: opp, Objective: odds.ObjectiveWinDraw})
		if err != nil {
			t.Fatal(err)
		}
		best = max(best, p.Value())
	}
	q := agents.NewQLearning(agents.QConfig{}, r)
	if err := q.Train(context.Background(), agents.TrainConfig{Opponent: agents.Fixed{Lineup: opp}, Episodes: 1_000_000, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	home, err := policy.Evaluate(policy.PolicyOf(q), policy.Keeping{Lineup: opp}, r)
	if err != nil {
		t.Fatal(err)
	}
	away, err := policy.Evaluate(policy.Keeping{Lineup: opp}, policy.PolicyOf(q), r)
	if err != nil {
		t.Fatal(err)
	}
	for side, v := range map[string]float64{"home": home.Objective(odds.ObjectiveWinDraw, env.Home, r), "away": away.Objective(odds.ObjectiveWinDraw, env.Away, r)} {
		t.Logf("%s: learned %.4f, best response %.4f", side, v, best)
		if best-v > 0.02 || v > best+1e-9 {
			t.Errorf("%s: learned value %.4f, best response %.4f", side, v, best)
		}
	}
}

func TestQLearningModelFile(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 6}
	q := agents.NewQLearning(agents.QConfig{Epsilon: 0.2}, r)
	if err := q.Train(context.Background(), agents.TrainConfig{Opponent: agents.NewRandom(1), Episodes: 3000, Seed: 9}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := q.Save(&buf); err != nil {
		t.Fatal(err)
	}
	saved := buf.Bytes()
	back, err := agents.LoadQLearning(bytes.NewReader(saved), r)
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	back.Save(&again)
	if !bytes.Equal(saved, again.Bytes()) || back.Episodes != 3000 || back.States() != q.States() {
		t.Fatal("a saved and loaded model is not the same model")
	}
	// Same decisions through the registry.
	path := filepath.Join(t.TempDir(), "q.json")
	os.WriteFile(path, saved, 0o644)
	a, err := agents.New("qlearning:model="+path, agents.Setup{Rules: r})
	if err != nil {
		t.Fatal(err)
	}
	if err := envtestSame(q, a, r); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		data []byte
		r    env.Rules
		want string
	}{
		"truncated":    {saved[:len(saved)/2], r, "not a Q-learning model"},
		"foreign":      {[]byte(`{"format":"something-else","version":1}`), r, `format "something-else"`},
		"future":       {[]byte(`{"format":"kingoal-qlearning","version":9}`), r, "version 9"},
		"other rules":  {saved, env.Rules{}, "was trained for"},
		"inconsistent": {[]byte(`{"format":"kingoal-qlearning","version":1,"rules":"` + r.String() + `","config":{},"episodes":0,"states":[{"key":1,"legal":[3,0],"q":[0],"n":[0]}]}`), r, "inconsistent"},
		"csv":          {[]byte("a,b\n1,2\n"), r, "not a Q-learning model"},
		"edited":       {bytes.Replace(saved, []byte(`"episodes":`), []byte(`"episodes":1`), 1), r, "checksum"},
		"unknown key":  {bytes.Replace(saved, []byte(`"episodes":`), []byte(`"epsiodes":0,"episodes":`), 1), r, "not a Q-learning model"},
	} {
		if _, err := agents.LoadQLearning(bytes.NewReader(c.data), c.r); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := agents.New("qlearning:model="+filepath.Join(t.TempDir(), "missing.json"), agents.Setup{Rules: r}); err == nil {
		t.Error("a missing model file was accepted")
	}
}

// envtestSame checks two agents choose alike over every decision of a few random matches.
func envtestSame(a, b agents.Agent, r env.Rules) error {
	for seed := range uint64(20) {
		s, _ := env.NewState(r)
		rnd := agents.NewRandom(seed)
		var diff error
		_, err := env.Play(s, env.PolicyFunc(func(o env.Observation, m env.Mask) int {
			x, y := a.Act(o, m), b.Act(o, m)
			if x != y && diff == nil {
				diff = fmt.Errorf("seed %d: %d v %d at %s", seed, x, y, o.Decision)
			}
			return x
		}), rnd, env.NewFastSampler(env.SeededSource(seed, 2)), nil)
		if err != nil {
			return err
		}
		if diff != nil {
			return diff
		}
	}
	return nil
}

func FuzzLoadQLearning(f *testing.F) {
	r := env.Rules{ThrowsPerHalf: 4}
	q := agents.NewQLearning(agents.QConfig{}, r)
	q.Train(context.Background(), agents.TrainConfig{Opponent: agents.NewRandom(2), Episodes: 50, Seed: 1})
	var buf bytes.Buffer
	q.Save(&buf)
	f.Add(buf.Bytes())
	f.Add([]byte(`{"format":"kingoal-qlearning","version":1}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := agents.LoadQLearning(bytes.NewReader(data), r)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "agents: ") {
				t.Fatalf("error without prefix: %v", err)
			}
			return
		}
		// A model that loads must play legal actions.
		s, _ := env.NewState(r)
		if _, err := env.Play(s, m, agents.NewRandom(1), env.NewFastSampler(env.SeededSource(1, 1)), nil); err != nil {
			t.Fatalf("a loaded model played illegally: %v", err)
		}
	})
}
