package cli

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kingoal/kingoal/internal/testtool"
)

// TestCatalogueKilledResumes: `kingoal solve catalogue` killed with SIGKILL at 4 (heavy: 20) moments
// drawn across a whole run (seeded) is run again in the same directory; every time the rerun
// finishes, its tables are byte for byte an uninterrupted run's, its reports equal that run's
// but for what is measured (seconds, peak memory, read time, and the checksum over them), and
// no other file is left (no temporary file, no lock).
func TestCatalogueKilledResumes(t *testing.T) {
	bin := kingoalBinary(t)
	args := func(dir string) []string {
		return []string{"solve", "catalogue", "--throws-per-half", "2", "--only", "league-basic-basic,league-basic-dynamic-win", "--out", dir, "--json"}
	}
	ref := filepath.Join(t.TempDir(), "ref")
	began := time.Now()
	if out, err := exec.Command(bin, args(ref)...).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	whole := time.Since(began)
	want := catalogueFiles(t, ref)
	rng := rand.New(rand.NewPCG(56, 57))
	trials := 4 // KINGOAL_HEAVY: 20 (the same draws, continued)
	if testtool.Heavy() {
		trials = 20
	}
	for trial := range trials {
		dir := filepath.Join(t.TempDir(), "cat")
		at := time.Duration(rng.Float64() * float64(whole))
		cmd := exec.Command(bin, args(dir)...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(at)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		out, err := exec.Command(bin, args(dir)...).CombinedOutput()
		if err != nil {
			t.Errorf("trial %d, killed after %v: the rerun failed: %v\n%s", trial, at.Round(time.Millisecond), err, out)
			continue
		}
		got := catalogueFiles(t, dir)
		if !slices.Equal(sortedKeys(got), sortedKeys(want)) {
			t.Errorf("trial %d, killed after %v: files %v, want %v", trial, at.Round(time.Millisecond), sortedKeys(got), sortedKeys(want))
			continue
		}
		for name, b := range want {
			if !bytes.Equal(got[name], b) {
				t.Errorf("trial %d, killed after %v: %s differs from an uninterrupted run's", trial, at.Round(time.Millisecond), name)
			}
		}
	}
}

// catalogueFiles reads every file of a catalogue directory: tables as they are, JSON reports
// with their measured fields removed.
func catalogueFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(e.Name(), ".json") {
			b = withoutMeasures(t, b)
		}
		files[e.Name()] = b
	}
	return files
}

// withoutMeasures is a report (or catalogue.json) without what differs from run to run.
func withoutMeasures(t *testing.T, b []byte) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	var strip func(v any)
	strip = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range []string{"seconds", "peak_rss", "read_seconds", "checksum"} {
				delete(x, k)
			}
			for _, y := range x {
				strip(y)
			}
		case []any:
			for _, y := range x {
				strip(y)
			}
		}
	}
	strip(v)
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
