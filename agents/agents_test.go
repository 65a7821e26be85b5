package agents_test

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/env/envtest"
	"github.com/kingoal/kingoal/live"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
	"github.com/kingoal/kingoal/solver/policy"
)

// TestSpecParam: a parameter's value as New reads it (labels dropped, positional or by key,
// the default where left out), false for a parameter the agent lacks, New's error for a spec
// it refuses.
func TestSpecParam(t *testing.T) {
	for spec, want := range map[string]string{"table:file=a.kgp#x": "a.kgp", "table:b.kgp": "b.kgp", "mcts": "1000"} {
		name := "file"
		if spec == "mcts" {
			name = "iters"
		}
		if v, ok, err := agents.SpecParam(spec, name); v != want || !ok || err != nil {
			t.Errorf("%s: %q, %v, %v", spec, v, ok, err)
		}
	}
	if v, ok, err := agents.SpecParam("heuristic", "file"); ok || err != nil || v != "" {
		t.Errorf("heuristic's file: %q, %v, %v", v, ok, err)
	}
	if _, ok, err := agents.SpecParam("table:path=a.kgp", "file"); ok || err == nil || !strings.Contains(err.Error(), `has no parameter "path"`) {
		t.Errorf("an unknown parameter: %v, %v", ok, err)
	}
}

func TestRegistryErrors(t *testing.T) {
	for spec, want := range map[string]string{
		"nobody":                     `unknown agent "nobody"`,
		"":                           "agents: random, fixed, heuristic, optimal, mcts, uct, qlearning, equilibrium",
		"fixed:6-1-1-1-1":            "sector 1 holds 6 counters",
		"fixed:lineup=2-2-2-2-2,x=1": `fixed has no parameter "x" (parameters: lineup)`,
		"random:fast":                "(it takes no parameters)",
		"heuristic:late=2":           "late=",
		"optimal:objective=glory":    "objective",
		"optimal:objective=advance":  "needs knockout",
		"fixed:2-2-2-2-2,1-2-3-3-1":  "is not key=value",
	} {
		_, err := agents.New(spec, agents.Setup{})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "agents: ") {
			t.Errorf("%q: got %v, want %q", spec, err, want)
		}
	}
	for _, spec := range []string{"random", "fixed:1-2-3-3-1", "fixed:lineup=1-2-3-3-1", "heuristic", "heuristic:late=0.5,lineup=2-2-2-2-2", "optimal:lineup=2-2-2-2-2"} {
		if _, err := agents.New(spec, agents.Setup{}); err != nil {
			t.Errorf("%q: %v", spec, err)
		}
	}
}

func FuzzNewSpec(f *testing.F) {
	for _, s := range []string{"random", "fixed:1-2-3-3-1", "heuristic:late=0.2", "optimal:objective=points", "x:y=z", "fixed:", ":", "heuristic:lineup=9-9-9-9-9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		if strings.HasPrefix(spec, "optimal") || strings.HasPrefix(spec, "equilibrium") || strings.HasPrefix(spec, "nash") {
			return // these solve a game on every valid spec (seconds): covered by the tests above
		}
		a, err := agents.New(spec, agents.Setup{Rules: env.Rules{ThrowsPerHalf: 3}})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "agents: ") {
				t.Fatalf("error without prefix: %v", err)
			}
			return
		}
		if a == nil {
			t.Fatal("nil agent without error")
		}
	})
}

// TestAgentsConform runs the env conformance checker's agent checks on every kind, a
// subtest per kind and rule set.
func TestAgentsConform(t *testing.T) {
	short := []struct {
		name  string
		rules env.Rules
	}{
		{"league", env.Rules{ThrowsPerHalf: 8}},
		{"knockout", env.Rules{Knockout: true, ThrowsPerHalf: 6, ExtraThrowsPerHalf: 2}},
		{"dynamic", env.Rules{Modes: [2]env.Mode{env.Dynamic, env.Dynamic}, ThrowsPerHalf: 6, DynamicTrigger: env.TriggerTurnover}},
	}
	for _, k := range agents.Kinds() {
		if testing.Short() && (k.Name == "mcts" || k.Name == "uct") {
			continue // the race stage: single-goroutine searches, checked by go test ./...
		}
		for _, c := range short {
			t.Run(k.Name+"/"+c.name, func(t *testing.T) { conforms(t, k.Name, c.rules) })
		}
	}
}

