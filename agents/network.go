// The network agent: a learner's final neural network (kingoal.bench keeps it), played as it
// was measured — the masked softmax of a small feed-forward network at every break, asked on
// the observation the exact ruler asks it on.

package agents

import (
	"fmt"
	"io"
	"math"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/internal/jsonfile"
	"github.com/kingoal/kingoal/internal/memo"
	"github.com/kingoal/kingoal/solver"
	"github.com/kingoal/kingoal/solver/game"
)

// NetworkFormat names a network file (KEY.kgn in a zoo, written by kingoal.bench).
const NetworkFormat = "kingoal network/1"

// The bounds of a network file, so a file from outside cannot grow memory without bound:
// the file's bytes, each side's members, and the numbers (weights and biases) it holds.
const (
	maxNetworkBytes   = 256 << 20
	maxNetworkMembers = 256
	maxNetworkParams  = 16 << 20
	maxNetworkWidth   = 1 << 14
)

// NetworkFile is a network agent's file: for each side, the members whose policies it mixes
// at every decision, Σ weight × softmax (one member: the network itself; neural PSRO's
// population under its meta-strategy), each a stack of dense layers from the observation's
// env.ObservationSize slots to the env.NumActions logits.
type NetworkFile struct {
	Format string          `json:"format"`
	Name   string          `json:"name"`
	Rules  env.Rules       `json:"rules"` // what it learned and was measured under; refused under others
	Home   []NetworkMember `json:"home"`
	Away   []NetworkMember `json:"away"`
}

// NetworkMember is one network of a side and its weight in the side's mix.
type NetworkMember struct {
	Weight float64        `json:"weight"`
	Layers []NetworkLayer `json:"layers"`
}

// NetworkLayer is a dense layer, y = activation(W x + b), as torch.nn.Linear holds it.
type NetworkLayer struct {
	In         int       `json:"in"`
	Out        int       `json:"out"`
	Weight     []float32 `json:"weight"` // Out × In, row by row (torch's Linear.weight)
	Bias       []float32 `json:"bias"`
	Activation string    `json:"activation"` // after the layer: "relu", "tanh" or "" (none)
}

// Check says what is wrong with the file, if anything: the format, the rules (valid, Basic
// mode), the sides' members and weights, each layer's shapes (the first reads the
// observation, the last gives the logits), activations and numbers (finite), and the bounds.
func (f *NetworkFile) Check() error {
	if err := f.check(); err != nil {
		return fmt.Errorf("agents: network: %w", err)
	}
	return nil
}

func (f *NetworkFile) check() error {
	if f.Format != NetworkFormat {
		return fmt.Errorf("format %q, want %q", f.Format, NetworkFormat)
	}
	if err := f.Rules.Validate(); err != nil {
		return err
	}
	if solver.HasDynamic(f.Rules) { // its breaks are Basic mode's; a shift is not a line-up
		return fmt.Errorf("rules %s: a network plays Basic mode only", f.Rules)
	}
	params := 0
	for _, side := range []struct {
		name    string
		members []NetworkMember
	}{{"home", f.Home}, {"away", f.Away}} {
		if len(side.members) == 0 || len(side.members) > maxNetworkMembers {
			return fmt.Errorf("%s: %d members, want 1..%d", side.name, len(side.members), maxNetworkMembers)
		}
		total := 0.0
		for i, m := range side.members {
			if !(m.Weight >= 0) || math.IsInf(m.Weight, 0) {
				return fmt.Errorf("%s member %d: weight %v, want a finite number ≥ 0", side.name, i, m.Weight)
			}
			total += m.Weight
			n, err := checkLayers(m.Layers)
			if err != nil {
				return fmt.Errorf("%s member %d: %w", side.name, i, err)
			}
			if params += n; params > maxNetworkParams {
				return fmt.Errorf("more than %d weights and biases", maxNetworkParams)
			}
		}
		if !(total > 0) || math.IsInf(total, 0) {
			return fmt.Errorf("%s: the members' weights sum to %v, want a finite number > 0", side.name, total)
		}
	}
	return nil
}

// checkLayers checks one network's layers and returns how many numbers they hold.
func checkLayers(layers []NetworkLayer) (int, error) {
	if len(layers) == 0 {
		return 0, fmt.Errorf("no layers")
	}
	params, in := 0, env.ObservationSize
	for k, l := range layers {
		want := in
		if k == len(layers)-1 && l.Out != env.NumActions {
			return 0, fmt.Errorf("layer %d: %d outputs, want the %d logits", k, l.Out, env.NumActions)
		}
		switch {
		case l.In != want || l.Out < 1 || l.Out > maxNetworkWidth:
			return 0, fmt.Errorf("layer %d: %d → %d, want %d inputs and 1..%d outputs", k, l.In, l.Out, want, maxNetworkWidth)
		case len(l.Weight) != l.In*l.Out || len(l.Bias) != l.Out:
			return 0, fmt.Errorf("layer %d: %d weights and %d biases, want %d and %d", k, len(l.Weight), len(l.Bias), l.In*l.Out, l.Out)
		case l.Activation != "" && l.Activation != "relu" && l.Activation != "tanh":
			return 0, fmt.Errorf("layer %d: activation %q, want relu, tanh or none (\"\")", k, l.Activation)
		}
		for _, x := range append(l.Weight[:len(l.Weight):len(l.Weight)], l.Bias...) {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return 0, fmt.Errorf("layer %d: a weight or bias %v, want finite numbers", k, x)
			}
		}
		params += len(l.Weight) + len(l.Bias)
		in = l.Out
	}
	return params, nil
}

