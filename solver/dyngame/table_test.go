package dyngame

import (
	"bytes"
	"context"
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

func solveWithTable(t *testing.T, p game.Problem) (*Game, []byte) {
	t.Helper()
	var buf bytes.Buffer
	p.Table, p.Verify = &buf, true
	g, err := Solve(p)
	if err != nil {
		t.Fatalf("%v: %v", p.Rules, err)
	}
	return g, buf.Bytes()
}

func loadTable(b []byte) (*Game, error) {
	return Load(context.Background(), bytes.NewReader(b), int64(len(b)))
}

// TestDynamicTableRoundTrips: for every mode pair, both triggers, league and knockout, a
// loaded table holds the solve's rules, payoff, value, kick-off mixes, statistics and check,
// every decision byte, and writes the same bytes again.
func TestDynamicTableRoundTrips(t *testing.T) {
	for _, c := range dynamicCases {
		g, table := solveWithTable(t, game.Problem{Rules: c.r, Payoff: c.p})
		l, err := loadTable(table)
		if err != nil {
			t.Fatalf("%v: %v", c.r, err)
		}
		if !l.Problem.Rules.Equal(c.r) || l.Problem.Payoff != c.p || l.Value() != g.Value() || !reflect.DeepEqual(l.KickOff(), g.KickOff()) || l.Stats() != g.Stats() {
			t.Fatalf("%v: loaded %v %v value %v kick-off %v stats %+v; solved value %v kick-off %v stats %+v", c.r, l.Problem.Rules, l.Problem.Payoff,
				l.Value(), l.KickOff(), l.Stats(), g.Value(), g.KickOff(), g.Stats())
		}
		gc, _ := g.Check()
		gc.HomeReply, gc.AwayReply = env.Lineup{}, env.Lineup{}
		if lc, ok := l.Check(); !ok || lc != gc {
			t.Fatalf("%v: check %+v, solved %+v", c.r, lc, gc)
		}
		if !reflect.DeepEqual(l.dec, g.dec) {
			t.Fatalf("%v: the loaded decisions differ from the solve's", c.r)
		}
		var again bytes.Buffer
		if err := l.WriteTable(&again); err != nil || !bytes.Equal(again.Bytes(), table) {
			t.Fatalf("%v: the loaded game writes %d bytes (%v), the solve %d", c.r, again.Len(), err, len(table))
		}
	}
}

// TestDynamicTableRefusesDamage: every truncation, a flipped byte anywhere, a Basic game
// table and another file are refused with ErrBadTable, and game.Load refuses a Dynamic table.
func TestDynamicTableRefusesDamage(t *testing.T) {
	_, table := solveWithTable(t, game.Problem{Rules: env.Rules{ThrowsPerHalf: 2, Moves: 1, Modes: bd, DynamicTrigger: env.TriggerTurnover}, Payoff: lineup.PayoffWinLoss})
	if !IsTable(bytes.NewReader(table)) {
		t.Fatal("IsTable: false for a table")
	}
	for n := 0; n < len(table); n += 1 + n/8 {
		if _, err := loadTable(table[:n]); !errors.Is(err, ErrBadTable) {
			t.Fatalf("truncated at %d of %d bytes: %v", n, len(table), err)
		}
	}
	for i := 0; i < len(table); i += 1 + i/16 {
		bad := bytes.Clone(table)
		bad[i] ^= 0x20
		if _, err := loadTable(bad); !errors.Is(err, ErrBadTable) {
			t.Fatalf("byte %d of %d flipped: %v", i, len(table), err)
		}
	}
	var basic bytes.Buffer
	if _, err := game.Solve(game.Problem{Rules: env.Rules{ThrowsPerHalf: 2, Moves: 1}, Table: &basic}); err != nil {
		t.Fatal(err)
	}
	if _, err := loadTable(basic.Bytes()); !errors.Is(err, ErrBadTable) || IsTable(bytes.NewReader(basic.Bytes())) {
		t.Fatalf("a Basic game table: %v", err)
	}
	if _, err := game.Load(context.Background(), bytes.NewReader(table), int64(len(table))); !errors.Is(err, game.ErrBadTable) {
		t.Fatalf("game.Load of a Dynamic table: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Load(ctx, bytes.NewReader(table), int64(len(table))); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

// FuzzLoadDynamicTable: any bytes are a game or an ErrBadTable, never a panic.
func FuzzLoadDynamicTable(f *testing.F) {
	var buf bytes.Buffer
	if _, err := Solve(game.Problem{Rules: env.Rules{ThrowsPerHalf: 1, Moves: 1, Modes: bd}, Table: &buf}); err != nil {
		f.Fatal(err)
	}
	table := buf.Bytes()
	f.Add(table)
	f.Add(table[:len(table)/2])
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := loadTable(b); err != nil && !errors.Is(err, ErrBadTable) {
			t.Fatalf("%v", err)
		}
	})
}

// TestVerifyALoadedStrategy: Verify on a loaded table finds the solve's own best responses
// (to 1e-12) for every case, and a strategy changed at its decisions — every Dynamic shift
// made "keep" — is refused (its values no longer match) or found exploitable, in every league
// case.
func TestVerifyALoadedStrategy(t *testing.T) {
	cases := dynamicCases
	if testing.Short() { // the race stage
		cases = cases[:2]
	}
	for _, c := range cases {
		g, table := solveWithTable(t, game.Problem{Rules: c.r, Payoff: c.p})
		l, err := loadTable(table)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Verify(context.Background(), l, nil)
		want, _ := g.Check()
		if err != nil || math.Abs(got.HomeBest-want.HomeBest) > 1e-12 || math.Abs(got.AwayBest-want.AwayBest) > 1e-12 || math.Abs(got.Exploitability) > 1e-9 {
			t.Fatalf("%v: Verify %+v (%v), the solve's %+v", c.r, got, err, want)
		}
		changed := 0
		for _, layers := range l.dec {
			for _, dec := range layers {
				if dec == nil {
					continue
				}
				for p := range 2 {
					for i, choice := range dec.shift[p] {
						if choice != 0 {
							dec.shift[p][i], changed = 0, changed+1
						}
					}
				}
			}
		}
		if changed == 0 || c.r.Knockout {
			continue // nobody shifts; or 2-throw periods, where a goal (three throws) cannot come and no shift changes a value
		}
		bad, err := Verify(context.Background(), l, nil)
		if err == nil && !(bad.Exploitability > 1e-6) {
			t.Errorf("%v: %d shifts made keep: Verify %+v, no error", c.r, changed, bad)
		}
		t.Logf("%v: %d shifts made keep: exploitability %.3g, %v", c.r, changed, bad.Exploitability, err)
	}
}
