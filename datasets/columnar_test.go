package datasets

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/kingoal/kingoal/datasets/internal/columnar"
	"github.com/kingoal/kingoal/env"
)

// randomThrows draws n throw rows with every column varied; outcome takes more distinct
// strings than a dictionary may hold, so that column's chunks go plain, and the dice lists
// are empty or of 1 to 6 values.
func randomThrows(n int, seed uint64) []ThrowRow {
	r := rand.New(rand.NewPCG(seed, 1))
	words := []string{"throw", "coin", "kick", "first half", "second half", "penalties", "home wins", "tie", "", "é✓"}
	dice := func() []int32 {
		v := make([]int32, r.IntN(7))
		for k := range v {
			v[k] = r.Int32N(6) + 1
		}
		return v
	}
	rows := make([]ThrowRow, n)
	for i := range rows {
		rows[i] = ThrowRow{MatchID: int64(i/90) - 3, Index: int32(i % 90), Kind: words[r.IntN(3)], Period: words[3+r.IntN(3)],
			ThrowsLeft: r.Int32N(46) - 1, BallBefore: r.Int32N(5) + 1, BallAfter: r.Int32N(5) + 1, HomeDice: r.Int32N(6),
			AwayDice: r.Int32() - 1<<30, HomeValues: dice(), AwayValues: dice(),
			Rethrows: r.Int32N(3), Outcome: fmt.Sprint(r.IntN(2 * columnar.MaxDictionary)), Goal: r.IntN(7) == 0, HomeGoals: r.Int32N(9), AwayGoals: r.Int32N(9)}
	}
	return rows
}

func randomMatches(n int, seed uint64) []MatchRow {
	r := rand.New(rand.NewPCG(seed, 2))
	specs := []string{"random", "fixed:2-2-2-2-2", "mcts:iters=50", "optimal"}
	lineups := []string{"1-3-3-2-1", "2-2-2-2-2", "1-2-3-2-2", "1-1-4-2-2"}
	rows := make([]MatchRow, n)
	for i := range rows {
		rows[i] = MatchRow{MatchID: int64(i), Pairing: r.Int32N(6), Leg: r.Int32N(100), Cup: r.Int32N(3), Round: r.Int32N(4),
			DiceSeed: r.Uint64(), HomeAgent: specs[r.IntN(4)], AwayAgent: specs[r.IntN(4)], HomeIndex: r.Int32N(4), AwayIndex: r.Int32N(4),
			Kind: "league", HomeStart: lineups[r.IntN(4)], AwayStart: lineups[r.IntN(4)], HomeFinal: lineups[r.IntN(4)],
			AwayFinal: lineups[r.IntN(4)], HomeMode: "basic", AwayMode: "dynamic", HomeGoals: r.Int32N(5), AwayGoals: r.Int32N(5),
			Result: "draw", HomePoints: r.Int32N(4), AwayPoints: r.Int32N(4), ExtraTime: r.IntN(2) == 0, Penalties: r.IntN(3) == 0,
			HomePens: r.Int32N(6), AwayPens: r.Int32N(6), Winner: "home", HomeMoves: r.Int32N(9), AwayMoves: r.Int32N(9)}
	}
	return rows
}

// writeWithParquetGo writes rows as parquet-go's own writer does (the other backend, and
// what shards of earlier builds hold).
func writeWithParquetGo[T any](t *testing.T, path, tag string, rows []T) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[T](f, writerOptions(parquet.SchemaOf(new(T)), tag)...)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// The columnar writer's files read back exactly, by both readers, and equal parquet-go's.
func TestColumnarRoundTrip(t *testing.T) {
	dir := t.TempDir()
	throws := randomThrows(rowGroupRows+5000, 1) // two row groups
	matches := randomMatches(3000, 2)
	enc := checkRoundTrip(t, dir, ThrowsSchema, throws)
	// Integers (and lists of them) delta-encoded, strings in dictionaries, except a chunk with
	// too many (the first of outcome: 65,536 rows of 8,192 values; its second, 5,000 rows,
	// has fewer).
	if enc["match_id"] != "[DELTA_BINARY_PACKED][DELTA_BINARY_PACKED]" || enc["kind"] != "[RLE_DICTIONARY PLAIN][RLE_DICTIONARY PLAIN]" ||
		enc["outcome"] != "[PLAIN][RLE_DICTIONARY PLAIN]" || enc["goal"] != "[PLAIN][PLAIN]" ||
		enc["home_values"] != "[DELTA_BINARY_PACKED][DELTA_BINARY_PACKED]" {
		t.Fatalf("encodings %v", enc)
	}
	checkRoundTrip(t, dir, MatchesSchema, matches)
}

