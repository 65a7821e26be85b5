package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/internal/shellquote"
)

// A run not finished — being played, or interrupted — is shown as far as it has come: its
// progress, and the standings of the matches in the shards on disk. static/live.js asks for
// the progress every few seconds and fetches the page again when it changes.

// liveRun is a run that is not finished, as its pages show it.
type liveRun struct {
	Playing  int // the process playing it; 0: interrupted
	Progress *arena.Progress
	Resume   string // the command that finishes it, quoted for a shell
	State    string // progressState's: what live.js compares with progress.json's
}

// progressCache keeps each run's last reading (which the next one builds on: done shards are
// not read again) and the leaderboard of its matches.
type progressCache struct {
	runs lru[string, progressEntry]
}

type progressEntry struct {
	p     *arena.Progress
	lb    *arena.Leaderboard
	lbErr error
}

// runsFollowed bounds the runs whose progress is kept.
const runsFollowed = 32

// unfinished reports whether the run in dir (info its run.json) is shown live: not finished,
// or held by a process (being played, or finishing).
func unfinished(dir string, info arena.RunInfo) bool {
	held, _, _ := datasets.DirHolder(dir)
	return !info.Complete || held
}

// progressState sums up what a page of a live run shows, so that live.js can tell when it
// is out of date.
func progressState(p *arena.Progress, playing int) string {
	return fmt.Sprintf("%d/%d/%d/%v/%d", p.Done, p.Shards, p.Matches, p.Info.Complete, playing)
}

// liveRunOf reads the progress of the run in dir, and its standings so far when withBoard
// (nil if none of its matches are on disk yet).
func (s *Server) liveRunOf(r *http.Request, dir string, withBoard bool) (liveRun, *arena.Leaderboard, error) {
	live := liveRun{Resume: "kingoal arena --resume --out " + shellquote.Quote(dir)}
	if held, pid, err := datasets.DirHolder(dir); err == nil && held {
		live.Playing = pid
	}
	c := &s.progress.runs
	old, _ := c.get(dir)
	p, err := arena.ReadProgress(r.Context(), dir, old.p)
	if err != nil {
		return live, nil, err
	}
	live.Progress, live.State = p, progressState(p, live.Playing)
	e := progressEntry{p: p}
	if (old.lb != nil || old.lbErr != nil) && old.p.Matches == p.Matches && old.p.Info.RunID() == p.Info.RunID() {
		e.lb, e.lbErr = old.lb, old.lbErr
	} else if withBoard && p.Matches > 0 {
		e.lb, e.lbErr = arena.NewLeaderboard(r.Context(), p.Info, p.Tally, nil)
	}
	c.put(dir, e, 1)
	return live, e.lb, e.lbErr
}

// progressJSON answers with a run's progress (for live.js, and anyone polling a run).
func (s *Server) progressJSON(w http.ResponseWriter, r *http.Request) {
	dir, err := s.runDir(r.PathValue("root"), r.PathValue("name"))
	if err != nil {
		writeRefusal(w, err)
		return
	}
	live, _, err := s.liveRunOf(r, dir, false)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	p := live.Progress
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]any{"complete": p.Info.Complete, "playing": live.Playing, "shards": p.Shards, "done": p.Done,
		"matches": p.Matches, "total_matches": p.Info.TotalMatches, "state": live.State, "run": filepath.Base(dir)})
}
