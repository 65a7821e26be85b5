package agents_test

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
)

// testNetwork is a 36-8-121 network (tanh, then logits) with seeded weights, one member a side.
func testNetwork(r env.Rules, seed uint64) *agents.NetworkFile {
	rng := rand.New(rand.NewPCG(seed, 7))
	layer := func(in, out int, act string) agents.NetworkLayer {
		l := agents.NetworkLayer{In: in, Out: out, Activation: act, Weight: make([]float32, in*out), Bias: make([]float32, out)}
		for i := range l.Weight {
			l.Weight[i] = float32(rng.NormFloat64())
		}
		for i := range l.Bias {
			l.Bias[i] = float32(rng.NormFloat64())
		}
		return l
	}
	member := func() []agents.NetworkMember {
		return []agents.NetworkMember{{Weight: 1, Layers: []agents.NetworkLayer{layer(env.ObservationSize, 8, "tanh"), layer(8, env.NumActions, "")}}}
	}
	return &agents.NetworkFile{Format: agents.NetworkFormat, Name: "test", Rules: r, Home: member(), Away: member()}
}

// writeNetwork writes f into dir and returns its path.
func writeNetwork(t testing.TB, dir string, f *agents.NetworkFile) string {
	t.Helper()
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "net.kgn")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestNetworkPlaysItsMaskedSoftmax: with zero weights but the last layer's biases, the mix is
// the softmax of those biases over the legal line-ups — by hand — and a member of weight 0 is
// not asked; a second member mixes in by its weight.
func TestNetworkPlaysItsMaskedSoftmax(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 3, Moves: 1}
	f := testNetwork(r, 1)
	last := &f.Home[0].Layers[1]
	clear(last.Weight)
	uniform := agents.NetworkMember{Weight: 0.25, Layers: []agents.NetworkLayer{{In: env.ObservationSize, Out: env.NumActions,
		Weight: make([]float32, env.ObservationSize*env.NumActions), Bias: make([]float32, env.NumActions)}}}
	f.Home = append(f.Home, agents.NetworkMember{Weight: 0, Layers: nil}, uniform)
	f.Home[1].Layers = f.Away[0].Layers
	f.Home[0].Weight = 0.75
	a, err := agents.New("network:file="+writeNetwork(t, t.TempDir(), f), agents.Setup{Rules: r})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := env.NewState(r)
	legal := s.Legal(env.Home)
	mix := a.(env.Mixer).Mix(s.Observe(env.Home), legal)
	if len(mix) != legal.Count() {
		t.Fatalf("%d line-ups in the mix, want the %d legal ones", len(mix), legal.Count())
	}
	sum := 0.0
	for _, w := range mix {
		sum += math.Exp(float64(last.Bias[w.Lineup.Index()]))
	}
	for _, w := range mix {
		want := 0.75*math.Exp(float64(last.Bias[w.Lineup.Index()]))/sum + 0.25/float64(legal.Count())
		if math.Abs(w.Prob-want) > 1e-12 {
			t.Fatalf("%v: %v, want %v", w.Lineup, w.Prob, want)
		}
	}
}

// TestNetworkSeesBreaksAsTheRulerShowsThem: two observations of one break state — 3-1 with the
// ball in one sector, 2-0 with it in another — get the same mix, the one of the break as the
// exact ruler asks it (game.BreakObservation), so the agent plays the policy measured.
func TestNetworkSeesBreaksAsTheRulerShowsThem(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 3, Moves: 1}
	a, err := agents.New("network:file="+writeNetwork(t, t.TempDir(), testNetwork(r, 2)), agents.Setup{Rules: r})
	if err != nil {
		t.Fatal(err)
	}
	st := game.State{Period: env.FirstHalf, ThrowsLeft: 2, GoalDiff: 2, Home: env.MustParseLineup("1-2-3-3-1"), Away: env.MustParseLineup("2-2-2-2-2"), HomeMoves: 1, AwayMoves: 1}
	ruler, legal := game.BreakObservation(st, env.Away, r)
	seen := ruler
	seen.OwnGoals, seen.OppGoals, seen.Ball = 1, 3, 4
	m := a.(env.Mixer)
	want, got := m.Mix(ruler, legal), m.Mix(seen, legal)
	for i := range want {
		if want[i] != got[i] {
			t.Fatalf("line-up %v: %v as the ruler shows the break, %v as a match shows it", want[i].Lineup, want[i].Prob, got[i].Prob)
		}
	}
	if env.ErrOf(a) != nil {
		t.Fatal(env.ErrOf(a))
	}
}

