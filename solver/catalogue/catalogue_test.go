package catalogue_test

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/catalogue"
)

// TestCatalogueAtSmallRules: at 3-throw halves (2 in extra time) every row of the sheets is solved, verified
// and read back; the rows agree with each other as the pitch's symmetry says they must
// (Dynamic v Basic is minus Basic v Dynamic, a side against its own kind is worth 0, only
// home's right to substitute is minus only away's), each table's SHA-256 is its file's; a
// row deleted is made again to the same bytes and the others are read, not solved, and other
// rules in the same directory are refused, naming both, as is a table without its report (left
// untouched); a bound too small lists every row unsolved with its estimate.
func TestCatalogueAtSmallRules(t *testing.T) {
	if testing.Short() {
		t.Skip("-short (the race stage): 28 solves one after another, no goroutine of the catalogue's own; the solvers race in their packages")
	}
	base := env.Rules{ThrowsPerHalf: 3, Moves: 1, ExtraThrowsPerHalf: 2}
	dir := t.TempDir()
	rows, err := catalogue.Make(catalogue.Config{Base: base, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 14 {
		t.Fatalf("%d rows, want 14", len(rows))
	}
	by := map[string]catalogue.Row{}
	for _, r := range rows {
		if !r.Solved || !r.ReadBack || !(r.Exploitability <= 1e-9) || r.States == 0 || r.TableBytes == 0 {
			t.Errorf("%s: %+v", r.Name, r)
		}
		raw, err := os.ReadFile(filepath.Join(dir, r.Name+".kgt"))
		if err != nil {
			t.Fatal(err)
		}
		if sum := sha256.Sum256(raw); hex.EncodeToString(sum[:]) != r.SHA256 || int64(len(raw)) != r.TableBytes {
			t.Errorf("%s: SHA-256 %s of %d bytes, the file's %x of %d", r.Name, r.SHA256, r.TableBytes, sum, len(raw))
		}
		by[r.Name] = r
	}
	for _, comp := range []string{"league", "knockout"} {
		for _, tr := range []string{"win", "turnover"} {
			bd, db := by[comp+"-basic-dynamic-"+tr], by[comp+"-dynamic-basic-"+tr]
			if math.Abs(bd.Value+db.Value) > 1e-12 || bd.Value == 0 {
				t.Errorf("%s, %s: Basic v Dynamic %v, Dynamic v Basic %v", comp, tr, bd.Value, db.Value)
			}
			if v := by[comp+"-dynamic-dynamic-"+tr].Value; math.Abs(v) > 1e-12 {
				t.Errorf("%s Dynamic v Dynamic, %s: %v", comp, tr, v)
			}
		}
		bb := by[comp+"-basic-basic"]
		if s := bb.Substitute; math.Abs(bb.Value) > 1e-12 || s == nil || math.Abs(s.OnlyHome+s.OnlyAway) > 1e-12 || s.OnlyHome <= 0 {
			t.Errorf("%s Basic v Basic: %v, %+v", comp, bb.Value, bb.Substitute)
		}
	}
	again := "knockout-basic-dynamic-turnover"
	keep := filepath.Join(dir, "league-basic-basic.json")
	before, _ := os.Stat(keep)
	for _, ext := range []string{".json", ".kgt"} {
		if err := os.Remove(filepath.Join(dir, again+ext)); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(10 * time.Millisecond)
	rerun, err := catalogue.Make(catalogue.Config{Base: base, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(keep)
	if !after.ModTime().Equal(before.ModTime()) {
		t.Error("a row already made was made again")
	}
	for i, r := range rerun {
		if r.Name == again && (r.SHA256 != rows[i].SHA256 || r.Value != rows[i].Value) {
			t.Errorf("%s made again: %s, %v; first %s, %v", again, r.SHA256, r.Value, rows[i].SHA256, rows[i].Value)
		}
	}
	// A table without its report is not the catalogue's to replace: refused, left as it is.
	if err := os.Remove(filepath.Join(dir, again+".json")); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(dir, again+".kgt")
	if err := os.WriteFile(mine, []byte("someone's file"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := catalogue.Make(catalogue.Config{Base: base, Dir: dir}); err == nil || !strings.Contains(err.Error(), "exists without its report") {
		t.Errorf("a table without its report: %v", err)
	}
	if raw, _ := os.ReadFile(mine); string(raw) != "someone's file" {
		t.Errorf("the file was replaced: %q", raw)
	}
	if _, err := catalogue.Make(catalogue.Config{Base: env.Rules{ThrowsPerHalf: 4, Moves: 1, ExtraThrowsPerHalf: 2}, Dir: dir}); err == nil || !strings.Contains(err.Error(), "was made under") {
		t.Errorf("other rules in the same directory: %v", err)
	}
	page := catalogue.Page(rerun, time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC), "kingoal solve catalogue")
	if strings.Count(page, "✔") != 14 || !strings.Contains(page, "on 2026-12-03") {
		t.Errorf("the page:\n%s", page)
	}
	small, err := catalogue.Make(catalogue.Config{Base: base, Dir: t.TempDir(), MaxBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range small {
		if r.Solved || r.Estimate <= 1<<20 {
			t.Errorf("under 1 MiB: %+v", r)
		}
	}
	if page := catalogue.Markdown(small); strings.Count(page, "not solved here") != 14 {
		t.Errorf("the unsolved page:\n%s", page)
	}
}
