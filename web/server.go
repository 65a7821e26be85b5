package web

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/match"
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
	"add1":            func(i int) int { return i + 1 },
	"periodNames":     breakPeriods,
	"alphaRankNote":   arena.AlphaRankNote,
	"nashAverageNote": arena.NashAverageNote,
	"nan":             math.IsNaN,
	"lastIndex":       func(list any) int { return reflect.ValueOf(list).Len() - 1 },
	"pct0":            func(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) },
	"signedInt": func(n int) string {
		if n == 0 {
			return "0"
		}
		return fmt.Sprintf("%+d", n)
	},
	"css": func(s string) template.CSS { return template.CSS(s) }, // colourOf's rgb(): ours, not the request's
	// scoreTint is a pale background for a score in [0, 1] (blue below ½, red above) that
	// keeps dark text readable.
	"scoreTint": func(x float64) template.CSS { return template.CSS("background:" + paleColourOf(x, 0, 1)) },
	"signed4": func(x float64) string {
		if s := fmt.Sprintf("%+.4f", x); strings.Trim(s, "+-0.") != "" {
			return s
		}
		return "0.0000"
	},
	"perMatch": func(points, matches int) string { // a live run's table: agents have played different numbers of matches
		if matches == 0 {
			return "—"
		}
		return fmt.Sprintf("%.2f", float64(points)/float64(matches))
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
//
// It reads nothing outside its roots: a run, a policy file or a file an agent spec names on
// the play page is a regular file inside a root, reached through no symbolic link, of a
// bounded size. Its caches are bounded, and so is what a request may solve.
type Server struct {
	Roots   []string // directories holding runs (or runs themselves)
	Context context.Context
	// Public answers requests whatever host name they carry (kingoal serve on a non-loopback
	// address). The zero value answers only loopback names — localhost, 127.0.0.1, [::1] —
	// so that a page of another site cannot drive the server by DNS rebinding.
	Public bool
	// MaxFileBytes bounds a policy file, game table or model the server reads (0:
	// DefaultMaxFileBytes). A game table is held whole while it is read — 8 to 11 times its
	// size (measured: 7.3 MB → ~58 MB; the default rules' 186 MiB → 2.1 GB), a Dynamic side's
	// ~18 times (its decisions compress well: 56.5 MB → 1.03 GB of decisions) — before its
	// heatmap is kept.
	MaxFileBytes int64

	// Tables are game tables (kingoal solve game --out FILE.kgt) that judge matches on the
	// analysis pages, each for the runs played under its rules; a run under other rules is
	// judged by its game solved in the request, if small. They are read at the first
	// analysis page and kept.
	Tables []string

	replays  replayCache
	judges   judges
	hints    lru[env.Knobs, match.KickOffHint]
	tables   tableCache
	progress progressCache
	boards   lru[string, finishedBoard]
}

// Handler routes the app's pages.
func (s *Server) Handler() http.Handler {
	s.hints.capacity, s.tables.points.capacity = hintsKept, heatmapsKept
	s.replays.replayers.capacity, s.replays.recent.capacity = replayersKept, replayEventsKept
	s.judges.solved.capacity, s.judges.solving = judgesKept, make(chan struct{}, 1)
	s.progress.runs.capacity, s.boards.capacity = runsFollowed, boardsKept
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.runsPage)
	mux.HandleFunc("GET /run/{root}/{name}/{$}", s.leaderboardPage)
	mux.HandleFunc("GET /run/{root}/{name}/progress.json", s.progressJSON)
	mux.HandleFunc("GET /run/{root}/{name}/matches/{$}", s.matchesPage)
	mux.HandleFunc("GET /run/{root}/{name}/chart/{file}", s.runChart)
	mux.HandleFunc("GET /run/{root}/{name}/match/{id}/{$}", s.replayPage)
	mux.HandleFunc("GET /run/{root}/{name}/match/{id}/frame/{step}", s.replayFrame)
	mux.HandleFunc("GET /run/{root}/{name}/match/{id}/analysis/{$}", s.analysisPage)
	mux.HandleFunc("GET /play/{$}", s.playPage)
	mux.HandleFunc("GET /play/frame.png", s.playFrame)
	mux.HandleFunc("GET /play/analysis/{$}", s.playAnalysisPage)
	mux.HandleFunc("GET /play/set/{$}", s.playSet)
	mux.HandleFunc("GET /policies/{$}", s.policiesPage)
	mux.HandleFunc("GET /explore/{$}", s.explorePage)
	mux.HandleFunc("GET /policy/{root}/{file}", s.policyPage)
	mux.Handle("GET /static/", http.FileServerFS(static))
	return s.guard(mux)
}

