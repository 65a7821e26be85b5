package datasets_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
)

func sampleRows(n int) []datasets.MatrixRow {
	rows := make([]datasets.MatrixRow, n)
	for i := range rows {
		rows[i] = datasets.MatrixRow{HomeIndex: int32(i), AwayIndex: int32(n - i), Home: "1-2-3-3-1", Away: "2-2-2-2-2", HomeWin: float64(i) / float64(n), Draw: 0.1}
	}
	return rows
}

func TestParquetRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.parquet")
	rows := sampleRows(70000) // more than one row group
	if err := datasets.WriteParquet(path, datasets.MatrixSchema, rows); err != nil {
		t.Fatal(err)
	}
	got, err := datasets.ReadParquet[datasets.MatrixRow](path, datasets.MatrixSchema)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, rows) {
		t.Fatal("round trip changed the rows")
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
}

func TestReadRejectsBadFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.parquet")
	if err := datasets.WriteParquet(good, datasets.MatrixSchema, sampleRows(100)); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(good)
	cases := map[string]struct {
		content []byte
		want    string
	}{
		"truncated.parquet": {data[:len(data)/2], "not a readable Parquet file"},
		"text.parquet":      {[]byte("home,away\n1,2\n"), "not a readable Parquet file"},
		"empty.parquet":     {nil, "not a readable Parquet file"},
		// A footer length beyond the file: parquet-go would allocate it first (up to 4 GiB,
		// an out-of-memory crash the fuzzer found), so it must be refused before.
		"huge-footer.parquet": {append(append([]byte{}, data[:len(data)-8]...), 0xf0, 0xff, 0xff, 0x7f, 'P', 'A', 'R', '1'), "footer claims"},
	}
	for name, c := range cases {
		p := filepath.Join(dir, name)
		os.WriteFile(p, c.content, 0o644)
		if _, err := datasets.ReadParquet[datasets.MatrixRow](p, datasets.MatrixSchema); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := datasets.ReadParquet[datasets.PolicyRow](good, datasets.PolicySchema); !errors.Is(err, datasets.ErrSchema) {
		t.Errorf("foreign schema: %v", err)
	}
	if _, err := datasets.ReadParquet[datasets.MatrixRow](filepath.Join(dir, "missing.parquet"), datasets.MatrixSchema); err == nil {
		t.Error("missing file accepted")
	}
}

func FuzzReadParquet(f *testing.F) {
	dir := f.TempDir()
	good := filepath.Join(dir, "seed.parquet")
	if err := datasets.WriteParquet(good, datasets.MatrixSchema, sampleRows(3)); err != nil {
		f.Fatal(err)
	}
	data, _ := os.ReadFile(good)
	f.Add(data)
	f.Add(data[:len(data)-9])
	f.Add([]byte("PAR1"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(t.TempDir(), "f.parquet")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		rows, err := datasets.ReadParquet[datasets.MatrixRow](p, datasets.MatrixSchema)
		if err != nil && !strings.HasPrefix(err.Error(), "datasets: ") {
			t.Fatalf("error without prefix: %v", err)
		}
		if err == nil && rows == nil {
			t.Fatal("nil rows without error")
		}
	})
}

func FuzzScanRecords(f *testing.F) {
	dir := f.TempDir()
	good := filepath.Join(dir, "seed.parquet")
	if err := datasets.WriteParquet(good, datasets.MatrixSchema, sampleRows(4)); err != nil {
		f.Fatal(err)
	}
	data, _ := os.ReadFile(good)
	f.Add(data)
	f.Add(data[:len(data)/3])
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(t.TempDir(), "f.parquet")
		os.WriteFile(p, b, 0o644)
		rows := 0
		_, err := datasets.ScanRecords(p, func(info datasets.FileInfo, row []datasets.Value) error {
			if len(row) != len(info.Columns) {
				t.Fatalf("%d cells for %d columns", len(row), len(info.Columns))
			}
			rows++
			return nil
		})
		if err != nil && !strings.HasPrefix(err.Error(), "datasets: ") {
			t.Fatalf("error without prefix: %v", err)
		}
		// The column-by-column reader (Python's read_parquet) takes the same files.
		tab, terr := datasets.ReadTable(p)
		if terr != nil && !strings.HasPrefix(terr.Error(), "datasets: ") {
			t.Fatalf("ReadTable: error without prefix: %v", terr)
		}
		if (err == nil) != (terr == nil) || terr == nil && tab.Info.Rows != int64(rows) {
			t.Fatalf("ScanRecords (%v, %d rows) and ReadTable (%v) disagree", err, rows, terr)
		}
	})
}

