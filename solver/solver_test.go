package solver_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

// TestFrontDoorServesBothKinds: for two Basic sides and for a Dynamic side, Solve's game has
// the ability of its kind, passed its check, is what SolveToFile's table reads back to (the
// value to the bit), the file is named by its kind, and Verify on the loaded table finds the
// check again (a separate backward induction).
func TestFrontDoorServesBothKinds(t *testing.T) {
	dir := t.TempDir()
	for name, r := range map[string]env.Rules{
		"basic":   {ThrowsPerHalf: 4, Moves: 1},
		"dynamic": {ThrowsPerHalf: 4, Moves: 1, Modes: [2]env.Mode{env.Basic, env.Dynamic}, DynamicTrigger: env.TriggerTurnover},
	} {
		p := game.Problem{Rules: r, Payoff: lineup.PayoffWinLoss, Verify: true}
		g, err := solver.Solve(p)
		if err != nil {
			t.Fatal(err)
		}
		_, mixes := g.(solver.BreakMixes)
		_, decisions := g.(solver.Decisions)
		if dyn := solver.HasDynamic(r); mixes == dyn || decisions != dyn {
			t.Errorf("%s: BreakMixes %v, Decisions %v", name, mixes, decisions)
		}
		c, ok := g.Check()
		if !ok || !c.Verified() || !g.Rules().Equal(r) || g.Payoff() != p.Payoff {
			t.Errorf("%s: check %+v (%v), rules %s, payoff %s", name, c, ok, g.Rules(), g.Payoff())
		}
		path := filepath.Join(dir, name+".kgt")
		if _, err := solver.SolveToFile(path, p); err != nil {
			t.Fatal(err)
		}
		want := map[string]solver.TableKind{"basic": solver.BasicTable, "dynamic": solver.DynamicTable}[name]
		if got := solver.TableKindOf(path); got != want {
			t.Errorf("%s: TableKindOf %v, want %v", name, got, want)
		}
		loaded, err := solver.LoadFile(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		if loaded.Value() != g.Value() {
			t.Errorf("%s: the table's value %v, the solve's %v", name, loaded.Value(), g.Value())
		}
		again, err := solver.Verify(context.Background(), loaded, nil)
		if err != nil || !again.Verified() || again.Exploitability > c.Exploitability+game.Tolerance {
			t.Errorf("%s: Verify %+v, %v; the solve's check %+v", name, again, err, c)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "x.kgt"), []byte("not a table"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(dir, "x.kgt"), filepath.Join(dir, "missing.kgt"), dir} {
		if got := solver.TableKindOf(path); got != solver.NotATable {
			t.Errorf("TableKindOf(%s) = %v", path, got)
		}
	}
}

// TestEstimateNamesItsStates: one size type for both kinds, its states named, a streamed
// solve of two Basic sides smaller than one held in memory and the check costing more.
func TestEstimateNamesItsStates(t *testing.T) {
	b, err := solver.Estimate(env.Rules{}, lineup.PayoffWinLoss)
	if err != nil {
		t.Fatal(err)
	}
	direct, err := game.Estimate(env.Rules{}, lineup.PayoffWinLoss)
	if err != nil {
		t.Fatal(err)
	}
	if b.States != direct.BreakStates || b.Peak(true, false) != direct.PeakVerified() || b.StatesAre != "break states" || b.Peak(true, true) >= b.Peak(true, false) || b.Peak(false, false) >= b.Peak(true, false) {
		t.Errorf("the default game: %+v", b)
	}
	d, err := solver.Estimate(env.Rules{Modes: [2]env.Mode{env.Dynamic, env.Basic}}, lineup.PayoffWinLoss)
	if err != nil {
		t.Fatal(err)
	}
	if d.StatesAre != "throw states" || d.States <= 0 || d.Peak(true, true) != d.Peak(true, false) || d.Layers != b.Layers {
		t.Errorf("a Dynamic side: %+v (Basic's layers %d)", d, b.Layers)
	}
}
