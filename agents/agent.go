package agents

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
)

// Agent chooses a legal action (a line-up index) from what its player observes.
type Agent = env.Policy

// Setup is what every agent may need to know before a match: the rules it plays under,
// and when to stop thinking.
type Setup struct {
	Rules env.Rules
	// Context, if set, bounds the agent's work: once it is done, searches and solves stop
	// within milliseconds, the agent answers with a legal action and its Err reports the
	// context's error. Whoever plays the agent checks ErrOf after the match.
	Context context.Context
	// Open opens the files an agent's parameters name (qlearning's model=, nash's table=,
	// table's file=). Nil: any regular file the user may read (safefile.Open); a server sets
	// one confined to the directories it serves.
	Open func(name string) (*os.File, error)
	// MaxBytes bounds what an agent solves when it is built (nash's game), by the solver's
	// estimate of its peak memory; 0: game.DefaultMaxBytes. Beyond it the agent is refused
	// with an error wrapping policy.ErrTooLarge.
	MaxBytes int64
	// Live builds the agent a "live:NAME" spec names: a policy answered outside Go (the
	// program that runs the arena: Python's kingoal.arena). Nil: live agents are refused.
	Live func(name string) (Agent, error)
	// Notify, if set, is told in one line before a long piece of work starts when an agent is
	// built — nash's solve of the game, with its size — so a command can say why it waits.
	Notify func(line string)
}

// Param documents one parameter of an agent spec.
type Param struct {
	Name, Default, Doc string
}

// Kind is one registered agent.
type Kind struct {
	Name   string
	Doc    string
	Params []Param // the first is also accepted positionally: "fixed:2-2-2-2-2"
	build  func(p params, s Setup) (Agent, error)
}

// Kinds lists the registered agents in the order `kingoal agents` prints them.
func Kinds() []Kind { return slices.Clone(registry) }

var registry = []Kind{
	{Name: "random", Doc: "uniform over the legal actions", build: buildRandom},
	{Name: "fixed", Doc: "declares a line-up and never changes it",
		Params: []Param{{"lineup", env.DefaultOpponent, "the line-up, like 1-2-3-3-1"}}, build: buildFixed},
	{Name: "heuristic", Doc: "hand-written play: a balanced line-up, pushes counters forward when behind late, back when ahead late",
		Params: []Param{{"lineup", "1-2-3-3-1", "kick-off line-up"}, {"late", "0.34", "fraction of the match left that counts as late"}}, build: buildHeuristic},
	{Name: "optimal", Doc: "solver-backed, not the equilibrium: at every break (or shift) the exact best response to the opponent's current line-up as if the opponent kept it to the end — optimal against a fixed opponent, exploitable by one who changes (nash plays the equilibrium)",
		Params: []Param{{"lineup", "equilibrium", "kick-off line-up, or 'equilibrium' for the most likely line-up of the equilibrium mix"},
			{"objective", "win", "win, points, win-draw, advance, win-loss or goal-diff"}}, build: buildOptimal},
	{Name: "mcts", Doc: "simultaneous-move Monte Carlo tree search: regret matching at joint decisions, exact leaf values and priors from the solver, move drawn from the average strategy",
		Params: []Param{{"iters", "1000", "simulations per decision"}, {"explore", "0.1", "share of uniform exploration mixed into regret matching"},
			{"width", "12", "candidate line-ups per player, the best by their exact prior value"}, {"prior", "30", "weight of the priors, in simulations (0: none)"},
			{"ms", "0", "if > 0, search this many milliseconds per decision instead (not reproducible)"}}, build: buildMCTS},
	{Name: "uct", Doc: "decoupled UCT, the earlier MCTS (UCB per player at joint decisions, sampled dice, random rollouts): a baseline",
		Params: []Param{{"iters", "2000", "simulations per decision"}, {"c", "1.4", "UCB exploration constant"},
			{"ms", "0", "if > 0, search this many milliseconds per decision instead (not reproducible)"}}, build: buildUCT},
	{Name: "qlearning", Doc: "tabular Q-learning: plays the greedy policy of a trained model (kingoal train qlearning)",
		Params: []Param{{"model", "", "model file (required): qlearning:model=q.json"}}, build: buildQLearning},
	{Name: "equilibrium", Doc: "samples its kick-off line-up from the exact equilibrium mix, then plays like optimal",
		Params: []Param{{"payoff", "win-loss", "equilibrium payoff: win-loss, goal-diff, points or advance"},
			{"objective", "win", "objective of the play after kick-off"}}, build: buildEquilibrium},
	{Name: "nash", Doc: "plays the equilibrium of the substitution game (kingoal solve game): kick-off and every break drawn from its exact equilibrium mix; solves the game when built (the default rules: ~9 min, ~" + defaultGamePeak() + " at the peak), or reads it from a game table; with a Dynamic side it plays that game's equilibrium, shifts included (solved when built)",
		Params: []Param{{"payoff", "", "the game's payoff: win-loss (when solving, the default), goal-diff or advance; with table, the table's (another is refused)"},
			{"table", "", "a game table to play instead of solving (kingoal solve game --out FILE.kgt), refused under other rules"}}, build: buildNash},
	{Name: "live", Doc: "a policy answered live, in batches, by the program that runs the arena or evaluation (Python's kingoal.arena and kingoal.evaluate: live:NAME is its policy NAME); the command line cannot play one",
		Params: []Param{{"name", "", "the live policy's name (required): live:mlp"}}, build: buildLive},
	{Name: "table", Doc: "plays a policy table: any stationary policy tabulated at every break state (kingoal.save_policy in Python), drawing from its mixes",
		Params: []Param{{"file", "", "policy table file (required): table:file=policy.kgp; refused under other rules"}}, build: buildTable},
	{Name: "network", Doc: "plays a learner's final neural network as it was measured (kingoal.bench keeps one in its zoo): at the kick-off and every break, a draw from its masked softmax (a mix of networks' for neural PSRO); Basic mode only",
		Params: []Param{{"file", "", "network file (required): network:file=NET.kgn; refused under other rules"}}, build: buildNetwork},
}