// conforms checks the agent kind under r (TestAgentsConform), building what it needs first.
func conforms(t *testing.T, kind string, r env.Rules) {
	spec, setup := kind, agents.Setup{}
	if kind == "table" { // it needs a table: one of fictitious play's, at one move and 3-throw
		// halves — learning and measuring it at 8 took 38 s (minutes under -race)
		r.Moves, r.ThrowsPerHalf, r.ExtraThrowsPerHalf = 1, 3, min(r.ExtraThrowsPerHalf, 1)
		basic := r // under Dynamic rules, a Basic table: refused below
		basic.Modes, basic.DynamicTrigger = [2]env.Mode{}, 0
		spec = "table:file=" + learnedTable(t, basic)
	}
	switch {
	case kind == "qlearning": // it needs a model: a briefly trained one
		spec = "qlearning:model=" + trainedModel(t, r)
	case kind == "network": // a small random one, written for r
		spec = "network:file=" + writeNetwork(t, t.TempDir(), testNetwork(r, 1))
	case kind == "nash": // one move keeps the game's solve to a second
		r.Moves = 1
	case kind == "live": // answered by a goroutine: the uniform mix
		spec, setup.Live = "live:u", uniformLive(t)
	}
	if (kind == "table" || kind == "network") && r.Modes[env.Home] == env.Dynamic { // they hold Basic breaks only
		if _, err := agents.New(spec, agents.Setup{Rules: r}); err == nil {
			t.Errorf("%s built under %v", spec, r)
		}
		return
	}
	setup.Rules = r // as changed above
	err := envtest.CheckAgent(func() env.Policy {
		a, err := agents.New(spec, setup)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}, envtest.AgentOptions{Seeds: 2, Rules: []env.Rules{r}})
	if err != nil {
		t.Errorf("%s under %v: %v", spec, r, err)
	}
}