// checkRoundTrip returns the encodings of each column's chunks in the columnar file.
func checkRoundTrip[T any](t *testing.T, dir, tag string, rows []T) map[string]string {
	if splitterOf[T]() == nil {
		t.Fatalf("%s is not written by columns", tag)
	}
	ours, theirs := filepath.Join(dir, "ours.parquet"), filepath.Join(dir, "theirs.parquet")
	if err := WriteParquet(ours, tag, rows); err != nil {
		t.Fatal(err)
	}
	writeWithParquetGo(t, theirs, tag, rows)
	for _, p := range []string{ours, theirs} {
		got, err := ReadParquet[T](p, tag)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, rows) {
			t.Fatalf("%s: %s reads back other rows", tag, filepath.Base(p))
		}
	}
	var cells [2][]string
	for i, p := range []string{ours, theirs} {
		if _, err := ScanRecords(p, func(info FileInfo, row []Value) error {
			cells[i] = append(cells[i], fmt.Sprint(row))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(cells[0], cells[1]) {
		t.Fatalf("%s: ScanRecords reads the two files differently", tag)
	}
	f, pf, err := openTagged(ours, tag, true)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if !parquet.EqualNodes(pf.Schema(), parquet.SchemaOf(new(T))) {
		t.Fatalf("%s: the file's schema is not parquet-go's", tag)
	}
	encodings := map[string]string{}
	for _, rg := range pf.Metadata().RowGroups {
		for _, cc := range rg.Columns {
			encodings[cc.MetaData.PathInSchema[0]] += fmt.Sprint(cc.MetaData.Encoding)
		}
	}
	return encodings
}

// Row-group statistics: min/max on signed integer columns, exact; none on strings or on
// the unsigned dice_seed.
func TestColumnarStatistics(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.parquet")
	rows := randomMatches(500, 3)
	if err := WriteParquet(path, MatchesSchema, rows); err != nil {
		t.Fatal(err)
	}
	f, pf, err := openTagged(path, MatchesSchema, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lo, hi := rows[0].Leg, rows[0].Leg
	for _, r := range rows {
		lo, hi = min(lo, r.Leg), max(hi, r.Leg)
	}
	cols := pf.Metadata().RowGroups[0].Columns
	for i, name := range matchSplitter.Columns {
		st := cols[i].MetaData.Statistics
		switch name {
		case "match_id":
			if binary.LittleEndian.Uint64(st.MinValue) != 0 || binary.LittleEndian.Uint64(st.MaxValue) != 499 {
				t.Fatalf("match_id bounds %v..%v", st.MinValue, st.MaxValue)
			}
		case "leg":
			if int32(binary.LittleEndian.Uint32(st.MinValue)) != lo || int32(binary.LittleEndian.Uint32(st.MaxValue)) != hi {
				t.Fatalf("leg bounds %v..%v, want %d..%d", st.MinValue, st.MaxValue, lo, hi)
			}
		case "dice_seed", "home_agent", "kind":
			if st.MinValue != nil || st.MaxValue != nil {
				t.Fatalf("%s has bounds", name)
			}
		}
	}
}

// Shards of either writer append into one file, in order: a run resumed across builds
// merges shards parquet-go wrote with the columnar writer's.
func TestColumnarAppendsEitherWriter(t *testing.T) {
	dir := t.TempDir()
	rows := randomThrows(3000, 4)
	a, b := filepath.Join(dir, "a.parquet"), filepath.Join(dir, "b.parquet")
	writeWithParquetGo(t, a, ThrowsSchema, rows[:1000])
	if err := WriteParquet(b, ThrowsSchema, rows[1000:2000]); err != nil {
		t.Fatal(err)
	}
	// Either writer's chunk may come first (parquet-go reads a column's codec from it).
	for _, firstOurs := range []bool{true, false} {
		out := filepath.Join(dir, fmt.Sprint(firstOurs, ".parquet"))
		w, err := NewParquetWriter[ThrowRow](out, ThrowsSchema)
		if err != nil {
			t.Fatal(err)
		}
		var want []ThrowRow
		if firstOurs {
			w.Write(rows[2000:2500]) // buffered rows go before what is appended
			want = append(want, rows[2000:2500]...)
		}
		w.AppendFile(a)
		w.AppendFile(b)
		w.Write(rows[2500:])
		want = append(append(append(want, rows[:1000]...), rows[1000:2000]...), rows[2500:]...)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		got, err := ReadParquet[ThrowRow](out, ThrowsSchema)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("appended files read back as %d rows (%v)", len(got), err)
		}
		if n, err := CountRows(out, ThrowsSchema); err != nil || n != int64(len(want)) {
			t.Fatalf("footer counts %d rows (%v)", n, err)
		}
		cells := 0
		if _, err := ScanRecords(out, func(info FileInfo, row []Value) error { cells += len(row); return nil }); err != nil || cells != 16*len(want) {
			t.Fatalf("ScanRecords read %d cells (%v)", cells, err)
		}
	}
	// A shard compressed otherwise would leave a column no reader decodes whole: refused.
	snappyShard := filepath.Join(dir, "snappy.parquet")
	f, _ := os.Create(snappyShard)
	pw := parquet.NewGenericWriter[ThrowRow](f, parquet.Compression(&snappy.Codec{}), parquet.KeyValueMetadata(SchemaKey, ThrowsSchema))
	pw.Write(rows[:10])
	pw.Close()
	f.Close()
	w, _ := NewParquetWriter[ThrowRow](filepath.Join(dir, "mixed.parquet"), ThrowsSchema)
	if err := w.AppendFile(snappyShard); err == nil || !strings.Contains(err.Error(), "not ZSTD") {
		t.Fatalf("a snappy shard appended (%v)", err)
	}
	w.Abort()
}

// A splitter that does not match its schema is refused when a file starts: never a file
// that lies (internal/columnar's tests refuse a column filled short).
func TestColumnarRefusesAWrongSplitter(t *testing.T) {
	s := parquet.SchemaOf(new(ThrowRow))
	cols := append([]string{}, throwSplitter.Columns...)
	cols[3], cols[4] = cols[4], cols[3]
	if _, err := columnar.New(&strings.Builder{}, ThrowsSchema, columnar.Shape{Schema: s, Columns: cols}); err == nil || !strings.Contains(err.Error(), "period") {
		t.Fatalf("swapped columns accepted: %v", err)
	}
	if _, err := columnar.New(&strings.Builder{}, ThrowsSchema, columnar.Shape{Schema: s, Columns: cols[1:]}); err == nil {
		t.Fatal("a column short accepted")
	}
}

// FuzzAppendShard: whatever bytes stand in a shard, appending it either fails with our
// error and leaves nothing, or yields a file every reader reads (or refuses) cleanly.
func FuzzAppendShard(f *testing.F) {
	dir := f.TempDir()
	seed := filepath.Join(dir, "seed.parquet")
	if err := WriteParquet(seed, ThrowsSchema, randomThrows(20, 6)); err != nil {
		f.Fatal(err)
	}
	data, _ := os.ReadFile(seed)
	f.Add(data)
	f.Add(data[:len(data)-20])
	f.Add(append(append([]byte{}, data[:100]...), data[90:]...))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		shard, out := filepath.Join(dir, "shard.parquet"), filepath.Join(dir, "out.parquet")
		os.WriteFile(shard, b, 0o644)
		w, err := NewParquetWriter[ThrowRow](out, ThrowsSchema)
		if err != nil {
			t.Fatal(err)
		}
		err = w.AppendFile(shard)
		if cerr := w.Close(); (err == nil) != (cerr == nil) {
			t.Fatalf("append said %v, close %v", err, cerr)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "datasets: ") {
				t.Fatalf("error without prefix: %v", err)
			}
			if _, serr := os.Stat(out); serr == nil {
				t.Fatal("a failed append left a file")
			}
			return
		}
		if _, err := ReadParquet[ThrowRow](out, ThrowsSchema); err != nil && !strings.HasPrefix(err.Error(), "datasets: ") {
			t.Fatalf("error without prefix: %v", err)
		}
	})
}