//go:embed static
var static embed.FS

// contentPolicy lets a page load only the server's own scripts, pictures and forms, and be
// framed by no one.
const contentPolicy = "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self'; style-src 'self' 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// guard answers every request with the security headers, and refuses a host name that is
// not loopback unless the server is Public.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		if !s.Public && !LoopbackHost(r.Host) {
			http.Error(w, "web: this server answers only to localhost, 127.0.0.1 and [::1]", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// LoopbackHost reports whether a Host header (a name, with or without a port) names this
// machine's loopback: localhost, or a loopback IP address.
func LoopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// DefaultMaxFileBytes is Server.MaxFileBytes's default: tables of games up to about 10-throw
// halves with two moves (7.3 MB) are read, the default rules' (186 MiB) is not.
const DefaultMaxFileBytes = 16 << 20

// RunEntry is a run on the runs page.
type RunEntry struct {
	Root, Name string
	URL        string
	Info       arena.RunInfo
	Err        string   // a run that cannot be read: one message
	Live       *liveRun // how far it has come, if it is not finished (or is held: being played)
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
			e := RunEntry{Root: root, Name: name, URL: runURL(i, name)}
			dir, err := s.runDir(strconv.Itoa(i), urlName(name))
			if err == nil {
				e.Info, err = arena.ReadInfo(dir)
			}
			if err == nil && unfinished(dir, e.Info) {
				var live liveRun
				live, _, err = s.liveRunOf(r, dir, false)
				e.Live = &live
			}
			if err != nil {
				e.Err = err.Error()
			}
			runs = append(runs, e)
		}
	}
	render(w, "runs.html", map[string]any{"Runs": runs, "Live": slices.ContainsFunc(runs, func(e RunEntry) bool { return e.Live != nil })})
}

// rootRun is the name in URLs of a root that is itself a run ("." would be cleaned away).
// Names starting with "." are never listed as runs, so it cannot stand for a directory.
const rootRun = ".root"

func urlName(name string) string {
	if name == "." {
		return rootRun
	}
	return name
}

// runURL is the leaderboard's address of run name in root i, escaped for a path.
func runURL(i int, name string) string {
	return fmt.Sprintf("/run/%d/%s/", i, url.PathEscape(urlName(name)))
}

// runNames lists the runs in root: the subdirectories holding a run.json ("." if root is one).
func runNames(root string) ([]string, error) {
	if _, err := os.Lstat(filepath.Join(root, "run.json")); err == nil {
		return []string{"."}, nil
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			if _, err := os.Lstat(filepath.Join(root, e.Name(), "run.json")); err == nil {
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

// maxRunEntries bounds the files of a run the server looks at before serving it.
const maxRunEntries = 200_000

func (s *Server) leaderboardPage(w http.ResponseWriter, r *http.Request) {
	dir, err := s.runDir(r.PathValue("root"), r.PathValue("name"))
	if err != nil {
		writeRefusal(w, err)
		return
	}
	data := map[string]any{"Name": r.PathValue("name")}
	if info, err := arena.ReadInfo(dir); err == nil && unfinished(dir, info) {
		live, lb, err := s.liveRunOf(r, dir, true)
		data["Live"], data["LB"] = live, lb
		if err != nil {
			data["Err"] = err.Error()
		}
		render(w, "leaderboard.html", data)
		return
	}
	lb, err := s.finishedLeaderboard(r.Context(), dir)
	data["LB"] = lb
	if err != nil {
		data["Err"] = err.Error() // a corrupt run: one message on the page
	}
	var charts []string
	for _, name := range runCharts {
		if st, err := safefile.NewRoot(dir).Lstat(name); err == nil && st.Mode().IsRegular() {
			charts = append(charts, name)
		}
	}
	data["Charts"] = charts
	render(w, "leaderboard.html", data)
}

// runCharts are the pictures an arena writes in its run, which the leaderboard shows.
var runCharts = []string{"ratings.png", "head_to_head.png"}

// runChart serves one of runCharts from a finished run.
func (s *Server) runChart(w http.ResponseWriter, r *http.Request) {
	dir, ok := s.finishedRun(w, r)
	if !ok {
		return
	}
	name := r.PathValue("file")
	if !slices.Contains(runCharts, name) {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	f, err := safefile.NewRoot(dir).Open(name, s.maxFileBytes())
	if err != nil {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "image/png")
	_, _ = io.Copy(w, f)
}
