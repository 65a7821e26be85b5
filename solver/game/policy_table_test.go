package game_test

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/policy"
)

// spreadPolicy is a mixed stationary policy for tests: at each break, weight 1 on keeping
// and k+1 on the k-th other reachable line-up (so mixes are uneven); a fixed kick-off mix.
type spreadPolicy struct{ r env.Rules }

func (spreadPolicy) KickOff() ([]env.Weighted, error) {
	return []env.Weighted{{Lineup: env.LineupAt(3), Prob: 0.25}, {Lineup: env.LineupAt(60), Prob: 0.75}}, nil
}

func (p spreadPolicy) Breaks(side env.Player, states []game.State, mixes [][]env.Weighted) error {
	for i, s := range states {
		_, legal := game.BreakObservation(s, side, p.r)
		mixes[i] = mixes[i][:0]
		total := 0.0
		for k := range legal.Count() {
			w := float64(k + 1)
			mixes[i] = append(mixes[i], env.Weighted{Lineup: env.LineupAt(legal.Nth(k)), Prob: w})
			total += w
		}
		for j := range mixes[i] {
			mixes[i][j].Prob /= total
		}
	}
	return nil
}

// recordTable solves both best responses to spreadPolicy on each side, recording it.
func recordTable(t testing.TB, r env.Rules, p lineup.Payoff, workers int) (game.Check, []byte) {
	t.Helper()
	table, err := game.NewPolicyTable(r, "spread")
	if err != nil {
		t.Fatal(err)
	}
	c, err := game.RespondToPolicies(game.PolicyProblem{Rules: r, Payoff: p, Workers: workers,
		Policies: func(int) (home, away game.Policy, err error) {
			return table.Record(env.Home, spreadPolicy{r}), table.Record(env.Away, spreadPolicy{r}), nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	size, _ := game.Estimate(r, p)
	if table.States() != size.BreakStates {
		t.Fatalf("%v: recorded %d break states, the game has %d", r, table.States(), size.BreakStates)
	}
	var buf bytes.Buffer
	if _, err := table.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return c, buf.Bytes()
}

func readTable(b []byte) (*game.PolicyTable, error) {
	return game.ReadPolicyTable(bytes.NewReader(b), int64(len(b)))
}

// TestPolicyTableRoundTrips: best responses to the table read back equal those to the policy
// it recorded (to float32's rounding of the stored probabilities), league and knockout.
func TestPolicyTableRoundTrips(t *testing.T) {
	cases := []struct {
		r env.Rules
		p lineup.Payoff
	}{
		{env.Rules{ThrowsPerHalf: 3, Moves: 1, Knockout: true, ExtraThrowsPerHalf: 1}, lineup.PayoffAdvance},
		{env.Rules{ThrowsPerHalf: 3, Moves: 1}, lineup.PayoffWinLoss},
	}
	if testing.Short() { // the race stage
		cases = cases[:1]
	}
	for _, c := range cases {
		want, b := recordTable(t, c.r, c.p, 2)
		table, err := readTable(b)
		if err != nil {
			t.Fatalf("%v: %v", c.r, err)
		}
		if info := table.Info(); !info.Rules.Equal(c.r) || info.Name != "spread" {
			t.Fatalf("%v: header %+v", c.r, info)
		}
		got, err := game.RespondToPolicies(game.PolicyProblem{Rules: c.r, Payoff: c.p,
			Policies: func(int) (home, away game.Policy, err error) {
				return table.Side(env.Home), table.Side(env.Away), nil
			}})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got.HomeBest-want.HomeBest) > 1e-6 || math.Abs(got.AwayBest-want.AwayBest) > 1e-6 || want.Exploitability < 0.01 {
			t.Errorf("%v: from the table %+v, from the policy %+v", c.r, got, want)
		}
		again := &bytes.Buffer{}
		if _, err := table.WriteTo(again); err != nil || !bytes.Equal(again.Bytes(), b) {
			t.Errorf("%v: written again, %d bytes of %d differ (%v)", c.r, again.Len(), len(b), err)
		}
	}
}

// TestPolicyTableIsDeterministic: the same bytes whatever the workers that recorded it.
func TestPolicyTableIsDeterministic(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 2, Moves: 1}
	_, one := recordTable(t, r, lineup.PayoffWinLoss, 1)
	_, two := recordTable(t, r, lineup.PayoffWinLoss, 2)
	if !bytes.Equal(one, two) {
		t.Fatalf("tables differ: %d bytes with 1 worker, %d with 2", len(one), len(two))
	}
}

// TestPolicyTableRefusesDamage: every truncation and flipped byte is ErrBadPolicyTable; so is
// a game table; a break the table has no row for is an error, not a guess.
func TestPolicyTableRefusesDamage(t *testing.T) {
	_, b := recordTable(t, env.Rules{ThrowsPerHalf: 1, Moves: 1}, lineup.PayoffWinLoss, 2)
	for n := 0; n < len(b); n += 1 + n/8 {
		if _, err := readTable(b[:n]); !errors.Is(err, game.ErrBadPolicyTable) {
			t.Fatalf("truncated at %d of %d bytes: %v", n, len(b), err)
		}
	}
	for i := 0; i < len(b); i += 1 + i/16 {
		bad := bytes.Clone(b)
		bad[i] ^= 0x20
		if _, err := readTable(bad); !errors.Is(err, game.ErrBadPolicyTable) {
			t.Fatalf("byte %d of %d flipped: %v", i, len(b), err)
		}
	}
	_, gameTable := solveWithTable(t, game.Problem{Rules: env.Rules{ThrowsPerHalf: 1, Moves: 1}, Payoff: lineup.PayoffWinLoss})
	if _, err := readTable(gameTable); !errors.Is(err, game.ErrBadPolicyTable) {
		t.Fatalf("a game table: %v", err)
	}
	table, err := readTable(b)
	if err != nil {
		t.Fatal(err)
	}
	s := game.State{Period: env.FirstHalf, ThrowsLeft: 7, Home: env.LineupAt(0), Away: env.LineupAt(0)}
	if _, err := table.Mix(env.Home, s); err == nil {
		t.Fatal("a break of other rules was answered")
	}
}

// FuzzReadPolicyTable: any bytes are a table or an ErrBadPolicyTable, never a panic.
func FuzzReadPolicyTable(f *testing.F) {
	_, b := recordTable(f, env.Rules{ThrowsPerHalf: 1, Moves: 1}, lineup.PayoffWinLoss, 1)
	f.Add(b)
	f.Add(b[:len(b)/2])
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := readTable(b); err != nil && !errors.Is(err, game.ErrBadPolicyTable) {
			t.Fatalf("%v", err)
		}
	})
}

