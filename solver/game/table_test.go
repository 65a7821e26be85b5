package game_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

// solveWithTable solves p with its check and returns the game and its table.
func solveWithTable(t testing.TB, p game.Problem) (*game.Game, []byte) {
	t.Helper()
	var buf bytes.Buffer
	p.Table, p.Verify = &buf, true
	g, err := game.Solve(p)
	if err != nil {
		t.Fatal(err)
	}
	return g, buf.Bytes()
}

func loadTable(b []byte) (*game.Game, error) {
	return game.Load(context.Background(), bytes.NewReader(b), int64(len(b)))
}

// TestGameTableRoundTrips: a loaded table answers every break with the solve's mixes
// exactly and its value to float32, has the solve's kick-off, right to substitute,
// statistics and check, and Verify on the loaded strategy — the stored mixes alone —
// finds the solve's best responses to 1e-12. League with mirror images and a knockout
// with a shoot-out.
func TestGameTableRoundTrips(t *testing.T) {
	cases := []game.Problem{
		{Rules: env.Rules{ThrowsPerHalf: 3, Moves: 1, Knockout: true, ExtraThrowsPerHalf: 2}, Payoff: lineup.PayoffAdvance},
		{Rules: env.Rules{ThrowsPerHalf: 3, Moves: 1}, Payoff: lineup.PayoffGoalDiff},
		{Rules: env.Rules{ThrowsPerHalf: 4, Moves: 2}, Payoff: lineup.PayoffWinLoss},
	}
	if testing.Short() { // the race stage: the knockout
		cases = cases[:1]
	}
	for _, p := range cases {
		g, table := solveWithTable(t, p)
		l, err := loadTable(table)
		if err != nil {
			t.Fatalf("%v: %v", p.Rules, err)
		}
		if !l.Problem.Rules.Equal(p.Rules) || l.Problem.Payoff != p.Payoff || l.Moves() != g.Moves() {
			t.Fatalf("%v: loaded %v %v, %d moves", p.Rules, l.Problem.Rules, l.Problem.Payoff, l.Moves())
		}
		if l.Value() != g.Value() || !reflect.DeepEqual(l.KickOff(), g.KickOff()) || l.Stats() != g.Stats() {
			t.Errorf("%v: kick-off %v / %v, stats %+v / %+v", p.Rules, l.KickOff(), g.KickOff(), l.Stats(), g.Stats())
		}
		gc, _ := g.Check()
		gc.HomeReply, gc.AwayReply = env.Lineup{}, env.Lineup{} // not kept in JSON, nor in tables
		if lc, ok := l.Check(); !ok || lc != gc {
			t.Errorf("%v: check %+v, want %+v", p.Rules, lc, gc)
		}
		for _, m := range [][2]int{{0, 0}, {g.Moves(), 0}, {0, g.Moves()}} {
			a, _ := g.KickOffWith(m[0], m[1])
			b, _ := l.KickOffWith(m[0], m[1])
			if a.Value != b.Value {
				t.Errorf("%v: budgets %v: %v loaded, %v solved", p.Rules, m, b.Value, a.Value)
			}
		}
		var solved []game.StageSolution
		if err := g.Breaks(func(_ game.State, s game.StageSolution) error { solved = append(solved, s); return nil }); err != nil {
			t.Fatal(err)
		}
		i := 0
		err = l.Breaks(func(s game.State, got game.StageSolution) error {
			want := solved[i]
			i++
			if !reflect.DeepEqual(got.Home, want.Home) || !reflect.DeepEqual(got.Away, want.Away) ||
				math.Abs(got.Value-want.Value) > 1e-7*math.Max(1, math.Abs(want.Value)) {
				return errors.New("at " + describe(s))
			}
			return nil
		})
		if err != nil || i != len(solved) {
			t.Fatalf("%v: %v (%d of %d breaks)", p.Rules, err, i, len(solved))
		}
		check, err := game.Verify(context.Background(), l, nil)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(check.HomeBest-gc.HomeBest) > 1e-12 || math.Abs(check.AwayBest-gc.AwayBest) > 1e-12 || !(check.Exploitability <= 1e-9) {
			t.Errorf("%v: loaded strategy's best responses %+v, the solve's %+v", p.Rules, check, gc)
		}
		t.Logf("%v %v: %d bytes, %d breaks", p.Rules, p.Payoff, len(table), len(solved))
	}
}

func describe(s game.State) string {
	return s.Period.String() + " " + s.Home.String() + " v " + s.Away.String()
}

// TestGameTableIsDeterministic: the same bytes whatever the workers.
func TestGameTableIsDeterministic(t *testing.T) {
	p := game.Problem{Rules: env.Rules{ThrowsPerHalf: 3, Moves: 2}, Payoff: lineup.PayoffWinLoss}
	if testing.Short() { // the race stage
		p.Rules.ThrowsPerHalf = 2
	}
	_, one := solveWithTable(t, game.Problem{Rules: p.Rules, Payoff: p.Payoff, Workers: 1})
	_, three := solveWithTable(t, game.Problem{Rules: p.Rules, Payoff: p.Payoff, Workers: 3})
	if !bytes.Equal(one, three) {
		t.Fatalf("tables differ: %d bytes with 1 worker, %d with 3", len(one), len(three))
	}
}

