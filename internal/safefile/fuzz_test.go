//go:build unix

package safefile

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzRootNames: whatever name a URL carries, Root opens only the regular files inside it
// that no symbolic link leads to — never the file outside, nor one through a link.
func FuzzRootNames(f *testing.F) {
	outside := f.TempDir()
	secret := filepath.Join(outside, "secret")
	if err := os.WriteFile(secret, []byte("secret"), 0o644); err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "run"), 0o755); err != nil {
		f.Fatal(err)
	}
	inside := []string{"a.kgt", "run/run.json"}
	for _, n := range inside {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(n), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	for name, target := range map[string]string{"run/out": secret, "up": outside, "run/in": "../a.kgt"} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			f.Fatal(err)
		}
	}
	for _, seed := range []string{"a.kgt", "run/run.json", "run/out", "up/secret", "../" + filepath.Base(outside) + "/secret", "/etc/passwd",
		"run/../a.kgt", "./a.kgt", "run//run.json", "run/in", "", ".", "..", "a.kgt\x00", "%2e%2e/secret", `run\run.json`} {
		f.Add(seed)
	}
	r := NewRoot(dir)
	f.Fuzz(func(t *testing.T, name string) {
		file, err := r.Open(name, 1<<20)
		if err != nil {
			return
		}
		defer file.Close()
		got, err := file.Stat()
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range inside {
			if st, err := os.Lstat(filepath.Join(dir, n)); err == nil && os.SameFile(st, got) {
				if filepath.ToSlash(filepath.Clean(name)) != n {
					t.Fatalf("%q opened %s under another name", name, n)
				}
				return
			}
		}
		t.Fatalf("%q opened a file that is not one of the root's own", name)
	})
}