func randomRecords(n int, seed uint64) []ThrowRecord {
	r := rand.New(rand.NewPCG(seed, 3))
	recs := make([]ThrowRecord, n)
	for i := range recs {
		t := ThrowRecord{MatchID: int64(i / 90), Index: int32(i % 90), Rethrows: r.Int32N(4), ThrowsLeft: r.Int32N(46), HomeGoals: uint16(r.IntN(9)),
			AwayGoals: uint16(r.IntN(9)), Kind: ChanceKind(r.IntN(3)), Period: env.Period(r.IntN(7)), Outcome: env.Outcome(r.IntN(7)),
			BallBefore: uint8(r.IntN(5) + 1), BallAfter: uint8(r.IntN(5) + 1), HomeDice: uint8(r.IntN(7)), AwayDice: uint8(r.IntN(7)), Goal: r.IntN(9) == 0}
		if i%3 == 0 { // --dice
			for _, d := range []*DiceValues{&t.HomeValues, &t.AwayValues} {
				d.Count = uint8(r.IntN(env.MaxDice + 1))
				for k := range d.Count {
					d.Values[k] = uint8(r.IntN(6) + 1)
				}
			}
		}
		recs[i] = t
	}
	return recs
}

// Records are written as the ThrowRows they stand for, and read back into themselves.
func TestThrowRecordsWriteThrowRows(t *testing.T) {
	dir := t.TempDir()
	recs := randomRecords(5000, 7)
	path := filepath.Join(dir, "t.parquet")
	if err := WriteParquet(path, ThrowsSchema, recs); err != nil {
		t.Fatal(err)
	}
	got, err := ReadParquet[ThrowRow](path, ThrowsSchema)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range got {
		if !sameThrow(row, recs[i].Row()) {
			t.Fatalf("row %d is %+v, want %+v", i, row, recs[i].Row())
		}
		back, err := ThrowRecordOf(row)
		if err != nil || back != recs[i] {
			t.Fatalf("row %d reads back as %+v (%v), want %+v", i, back, err, recs[i])
		}
	}
	if len(got[0].HomeValues) == 0 || len(got[3].AwayValues)+len(got[6].AwayValues)+len(got[9].AwayValues) < 2 {
		t.Fatal("no dice written") // the sample must exercise them
	}
	// Rows no record holds are refused, naming the throw.
	for _, bad := range []func(r *ThrowRow){
		func(r *ThrowRow) { r.Kind = "volley" },
		func(r *ThrowRow) { r.Period = "" },
		func(r *ThrowRow) { r.Outcome = "home" },
		func(r *ThrowRow) { r.HomeValues = []int32{1, 7} },
		func(r *ThrowRow) { r.HomeValues = []int32{0} },
		func(r *ThrowRow) { r.AwayValues = []int32{1, 2, 3, 4, 5, 6, 1} },
		func(r *ThrowRow) { r.BallAfter = 6 },
		func(r *ThrowRow) { r.AwayDice = -1 },
		func(r *ThrowRow) { r.HomeGoals = 70000 },
	} {
		row := got[1]
		bad(&row)
		if _, err := ThrowRecordOf(row); err == nil || !strings.HasPrefix(err.Error(), "datasets: throw 1 of match 0") {
			t.Fatalf("%+v read as a record (%v)", row, err)
		}
	}
}