// TestNetworkFileRefusals: a file that is not a network, or one under other rules, is refused
// in one line naming what is wrong.
func TestNetworkFileRefusals(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 3, Moves: 1}
	for _, tc := range []struct {
		name, want string
		edit       func(f *agents.NetworkFile)
	}{
		{"format", "format", func(f *agents.NetworkFile) { f.Format = "kingoal network/0" }},
		{"no members", "home: 0 members", func(f *agents.NetworkFile) { f.Home = nil }},
		{"input", "want 36 inputs", func(f *agents.NetworkFile) { f.Away[0].Layers[0].In = 35 }},
		{"outputs", "want the 121 logits", func(f *agents.NetworkFile) { f.Away[0].Layers = f.Away[0].Layers[:1] }},
		{"weights", "weights and", func(f *agents.NetworkFile) { f.Home[0].Layers[1].Weight = f.Home[0].Layers[1].Weight[1:] }},
		{"activation", "activation \"gelu\"", func(f *agents.NetworkFile) { f.Home[0].Layers[0].Activation = "gelu" }},
		{"member weight", "want a finite number ≥ 0", func(f *agents.NetworkFile) { f.Home[0].Weight = -1 }},
		{"weights sum", "sum to 0", func(f *agents.NetworkFile) { f.Away[0].Weight = 0 }},
		{"dynamic", "Basic mode only", func(f *agents.NetworkFile) { f.Rules.Modes[env.Away] = env.Dynamic }},
	} {
		f := testNetwork(r, 3)
		tc.edit(f)
		_, err := agents.New("network:file="+writeNetwork(t, t.TempDir(), f), agents.Setup{Rules: r})
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line saying %q", tc.name, err, tc.want)
		}
	}
	f := testNetwork(r, 3) // JSON has no NaN: a network handed over in memory (kingoal.bench) is checked too
	f.Home[0].Layers[1].Bias[3] = float32(math.NaN())
	if err := f.Check(); err == nil || !strings.Contains(err.Error(), "want finite numbers") {
		t.Errorf("NaN: %v, want a refusal", err)
	}
	path := writeNetwork(t, t.TempDir(), testNetwork(r, 3))
	if _, err := agents.New("network:file="+path, agents.Setup{Rules: env.Rules{ThrowsPerHalf: 4, Moves: 1}}); err == nil || !strings.Contains(err.Error(), "was measured under") {
		t.Errorf("other rules: %v, want a refusal", err)
	}
	data, _ := os.ReadFile(path)
	if err := os.WriteFile(path, bytes.Replace(data, []byte(`"name":"test"`), []byte(`"name":"tent"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := agents.New("network:file="+path, agents.Setup{Rules: r}); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("an edited file: %v, want its checksum refused", err)
	}
}

func FuzzReadNetworkFile(f *testing.F) {
	r := env.Rules{ThrowsPerHalf: 3, Moves: 1}
	var buf bytes.Buffer
	if err := testNetwork(r, 4).Write(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte(`{"format":"kingoal network/1","name":"x","rules":{},"home":[],"away":[]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := agents.ReadNetworkFile(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "agents: ") {
				t.Fatalf("error without prefix: %v", err)
			}
			return
		}
		// A network that reads plays legal mixes that sum to 1 (or, past float32's range, refuses nothing silently).
		a := &agents.Network{File: n}
		s, err := env.NewState(n.Rules)
		if err != nil {
			return
		}
		total := 0.0
		for _, w := range a.Mix(s.Observe(env.Home), s.Legal(env.Home)) {
			total += w.Prob
		}
		if math.Abs(total-1) > 1e-9 {
			t.Fatalf("the mix sums to %v", total)
		}
	})
}

// TestNetworkPlaysMatches: the agent plays whole matches under its rules, draws reproducible by seed.
func TestNetworkPlaysMatches(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 3, Moves: 1}
	spec := "network:file=" + writeNetwork(t, t.TempDir(), testNetwork(r, 5))
	play := func() env.State {
		a, err := agents.New(spec, agents.Setup{Rules: r, Context: context.Background()})
		if err != nil {
			t.Fatal(err)
		}
		a.(*agents.Network).Reset(9)
		s, _ := env.NewState(r)
		end, err := env.Play(s, a, agents.NewRandom(1), env.NewFastSampler(env.SeededSource(1, 1)), nil)
		if err != nil || env.ErrOf(a) != nil {
			t.Fatal(err, env.ErrOf(a))
		}
		return end
	}
	if a, b := play(), play(); a.Observe(env.Home) != b.Observe(env.Home) {
		t.Fatalf("one seed, two matches: %+v and %+v", a.Observe(env.Home), b.Observe(env.Home))
	}
}
