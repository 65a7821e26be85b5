package datasets

import (
	"github.com/parquet-go/parquet-go"

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
	shape
	add func(c *columnar, rows []T) // appends the rows' values to every column
}

// shape is what a columnar file is made of.
type shape struct {
	schema  *parquet.Schema // of the rows the file holds (a ThrowRecord's file holds ThrowRows)
	columns []string        // its leaf columns, in order
	bounded []string        // the integer columns given min/max statistics
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
	shape: shape{schema: parquet.SchemaOf(new(MatchRow)),
		columns: []string{"match_id", "pairing", "leg", "cup", "round", "dice_seed", "home_agent", "away_agent",
			"home_index", "away_index", "kind", "home_start", "away_start", "home_final", "away_final", "home_mode",
			"away_mode", "home_goals", "away_goals", "result", "home_points", "away_points", "extra_time", "penalties",
			"home_pens", "away_pens", "winner", "home_moves", "away_moves"},
		bounded: []string{"match_id", "pairing", "leg", "cup", "round", "home_index", "away_index", "home_goals",
			"away_goals", "home_points", "away_points", "home_pens", "away_pens", "home_moves", "away_moves"}},
	add: func(c *columnar, rows []MatchRow) {
		n := len(rows)
		fill(c.int64s(0, n), rows, func(r *MatchRow) int64 { return r.MatchID })
		fill(c.int32s(1, n), rows, func(r *MatchRow) int32 { return r.Pairing })
		fill(c.int32s(2, n), rows, func(r *MatchRow) int32 { return r.Leg })
		fill(c.int32s(3, n), rows, func(r *MatchRow) int32 { return r.Cup })
		fill(c.int32s(4, n), rows, func(r *MatchRow) int32 { return r.Round })
		fill(c.int64s(5, n), rows, func(r *MatchRow) int64 { return int64(r.DiceSeed) })
		fillIDs(c, 6, rows, func(r *MatchRow) string { return r.HomeAgent })
		fillIDs(c, 7, rows, func(r *MatchRow) string { return r.AwayAgent })
		fill(c.int32s(8, n), rows, func(r *MatchRow) int32 { return r.HomeIndex })
		fill(c.int32s(9, n), rows, func(r *MatchRow) int32 { return r.AwayIndex })
		fillIDs(c, 10, rows, func(r *MatchRow) string { return r.Kind })
		fillIDs(c, 11, rows, func(r *MatchRow) string { return r.HomeStart })
		fillIDs(c, 12, rows, func(r *MatchRow) string { return r.AwayStart })
		fillIDs(c, 13, rows, func(r *MatchRow) string { return r.HomeFinal })
		fillIDs(c, 14, rows, func(r *MatchRow) string { return r.AwayFinal })
		fillIDs(c, 15, rows, func(r *MatchRow) string { return r.HomeMode })
		fillIDs(c, 16, rows, func(r *MatchRow) string { return r.AwayMode })
		fill(c.int32s(17, n), rows, func(r *MatchRow) int32 { return r.HomeGoals })
		fill(c.int32s(18, n), rows, func(r *MatchRow) int32 { return r.AwayGoals })
		fillIDs(c, 19, rows, func(r *MatchRow) string { return r.Result })
		fill(c.int32s(20, n), rows, func(r *MatchRow) int32 { return r.HomePoints })
		fill(c.int32s(21, n), rows, func(r *MatchRow) int32 { return r.AwayPoints })
		fill(c.bools(22, n), rows, func(r *MatchRow) bool { return r.ExtraTime })
		fill(c.bools(23, n), rows, func(r *MatchRow) bool { return r.Penalties })
		fill(c.int32s(24, n), rows, func(r *MatchRow) int32 { return r.HomePens })
		fill(c.int32s(25, n), rows, func(r *MatchRow) int32 { return r.AwayPens })
		fillIDs(c, 26, rows, func(r *MatchRow) string { return r.Winner })
		fill(c.int32s(27, n), rows, func(r *MatchRow) int32 { return r.HomeMoves })
		fill(c.int32s(28, n), rows, func(r *MatchRow) int32 { return r.AwayMoves })
	},
}

// Throw files keep min/max on match_id only: the column a throw log is joined and filtered
// by; bounds of a ball sector or a dice count prune nothing and cost a tenth of the writing.
var throwShape = shape{schema: parquet.SchemaOf(new(ThrowRow)),
	columns: []string{"match_id", "index", "kind", "period", "throws_left", "ball_before", "ball_after", "home_dice",
		"away_dice", "home_values", "away_values", "rethrows", "outcome", "goal", "home_goals", "away_goals"},
	bounded: []string{"match_id"}}