// FuzzThrowRecordOf: a row read back from a shard becomes a record only if the record
// stands for exactly that row.
func FuzzThrowRecordOf(f *testing.F) {
	for _, r := range randomRecords(6, 10) {
		row := r.Row()
		f.Add(row.Kind, row.Period, row.Outcome, faces(row.HomeValues), faces(row.AwayValues), row.BallBefore, row.HomeDice, row.HomeGoals)
	}
	f.Add("throw", "first half", "tie", []byte{1, 2, 7}, []byte{}, int32(6), int32(-1), int32(1<<20))
	f.Fuzz(func(t *testing.T, kind, period, outcome string, homeValues, awayValues []byte, ball, dice, goals int32) {
		row := ThrowRow{MatchID: 5, Index: 2, Kind: kind, Period: period, Outcome: outcome, HomeValues: values(homeValues), AwayValues: values(awayValues),
			BallBefore: ball, BallAfter: ball, HomeDice: dice, AwayDice: dice, HomeGoals: goals, AwayGoals: goals}
		rec, err := ThrowRecordOf(row)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "datasets: throw 2 of match 5") {
				t.Fatalf("error %v", err)
			}
			return
		}
		if !sameThrow(rec.Row(), row) {
			t.Fatalf("%+v became %+v", row, rec.Row())
		}
	})
}