// TestStreamedSolveWritesTheSameStrategy: a solve that streams its table (Problem.Stream)
// keeps the kick-off — value, mixes, right to substitute, check — refuses a break with
// ErrStreamed, and its table answers every break as the kept solve's table does; the two
// tables differ only in the values each solve says it held (Stats.Bytes).
func TestStreamedSolveWritesTheSameStrategy(t *testing.T) {
	p := game.Problem{Rules: env.Rules{ThrowsPerHalf: 3, Moves: 1, Knockout: true, ExtraThrowsPerHalf: 2}, Payoff: lineup.PayoffAdvance}
	kept, keptTable := solveWithTable(t, p)
	p.Stream = true
	streamed, table := solveWithTable(t, p)
	if streamed.Value() != kept.Value() || !reflect.DeepEqual(streamed.KickOff(), kept.KickOff()) {
		t.Fatalf("kick-off %v streamed, %v kept", streamed.KickOff(), kept.KickOff())
	}
	sc, _ := streamed.Check()
	kc, _ := kept.Check()
	if sc != kc {
		t.Fatalf("check %+v streamed, %+v kept", sc, kc)
	}
	if a, b := streamed.Stats(), kept.Stats(); !(a.Bytes < b.Bytes) || a.BreakStates != b.BreakStates || a.LPs != b.LPs {
		t.Fatalf("stats %+v streamed, %+v kept", a, b)
	}
	for _, m := range [][2]int{{0, 0}, {1, 0}, {0, 1}} {
		a, _ := streamed.KickOffWith(m[0], m[1])
		b, _ := kept.KickOffWith(m[0], m[1])
		if a.Value != b.Value {
			t.Errorf("budgets %v: %v streamed, %v kept", m, a.Value, b.Value)
		}
	}
	s := game.State{Period: env.SecondHalf, ThrowsLeft: 2, Home: env.LineupAt(60), Away: env.LineupAt(60), HomeMoves: 1, AwayMoves: 1}
	if _, err := streamed.At(s); !errors.Is(err, game.ErrStreamed) {
		t.Fatalf("At on a streamed solve: %v", err)
	}
	if err := streamed.Breaks(func(game.State, game.StageSolution) error { return nil }); !errors.Is(err, game.ErrStreamed) {
		t.Fatalf("Breaks on a streamed solve: %v", err)
	}
	a, err := loadTable(table)
	if err != nil {
		t.Fatal(err)
	}
	b, err := loadTable(keptTable)
	if err != nil {
		t.Fatal(err)
	}
	var want []game.StageSolution
	if err := b.Breaks(func(_ game.State, s game.StageSolution) error { want = append(want, s); return nil }); err != nil {
		t.Fatal(err)
	}
	i := 0
	err = a.Breaks(func(s game.State, got game.StageSolution) error {
		if !reflect.DeepEqual(got, want[i]) {
			return errors.New("at " + describe(s))
		}
		i++
		return nil
	})
	if err != nil || i != len(want) || len(want) == 0 {
		t.Fatalf("%v (%d of %d breaks)", err, i, len(want))
	}
	dir := t.TempDir()
	for _, f := range []struct {
		name  string
		bytes []byte
		ok    bool
	}{{"streamed.kgt", table, true}, {"kept.kgt", keptTable, false}} { // the kept solve's table says it held more
		path := filepath.Join(dir, f.name)
		if err := os.WriteFile(path, f.bytes, 0o644); err != nil {
			t.Fatal(err)
		}
		g, err := game.ReadBack(context.Background(), path, streamed)
		if f.ok != (err == nil) || f.ok && g.Value() != streamed.Value() {
			t.Fatalf("ReadBack of %s: %v", f.name, err)
		}
		if !f.ok && !errors.Is(err, game.ErrBadTable) {
			t.Fatalf("ReadBack of another solve's table: %v, want ErrBadTable", err)
		}
	}
	p.Table = nil
	if _, err := game.Solve(p); err == nil {
		t.Fatal("Stream without a Table solved")
	}
}

// TestGameTableRefusesDamage: every truncation and a flipped byte anywhere (header,
// compressed blocks, checksum) is refused with ErrBadTable; so is another file.
func TestGameTableRefusesDamage(t *testing.T) {
	_, table := solveWithTable(t, game.Problem{Rules: env.Rules{ThrowsPerHalf: 2, Moves: 1}, Payoff: lineup.PayoffWinLoss})
	for n := 0; n < len(table); n += 1 + n/8 {
		if _, err := loadTable(table[:n]); !errors.Is(err, game.ErrBadTable) {
			t.Fatalf("truncated at %d of %d bytes: %v", n, len(table), err)
		}
	}
	for i := 0; i < len(table); i += 1 + i/16 {
		bad := bytes.Clone(table)
		bad[i] ^= 0x20
		if _, err := loadTable(bad); !errors.Is(err, game.ErrBadTable) {
			t.Fatalf("byte %d of %d flipped: %v", i, len(table), err)
		}
	}
	if _, err := loadTable([]byte("PAR1 this is not a table at all, but long enough to read")); !errors.Is(err, game.ErrBadTable) {
		t.Fatalf("another file: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // Ctrl-C: the read stops at the next layer
	if _, err := game.Load(ctx, bytes.NewReader(table), int64(len(table))); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled read: %v", err)
	}
}

// FuzzLoadGame: any bytes are a game or an ErrBadTable, never a panic.
func FuzzLoadGame(f *testing.F) {
	_, table := solveWithTable(f, game.Problem{Rules: env.Rules{ThrowsPerHalf: 1, Moves: 1}, Payoff: lineup.PayoffWinLoss})
	f.Add(table)
	f.Add(table[:len(table)/2])
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := loadTable(b); err != nil && !errors.Is(err, game.ErrBadTable) {
			t.Fatalf("%v", err)
		}
	})
}
