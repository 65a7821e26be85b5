package web

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/datasets"
)

//go:embed templates/*.html
var templates embed.FS

var pages = template.Must(template.New("").Funcs(template.FuncMap{
	"pct": func(x float64) string { return fmt.Sprintf("%.4f", x) },
	"elo": func(x float64) string {
		if math.Round(x) == 0 {
			return "0" // not "-0" or "+0"
		}
		return fmt.Sprintf("%+.0f", x)
	},
	"add1":      func(i int) int { return i + 1 },
	"nan":       math.IsNaN,
	"lastIndex": func(list any) int { return reflect.ValueOf(list).Len() - 1 },
	"pct0":      func(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) },
	"signedInt": func(n int) string {
		if n == 0 {
			return "0"
		}
		return fmt.Sprintf("%+d", n)
	},
	"css": func(s string) template.CSS { return template.CSS(s) }, // colourOf's rgb(): ours, not the request's
	"signed4": func(x float64) string {
		if s := fmt.Sprintf("%+.4f", x); strings.Trim(s, "+-0.") != "" {
			return s
		}
		return "0.0000"
	},
	"score": func(x float64) string {
		if math.IsNaN(x) {
			return "—"
		}
		return fmt.Sprintf("%.3f", x)
	},
}).ParseFS(templates, "templates/*.html"))

// Server serves the run directories under Roots, and the play and policy pages. The zero
// Context is context.Background: once it is done, replays and games stop.
type Server struct {
	Roots   []string // directories holding runs (or runs themselves)
	Context context.Context

	replays replayCache
	hints   hintCache
}

// Handler routes the app's pages.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.runsPage)
	mux.HandleFunc("GET /run/{root}/{name}/{$}", s.leaderboardPage)
	mux.HandleFunc("GET /run/{root}/{name}/matches/{$}", s.matchesPage)
	mux.HandleFunc("GET /run/{root}/{name}/match/{id}/{$}", s.replayPage)
	mux.HandleFunc("GET /run/{root}/{name}/match/{id}/frame/{step}", s.replayFrame)
	mux.HandleFunc("GET /play/{$}", s.playPage)
	mux.HandleFunc("GET /play/frame.png", s.playFrame)
	mux.HandleFunc("GET /policies/{$}", s.policiesPage)
	mux.HandleFunc("GET /policy/{root}/{file}", s.policyPage)
	return mux
}

func (s *Server) context() context.Context {
	if s.Context == nil {
		return context.Background()
	}
	return s.Context
}

// RunEntry is a run on the runs page.
type RunEntry struct {
	Root, Name string
	URL        string
	Info       arena.RunInfo
	Err        string // a run that cannot be read: one message
	Playing    int    // the process playing it, if one is
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
			} else if held, pid, _ := datasets.DirHolder(dir); held {
				e.Playing = pid
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

// runDir is the directory of run name under root index root (see inRoot), holding a
// run.json unless it is the root itself (".").
func (s *Server) runDir(root, name string) (string, error) {
	dir, err := s.inRoot(root, name, true)
	if err == nil && name != "." {
		if _, err := os.Lstat(filepath.Join(dir, "run.json")); err != nil {
			return "", errNotFound
		}
	}
	return dir, err
}

// inRoot is entry name of the root at index root: one path element (or "." for the root
// itself), not a symlink, a directory if dir and a regular file otherwise, inside the root.
func (s *Server) inRoot(root, name string, dir bool) (string, error) {
	i, err := strconv.Atoi(root)
	if err != nil || i < 0 || i >= len(s.Roots) {
		return "", errNotFound
	}
	if (name != "." || !dir) && (name == "" || name == ".." || strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") || !fs.ValidPath(name)) {
		return "", errBadRequest
	}
	base, err := filepath.Abs(s.Roots[i])
	if err != nil {
		return "", errNotFound
	}
	path := filepath.Join(base, name)
	info, err := os.Lstat(path)
	if err != nil || info.IsDir() != dir || info.Mode()&os.ModeSymlink != 0 || (!dir && !info.Mode().IsRegular()) {
		return "", errNotFound
	}
	real, err := filepath.EvalSymlinks(path)
	realBase, err2 := filepath.EvalSymlinks(base)
	if err != nil || err2 != nil || (real != realBase && !strings.HasPrefix(real, realBase+string(filepath.Separator))) {
		return "", errNotFound
	}
	return path, nil
}

// writeRefusal answers inRoot's refusals: 400 for a bad name, 404 for the rest.
func writeRefusal(w http.ResponseWriter, err error) {
	if errors.Is(err, errBadRequest) {
		http.Error(w, "bad name", http.StatusBadRequest)
		return
	}
	http.Error(w, "not found", http.StatusNotFound)
}

// finishedRun is the directory of the request's run, or false once it has answered: 400 for
// a bad name, 404 for no such run, 409 for a run an arena is still playing.
func (s *Server) finishedRun(w http.ResponseWriter, r *http.Request) (string, bool) {
	dir, err := s.runDir(r.PathValue("root"), r.PathValue("name"))
	if err != nil {
		writeRefusal(w, err)
		return "", false
	}
	if held, pid, err := datasets.DirHolder(dir); err == nil && held {
		http.Error(w, fmt.Sprintf("this run is still being played (process %d): it can be shown once it finishes", pid), http.StatusConflict)
		return "", false
	}
	return dir, true
}

func (s *Server) leaderboardPage(w http.ResponseWriter, r *http.Request) {
	dir, ok := s.finishedRun(w, r)
	if !ok {
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
