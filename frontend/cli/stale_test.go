package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCommandsRemoveTheirStaleTemps: the temporary files a killed command left beside its
// outputs (".NAME.tmp-N", from kill -9 in the middle of a write) are removed by the next
// command that writes those outputs — holding their lock, so never a live writer's — and
// nobody else's are touched.
func TestCommandsRemoveTheirStaleTemps(t *testing.T) {
	if testing.Short() {
		t.Skip("-short (the race stage): three solves and trainings, no goroutines of interest; it runs in go test ./...")
	}
	dir := t.TempDir()
	stale := func(names ...string) []string {
		var paths []string
		for _, n := range names {
			p := filepath.Join(dir, n)
			if err := os.WriteFile(p, []byte("half a file"), 0o600); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, p)
		}
		return paths
	}
	other := stale(".other.kgt.tmp-1", ".g.kgt.lock.tmp-x")[0]
	for _, c := range []struct {
		args  []string
		temps []string
	}{
		{[]string{"solve", "game", "--throws-per-half", "3", "--moves", "1", "--out", filepath.Join(dir, "g.kgt")}, stale(".g.kgt.tmp-123", ".g.kgt.tmp-9")},
		{[]string{"train", "qlearning", "--episodes", "100", "--throws-per-half", "3", "--out", filepath.Join(dir, "q.json")},
			stale(".q.json.tmp-5", ".q.curve.parquet.tmp-6", ".q.curve.png.tmp-7")},
		{[]string{"train", "fictitious", "--iterations", "1", "--throws-per-half", "3", "--moves", "1", "--out", filepath.Join(dir, "f.kgp")},
			stale(".f.kgp.tmp-5", ".f.curve.parquet.tmp-6")},
	} {
		if code, _, stderr := run(t, c.args...); code != 0 {
			t.Fatalf("%v: %s", c.args, stderr)
		}
		for _, p := range c.temps {
			if _, err := os.Stat(p); !os.IsNotExist(err) {
				t.Errorf("%v left %s (%v)", c.args[:2], filepath.Base(p), err)
			}
		}
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("another output's temporary file was removed: %v", err)
	}
}