var throwSplitter = splitter[ThrowRow]{
	shape: throwShape,
	add: func(c *columnar, rows []ThrowRow) {
		n := len(rows)
		fill(c.int64s(0, n), rows, func(r *ThrowRow) int64 { return r.MatchID })
		fill(c.int32s(1, n), rows, func(r *ThrowRow) int32 { return r.Index })
		fillIDs(c, 2, rows, func(r *ThrowRow) string { return r.Kind })
		fillIDs(c, 3, rows, func(r *ThrowRow) string { return r.Period })
		fill(c.int32s(4, n), rows, func(r *ThrowRow) int32 { return r.ThrowsLeft })
		fill(c.int32s(5, n), rows, func(r *ThrowRow) int32 { return r.BallBefore })
		fill(c.int32s(6, n), rows, func(r *ThrowRow) int32 { return r.BallAfter })
		fill(c.int32s(7, n), rows, func(r *ThrowRow) int32 { return r.HomeDice })
		fill(c.int32s(8, n), rows, func(r *ThrowRow) int32 { return r.AwayDice })
		fillLists(c, 9, rows, func(r *ThrowRow, dst []int32) []int32 { return append(dst, r.HomeValues...) })
		fillLists(c, 10, rows, func(r *ThrowRow, dst []int32) []int32 { return append(dst, r.AwayValues...) })
		fill(c.int32s(11, n), rows, func(r *ThrowRow) int32 { return r.Rethrows })
		fillIDs(c, 12, rows, func(r *ThrowRow) string { return r.Outcome })
		fill(c.bools(13, n), rows, func(r *ThrowRow) bool { return r.Goal })
		fill(c.int32s(14, n), rows, func(r *ThrowRow) int32 { return r.HomeGoals })
		fill(c.int32s(15, n), rows, func(r *ThrowRow) int32 { return r.AwayGoals })
	},
}

// throwRecordSplitter writes records as ThrowRows: enumerations and dice numbered by code.
var throwRecordSplitter = splitter[ThrowRecord]{
	shape: throwShape,
	add: func(c *columnar, rows []ThrowRecord) {
		n := len(rows)
		fill(c.int64s(0, n), rows, func(r *ThrowRecord) int64 { return r.MatchID })
		fill(c.int32s(1, n), rows, func(r *ThrowRecord) int32 { return r.Index })
		fill(c.codes(2, n, kindName), rows, func(r *ThrowRecord) int32 { return int32(r.Kind) })
		fill(c.codes(3, n, periodName), rows, func(r *ThrowRecord) int32 { return int32(r.Period) })
		fill(c.int32s(4, n), rows, func(r *ThrowRecord) int32 { return r.ThrowsLeft })
		fill(c.int32s(5, n), rows, func(r *ThrowRecord) int32 { return int32(r.BallBefore) })
		fill(c.int32s(6, n), rows, func(r *ThrowRecord) int32 { return int32(r.BallAfter) })
		fill(c.int32s(7, n), rows, func(r *ThrowRecord) int32 { return int32(r.HomeDice) })
		fill(c.int32s(8, n), rows, func(r *ThrowRecord) int32 { return int32(r.AwayDice) })
		fillLists(c, 9, rows, func(r *ThrowRecord, dst []int32) []int32 { return r.HomeValues.appendTo(dst) })
		fillLists(c, 10, rows, func(r *ThrowRecord, dst []int32) []int32 { return r.AwayValues.appendTo(dst) })
		fill(c.int32s(11, n), rows, func(r *ThrowRecord) int32 { return r.Rethrows })
		fill(c.codes(12, n, outcomeName), rows, func(r *ThrowRecord) int32 { return int32(r.Outcome) })
		fill(c.bools(13, n), rows, func(r *ThrowRecord) bool { return r.Goal })
		fill(c.int32s(14, n), rows, func(r *ThrowRecord) int32 { return int32(r.HomeGoals) })
		fill(c.int32s(15, n), rows, func(r *ThrowRecord) int32 { return int32(r.AwayGoals) })
	},
}

func kindName(k int32) string    { return ChanceKind(k).String() }
func periodName(k int32) string  { return env.Period(k).String() }
func outcomeName(k int32) string { return env.Outcome(k).String() }

// fill sets dst[i] to get(&rows[i]) for every row.
func fill[R, V any](dst []V, rows []R, get func(*R) V) {
	dst = dst[:len(rows)]
	for i := range rows {
		dst[i] = get(&rows[i])
	}
}

// fillIDs grows string column j by the rows' values, numbered by its dictionary.
func fillIDs[R any](c *columnar, j int, rows []R, get func(*R) string) {
	dst, d := c.strings(j, len(rows))
	for i := range rows {
		dst[i] = d.id(get(&rows[i]))
	}
}

// fillLists grows list column j by the rows' lists, appended to the column's values by add.
func fillLists[R any](c *columnar, j int, rows []R, add func(r *R, dst []int32) []int32) {
	lens, values := c.int32Lists(j, len(rows))
	for i := range rows {
		before := len(*values)
		*values = add(&rows[i], *values)
		lens[i] = int32(len(*values) - before)
	}
}
