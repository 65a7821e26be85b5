package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/internal/testtool"
)

// TestNotebooksRun generates small data with the CLI and executes every notebook in
// notebooks/ with Jupyter (Debian's nbconvert and ipykernel, whose python3 kernelspec pins
// /usr/bin/python3). A failing cell fails the test, and so does a notebook whose executed
// output lacks the figures it is meant to show. Without pyarrow the notebooks read Parquet
// through `kingoal datasets export`, so a fresh binary is built for them.
func TestNotebooksRun(t *testing.T) {
	testtool.SkipUnlessHeavy(t, "executing the notebooks (Jupyter, about 3 minutes)")
	jupyter, err := exec.LookPath("jupyter-nbconvert")
	_, pyErr := os.Stat("/usr/bin/python3")
	requireTool(t, "Jupyter (jupyter-nbconvert) and /usr/bin/python3", err == nil && pyErr == nil)
	if testing.Short() {
		t.Skip("skipping notebooks in -short mode")
	}
	notebooks, _ := filepath.Abs(filepath.Join("..", "..", "notebooks"))
	data := t.TempDir()
	// The notebooks read Parquet directly: with pandas and pyarrow under $KINGOAL_PYTHON (a
	// kernel of its own, made here: CI's venv), else through the kingoal Python package under
	// Debian's python3, which has no pyarrow.
	python, _ := filepath.Abs(filepath.Join("..", "..", "python"))
	jupyterArgs, jupyterEnv := notebookKernel(t)
	lib := filepath.Join(t.TempDir(), "libkingoal.so")
	if out, err := exec.Command("go", "build", "-buildmode=c-shared", "-o", lib, "../../frontend/pylib").CombinedOutput(); err != nil {
		t.Fatalf("go build -buildmode=c-shared: %v\n%s", err, out)
	}
	save := func(args ...string) { // every output goes to a file under data
		t.Helper()
		if code, _, stderr := run(t, args...); code != 0 {
			t.Fatalf("%v: %s", args, stderr)
		}
	}
	short := []string{"--throws-per-half", "8"}
	save(append([]string{"solve", "matrix", "--out", filepath.Join(data, "matrix")}, short...)...)
	save(append([]string{"solve", "equilibrium", "--out", filepath.Join(data, "equilibrium.parquet")}, short...)...)
	save(append([]string{"arena", "--agents", "random;heuristic;fixed:2-2-2-2-2", "--matches", "6", "--log-throws", "--log-decisions", "--out", filepath.Join(data, "run")}, short...)...)
	save(append([]string{"arena", "--format", "worldcup", "--agents", "random;heuristic;fixed:2-2-2-2-2;fixed:1-3-3-2-1;fixed:1-2-3-2-2", "--group-size", "3",
		"--matches", "20", "--no-exploitability", "--out", filepath.Join(data, "worldcup")}, short...)...)
	os.MkdirAll(filepath.Join(data, "train"), 0o755)
	save(append([]string{"train", "qlearning", "--episodes", "20000", "--eval-every", "5000", "--moves", "1", "--out", filepath.Join(data, "train", "q.json")}, short...)...)

	// The analysis notebooks, which read the CLI's outputs; quickstart.ipynb trains with SB3
	// on the installed package and runs in .ci/run on the wheel.
	figures := map[string]int{"lineups.ipynb": 3, "arena_report.ipynb": 4, "learning.ipynb": 2}
	books, _ := filepath.Glob(filepath.Join(notebooks, "*.ipynb"))
	for _, nb := range books {
		if _, ok := figures[filepath.Base(nb)]; !ok && filepath.Base(nb) != "quickstart.ipynb" {
			t.Errorf("%s: a notebook nothing executes: add it here with its figures", nb)
		}
	}
	books = books[:0]
	for name := range figures {
		books = append(books, filepath.Join(notebooks, name))
	}
	sort.Strings(books)
	for _, nb := range books {
		outDir := t.TempDir()
		cmd := exec.Command(jupyter, append(jupyterArgs, "--to", "notebook", "--execute", "--ExecutePreprocessor.timeout=300", "--output-dir", outDir, nb)...)
		cmd.Env = append(os.Environ(), append(jupyterEnv, "KINGOAL_DATA="+data, "KINGOAL_LIB="+lib, "PYTHONPATH="+python)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", filepath.Base(nb), err, tail(string(out), 3000))
			continue
		}
		name := filepath.Base(nb)
		if got, want := countImages(t, filepath.Join(outDir, name)), figures[name]; got < want || want == 0 {
			t.Errorf("%s: the executed notebook shows %d figures, want %d", name, got, want)
		}
	}
}

// countImages counts the PNG outputs of an executed notebook's cells.
func countImages(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			Outputs []struct {
				Data map[string]any `json:"data"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(b, &nb); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	n := 0
	for _, c := range nb.Cells {
		for _, o := range c.Outputs {
			if _, ok := o.Data["image/png"]; ok {
				n++
			}
		}
	}
	return n
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return strings.TrimSpace(s)
}

// notebookKernel returns the nbconvert arguments and environment that run the notebooks under
// $KINGOAL_PYTHON's own kernel (its pandas and pyarrow), or none for Jupyter's default kernel.
func notebookKernel(t *testing.T) (args, environ []string) {
	python := os.Getenv("KINGOAL_PYTHON")
	if python == "" {
		return nil, nil
	}
	prefix := t.TempDir()
	if out, err := exec.Command(python, "-m", "ipykernel", "install", "--prefix", prefix, "--name", "kingoal-test").CombinedOutput(); err != nil {
		t.Fatalf("%s -m ipykernel install: %v\n%s", python, err, out)
	}
	return []string{"--ExecutePreprocessor.kernel_name=kingoal-test"}, []string{"JUPYTER_PATH=" + filepath.Join(prefix, "share", "jupyter")}
}
