package agents

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"slices"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/internal/jsonfile"
	"github.com/kingoal/kingoal/internal/safefile"
)

// QConfig are the hyper-parameters of tabular Q-learning. The zero value means the defaults.
type QConfig struct {
	// Alpha is the learning rate; 0 means 1/n for the n-th update of a state-action pair
	// (sample averages, which converge for this episodic game).
	Alpha float64 `json:"alpha"`
	// Epsilon is the exploration rate of ε-greedy play while training; 0 means 0.1.
	Epsilon float64 `json:"epsilon"`
}

func (c QConfig) epsilon() float64 {
	if c.Epsilon == 0 {
		return 0.1
	}
	return c.Epsilon
}

// QLearning is a tabular Q-learning agent. The return of an episode is the match result
// (+1/0/−1 for the agent; a shoot-out decides a knockout), undiscounted; the value of a
// decision is learned toward the best value of the agent's next decision, or the result.
//
// State features (packed into a 64-bit key, documented in featureKey): the decision kind;
// at a break the period, throws left (capped at 255), goal difference (clipped to ±7), own
// line-up and moves left, the opponent's line-up and moves left; at a shift the period,
// throws left, ball (own coordinates), goal difference, own and opponent line-ups and
// possession. The kick-off decision has one state per side. Act plays greedily; Train
// plays ε-greedily and learns.
type QLearning struct {
	Config   QConfig
	Rules    env.Rules
	Episodes int // episodes trained so far
	// Training records how the model was trained, as the trainer chose to describe it (the
	// CLI: its flags), so that a resumed training can continue exactly; kept by Save/Load.
	Training map[string]string
	table    map[uint64]*qRow
	rng      env.SeededRand
}

// qRow holds one state's values for its legal actions, in index order.
type qRow struct {
	legal env.Mask
	q     []float64
	n     []uint32
}

// slot returns the position of legal action a in the row.
func (r *qRow) slot(a int) int {
	w := a >> 6
	below := bits.OnesCount64(r.legal[w] & (1<<uint(a&63) - 1))
	if w == 1 {
		below += bits.OnesCount64(r.legal[0])
	}
	return below
}

// NewQLearning returns an untrained agent for rules r.
func NewQLearning(cfg QConfig, r env.Rules) *QLearning {
	q := &QLearning{Config: cfg, Rules: r, table: map[uint64]*qRow{}}
	q.Reset(0)
	return q
}

// Reset reseeds exploration.
func (q *QLearning) Reset(seed uint64) { q.rng.Reset(seed, streamQLearning) }

// States returns how many states the table holds.
func (q *QLearning) States() int { return len(q.table) }

// featureKey packs the features of a decision observation (bits from low to high):
// kind 2, side 1, period 3, throws left 8, difference+7 4, own line-up 7, own moves 3,
// opponent line-up 7, opponent moves 3, ball 3, possession+1 2.
func featureKey(o env.Observation) uint64 {
	var k uint64
	put := func(v, width int) { k = k<<width | uint64(v)&(1<<width-1) }
	put(int(o.Decision), 2)
	put(int(o.Player), 1)
	if o.Decision == env.KickOff {
		return k
	}
	put(int(o.Period), 3)
	put(min(o.ThrowsLeft, 255), 8)
	put(max(-7, min(7, o.OwnGoals-o.OppGoals))+7, 4)
	put(o.Own.Index(), 7)
	put(min(o.OwnMovesLeft, 7), 3)
	put(o.Opp.Index(), 7)
	put(min(o.OppMovesLeft, 7), 3)
	if o.Decision == env.Shift {
		put(o.Ball, 3)
		put(o.Possession+1, 2)
	}
	return k
}

func (q *QLearning) row(key uint64, legal env.Mask) *qRow {
	r, ok := q.table[key]
	if !ok {
		n := legal.Count()
		r = &qRow{legal: legal, q: make([]float64, n), n: make([]uint32, n)}
		q.table[key] = r
	}
	return r
}

// best returns the greedy action of a row (lowest index among equals) and its value.
func (r *qRow) best() (int, float64) {
	i := 0
	for j, v := range r.q {
		if v > r.q[i] {
			i = j
		}
	}
	return r.legal.Nth(i), r.q[i]
}

// Act plays the greedy action; an unseen state keeps the line-up (or, at kick-off,
// declares the first legal line-up).
func (q *QLearning) Act(obs env.Observation, legal env.Mask) int {
	if r, ok := q.table[featureKey(obs)]; ok && r.legal == legal {
		a, _ := r.best()
		return a
	}
	if obs.Decision != env.KickOff && legal.Has(obs.Own.Index()) {
		return obs.Own.Index()
	}
	return legal.Nth(0)
}

