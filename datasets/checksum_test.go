package datasets

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go/format"
)

// TestEveryFlippedByteIsRefused flips bytes of a match file and of a throw file (the
// columnar writer's) one at a time — every third byte of the footer (every byte with
// KINGOAL_EXHAUSTIVE=1) and every 10th before it — and reads each damaged copy every way the
// toolkit does: the typed reader, ScanRecords, CountRows and a merge. Each must refuse it:
// the checksum covers the footer too, column names included. Before the checksums ~15%
// (matches) and ~35% (throws) of flips gave wrong data with no error; before the footer was
// covered, 2 in 100 flips of a footer renamed a column that ScanRecords (datasets inspect,
// kingoal.read_parquet) read as data.
func TestEveryFlippedByteIsRefused(t *testing.T) {
	dir := t.TempDir()
	matches, throws := randomMatches(40, 3), randomThrows(300, 4)
	mpath, tpath := filepath.Join(dir, "m.parquet"), filepath.Join(dir, "t.parquet")
	if err := WriteParquet(mpath, MatchesSchema, matches); err != nil {
		t.Fatal(err)
	}
	if err := WriteParquet(tpath, ThrowsSchema, throws); err != nil {
		t.Fatal(err)
	}
	flipAll(t, mpath, MatchesSchema, matches)
	flipAll(t, tpath, ThrowsSchema, throws)
}

func flipAll[T any](t *testing.T, path, schema string, want []T) {
	t.Helper()
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	scratch := memDir(t)
	bad := filepath.Join(scratch, "bad.parquet")
	merged := filepath.Join(scratch, "merged.parquet")
	footer := int(len(orig)) - 8 - int(binary.LittleEndian.Uint32(orig[len(orig)-8:]))
	tried := 0
	footerStride := 3
	if os.Getenv("KINGOAL_EXHAUSTIVE") != "" {
		footerStride = 1
	}
	for i := range orig {
		if i < footer && i%10 != 0 || i >= footer && i%footerStride != 0 {
			continue
		}
		tried++
		b := append([]byte(nil), orig...)
		b[i] ^= 0x5a
		if err := os.WriteFile(bad, b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadParquet[T](bad, schema)
		_, cerr := CountRows(bad, schema)
		_, serr := ScanRecords(bad, func(FileInfo, []Value) error { return nil })
		w, werr := NewParquetWriter[T](merged, schema)
		if werr != nil {
			t.Fatal(werr)
		}
		aerr := w.AppendFile(bad)
		w.Close()
		if err == nil || cerr == nil || serr == nil || aerr == nil {
			t.Fatalf("%s: byte %d of %d flipped (footer from byte %d) was taken: ReadParquet %v, CountRows %v, ScanRecords %v, a merge %v",
				filepath.Base(path), i, len(orig), footer, err, cerr, serr, aerr)
		}
	}
	t.Logf("%s: %d of its %d bytes flipped one at a time (footer from byte %d): every one refused by every reader", filepath.Base(path), tried, len(orig), footer)
}

// memDir is a temporary directory in memory where the system has one (/dev/shm): thousands
// of merges each sync a file, which on a disk is most of this test's time.
func memDir(t *testing.T) string {
	dir, err := os.MkdirTemp("/dev/shm", "kingoal-test-")
	if err != nil {
		return t.TempDir()
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// TestColumnsMustBeTheirTags: a file without a checksum (parquet-go's writer: solver outputs,
// decisions) whose footer names a column otherwise than its schema tag does is refused by
// every reader, the generic ones (datasets inspect, kingoal.read_parquet) included.
func TestColumnsMustBeTheirTags(t *testing.T) {
	path := filepath.Join(t.TempDir(), "policy.parquet")
	writeWithParquetGo(t, path, PolicySchema, []PolicyRow{{Period: "first half", ThrowsLeft: 3, Lineup: "2-2-2-2-2", Action: "2-2-2-2-2", Value: 0.5}})
	if _, err := ScanRecords(path, nil); err != nil {
		t.Fatalf("the file as written: %v", err)
	}
	rewriteFooter(t, path, func(m *format.FileMetaData) {
		for i := range m.Schema {
			if m.Schema[i].Name == "value" {
				m.Schema[i].Name = "valu\xed"
			}
		}
	})
	_, serr := ScanRecords(path, nil)
	_, terr := ReadTable(path)
	_, perr := ReadParquet[PolicyRow](path, PolicySchema)
	for _, err := range []error{serr, terr, perr} {
		if !errors.Is(err, ErrSchema) {
			t.Errorf("a renamed column: %v, want ErrSchema", err)
		}
	}
}