// New builds the agent a spec names: "name", "name:value" (the first parameter) or
// "name:key=value,key=value", optionally followed by "#label" to tell agents of the same
// spec apart ("random#2"; the label is not part of the agent). Unknown names or
// parameters, empty values and a ':' with nothing after it are errors that say what exists.
func New(spec string, s Setup) (Agent, error) {
	k, p, err := parseSpec(spec)
	if err != nil {
		return nil, err
	}
	a, err := k.build(p, s)
	if errors.Is(err, context.Canceled) { // a solve cut short: say so, not only which spec
		return nil, fmt.Errorf("agents: %q: interrupted while it was being built: %w", spec, err)
	}
	if err != nil {
		return nil, fmt.Errorf("agents: %q: %w", spec, bareError{err})
	}
	return a, nil
}

// SpecParam is the value of parameter name in spec (its default where the spec leaves it
// out), and false if the spec's agent has no such parameter; a spec that does not parse (an
// unknown agent or parameter, an empty value) is New's error.
func SpecParam(spec, name string) (string, bool, error) {
	_, p, err := parseSpec(spec)
	v, ok := p[name]
	return v, ok && err == nil, err
}

// parseSpec is the kind a spec names and its parameters, defaults filled in (see New).
func parseSpec(spec string) (Kind, params, error) {
	body, label, labelled := strings.Cut(spec, "#")
	if labelled && strings.TrimSpace(label) == "" {
		return Kind{}, nil, fmt.Errorf("agents: %q: an empty label after '#' (write a label, like random#2, or none)", spec)
	}
	name, rest, colon := strings.Cut(strings.TrimSpace(body), ":")
	i := slices.IndexFunc(registry, func(k Kind) bool { return k.Name == name })
	if i < 0 {
		names := make([]string, len(registry))
		for j, k := range registry {
			names[j] = k.Name
		}
		return Kind{}, nil, fmt.Errorf("agents: unknown agent %q in spec %q; agents: %s", name, spec, strings.Join(names, ", "))
	}
	k := registry[i]
	p := params{}
	for _, d := range k.Params {
		p[d.Name] = d.Default
	}
	if colon && strings.TrimSpace(rest) == "" {
		return Kind{}, nil, fmt.Errorf("agents: %q: nothing after ':'; write %s alone for its defaults%s", spec, name, k.paramList())
	}
	if rest == "" {
		return k, p, nil
	}
	for n, item := range strings.Split(rest, ",") {
		if strings.TrimSpace(item) == "" {
			return Kind{}, nil, fmt.Errorf("agents: %q: an empty parameter between commas", spec)
		}
		key, val, ok := strings.Cut(item, "=")
		if !ok { // positional: the first parameter only
			if n != 0 || len(k.Params) == 0 {
				return Kind{}, nil, fmt.Errorf("agents: %q: %q is not key=value%s", spec, item, k.paramList())
			}
			key, val = k.Params[0].Name, item
		}
		key = strings.TrimSpace(key)
		if slices.IndexFunc(k.Params, func(d Param) bool { return d.Name == key }) < 0 {
			return Kind{}, nil, fmt.Errorf("agents: %q: %s has no parameter %q%s", spec, name, key, k.paramList())
		}
		if p[key] = strings.TrimSpace(val); p[key] == "" {
			return Kind{}, nil, fmt.Errorf("agents: %q: %s has no value", spec, key)
		}
	}
	return k, p, nil
}

