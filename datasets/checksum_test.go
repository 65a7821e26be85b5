package datasets

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestEveryFlippedByteIsRefusedOrHarmless flips bytes of a match file and of a throw file
// (the columnar writer's) one at a time — every third byte of the footer, where a flip can
// pass the file checksum (every byte with KINGOAL_EXHAUSTIVE=1), and every 10th before it,
// where none can — and reads each damaged copy
// every way the toolkit does: the typed reader, ScanRecords, CountRows and a merge. Each must refuse it or give
// exactly the original rows: never other rows. Before the checksums ~15% (matches) and
// ~35% (throws) of flips gave wrong data with no error.
func TestEveryFlippedByteIsRefusedOrHarmless(t *testing.T) {
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
	refused, harmless, tried := 0, 0, 0
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
		rows, err := ReadParquet[T](bad, schema)
		switch {
		case err != nil:
			refused++
		case reflect.DeepEqual(rows, want):
			harmless++
		default:
			t.Fatalf("%s: byte %d of %d flipped: ReadParquet gave other rows and no error", filepath.Base(path), i, len(orig))
		}
		n, cerr := CountRows(bad, schema)
		if cerr == nil && n != int64(len(want)) {
			t.Fatalf("byte %d flipped: CountRows says %d rows, no error", i, n)
		}
		_, serr := ScanRecords(bad, func(FileInfo, []Value) error { return nil })
		w, werr := NewParquetWriter[T](merged, schema)
		if werr != nil {
			t.Fatal(werr)
		}
		aerr := w.AppendFile(bad)
		if cerr := w.Close(); aerr == nil && cerr == nil {
			got, rerr := ReadParquet[T](merged, schema)
			if rerr != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("byte %d flipped: a merge took it and wrote other rows (%v)", i, rerr)
			}
		}
		if err != nil && (serr == nil || aerr == nil) && !strings.Contains(err.Error(), "schema") {
			// What the typed reader refuses, the others refuse too (the schema check is the
			// typed reader's alone).
			t.Fatalf("byte %d flipped: ReadParquet refused (%v) but ScanRecords (%v) or a merge (%v) took it", i, err, serr, aerr)
		}
	}
	t.Logf("%s: %d of its %d bytes flipped one at a time (footer from byte %d): %d refused, %d read as the original rows "+
		"(footer bytes these readers do not depend on, such as statistics and created_by)", filepath.Base(path), tried, len(orig), footer, refused, harmless)
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