func TestAppendFileCopiesRowGroups(t *testing.T) {
	dir := t.TempDir()
	rows := sampleRows(70000)
	parts := [][]datasets.MatrixRow{rows[:10], rows[10:69000], rows[69000:]}
	var paths []string
	for i, p := range parts {
		paths = append(paths, filepath.Join(dir, "part"+string(rune('0'+i))+".parquet"))
		if err := datasets.WriteParquet(paths[i], datasets.MatrixSchema, p); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "all.parquet")
	w, err := datasets.NewParquetWriter[datasets.MatrixRow](out, datasets.MatrixSchema)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if err := w.AppendFile(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := datasets.ReadParquet[datasets.MatrixRow](out, datasets.MatrixSchema)
	if err != nil || !reflect.DeepEqual(got, rows) {
		t.Fatalf("appended files read back as %d rows (%v)", len(got), err)
	}
	// A file of another schema, or a damaged one, fails the writer and leaves nothing.
	foreign := filepath.Join(dir, "foreign.parquet")
	datasets.WriteParquet(foreign, datasets.LearningCurveSchema, []datasets.LearningCurveRow{{}})
	broken := filepath.Join(dir, "broken.parquet")
	b, _ := os.ReadFile(paths[1])
	os.WriteFile(broken, b[:len(b)/2], 0o644)
	for _, bad := range []string{foreign, broken, filepath.Join(dir, "missing.parquet")} {
		out := filepath.Join(dir, "bad.parquet")
		w, _ := datasets.NewParquetWriter[datasets.MatrixRow](out, datasets.MatrixSchema)
		w.AppendFile(paths[0])
		if err := w.AppendFile(bad); err == nil {
			t.Fatalf("%s appended", bad)
		}
		if err := w.Close(); err == nil {
			t.Fatal("Close forgot the error")
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%s left a file behind", bad)
		}
	}
}

// A page header that declares more bytes than its chunk holds: parquet-go would allocate
// them before reading (the fuzzer saw 2.8 GB for a 1 KB file); every reader refuses it first.
func TestReadersRefuseOversizedPages(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.parquet")
	if err := datasets.WriteParquet(good, datasets.MatrixSchema, sampleRows(10)); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(good)
	var proto thrift.CompactProtocol
	r := proto.NewReaderFromBytes(data[4:])
	var h format.PageHeader
	if err := thrift.NewDecoder(r).Decode(&h); err != nil {
		t.Fatal(err)
	}
	// The largest size whose encoding keeps the header's length, so nothing else moves.
	var header []byte
	for _, size := range []int32{1 << 30, 1 << 23, 1 << 16, 8000, 60} {
		h.CompressedPageSize = size
		if b, err := thrift.Marshal(&proto, &h); err == nil && len(b) == r.BytesRead() {
			header = b
			break
		}
	}
	if header == nil {
		t.Fatal("no oversized page header of the same length")
	}
	bad := append(append(append([]byte{}, data[:4]...), header...), data[4+r.BytesRead():]...)
	path := filepath.Join(dir, "bad.parquet")
	os.WriteFile(path, bad, 0o644)
	if _, err := datasets.ReadParquet[datasets.MatrixRow](path, datasets.MatrixSchema); err == nil || !strings.Contains(err.Error(), "cannot hold") {
		t.Errorf("ReadParquet: %v", err)
	}
	if _, err := datasets.ScanRecords(path, func(datasets.FileInfo, []datasets.Value) error { return nil }); err == nil || !strings.Contains(err.Error(), "cannot hold") {
		t.Errorf("ScanRecords: %v", err)
	}
}

func TestMatchRowWinnerSide(t *testing.T) {
	for w, want := range map[string]struct {
		p  env.Player
		ok bool
	}{"home": {env.Home, true}, "away": {env.Away, true}, "": {0, false}, "Away": {0, false}} {
		if p, ok := (datasets.MatchRow{Winner: w}).WinnerSide(); p != want.p || ok != want.ok {
			t.Errorf("%q: %v %v", w, p, ok)
		}
	}
}
