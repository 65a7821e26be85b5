package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"

	"github.com/kingoal/kingoal/arena"
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
func unfinished(run servedRun, info arena.RunInfo) bool {
	held, _, _ := run.Held()
	return !info.Complete || held
}

// progressState sums up what a page of a live run shows, so that live.js can tell when it
// is out of date.
func progressState(p *arena.Progress, playing int) string {
	return fmt.Sprintf("%d/%d/%d/%v/%d", p.Done, p.Shards, p.Matches, p.Info.Complete, playing)
}

// liveRunOf reads the progress of the run in dir, and its standings so far when withBoard
// (nil if none of its matches are on disk yet).
func (s *Server) liveRunOf(r *http.Request, run servedRun, withBoard bool) (liveRun, *arena.Leaderboard, error) {
	dir := run.key
	live := liveRun{Resume: "kingoal arena --resume --out " + shellquote.Quote(dir)}
	if held, pid, err := run.Held(); err == nil && held {
		live.Playing = pid
	}
	e, err := s.coldProgress.do(r.Context(), fmt.Sprint(dir, "\x00", withBoard), func(ctx context.Context) (progressEntry, error) {
		return s.readProgress(ctx, run, withBoard)
	})
	if err != nil {
		return live, nil, err
	}
	live.Progress, live.State = e.p, progressState(e.p, live.Playing)
	return live, e.lb, e.lbErr
}

// readProgress reads a run's progress from the one before (kept), and its standings so far
// when withBoard, and keeps them.
func (s *Server) readProgress(ctx context.Context, run servedRun, withBoard bool) (progressEntry, error) {
	c := &s.progress.runs
	old, _ := c.get(run.key)
	p, err := run.Progress(ctx, old.p)
	if err != nil {
		return progressEntry{}, err
	}
	e := progressEntry{p: p}
	if (old.lb != nil || old.lbErr != nil) && old.p.Matches == p.Matches && old.p.Info.RunID() == p.Info.RunID() {
		e.lb, e.lbErr = old.lb, old.lbErr
	} else if withBoard && p.Matches > 0 {
		e.lb, e.lbErr = arena.NewLeaderboard(ctx, p.Info, p.Tally, nil)
	}
	c.put(run.key, e, 1)
	return e, nil
}

// progressJSON answers with a run's progress (for live.js, and anyone polling a run).
func (s *Server) progressJSON(w http.ResponseWriter, r *http.Request) {
	run, err := s.openRun(r.PathValue("root"), r.PathValue("name"))
	if err != nil {
		writeRefusal(w, err)
		return
	}
	defer run.Close()
	live, _, err := s.liveRunOf(r, run, false)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	p := live.Progress
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]any{"complete": p.Info.Complete, "playing": live.Playing, "shards": p.Shards, "done": p.Done,
		"matches": p.Matches, "total_matches": p.Info.TotalMatches, "state": live.State, "run": filepath.Base(run.key)})
}