// trainedModel saves a Q-learning model trained for 50 episodes under r and returns its path.
func trainedModel(t *testing.T, r env.Rules) string {
	t.Helper()
	q := agents.NewQLearning(agents.QConfig{}, r)
	if err := q.Train(context.Background(), agents.TrainConfig{Opponent: agents.Fixed{Lineup: env.MustParseLineup("2-2-2-2-2")}, Episodes: 50, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "q.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := q.Save(f); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOptimalAgentMatchesSolver: the optimal agent against a fixed opponent wins as often as
// the solver says it should (6,000 matches, bound 4.4 standard errors, fixed seeds).
func TestOptimalAgentMatchesSolver(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 20}
	own, opp := env.MustParseLineup("2-2-2-2-2"), env.MustParseLineup("1-3-3-2-1")
	pol, err := policy.SolveBasic(policy.BasicProblem{Rules: r, Own: own, Opponent: opp})
	if err != nil {
		t.Fatal(err)
	}
	a, err := agents.New("optimal:lineup=2-2-2-2-2", agents.Setup{Rules: r})
	if err != nil {
		t.Fatal(err)
	}
	e, _ := env.New(env.Config{Rules: r, Opponent: agents.Fixed{Lineup: opp}})
	n := 6000
	if testing.Short() { // the race stage: the same bound, less power
		n = 1500
	}
	wins := 0
	for i := range n {
		obs, info := e.Reset(uint64(i))
		for {
			tr, err := e.Step(a.Act(obs, info.Mask))
			if err != nil {
				t.Fatal(err)
			}
			if tr.Terminated {
				break
			}
			obs, info = tr.Obs, tr.Info
		}
		if s := e.State(); s.Result(env.Home) == 1 {
			wins++
		}
	}
	if err := a.(*agents.Optimal).Err(); err != nil {
		t.Fatal(err)
	}
	p, v := float64(wins)/float64(n), pol.Value()
	if se := math.Sqrt(v * (1 - v) / float64(n)); math.Abs(p-v) > 4.4*se {
		t.Errorf("optimal agent won %.4f, solver value %.4f (bound ±%.4f)", p, v, 4.4*se)
	}
	if !(v > pol.NoChangeValue()+0.02) {
		t.Errorf("the test needs moves to matter: %v vs %v", v, pol.NoChangeValue())
	}
}

func TestHeuristicPushesWhenBehindLate(t *testing.T) {
	h := agents.Heuristic{Lineup: env.MustParseLineup("2-2-2-2-2"), Late: 0.34}
	own := env.MustParseLineup("2-2-2-2-2")
	obs := env.Observation{Decision: env.Break, Period: env.SecondHalf, ThrowsLeft: 10, HalfThrows: 45, Own: own, OwnGoals: 0, OppGoals: 1, OwnMovesLeft: 3}
	legal := own.Reachable(3)
	up := env.LineupAt(h.Act(obs, legal))
	obs.OwnGoals, obs.OppGoals = 2, 1
	down := env.LineupAt(h.Act(obs, legal))
	obs.ThrowsLeft = 44
	early := env.LineupAt(h.Act(obs, legal))
	if own.Moves(up) != 1 || own.Moves(down) != 1 || early != own {
		t.Fatalf("behind late %s, ahead late %s, early %s", up, down, early)
	}
	if up.Sector(5) != 3 || down.Sector(1) != 3 {
		t.Errorf("behind late should add an attacker (%s), ahead late a defender (%s)", up, down)
	}
}

// TestEquilibriumAgentSamplesTheMix: kick-off frequencies fit the equilibrium mix (χ²,
// α = 1e-4, 3,000 fixed seeds) under rules whose equilibrium is mixed.
func TestEquilibriumAgentSamplesTheMix(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 3, TiesCount: true}
	a, err := agents.New("equilibrium", agents.Setup{Rules: r})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := odds.Matrix(r)
	eq, _ := lineup.Equilibrium(m, lineup.PayoffWinLoss)
	const n = 3000
	counts := map[env.Lineup]int{}
	for seed := range uint64(n) {
		a.(env.Seeded).Reset(seed)
		counts[env.LineupAt(a.Act(env.Observation{Decision: env.KickOff}, env.Mask{^uint64(0), ^uint64(0)}))]++
	}
	chi := 0.0
	for _, w := range eq.Home {
		e := w.Prob * n
		chi += (float64(counts[w.Lineup]) - e) * (float64(counts[w.Lineup]) - e) / e
	}
	if crit := (distuv.ChiSquared{K: float64(len(eq.Home) - 1)}).Quantile(1 - 1e-4); chi > crit || len(counts) != len(eq.Home) {
		t.Errorf("χ² = %.1f > %.1f: counts %v, mix %v", chi, crit, counts, eq.Home)
	}
}

// TestSolverAgentsRefuseRulesTooLarge: an agent that could not solve its policies is refused
// when built, never playing as a silent keeper.
func TestSolverAgentsRefuseRulesTooLarge(t *testing.T) {
	for _, r := range []env.Rules{{ThrowsPerHalf: 400}, {ThrowsPerHalf: 400, Modes: [2]env.Mode{env.Dynamic, env.Dynamic}}} {
		for _, spec := range []string{"optimal:lineup=2-2-2-2-2", "equilibrium"} {
			if _, err := agents.New(spec, agents.Setup{Rules: r}); !errors.Is(err, policy.ErrTooLarge) {
				t.Errorf("%s under %v: %v", spec, r, err)
			}
		}
	}
}

// uniformLive builds live agents answered with the uniform mix by a goroutine until the test ends.
func uniformLive(t *testing.T) func(string) (agents.Agent, error) {
	h, err := live.NewHub([]string{"u"})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		var batch []*live.Request
		for {
			var err error
			if _, batch, err = h.Next(time.Second, 64, batch); err != nil {
				return
			}
			for _, r := range batch {
				row := r.Row()
				for a := range row {
					row[a] = 0
					if r.Legal.Has(a) {
						row[a] = 1 / float64(r.Legal.Count())
					}
				}
				r.Answer()
			}
		}
	}()
	t.Cleanup(func() { h.Close(nil) })
	return func(name string) (agents.Agent, error) { return h.Agent(context.Background(), name) }
}

// learnedTable writes the policy table of one iteration of fictitious play under r: a table
// agent needs a table, and agents' tests make one without package exploit, a floor above.
func learnedTable(t *testing.T, r env.Rules) string {
	t.Helper()
	f, err := agents.NewFictitious(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Train(context.Background(), 1, nil); err != nil {
		t.Fatal(err)
	}
	table, _, err := f.Table(context.Background(), "fictitious")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "policy.kgp")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := table.WriteTo(out); err != nil || out.Close() != nil {
		t.Fatal(err)
	}
	return path
}