// TrainConfig configures Train.
type TrainConfig struct {
	Opponent env.Policy // the opponent (a Reset(seed) method is called every episode); nil: self-play

	Episodes int
	Seed     uint64
	// Progress, if set, is called every 4,096 episodes with the episodes done and the
	// agent's mean result over them (+1 win, −1 loss).
	Progress func(done int, meanResult float64)
}

// Train plays cfg.Episodes matches against cfg.Opponent (or, if nil, against its own current
// greedy policy: self-play), alternating sides, ε-greedily, and learns after every decision.
// Episode k of the agent's life (Episodes counts them) takes its dice and exploration from
// (Seed, k), so training in several calls gives exactly the model of one call. If ctx is
// cancelled, Train stops after the current episode and returns ctx's error; the episodes
// played so far are learned.
func (q *QLearning) Train(ctx context.Context, cfg TrainConfig) error {
	if cfg.Episodes <= 0 {
		return errors.New("agents: training needs at least one episode")
	}
	if cfg.Opponent == nil { // self-play: the opponent is the current greedy policy
		cfg.Opponent = greedyOnly{q}
	}
	var envs [2]*env.Env
	for p := range envs {
		e, err := env.New(env.Config{Rules: q.Rules, Player: env.Player(p), Opponent: cfg.Opponent})
		if err != nil {
			return err
		}
		envs[p] = e
	}
	eps := q.Config.epsilon()
	sum := 0.0
	for i := range cfg.Episodes {
		if err := ctx.Err(); err != nil {
			return err
		}
		seed := env.SeededSource(cfg.Seed, uint64(q.Episodes)).Uint64()
		q.Reset(seed)
		e := envs[q.Episodes%2]
		obs, info := e.Reset(seed)
		var prev *qRow
		prevSlot := 0
		for {
			key := featureKey(obs)
			r := q.row(key, info.Mask)
			a, v := r.best()
			if prev != nil { // bootstrap the previous decision from this one
				q.update(prev, prevSlot, v)
			}
			if q.rng.Float64() < eps {
				a = info.Mask.Nth(q.rng.IntN(info.Mask.Count()))
			}
			tr, err := e.Step(a)
			if err != nil {
				return err
			}
			prev, prevSlot = r, r.slot(a)
			if tr.Terminated || tr.Truncated {
				q.update(prev, prevSlot, tr.Reward)
				sum += tr.Reward
				break
			}
			obs, info = tr.Obs, tr.Info
		}
		q.Episodes++
		if cfg.Progress != nil && ((i+1)%4096 == 0 || i+1 == cfg.Episodes) {
			n := (i % 4096) + 1
			cfg.Progress(i+1, sum/float64(n))
			sum = 0
		}
	}
	return nil
}

// greedyOnly is q as a self-play opponent: greedy, and not reseeded by the env.
type greedyOnly struct{ q *QLearning }

func (g greedyOnly) Act(obs env.Observation, legal env.Mask) int { return g.q.Act(obs, legal) }

func (q *QLearning) update(r *qRow, slot int, target float64) {
	r.n[slot]++
	alpha := q.Config.Alpha
	if alpha == 0 {
		alpha = 1 / float64(r.n[slot])
	}
	r.q[slot] += alpha * (target - r.q[slot])
}

// The model file: JSON, format "kingoal-qlearning", version 1.
const (
	qFormat  = "kingoal-qlearning"
	qVersion = 1
)

type qFile struct {
	Format      string            `json:"format"`
	Version     int               `json:"version"`
	Rules       string            `json:"rules"`                  // env.Rules.String(), for people
	RulesConfig *env.Rules        `json:"rules_config,omitempty"` // the rules, checked on load (models before 0.9 have only the string)
	Config      QConfig           `json:"config"`
	Episodes    int               `json:"episodes"`
	Training    map[string]string `json:"training,omitempty"`
	States      []qState          `json:"states"`
}

type qState struct {
	Key   uint64    `json:"key"`
	Legal [2]uint64 `json:"legal"`
	Q     []float64 `json:"q"`
	N     []uint32  `json:"n"`
}

// Save writes the model to w (states in key order, so equal models give equal bytes).
func (q *QLearning) Save(w io.Writer) error {
	r := q.Rules
	f := qFile{Format: qFormat, Version: qVersion, Rules: r.String(), RulesConfig: &r, Config: q.Config, Episodes: q.Episodes, Training: q.Training}
	keys := make([]uint64, 0, len(q.table))
	for k := range q.table {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		r := q.table[k]
		f.States = append(f.States, qState{k, r.legal, r.q, r.n})
	}
	return jsonfile.Encode(w, f, false) // compact: a table can hold a million states
}

