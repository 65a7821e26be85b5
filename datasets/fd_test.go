package datasets_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/datasets"
)

// openFDs counts this process's open file descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd here: %v", err)
	}
	return len(entries)
}

// A long-lived process (a notebook, the Python reader, a service) reads many files: every
// refused one must give its descriptor back, also when a parquet-go panic is recovered.
func TestRefusedReadsCloseTheirFiles(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts /proc/self/fd")
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "good.parquet")
	if err := datasets.WriteParquet(good, datasets.MatrixSchema, sampleRows(200)); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(good)
	rng := rand.New(rand.NewPCG(1, 2))
	// os.File's finalizer would close a leaked descriptor at the next collection and hide
	// the leak: no collections while we count.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	before := openFDs(t)
	refused, recovered := 0, 0
	path := filepath.Join(dir, "bad.parquet")
	for i := range 1500 {
		bad := append([]byte{}, data...)
		switch i % 3 {
		case 0: // truncated
			bad = bad[:rng.IntN(len(bad))]
		default: // a few bytes changed anywhere
			for range 1 + rng.IntN(4) {
				bad[rng.IntN(len(bad))] = byte(rng.Uint32())
			}
		}
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err1 := datasets.ReadParquet[datasets.MatrixRow](path, datasets.MatrixSchema)
		_, err2 := datasets.ScanRecords(path, func(datasets.FileInfo, []datasets.Value) error { return nil })
		_, err3 := datasets.CountRows(path, datasets.MatrixSchema)
		for _, err := range []error{err1, err2, err3} {
			if err != nil {
				refused++
				if strings.Contains(err.Error(), "is corrupt:") || strings.Contains(err.Error(), "parquet-go:") {
					recovered++
				}
			}
		}
	}
	// A foreign schema is refused after the file opened fine.
	for range 200 {
		if _, err := datasets.ReadParquet[datasets.PolicyRow](good, datasets.PolicySchema); err == nil {
			t.Fatal("foreign schema accepted")
		}
		refused++
	}
	if after := openFDs(t); after > before {
		t.Fatalf("%d refused reads (%d recovered panics) left %d file descriptors open", refused, recovered, after-before)
	}
	if refused < 1000 {
		t.Fatalf("only %d reads were refused: the test does not exercise the error paths", refused)
	}
	t.Logf("%d refused reads, %d of them recovered panics; no descriptor leaked", refused, recovered)
}
