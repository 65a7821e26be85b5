package datasets

import (
	"github.com/parquet-go/parquet-go"

	"github.com/kingoal/kingoal/datasets/internal/columnar"
	"github.com/kingoal/kingoal/env"
)

// Row splitters for the columnar writer: one per type it writes, naming the columns it
// fills in schema order (checked against parquet-go's schema when a file is started, so a
// field added to a row type without its line here fails at once, not in a reader). Each
// fills a batch of rows one column at a time, a loop per column that the compiler reduces to
// loads and stores (the batch stays in the cache): no reflection, no call per value but a
// dictionary's.

// splitter splits rows of T into a columnar writer's columns.
type splitter[T any] struct {
	columnar.Shape
	add func(c *columnar.Writer, rows []T) // appends the rows' values to every column
}

// splitterOf returns T's splitter, or nil if T is written by parquet-go.
func splitterOf[T any]() *splitter[T] {
	var s any
	switch any(*new(T)).(type) {
	case MatchRow:
		s = &matchSplitter
	case ThrowRow:
		s = &throwSplitter
	case ThrowRecord:
		s = &throwRecordSplitter
	}
	t, _ := s.(*splitter[T])
	return t
}

// Match files keep min/max on every signed integer column, as parquet-go wrote them (a row
// a match: they cost nothing); DuckDB prunes row groups with those of match_id and cup.
var matchSplitter = splitter[MatchRow]{
	Shape: columnar.Shape{Schema: parquet.SchemaOf(new(MatchRow)),
		Columns: []string{"match_id", "pairing", "leg", "cup", "round", "dice_seed", "home_agent", "away_agent",
			"home_index", "away_index", "kind", "home_start", "away_start", "home_final", "away_final", "home_mode",
			"away_mode", "home_goals", "away_goals", "result", "home_points", "away_points", "extra_time", "penalties",
			"home_pens", "away_pens", "winner", "home_moves", "away_moves"},
		Bounded: []string{"match_id", "pairing", "leg", "cup", "round", "home_index", "away_index", "home_goals",
			"away_goals", "home_points", "away_points", "home_pens", "away_pens", "home_moves", "away_moves"}},
	add: func(c *columnar.Writer, rows []MatchRow) {
		n := len(rows)
		columnar.Fill(c.Int64s(0, n), rows, func(r *MatchRow) int64 { return r.MatchID })
		columnar.Fill(c.Int32s(1, n), rows, func(r *MatchRow) int32 { return r.Pairing })
		columnar.Fill(c.Int32s(2, n), rows, func(r *MatchRow) int32 { return r.Leg })
		columnar.Fill(c.Int32s(3, n), rows, func(r *MatchRow) int32 { return r.Cup })
		columnar.Fill(c.Int32s(4, n), rows, func(r *MatchRow) int32 { return r.Round })
		columnar.Fill(c.Int64s(5, n), rows, func(r *MatchRow) int64 { return int64(r.DiceSeed) })
		columnar.FillStrings(c, 6, rows, func(r *MatchRow) string { return r.HomeAgent })
		columnar.FillStrings(c, 7, rows, func(r *MatchRow) string { return r.AwayAgent })
		columnar.Fill(c.Int32s(8, n), rows, func(r *MatchRow) int32 { return r.HomeIndex })
		columnar.Fill(c.Int32s(9, n), rows, func(r *MatchRow) int32 { return r.AwayIndex })
		columnar.FillStrings(c, 10, rows, func(r *MatchRow) string { return r.Kind })
		columnar.FillStrings(c, 11, rows, func(r *MatchRow) string { return r.HomeStart })
		columnar.FillStrings(c, 12, rows, func(r *MatchRow) string { return r.AwayStart })
		columnar.FillStrings(c, 13, rows, func(r *MatchRow) string { return r.HomeFinal })
		columnar.FillStrings(c, 14, rows, func(r *MatchRow) string { return r.AwayFinal })
		columnar.FillStrings(c, 15, rows, func(r *MatchRow) string { return r.HomeMode })
		columnar.FillStrings(c, 16, rows, func(r *MatchRow) string { return r.AwayMode })
		columnar.Fill(c.Int32s(17, n), rows, func(r *MatchRow) int32 { return r.HomeGoals })
		columnar.Fill(c.Int32s(18, n), rows, func(r *MatchRow) int32 { return r.AwayGoals })
		columnar.FillStrings(c, 19, rows, func(r *MatchRow) string { return r.Result })
		columnar.Fill(c.Int32s(20, n), rows, func(r *MatchRow) int32 { return r.HomePoints })
		columnar.Fill(c.Int32s(21, n), rows, func(r *MatchRow) int32 { return r.AwayPoints })
		columnar.Fill(c.Bools(22, n), rows, func(r *MatchRow) bool { return r.ExtraTime })
		columnar.Fill(c.Bools(23, n), rows, func(r *MatchRow) bool { return r.Penalties })
		columnar.Fill(c.Int32s(24, n), rows, func(r *MatchRow) int32 { return r.HomePens })
		columnar.Fill(c.Int32s(25, n), rows, func(r *MatchRow) int32 { return r.AwayPens })
		columnar.FillStrings(c, 26, rows, func(r *MatchRow) string { return r.Winner })
		columnar.Fill(c.Int32s(27, n), rows, func(r *MatchRow) int32 { return r.HomeMoves })
		columnar.Fill(c.Int32s(28, n), rows, func(r *MatchRow) int32 { return r.AwayMoves })
	},
}