// denseSpread is spreadPolicy answering as a DensePolicy: a probability a line-up.
type denseSpread struct{ spreadPolicy }

func (p denseSpread) BreakProbabilities(side env.Player, states []game.State, answer func(int, []float64) error) error {
	mixes := make([][]env.Weighted, len(states))
	if err := p.Breaks(side, states, mixes); err != nil {
		return err
	}
	probs := make([]float64, env.NumLineups)
	for i := len(states) - 1; i >= 0; i-- { // any order
		clear(probs)
		for _, w := range mixes[i] {
			probs[w.Lineup.Index()] = w.Prob
		}
		if err := answer(i, probs); err != nil {
			return err
		}
	}
	return nil
}

// TestBatchedDensePoliciesAreTheSame: a DensePolicy asked in batches ahead of the solve, on
// two workers, gives the best responses of the same policy asked a row at a time, bit for
// bit (its mixes sum in the same order), and records the same table.
func TestBatchedDensePoliciesAreTheSame(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 2, Moves: 1}
	want, wantTable := recordTable(t, r, lineup.PayoffWinLoss, 1)
	for _, batch := range []int{1, 1000, 1 << 20} {
		table, err := game.NewPolicyTable(r, "spread")
		if err != nil {
			t.Fatal(err)
		}
		got, err := game.RespondToPolicies(game.PolicyProblem{Rules: r, Payoff: lineup.PayoffWinLoss, Workers: 2, Batch: batch,
			Policies: func(int) (home, away game.Policy, err error) {
				return table.Record(env.Home, denseSpread{spreadPolicy{r}}), table.Record(env.Away, denseSpread{spreadPolicy{r}}), nil
			}})
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("batch %d: %+v, a row at a time %+v", batch, got, want)
		}
		var buf bytes.Buffer
		if _, err := table.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), wantTable) {
			t.Errorf("batch %d: the recorded table differs (%d bytes, want %d)", batch, buf.Len(), len(wantTable))
		}
	}
}

// TestPolicyTableBoundRefusesMixes: under SetMaxBytes a mixed policy's table fails the solve
// with policy.ErrTooLarge instead of growing (row by row and batched), while a pure policy's
// table fits the same bound; 0 leaves it unbounded.
func TestPolicyTableBoundRefusesMixes(t *testing.T) {
	r := env.Rules{ThrowsPerHalf: 2, Moves: 1}
	size, err := game.Estimate(r, lineup.PayoffWinLoss)
	if err != nil {
		t.Fatal(err)
	}
	bound := 4 * size.BreakStates // codes are 2 bytes a break state; mixes far more
	record := func(p game.Policy, maxBytes int64) error {
		table, err := game.NewPolicyTable(r, "bounded")
		if err != nil {
			t.Fatal(err)
		}
		table.SetMaxBytes(maxBytes)
		_, err = game.RespondToPolicies(game.PolicyProblem{Rules: r, Payoff: lineup.PayoffWinLoss, Workers: 2,
			Policies: func(int) (home, away game.Policy, err error) {
				return table.Record(env.Home, p), table.Record(env.Away, p), nil
			}})
		return err
	}
	for name, p := range map[string]game.Policy{"row by row": spreadPolicy{r}, "batched": denseSpread{spreadPolicy{r}}} {
		if err := record(p, bound); !errors.Is(err, policy.ErrTooLarge) {
			t.Errorf("%s: a mixed policy under %d bytes: %v, want policy.ErrTooLarge", name, bound, err)
		}
		if err := record(p, 0); err != nil {
			t.Errorf("%s: unbounded: %v", name, err)
		}
	}
	if err := record(game.Keeper{}, bound); err != nil { // pure: it keeps its line-up
		t.Errorf("a pure policy under %d bytes: %v", bound, err)
	}
}
