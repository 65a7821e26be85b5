package web

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"image/png"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/frame"
	"github.com/kingoal/kingoal/internal/safefile"
)

func (s *Server) maxFileBytes() int64 { return cmp.Or(s.MaxFileBytes, DefaultMaxFileBytes) }

func (s *Server) context() context.Context {
	if s.Context == nil {
		return context.Background()
	}
	return s.Context
}

// root is the root at index i (inRoot has checked it).
func (s *Server) root(i string) safefile.Root {
	n, _ := strconv.Atoi(i)
	return safefile.NewRoot(s.Roots[n])
}

// inRoot is entry name of the root at index root: one path element (or "." for the root
// itself), reached through no symbolic link, a directory if dir and a regular file otherwise.
func (s *Server) inRoot(root, name string, dir bool) (string, error) {
	i, err := strconv.Atoi(root)
	if err != nil || i < 0 || i >= len(s.Roots) || root != strconv.Itoa(i) {
		return "", errNotFound
	}
	if (name != "." || !dir) && (name == "" || name == ".." || strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") || !fs.ValidPath(name)) {
		return "", errBadRequest
	}
	st, err := safefile.NewRoot(s.Roots[i]).Lstat(name)
	if err != nil || st.IsDir() != dir || (!dir && !st.Mode().IsRegular()) {
		return "", errNotFound
	}
	return filepath.Join(s.Roots[i], name), nil
}

// writeRefusal answers inRoot's refusals: 400 for a bad name, 404 for the rest.
func writeRefusal(w http.ResponseWriter, err error) {
	if errors.Is(err, errBadRequest) {
		http.Error(w, "bad name", http.StatusBadRequest)
		return
	}
	http.Error(w, "not found", http.StatusNotFound)
}

// finishedRun is the request's run, or false once it has answered: 400 for a bad name, 404
// for no such run, 409 for a run an arena is still playing. The caller closes it.
func (s *Server) finishedRun(w http.ResponseWriter, r *http.Request) (servedRun, bool) {
	run, err := s.openRun(r.PathValue("root"), r.PathValue("name"))
	if err != nil {
		writeRefusal(w, err)
		return run, false
	}
	if held, pid, err := run.Held(); err != nil || held {
		run.Close()
		if err != nil {
			http.Error(w, err.Error(), http.StatusConflict)
		} else {
			http.Error(w, fmt.Sprintf("this run is still being played (process %d): it can be shown once it finishes", pid), http.StatusConflict)
		}
		return servedRun{}, false
	}
	return run, true
}

func render(w http.ResponseWriter, page string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := pages.ExecuteTemplate(w, page, data); err != nil {
		http.Error(w, "web: "+err.Error(), http.StatusInternalServerError)
	}
}

// renderFailure renders page with err as its one message (data["Err"]) under an error
// status — 404 for a file that is not there, 403 for one refused (a link, a name outside),
// else fallback — and with every path inside a served directory named relative to it
// (issue 64: a run's linked file came back as 200 with the server's absolute path).
func (s *Server) renderFailure(w http.ResponseWriter, page string, data map[string]any, err error, fallback int) {
	status := fallback
	switch {
	case errors.Is(err, fs.ErrNotExist):
		status = http.StatusNotFound
	case errors.Is(err, safefile.ErrOutside), escapesRoot(err):
		status = http.StatusForbidden
	}
	data["Err"] = s.publicMessage(err)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if err := pages.ExecuteTemplate(w, page, data); err != nil {
		fmt.Fprintf(w, "web: %s", s.publicMessage(err)) // the status is sent: the page ends with the reason
	}
}

// escapesRoot reports os.Root's refusal of a name reached through a link out of it; package
// os exports no error for it, so its words are compared.
func escapesRoot(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == "path escapes from parent"
}

// publicMessage is err's message with the served directories (as given and as absolute
// paths) left out of the paths in it: a page names a file as runs/x/matches.parquet is
// "x/matches.parquet", never where the server keeps it.
func (s *Server) publicMessage(err error) string {
	msg := err.Error()
	for _, dir := range append(slices.Clone(s.Roots), s.Tables...) {
		var forms []string // the absolute path first: it may hold the relative one
		if abs, err := filepath.Abs(dir); err == nil {
			forms = append(forms, abs)
		}
		forms = append(forms, filepath.Clean(dir))
		for _, f := range forms {
			if f != "." && f != "/" {
				msg = strings.ReplaceAll(msg, f+string(filepath.Separator), "")
				// The path alone (a root that cannot be read, a table): its name, where the path
				// ends — not inside a longer one (/srv/runs in /srv/runs2).
				alone := regexp.MustCompile(regexp.QuoteMeta(f) + `($|[^\w./-])`)
				msg = alone.ReplaceAllStringFunc(msg, func(m string) string { return filepath.Base(f) + m[len(f):] })
			}
		}
	}
	return msg
}

// openServed opens a file an agent spec names on the play page: a regular file inside one of
// the roots (the first that has it), reached through no symbolic link. Any other name is
// refused with the same words, whatever exists there.
func (s *Server) openServed(name string) (*os.File, error) {
	for _, dir := range s.Roots {
		f, err := safefile.NewRoot(dir).Open(name, s.maxFileBytes())
		if errors.Is(err, safefile.ErrOutside) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("%w: %q: the play page opens only files inside the served directories", safefile.ErrOutside, name)
}

// writePNG answers with the picture (frame's: the one drawing of the pitch).
func writePNG(w http.ResponseWriter, p frame.Picture) {
	var b bytes.Buffer
	if err := png.Encode(&b, p.Draw()); err != nil {
		http.Error(w, "web: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "max-age=3600")
	w.Write(b.Bytes())
}

// A servedRun is a run a request shows: its directory opened once, reached through no
// symbolic link, and every file of it read from there (arena.RunFiles), so a name swapped
// for a link while the request runs changes nothing it reads.
type servedRun struct {
	arena.RunFiles
	dir *os.Root
	key string // its path under the root: the run's name in caches and commands
}

func (r servedRun) Close() {
	if r.dir != nil {
		r.dir.Close()
	}
}

// openRun opens run name under root index root (see inRoot): a directory holding a regular
// run.json. The caller closes it.
func (s *Server) openRun(root, name string) (servedRun, error) {
	if name == rootRun {
		name = "."
	}
	key, err := s.inRoot(root, name, true)
	if err != nil {
		return servedRun{}, err
	}
	dir, err := s.root(root).OpenRootIn(name)
	if err != nil {
		return servedRun{}, errNotFound
	}
	if st, err := dir.Lstat("run.json"); err != nil || !st.Mode().IsRegular() {
		dir.Close()
		return servedRun{}, errNotFound
	}
	return servedRun{arena.FilesIn(dir), dir, key}, nil
}
