package web

import (
	"cmp"
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
	"time"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/match"
	"github.com/kingoal/kingoal/rank"
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
	"nashAverageNote": rank.NashAverageNote,
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
// It reads nothing outside its roots: a run is read through its directory opened once, a
// policy file or a file an agent spec names on the play page is a regular file inside a root
// reached through no symbolic link, of a bounded size — whatever is renamed or linked while a
// request reads. Its caches are bounded, and so is what a request may solve, a query (2 KiB),
// and the reads of large runs running at once (two; the requests for one share it). Serve it
// on SecureListener with http.Server's read and idle timeouts: the handler ends a client that
// stops reading (WriteStall).
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

	// WriteStall is the longest a write to a client may wait for the client to read (0:
	// DefaultWriteStall): a client that stops reading is cut off then, and the page it held
	// is freed.
	WriteStall time.Duration

	replays  replayCache
	judges   judges
	hints    lru[env.Knobs, match.KickOffHint]
	tables   tableCache
	progress progressCache
	boards   lru[string, finishedBoard]
	// coldBoards and coldProgress read a large run once for all its first requests.
	coldBoards   flight[string, finishedBoard]
	coldProgress flight[string, progressEntry]
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
	mux.Handle("GET /static/", noListing(http.FileServerFS(static)))
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
		for _, kv := range securityHeaders {
			h.Set(kv[0], kv[1])
		}
		if !s.Public && !LoopbackHost(r.Host) {
			http.Error(w, "web: this server answers only to localhost, 127.0.0.1 and [::1]", http.StatusForbidden)
			return
		}
		if len(r.URL.RawQuery) > maxQueryBytes {
			http.Error(w, fmt.Sprintf("web: a query of more than %d bytes is refused", maxQueryBytes), http.StatusRequestURITooLong)
			return
		}
		next.ServeHTTP(stallingWriter{w, http.NewResponseController(w), cmp.Or(s.WriteStall, DefaultWriteStall)}, r)
	})
}

// securityHeaders are on every response: the pages', and the server's own refusals
// (SecureListener).
var securityHeaders = [][2]string{{"Content-Security-Policy", contentPolicy}, {"X-Content-Type-Options", "nosniff"},
	{"X-Frame-Options", "DENY"}, {"Referrer-Policy", "no-referrer"}}

// maxQueryBytes bounds a request's query: the pages' own forms and links write far less, and
// some pages repeat what the query says.
const maxQueryBytes = 2048

// DefaultWriteStall is Server.WriteStall's default.
const DefaultWriteStall = 20 * time.Second

// stallingWriter gives every write to the client stall to go through.
type stallingWriter struct {
	http.ResponseWriter
	rc    *http.ResponseController
	stall time.Duration
}

func (w stallingWriter) Write(b []byte) (int, error) {
	_ = w.rc.SetWriteDeadline(time.Now().Add(w.stall))
	return w.ResponseWriter.Write(b)
}

func (w stallingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// noListing serves the files of a file server but not its directories' listings.
func noListing(files http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
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
			runs = append(runs, RunEntry{Root: root, Err: s.publicMessage(err)})
			continue
		}
		for _, name := range names {
			e := RunEntry{Root: root, Name: name, URL: runURL(i, name)}
			e.Info, e.Live, err = s.runEntry(r, strconv.Itoa(i), urlName(name))
			if err != nil {
				e.Err = s.publicMessage(err)
			}
			runs = append(runs, e)
		}
	}
	render(w, "runs.html", map[string]any{"Runs": runs, "Live": slices.ContainsFunc(runs, func(e RunEntry) bool { return e.Live != nil })})
}

// runEntry reads what the runs page shows of a run: its description, and its progress if
// it is shown live.
func (s *Server) runEntry(r *http.Request, root, name string) (arena.RunInfo, *liveRun, error) {
	run, err := s.openRun(root, name)
	if err != nil {
		return arena.RunInfo{}, nil, err
	}
	defer run.Close()
	info, err := run.Info()
	if err != nil || !unfinished(run, info) {
		return info, nil, err
	}
	live, _, err := s.liveRunOf(r, run, false)
	return info, &live, err
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

func (s *Server) leaderboardPage(w http.ResponseWriter, r *http.Request) {
	run, err := s.openRun(r.PathValue("root"), r.PathValue("name"))
	if err != nil {
		writeRefusal(w, err)
		return
	}
	defer run.Close()
	data := map[string]any{"Name": r.PathValue("name")}
	if info, err := run.Info(); err == nil && unfinished(run, info) {
		live, lb, err := s.liveRunOf(r, run, true)
		data["Live"], data["LB"] = live, lb
		if err != nil {
			s.renderFailure(w, "leaderboard.html", data, err, http.StatusInternalServerError)
			return
		}
		render(w, "leaderboard.html", data)
		return
	}
	lb, err := s.finishedLeaderboard(r.Context(), run)
	data["LB"] = lb
	if err != nil { // a corrupt run: one message on the page
		s.renderFailure(w, "leaderboard.html", data, err, http.StatusInternalServerError)
		return
	}
	var charts []string
	for _, name := range runCharts {
		if st, err := run.dir.Lstat(name); err == nil && st.Mode().IsRegular() {
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
	run, ok := s.finishedRun(w, r)
	if !ok {
		return
	}
	defer run.Close()
	name := r.PathValue("file")
	if !slices.Contains(runCharts, name) {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	f, err := run.Open(name, s.maxFileBytes())
	if err != nil {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "image/png")
	_, _ = io.Copy(w, f)
}
