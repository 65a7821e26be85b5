package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/bench"
	"github.com/kingoal/kingoal/internal/version"
	"github.com/kingoal/kingoal/solver/game"
)

// readRepo reads a file of the repository (the tests run in frontend/cli).
func readRepo(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// pages are the prose files a user reads: the README, the docs site (but its generated
// reference, which the help texts make), the Python package's README.
func pages(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md", "python/README.md"}
	err := filepath.WalkDir(filepath.Join("..", "..", "docs"), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join("..", ".."), path)
		if d.IsDir() && rel == filepath.Join("docs", "reference") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, ".md") {
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestDefaultGameMemoryHasOneSource: the default game's peak memory is the solver's estimate
// (game.DefaultGameMemory) wherever a page or a help text gives it — five figures had drifted
// apart (~6 GiB, 9.34 GB, ~9 GB, ~9.7 GiB, 9.69 GB: issue 64); measured peaks live in
// BENCHMARKS.md alone.
func TestDefaultGameMemoryHasOneSource(t *testing.T) {
	inMemory, streamed := game.DefaultGameMemory()
	for _, c := range []struct{ file, want string }{
		{"docs/guides/arenas.md", "~" + inMemory},
		{"docs/guides/solving.md", "~" + inMemory + " at the peak"},
		{"docs/guides/solving.md", "~" + streamed + " at the peak"},
		{"docs/guides/analysis.md", "~" + streamed + " at the peak"},
		{"docs/guides/agents.md", "~" + inMemory + " at the peak"},
		{"docs/guides/beyond-one-machine.md", streamed + " | " + inMemory + " |"},
	} {
		if !strings.Contains(readRepo(t, c.file), c.want) {
			t.Errorf("%s does not say %q (game.DefaultGameMemory)", c.file, c.want)
		}
	}
	for _, args := range [][]string{{"agents"}, {"arena", "--help"}, {"solve", "game", "--help"}, {"bench", "--help"}} {
		if _, out, _ := run(t, args...); !strings.Contains(out, "~"+inMemory) {
			t.Errorf("kingoal %s does not say ~%s", strings.Join(args, " "), inMemory)
		}
	}
	stale := regexp.MustCompile(`~6 GiB|9\.34 GB|~9 GB|9\.69 GB|~8 GB and ~9|~9 min, ~9 GB`)
	for _, f := range pages(t) {
		if m := stale.FindString(readRepo(t, f)); m != "" {
			t.Errorf("%s gives the default game's memory as %q: quote game.DefaultGameMemory's estimate (measured peaks: BENCHMARKS.md)", f, m)
		}
	}
}

// TestPagesSayWhatExists: what the pages list is what the repository has (issue 64): every
// extra of python/pyproject.toml in both install pages, every notebook in the datasets
// guide, every learner of a suite in kingoal bench --help, and a CITATION.cff that names the
// project's version.
func TestPagesSayWhatExists(t *testing.T) {
	pyproject := readRepo(t, "python/pyproject.toml")
	section := pyproject[strings.Index(pyproject, "[project.optional-dependencies]"):]
	section = section[:strings.Index(section, "\n[")]
	extras := regexp.MustCompile(`(?m)^(\w+) = \[`).FindAllStringSubmatch(section, -1)
	if len(extras) < 8 {
		t.Fatalf("pyproject.toml's extras: %v", extras)
	}
	for _, page := range []string{"docs/getting-started/install.md", "python/README.md"} {
		text := readRepo(t, page)
		for _, e := range extras {
			if !strings.Contains(text, "`"+e[1]+"`") {
				t.Errorf("%s does not list the extra %s", page, e[1])
			}
		}
	}
	notebooks, _ := filepath.Glob(filepath.Join("..", "..", "notebooks", "*.ipynb"))
	guide := readRepo(t, "docs/guides/datasets.md")
	for _, nb := range notebooks {
		if !strings.Contains(guide, "`"+filepath.Base(nb)+"`") {
			t.Errorf("docs/guides/datasets.md does not name %s", filepath.Base(nb))
		}
	}
	if words := []string{"", "one", "two", "three", "four", "five", "six"}; len(notebooks) < len(words) && !strings.Contains(guide, words[len(notebooks)]+" Jupyter notebooks") {
		t.Errorf("docs/guides/datasets.md does not say %q", words[len(notebooks)]+" Jupyter notebooks")
	}
	_, help, _ := run(t, "bench", "--help")
	for name, s := range bench.Suites {
		for _, l := range s.Learners() {
			if l != "the exact solver" && !strings.Contains(help, l) {
				t.Errorf("kingoal bench --help does not name %s, which the %s suite runs", l, name)
			}
		}
	}
	cff := readRepo(t, "CITATION.cff")
	for _, key := range []string{"cff-version: 1.2.0", "message:", "title:", "authors:", "version:", "license: Apache-2.0", "repository-code:"} {
		if !strings.Contains(cff, key) {
			t.Errorf("CITATION.cff lacks %q", key)
		}
	}
	if !slices.Contains(strings.Split(cff, "\n"), `version: "`+version.Release+`"`) {
		t.Errorf("CITATION.cff does not give the release %s", version.Release)
	}
}
