package web

import (
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/kingoal/kingoal/arena"
)

//go:embed templates/*.html
var templates embed.FS

var pages = template.Must(template.New("").Funcs(template.FuncMap{
	"pct":  func(x float64) string { return fmt.Sprintf("%.4f", x) },
	"elo":  func(x float64) string { return fmt.Sprintf("%+.0f", x) },
	"add1": func(i int) int { return i + 1 },
}).ParseFS(templates, "templates/*.html"))

// Server serves the run directories under Roots.
type Server struct {
	Roots []string // directories holding runs (or runs themselves)
}

// Handler routes the app's pages.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.runsPage)
	mux.HandleFunc("GET /run/{root}/{name}/{$}", s.leaderboardPage)
	return mux
}

// RunEntry is a run on the runs page.
type RunEntry struct {
	Root, Name string
	URL        string
	Info       arena.RunInfo
	Err        string // a run that cannot be read: one message
}

func (s *Server) runsPage(w http.ResponseWriter, r *http.Request) {
	var runs []RunEntry
	for i, root := range s.Roots {
		names, err := runNames(root)
		if err != nil {
			runs = append(runs, RunEntry{Root: root, Err: err.Error()})
			continue
		}
		for _, name := range names {
			e := RunEntry{Root: root, Name: name, URL: fmt.Sprintf("/run/%d/%s/", i, name)}
			if dir, err := s.runDir(strconv.Itoa(i), name); err != nil {
				e.Err = err.Error()
			} else if e.Info, err = arena.ReadInfo(dir); err != nil {
				e.Err = err.Error()
			}
			runs = append(runs, e)
		}
	}
	render(w, "runs.html", map[string]any{"Runs": runs})
}

// runNames lists the runs in root: the subdirectories holding a run.json ("." if root is one).
func runNames(root string) ([]string, error) {
	if _, err := os.Stat(filepath.Join(root, "run.json")); err == nil {
		return []string{"."}, nil
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			if _, err := os.Stat(filepath.Join(root, e.Name(), "run.json")); err == nil {
				names = append(names, e.Name())
			}
		}
	}
	slices.Sort(names)
	return names, nil
}

// errNotFound and errBadRequest are what runDir refuses with.
var (
	errNotFound   = errors.New("web: no such run")
	errBadRequest = errors.New("web: a bad run name")
)

// runDir is the directory of run name under root index root: one path element (or "."),
// not a symlink, inside the root.
func (s *Server) runDir(root, name string) (string, error) {
	i, err := strconv.Atoi(root)
	if err != nil || i < 0 || i >= len(s.Roots) {
		return "", errNotFound
	}
	if name != "." && (name == "" || name == ".." || strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") || !fs.ValidPath(name)) {
		return "", errBadRequest
	}
	base, err := filepath.Abs(s.Roots[i])
	if err != nil {
		return "", errNotFound
	}
	dir := filepath.Join(base, name)
	info, err := os.Lstat(dir)
	if err != nil || !info.IsDir() || info.Mode()&os.ModeSymlink != 0 {
		return "", errNotFound
	}
	real, err := filepath.EvalSymlinks(dir)
	realBase, err2 := filepath.EvalSymlinks(base)
	if err != nil || err2 != nil || (real != realBase && !strings.HasPrefix(real, realBase+string(filepath.Separator))) {
		return "", errNotFound
	}
	if name != "." {
		if _, err := os.Lstat(filepath.Join(dir, "run.json")); err != nil {
			return "", errNotFound
		}
	}
	return dir, nil
}

func (s *Server) leaderboardPage(w http.ResponseWriter, r *http.Request) {
	dir, err := s.runDir(r.PathValue("root"), r.PathValue("name"))
	switch {
	case errors.Is(err, errBadRequest):
		http.Error(w, "bad run name", http.StatusBadRequest)
		return
	case err != nil:
		http.Error(w, "no such run", http.StatusNotFound)
		return
	}
	lb, err := arena.ReadLeaderboard(r.Context(), dir)
	data := map[string]any{"Name": r.PathValue("name"), "LB": lb}
	if err != nil {
		data["Err"] = err.Error() // a corrupt run: one message on the page
	}
	render(w, "leaderboard.html", data)
}

func render(w http.ResponseWriter, page string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := pages.ExecuteTemplate(w, page, data); err != nil {
		http.Error(w, "web: "+err.Error(), http.StatusInternalServerError)
	}
}
