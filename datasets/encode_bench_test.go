package datasets

import (
	"io"
	"math/rand/v2"
	"testing"

	"github.com/kingoal/kingoal/datasets/internal/columnar"
	"github.com/parquet-go/parquet-go"
)

// arenaThrows draws n throw rows shaped like an arena's: 95 a match, the ball and the
// outcome random, counters steady.
func arenaThrows(n int) []ThrowRow {
	r := rand.New(rand.NewPCG(1, 1))
	outcomes := []string{"home wins", "away wins", "tie"}
	rows := make([]ThrowRow, n)
	for i := range rows {
		rows[i] = ThrowRow{MatchID: int64(i / 95), Index: int32(i % 95), Kind: "throw", Period: "first half", ThrowsLeft: int32(45 - i%95/2),
			BallBefore: r.Int32N(5) + 1, BallAfter: r.Int32N(5) + 1, HomeDice: r.Int32N(4) + 1, AwayDice: r.Int32N(4) + 1,
			Outcome: outcomes[r.IntN(3)], Goal: r.IntN(17) == 0, HomeGoals: int32(i % 95 / 30), AwayGoals: int32(i % 95 / 40)}
	}
	return rows
}

// BenchmarkEncodeThrows: one arena shard's throws (512 matches, 48,640 rows, written a
// match at a time) encoded to memory by each writer; ns/row is the figure to compare.
// parquet-go is the writer the columnar one replaced (issue 14); records are what the
// arena hands it.
func BenchmarkEncodeThrows(b *testing.B) {
	rows := arenaThrows(512 * 95)
	recs := make([]ThrowRecord, len(rows))
	for i, r := range rows {
		var err error
		if recs[i], err = ThrowRecordOf(r); err != nil {
			b.Fatal(err)
		}
	}
	perRow := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(rows)), "ns/row")
	}
	b.Run("columnar,records", func(b *testing.B) {
		for b.Loop() {
			encodeColumnar(b, recs, &throwRecordSplitter)
		}
		perRow(b)
	})
	b.Run("columnar,rows", func(b *testing.B) {
		for b.Loop() {
			encodeColumnar(b, rows, &throwSplitter)
		}
		perRow(b)
	})
	b.Run("parquet-go", func(b *testing.B) {
		for b.Loop() {
			w := parquet.NewGenericWriter[ThrowRow](io.Discard, writerOptions(parquet.SchemaOf(new(ThrowRow)), ThrowsSchema)...)
			for i := 0; i < len(rows); i += 95 {
				if _, err := w.Write(rows[i:min(i+95, len(rows))]); err != nil {
					b.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
		}
		perRow(b)
	})
}

func encodeColumnar[T any](b *testing.B, rows []T, s *splitter[T]) {
	c, err := columnar.New(io.Discard, ThrowsSchema, s.Shape)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < len(rows); i += 95 {
		batch := rows[i:min(i+95, len(rows))]
		s.add(c, batch)
		c.RowsAdded(len(batch))
	}
	if err := c.Close(); err != nil {
		b.Fatal(err)
	}
	c.Release()
}