// ReadNetworkFile reads and checks a network file (its checksum too: jsonfile).
func ReadNetworkFile(r io.ReaderAt, size int64) (*NetworkFile, error) {
	if size > maxNetworkBytes {
		return nil, fmt.Errorf("agents: network file: %d bytes, more than a network file's %d", size, maxNetworkBytes)
	}
	data := make([]byte, size)
	if _, err := r.ReadAt(data, 0); err != nil && err != io.EOF {
		return nil, fmt.Errorf("agents: network file: %w", err)
	}
	var f NetworkFile
	if err := jsonfile.Decode(data, &f, "format", "name", "rules", "home", "away"); err != nil {
		return nil, fmt.Errorf("agents: network file: %w", err)
	}
	return &f, f.Check()
}

// Write writes the file as ReadNetworkFile reads it (with its checksum).
func (f *NetworkFile) Write(w io.Writer) error { return jsonfile.Encode(w, f, false) }

// Network plays a network file: at the kick-off and at every break, a draw from its side's
// mix of masked softmaxes (a Mixer, so its exploitability is exact where the work fits).
type Network struct {
	File *NetworkFile
	rng  env.SeededRand
	err  error
	// the forward pass's buffers: the observation, and two layers' activations
	obs, a, b []float64
}

func buildNetwork(p params, s Setup) (Agent, error) {
	path := p["file"]
	if path == "" {
		return nil, fmt.Errorf("network needs a network file: network:file=NET.kgn (kingoal.bench keeps one in its zoo)")
	}
	f, err := readOnce(&networkFiles, s, path, ReadNetworkFile)
	if err == nil && !f.Rules.Equal(s.Rules) {
		err = fmt.Errorf("the network was measured under %q, not %q", f.Rules.String(), s.Rules.String())
	}
	if err != nil {
		return nil, &ModelError{Kind: "network", Path: path, Err: err}
	}
	n := &Network{File: f}
	n.Reset(0)
	return n, nil
}

// networkFiles memoises read network files per file, as policyTables does tables.
var networkFiles = memo.Cache[tableKey, *NetworkFile]{Limit: 4}

// Reset reseeds the agent's draws.
func (n *Network) Reset(seed uint64) { n.rng.Reset(seed, streamNetwork) }

// Err returns the first failure (a decision it does not make: Dynamic mode's; logits past
// float64's range); nil in normal play.
func (n *Network) Err() error { return n.err }

// Mix is the side's mix at obs (env.Mixer), over the legal line-ups. At a break the network
// sees the break as the exact ruler shows it (game.BreakObservation: the goal difference, the
// ball at kick-off), so that the agent plays the policy that was measured.
func (n *Network) Mix(obs env.Observation, legal env.Mask) []env.Weighted {
	switch obs.Decision {
	case env.KickOff:
	case env.Break:
		obs, _ = game.BreakObservation(breakState(obs), obs.Player, n.File.Rules)
	default:
		if n.err == nil {
			n.err = fmt.Errorf("agents: network at %s: it plays Basic mode only, not a %s decision", obs.Period, obs.Decision)
		}
		return []env.Weighted{{Lineup: obs.Own, Prob: 1}}
	}
	members := n.File.Home
	if obs.Player == env.Away {
		members = n.File.Away
	}
	n.obs = n.obs[:0]
	for _, x := range obs.Vector() {
		n.obs = append(n.obs, float64(x))
	}
	mix := make([]env.Weighted, 0, legal.Count())
	for a := range env.NumActions {
		if legal.Has(a) {
			mix = append(mix, env.Weighted{Lineup: env.LineupAt(a)})
		}
	}
	total := 0.0
	for _, m := range members {
		total += m.Weight
	}
	for _, m := range members {
		if m.Weight == 0 {
			continue
		}
		logits := n.forward(m.Layers)
		top := math.Inf(-1)
		for _, w := range mix {
			top = max(top, logits[w.Lineup.Index()])
		}
		if math.IsInf(top, 0) || math.IsNaN(top) { // past float64's range: no softmax to play
			if n.err == nil {
				n.err = fmt.Errorf("agents: network at %s, %d left: a logit of %v", obs.Period, obs.ThrowsLeft, top)
			}
			return []env.Weighted{{Lineup: obs.Own, Prob: 1}}
		}
		sum := 0.0
		for _, w := range mix {
			sum += math.Exp(logits[w.Lineup.Index()] - top)
		}
		for i, w := range mix {
			mix[i].Prob += m.Weight / total * math.Exp(logits[w.Lineup.Index()]-top) / sum
		}
	}
	return mix
}

// forward is the network's logits at n.obs (in a buffer of n's, valid until the next call).
func (n *Network) forward(layers []NetworkLayer) []float64 {
	in := n.obs
	for _, l := range layers {
		out := n.a[:0]
		for o := range l.Out {
			z := float64(l.Bias[o])
			for i, w := range l.Weight[o*l.In : (o+1)*l.In] {
				z += float64(w) * in[i]
			}
			switch l.Activation {
			case "relu":
				z = max(z, 0)
			case "tanh":
				z = math.Tanh(z)
			}
			out = append(out, z)
		}
		n.a, n.b, in = n.b, out, out // the next layer writes into the other buffer
	}
	return in
}

// Act draws the line-up to play from the network's mix; the result is always legal.
func (n *Network) Act(obs env.Observation, legal env.Mask) int {
	if to := drawFrom(n.rng.Rand, n.Mix(obs, legal)); legal.Has(to.Index()) {
		return to.Index()
	}
	return legal.Nth(0) // a Dynamic decision (Err has it) where keeping is not legal
}