// bareError drops the package prefix of an error from below ("env: ", "solver: ") where
// New puts its own, so messages never read "agents: … env: …"; errors.Is still sees it.
type bareError struct{ err error }

func (b bareError) Error() string {
	msg := b.err.Error()
	for _, p := range []string{"env: ", "solver: ", "agents: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	return msg
}

func (b bareError) Unwrap() error { return b.err }

func (k Kind) paramList() string {
	if len(k.Params) == 0 {
		return " (it takes no parameters)"
	}
	names := make([]string, len(k.Params))
	for i, p := range k.Params {
		names[i] = p.Name
	}
	return " (parameters: " + strings.Join(names, ", ") + ")"
}

// Random plays uniformly among the legal actions.
type Random struct{ rng env.SeededRand }

// NewRandom returns a Random agent seeded with seed.
func NewRandom(seed uint64) *Random { r := &Random{}; r.Reset(seed); return r }

// Reset reseeds the agent.
func (r *Random) Reset(seed uint64) { r.rng.Reset(seed, streamRandom) }

// Act picks a legal action uniformly.
func (r *Random) Act(_ env.Observation, legal env.Mask) int {
	return legal.Nth(r.rng.IntN(legal.Count()))
}

// Mix is the uniform mix over the legal line-ups (env.Mixer): what Act draws from.
func (r *Random) Mix(_ env.Observation, legal env.Mask) []env.Weighted {
	out := make([]env.Weighted, 0, legal.Count())
	for i := range legal.Count() {
		out = append(out, env.Weighted{Lineup: env.LineupAt(legal.Nth(i)), Prob: 1 / float64(legal.Count())})
	}
	return out
}

func buildRandom(params, Setup) (Agent, error) { return NewRandom(0), nil }

// Fixed declares Lineup at kick-off and keeps it (env.Keep as a registry agent).
type Fixed struct{ Lineup env.Lineup }

// Act keeps the line-up.
func (f Fixed) Act(obs env.Observation, legal env.Mask) int {
	return env.Keep(f.Lineup).Act(obs, legal)
}

// KeepsLineup promises env.Play that Fixed keeps its line-up after kick-off.
func (Fixed) KeepsLineup() bool { return true }

func buildFixed(p params, _ Setup) (Agent, error) {
	l, err := env.ParseLineup(p["lineup"])
	if err != nil {
		return nil, err
	}
	return Fixed{l}, nil
}

// searchBudget reads a search's budget: iters (simulations a decision, ≥ 1) and ms (if > 0,
// milliseconds a decision instead).
// A search's budget a decision is bounded: its tree grows by about a node an iteration, so
// iters=1e9 would exhaust memory long before it answered (a million iterations is seconds).
const (
	maxSearchIterations = 5_000_000
	maxSearchMillis     = 3_600_000 // an hour a decision
)

// defaultGamePeak is the default game's solve at its peak, as every page quotes it.
func defaultGamePeak() string {
	inMemory, _ := game.DefaultGameMemory()
	return inMemory
}