// Throw files keep min/max on match_id only: the column a throw log is joined and filtered
// by; bounds of a ball sector or a dice count prune nothing and cost a tenth of the writing.
var throwShape = columnar.Shape{Schema: parquet.SchemaOf(new(ThrowRow)),
	Columns: []string{"match_id", "index", "kind", "period", "throws_left", "ball_before", "ball_after", "home_dice",
		"away_dice", "home_values", "away_values", "rethrows", "outcome", "goal", "home_goals", "away_goals"},
	Bounded: []string{"match_id"}}

var throwSplitter = splitter[ThrowRow]{
	Shape: throwShape,
	add: func(c *columnar.Writer, rows []ThrowRow) {
		n := len(rows)
		columnar.Fill(c.Int64s(0, n), rows, func(r *ThrowRow) int64 { return r.MatchID })
		columnar.Fill(c.Int32s(1, n), rows, func(r *ThrowRow) int32 { return r.Index })
		columnar.FillStrings(c, 2, rows, func(r *ThrowRow) string { return r.Kind })
		columnar.FillStrings(c, 3, rows, func(r *ThrowRow) string { return r.Period })
		columnar.Fill(c.Int32s(4, n), rows, func(r *ThrowRow) int32 { return r.ThrowsLeft })
		columnar.Fill(c.Int32s(5, n), rows, func(r *ThrowRow) int32 { return r.BallBefore })
		columnar.Fill(c.Int32s(6, n), rows, func(r *ThrowRow) int32 { return r.BallAfter })
		columnar.Fill(c.Int32s(7, n), rows, func(r *ThrowRow) int32 { return r.HomeDice })
		columnar.Fill(c.Int32s(8, n), rows, func(r *ThrowRow) int32 { return r.AwayDice })
		columnar.FillLists(c, 9, rows, func(r *ThrowRow, dst []int32) []int32 { return append(dst, r.HomeValues...) })
		columnar.FillLists(c, 10, rows, func(r *ThrowRow, dst []int32) []int32 { return append(dst, r.AwayValues...) })
		columnar.Fill(c.Int32s(11, n), rows, func(r *ThrowRow) int32 { return r.Rethrows })
		columnar.FillStrings(c, 12, rows, func(r *ThrowRow) string { return r.Outcome })
		columnar.Fill(c.Bools(13, n), rows, func(r *ThrowRow) bool { return r.Goal })
		columnar.Fill(c.Int32s(14, n), rows, func(r *ThrowRow) int32 { return r.HomeGoals })
		columnar.Fill(c.Int32s(15, n), rows, func(r *ThrowRow) int32 { return r.AwayGoals })
	},
}

// throwRecordSplitter writes records as ThrowRows: enumerations and dice numbered by code.
var throwRecordSplitter = splitter[ThrowRecord]{
	Shape: throwShape,
	add: func(c *columnar.Writer, rows []ThrowRecord) {
		n := len(rows)
		columnar.Fill(c.Int64s(0, n), rows, func(r *ThrowRecord) int64 { return r.MatchID })
		columnar.Fill(c.Int32s(1, n), rows, func(r *ThrowRecord) int32 { return r.Index })
		columnar.Fill(c.Codes(2, n, kindName), rows, func(r *ThrowRecord) int32 { return int32(r.Kind) })
		columnar.Fill(c.Codes(3, n, periodName), rows, func(r *ThrowRecord) int32 { return int32(r.Period) })
		columnar.Fill(c.Int32s(4, n), rows, func(r *ThrowRecord) int32 { return r.ThrowsLeft })
		columnar.Fill(c.Int32s(5, n), rows, func(r *ThrowRecord) int32 { return int32(r.BallBefore) })
		columnar.Fill(c.Int32s(6, n), rows, func(r *ThrowRecord) int32 { return int32(r.BallAfter) })
		columnar.Fill(c.Int32s(7, n), rows, func(r *ThrowRecord) int32 { return int32(r.HomeDice) })
		columnar.Fill(c.Int32s(8, n), rows, func(r *ThrowRecord) int32 { return int32(r.AwayDice) })
		columnar.FillLists(c, 9, rows, func(r *ThrowRecord, dst []int32) []int32 { return r.HomeValues.appendTo(dst) })
		columnar.FillLists(c, 10, rows, func(r *ThrowRecord, dst []int32) []int32 { return r.AwayValues.appendTo(dst) })
		columnar.Fill(c.Int32s(11, n), rows, func(r *ThrowRecord) int32 { return r.Rethrows })
		columnar.Fill(c.Codes(12, n, outcomeName), rows, func(r *ThrowRecord) int32 { return int32(r.Outcome) })
		columnar.Fill(c.Bools(13, n), rows, func(r *ThrowRecord) bool { return r.Goal })
		columnar.Fill(c.Int32s(14, n), rows, func(r *ThrowRecord) int32 { return int32(r.HomeGoals) })
		columnar.Fill(c.Int32s(15, n), rows, func(r *ThrowRecord) int32 { return int32(r.AwayGoals) })
	},
}

func kindName(k int32) string    { return ChanceKind(k).String() }
func periodName(k int32) string  { return env.Period(k).String() }
func outcomeName(k int32) string { return env.Outcome(k).String() }
