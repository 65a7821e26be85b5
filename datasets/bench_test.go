package datasets_test

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/kingoal/kingoal/datasets"
)

// BenchmarkWriteMatches: encoding arena match rows into zstd Parquet files of a shard's size
// (8,192 rows, synced); one op is one row. It bounds what the arena can write per core.
func BenchmarkWriteMatches(b *testing.B) {
	rows := make([]datasets.MatchRow, 8192)
	names := []string{"1-3-3-2-1", "2-2-2-2-2", "1-2-3-2-2", "1-1-4-2-2"}
	for i := range rows {
		rows[i] = datasets.MatchRow{MatchID: int64(i), Pairing: int32(i / 40), Leg: int32(i % 40 / 2), DiceSeed: uint64(i) * 0x9e3779b97f4a7c15,
			HomeAgent: "random", AwayAgent: "fixed:2-2-2-2-2", Kind: "league", HomeStart: names[i%4], AwayStart: names[i/4%4],
			HomeFinal: names[i/3%4], AwayFinal: names[i/7%4], HomeMode: "basic", AwayMode: "basic", HomeGoals: int32(i % 4),
			AwayGoals: int32(i / 4 % 3), Result: "home", HomePoints: 3, Winner: "home", HomeMoves: int32(i % 3)}
	}
	path := filepath.Join(b.TempDir(), "m.parquet")
	b.ResetTimer()
	for done := 0; done < b.N; {
		w, err := datasets.NewParquetWriter[datasets.MatchRow](path, datasets.MatchesSchema)
		if err != nil {
			b.Fatal(err)
		}
		n := min(len(rows), b.N-done)
		w.Write(rows[:n])
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		done += n
	}
}

// BenchmarkWriteThrows: encoding throw rows (kingoal arena --log-throws) into files of an
// arena shard's size (512 matches of 95 throws, written a match at a time, synced); one op
// is one row. BenchmarkEncodeThrows compares the writers without the file.
func BenchmarkWriteThrows(b *testing.B) {
	rows := make([]datasets.ThrowRow, 512*95)
	outcomes := []string{"home wins", "away wins", "tie"}
	r := rand.New(rand.NewPCG(1, 1))
	for i := range rows {
		rows[i] = datasets.ThrowRow{MatchID: int64(i / 95), Index: int32(i % 95), Kind: "throw", Period: "first half", ThrowsLeft: int32(45 - i%95/2),
			BallBefore: r.Int32N(5) + 1, BallAfter: r.Int32N(5) + 1, HomeDice: r.Int32N(4) + 1, AwayDice: r.Int32N(4) + 1, Outcome: outcomes[r.IntN(3)],
			Goal: r.IntN(17) == 0, HomeGoals: int32(i % 95 / 30), AwayGoals: int32(i % 95 / 40)}
	}
	path := filepath.Join(b.TempDir(), "t.parquet")
	b.ResetTimer()
	for done := 0; done < b.N; {
		w, err := datasets.NewParquetWriter[datasets.ThrowRow](path, datasets.ThrowsSchema)
		if err != nil {
			b.Fatal(err)
		}
		n := min(len(rows), b.N-done)
		for i := 0; i < n; i += 95 {
			w.Write(rows[i:min(n, i+95)])
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		done += n
	}
}