// MaxModelBytes bounds what a model is read from: a reader handed a stream that never ends
// (a device, a pipe) stops here with an error instead of taking the machine's memory.
const MaxModelBytes = 1 << 30

// qKeys are the keys every model of this version has (training and rules_config are not in
// models of early builds).
var qKeys = []string{"rules", "config", "episodes", "states"}

// readQFile reads a model file strictly: unknown keys, a checksum that does not match, and
// (once it is known to be a model of this version) missing keys are errors.
func readQFile(rd io.Reader) (qFile, error) {
	var f qFile
	b, err := io.ReadAll(io.LimitReader(rd, MaxModelBytes+1))
	if err != nil {
		return f, fmt.Errorf("agents: %w", err)
	}
	if len(b) > MaxModelBytes {
		return f, fmt.Errorf("agents: not a Q-learning model: more than %d MiB (%w)", MaxModelBytes>>20, safefile.ErrTooLarge)
	}
	if err := jsonfile.Decode(b, &f, "format", "version"); err != nil {
		return f, fmt.Errorf("agents: not a Q-learning model (%v)", err)
	}
	switch {
	case f.Format != qFormat:
		return f, fmt.Errorf("agents: not a Q-learning model (format %q, want %q)", f.Format, qFormat)
	case f.Version != qVersion:
		return f, fmt.Errorf("agents: Q-learning model version %d, this build reads %d", f.Version, qVersion)
	}
	if err := jsonfile.Require(b, qKeys...); err != nil {
		return f, fmt.Errorf("agents: not a whole Q-learning model (%v)", err)
	}
	return f, nil
}

// ReadQTraining reads only the training record of a model written by Save (nil if it has
// none), whatever rules it was trained for.
func ReadQTraining(rd io.Reader) (map[string]string, error) {
	f, err := readQFile(rd)
	if err != nil {
		return nil, err
	}
	return f.Training, nil
}

// LoadQLearning reads a model saved by Save for rules r. A file that is not a model, of
// another version, for other rules, or inconsistent returns an error saying which.
func LoadQLearning(rd io.Reader, r env.Rules) (*QLearning, error) {
	f, err := readQFile(rd)
	if err != nil {
		return nil, err
	}
	switch {
	case f.RulesConfig != nil && !f.RulesConfig.Equal(r), f.RulesConfig == nil && f.Rules != r.String():
		return nil, fmt.Errorf("agents: the model was trained for %q, not %q", f.Rules, r.String())
	case f.Episodes < 0 || f.Config.Alpha < 0 || f.Config.Alpha > 1 || f.Config.Epsilon < 0 || f.Config.Epsilon > 1:
		return nil, errors.New("agents: Q-learning model has invalid settings")
	}
	q := NewQLearning(f.Config, r)
	q.Episodes, q.Training = f.Episodes, f.Training
	for _, s := range f.States {
		m := env.Mask(s.Legal)
		if n := m.Count(); n == 0 || len(s.Q) != n || len(s.N) != n || s.Legal[1]>>(env.NumActions-64) != 0 {
			return nil, fmt.Errorf("agents: Q-learning model state %d is inconsistent", s.Key)
		}
		if _, dup := q.table[s.Key]; dup {
			return nil, fmt.Errorf("agents: Q-learning model repeats state %d", s.Key)
		}
		q.table[s.Key] = &qRow{legal: m, q: s.Q, n: s.N}
	}
	return q, nil
}

func buildQLearning(p params, s Setup) (Agent, error) {
	path := p["model"]
	if path == "" {
		return nil, errors.New("qlearning needs a model: qlearning:model=FILE (train one with kingoal train qlearning)")
	}
	f, err := s.open(path)
	if err != nil {
		return nil, &ModelError{Path: path, Err: err}
	}
	defer f.Close()
	q, err := LoadQLearning(f, s.Rules)
	if err != nil {
		return nil, &ModelError{Path: path, Err: err}
	}
	return q, nil
}

// ModelError is a model file an agent spec names that could not be read, or is not a model
// for the rules: the input file failed, not the spec (the CLI exits 1 for it, not 2).
type ModelError struct {
	Kind string // what the file is: "model" if empty, "table" (nash:table=)
	Path string
	Err  error
}

func (e *ModelError) Error() string {
	return fmt.Sprintf("%s %s: %v", cmp.Or(e.Kind, "model"), e.Path, e.Err)
}
func (e *ModelError) Unwrap() error { return e.Err }