// A shard whose footer is out of step with its schema is refused when appended, before any
// of it is copied: a chunk counting other rows than its row group (checkRowCounts, on every
// open), a row group a column short (parquet-go refuses when it opens the file).
func TestAppendRefusesInconsistentFooters(t *testing.T) {
	dir := t.TempDir()
	for name, damage := range map[string]func(m *format.FileMetaData){
		"has 20 rows, its column [period] 5 values": func(m *format.FileMetaData) { m.RowGroups[0].Columns[3].MetaData.NumValues = 5 },
		"does not have enough columns":              func(m *format.FileMetaData) { m.RowGroups[0].Columns = m.RowGroups[0].Columns[1:] },
	} {
		path := filepath.Join(dir, "shard.parquet")
		if err := WriteParquet(path, ThrowsSchema, randomThrows(20, 11)); err != nil {
			t.Fatal(err)
		}
		rewriteFooter(t, path, damage)
		w, _ := NewParquetWriter[ThrowRow](filepath.Join(dir, "out.parquet"), ThrowsSchema)
		if err := w.AppendFile(path); err == nil || !strings.Contains(err.Error(), name) {
			t.Fatalf("%s: appended (%v)", name, err)
		}
		w.Abort()
	}
}

// sameThrow compares throw rows, an empty dice list equal to a missing one.
func sameThrow(a, b ThrowRow) bool {
	if !slices.Equal(a.HomeValues, b.HomeValues) || !slices.Equal(a.AwayValues, b.AwayValues) {
		return false
	}
	a.HomeValues, a.AwayValues, b.HomeValues, b.AwayValues = nil, nil, nil, nil
	return reflect.DeepEqual(a, b)
}

// faces and values turn dice lists into the fuzzer's bytes and back.
func faces(v []int32) []byte {
	b := make([]byte, len(v))
	for i, f := range v {
		b[i] = byte(f)
	}
	return b
}

func values(b []byte) []int32 {
	v := make([]int32, len(b))
	for i, f := range b {
		v[i] = int32(f)
	}
	return v
}

// rewriteFooter edits the footer of the Parquet file at path; the pages, and so the file's
// checksum of them, stay as they were.
func rewriteFooter(t *testing.T, path string, edit func(m *format.FileMetaData)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
	pages := b[:len(b)-8-n]
	var m format.FileMetaData
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), b[len(pages):len(b)-8], &m); err != nil {
		t.Fatal(err)
	}
	edit(&m)
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), &m)
	if err != nil {
		t.Fatal(err)
	}
	out := append(append(slices.Clip(pages), footer...), binary.LittleEndian.AppendUint32(nil, uint32(len(footer)))...)
	if err := os.WriteFile(path, append(out, "PAR1"...), 0o644); err != nil {
		t.Fatal(err)
	}
}
