package game

import (
	"bytes"
	"context"
	"testing"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/zerosum"
)

// BenchmarkSolveGame solves the substitution game: 5-throw halves, one move, win-loss (10
// layers, 3.2 M break states) on all cores.
func BenchmarkSolveGame(b *testing.B) {
	for b.Loop() {
		if _, err := Solve(Problem{Rules: env.Rules{ThrowsPerHalf: 5, Moves: 1}, Payoff: lineup.PayoffWinLoss}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGameTable writes the strategy table of the game BenchmarkSolveGame solves, as
// the solve goes (write: the solve with Problem.Table, to compare with that benchmark),
// and reads it back (load: Load).
func BenchmarkGameTable(b *testing.B) {
	p := Problem{Rules: env.Rules{ThrowsPerHalf: 5, Moves: 1}, Payoff: lineup.PayoffWinLoss}
	var table bytes.Buffer
	b.Run("write", func(b *testing.B) {
		for b.Loop() {
			table.Reset()
			p.Table = &table
			if _, err := Solve(p); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(table.Len()), "bytes")
	})
	b.Run("load", func(b *testing.B) {
		for b.Loop() {
			if _, err := Load(context.Background(), bytes.NewReader(table.Bytes()), int64(table.Len())); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// mixedStageGames returns up to n stage matrices of a solved game that have no saddle point
// (the ones the LP solves).
func mixedStageGames(b *testing.B, r env.Rules, n int) [][][]float64 {
	g, err := Solve(Problem{Rules: r, Payoff: lineup.PayoffWinLoss})
	if err != nil {
		b.Fatal(err)
	}
	sp := g.space
	var out [][][]float64
	var buf stageBuf
	for per := range g.kicks {
		for _, kl := range g.kicks[per] {
			if kl == nil {
				continue
			}
			for d := range kl.n {
				k := kl.k[d*sp.configs() : (d+1)*sp.configs()]
				for c := 0; c < sp.configs() && len(out) < n; c += 7 {
					var st Stats
					if _, err := sp.stage(k, c/sp.entries, c%sp.entries, &buf, &st); err != nil || st.LPs == 0 {
						continue
					}
					m := buf.matrix(k, sp.reach[c/sp.entries], sp.reach[c%sp.entries], sp.entries)
					cp := make([][]float64, len(m))
					for i := range m {
						cp[i] = append([]float64(nil), m[i]...)
					}
					out = append(out, cp)
				}
			}
		}
	}
	return out
}

// BenchmarkStageLP compares the two exact methods on the mixed stage games of a 4-throw,
// two-move game: the tableau with Bland's rule (stage games) and gonum's two LPs (the
// line-up game), each after the same dominance removal and with the same verification.
func BenchmarkStageLP(b *testing.B) {
	games := mixedStageGames(b, env.Rules{ThrowsPerHalf: 4, Moves: 2}, 2000)
	b.Logf("%d mixed stage games", len(games))
	b.Run("tableau", func(b *testing.B) {
		var tab zerosum.Tableau
		for i := 0; b.Loop(); i++ {
			if _, err := zerosum.SolveStageGame(games[i%len(games)], &tab); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("gonum", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if _, err := zerosum.SolveMatrixGame(games[i%len(games)]); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// uniformPolicy mixes evenly over every line-up its side can reach: as dense as a softmax
// policy, which weighs what best replies cost at full support.
type uniformPolicy struct{}

func (uniformPolicy) KickOff() ([]env.Weighted, error) {
	return uniformOver(env.AllLineups()[0].Reachable(5)), nil
}

func (uniformPolicy) Breaks(side env.Player, states []State, mixes [][]env.Weighted) error {
	for i, s := range states {
		own, moves := s.Home, s.HomeMoves
		if side == env.Away {
			own, moves = s.Away, s.AwayMoves
		}
		mixes[i] = append(mixes[i][:0], uniformOver(own.Reachable(moves))...)
	}
	return nil
}

func uniformOver(m env.Mask) []env.Weighted {
	acts := m.Actions()
	out := make([]env.Weighted, len(acts))
	for i, a := range acts {
		out[i] = env.Weighted{Lineup: env.LineupAt(a), Prob: 1 / float64(len(acts))}
	}
	return out
}

// BenchmarkRespondToMixedPolicy solves both best responses to a policy mixing over every
// reachable line-up on both sides ("both"), and the best response to such a policy on home
// alone, away keeping its line-up and its best response skipped ("home": what
// kingoal.exploitability solves), at the default rules' three moves with 2-throw halves
// (4 layers, ~4 M break states): the per-break cost of the exact ruler against a softmax
// policy, the policy's own time apart.
func BenchmarkRespondToMixedPolicy(b *testing.B) {
	r := env.Rules{ThrowsPerHalf: 2, Moves: 3}
	size, err := Estimate(r, lineup.PayoffWinLoss)
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		away Policy
		skip [2]bool
	}{{"both", uniformPolicy{}, [2]bool{}}, {"home", Keeper{}, [2]bool{env.Home: true}}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				_, err := RespondToPolicies(PolicyProblem{Rules: r, Payoff: lineup.PayoffWinLoss, Workers: 1, Skip: bc.skip,
					Policies: func(int) (Policy, Policy, error) { return uniformPolicy{}, bc.away, nil }})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(size.BreakStates), "ns/break")
		})
	}
}
