package web

import (
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frame"
)

// replayCache keeps a Replayer for the last few runs (building one builds its agents, solves
// included) and the last replays, so that a page's frames do not each play the match again.
type replayCache struct {
	replayers lru[string, *arena.Replayer]
	recent    lru[replayKey, arena.Replay] // by events
}

type replayKey struct {
	dir string
	id  int64
}

// replayersKept and replayEventsKept bound the replay cache: a few runs' agents, and the
// events of the replays recently shown.
const (
	replayersKept    = 4
	replayEventsKept = 200_000
)

// replay plays match id of run again. A Replayer kept holds its run's directory open: the
// run read, whatever its name is now (one left out of the cache is closed by the GC, as it
// may still be in use).
func (s *Server) replay(run servedRun, id int64) (arena.Replay, error) {
	c := &s.replays
	dir := run.key
	if rep, ok := c.recent.get(replayKey{dir, id}); ok {
		return rep, nil
	}
	rp, ok := c.replayers.get(dir)
	if !ok {
		var err error
		if rp, err = run.Replayer(s.context(), arena.Limits{Open: s.openServed, MaxBytes: playSolveBytes}); err != nil {
			return arena.Replay{}, err
		}
		c.replayers.put(dir, rp, 1)
	}
	rep, err := rp.Match(id)
	if err != nil {
		return rep, err
	}
	c.recent.put(replayKey{dir, id}, rep, int64(len(rep.Events))+1)
	return rep, nil
}

// matchesPerPage bounds the matches page: a run may hold millions.
const matchesPerPage = 200

func (s *Server) matchesPage(w http.ResponseWriter, r *http.Request) {
	run, ok := s.finishedRun(w, r)
	if !ok {
		return
	}
	defer run.Close()
	from := int64(0)
	if v := r.URL.Query().Get("from"); v != "" {
		var err error
		if from, err = strconv.ParseInt(v, 10, 64); err != nil || from < 0 {
			http.Error(w, "from: want a match number", http.StatusBadRequest)
			return
		}
	}
	agent := r.URL.Query().Get("agent") // "": every agent's matches
	info, err := run.Info()
	if err != nil {
		render(w, "matches.html", map[string]any{"Name": r.PathValue("name"), "Err": err.Error()})
		return
	}
	if agent != "" && !slices.Contains(info.Agents, agent) {
		http.Error(w, "agent: not an agent of this run", http.StatusBadRequest)
		return
	}
	var rows []datasets.MatchRow
	seen := int64(0)
	errEnough := errors.New("enough")
	err = run.ScanMatches(func(batch []datasets.MatchRow) error {
		for _, m := range batch {
			if agent != "" && m.HomeAgent != agent && m.AwayAgent != agent {
				continue
			}
			if seen >= from {
				rows = append(rows, m)
			}
			seen++
			if len(rows) == matchesPerPage {
				return errEnough
			}
		}
		return nil
	})
	data := map[string]any{"Name": r.PathValue("name"), "Matches": rows, "From": from, "Agents": info.Agents, "Agent": agent}
	if len(rows) == matchesPerPage {
		data["Next"] = from + matchesPerPage
	}
	if from > 0 {
		data["Prev"] = max(0, from-matchesPerPage)
	}
	if err != nil && !errors.Is(err, errEnough) {
		s.renderFailure(w, "matches.html", data, err, http.StatusInternalServerError)
		return
	}
	render(w, "matches.html", data)
}

// replayStep is one step of a replay as the page shows it: the line, and the score after it.
type replayStep struct {
	Line       string
	Home, Away int
	Goal       bool
}

// requestedReplay is the request's match played again, and the page's data naming it; false
// once it has answered (a bad name, no such run or match). A replay that fails is err, for
// the page to show.
func (s *Server) requestedReplay(w http.ResponseWriter, r *http.Request) (rep arena.Replay, data map[string]any, ok bool, err error) {
	run, id, ok := s.matchOf(w, r)
	if !ok {
		return rep, nil, false, nil
	}
	defer run.Close()
	rep, err = s.replay(run, id)
	if errors.Is(err, arena.ErrNoSuchMatch) {
		http.Error(w, err.Error(), http.StatusNotFound)
		return rep, nil, false, nil
	}
	return rep, map[string]any{"Name": r.PathValue("name"), "ID": id}, true, err
}

func (s *Server) replayPage(w http.ResponseWriter, r *http.Request) {
	rep, data, ok, err := s.requestedReplay(w, r)
	if !ok {
		return
	}
	if err != nil {
		// a match that does not replay as stored: one message on its page
		s.renderFailure(w, "replay.html", data, err, http.StatusInternalServerError)
		return
	}
	steps := []replayStep{{Line: "kick-off: the line-ups are chosen"}}
	for _, e := range rep.Events {
		h, a := e.After.Goals(env.Home), e.After.Goals(env.Away)
		steps = append(steps, replayStep{e.Describe(), h, a, h+a > e.Before.Goals(env.Home)+e.Before.Goals(env.Away)})
	}
	data["Match"], data["Steps"], data["Jumps"] = rep.Match, steps, hasJumps(rep.Events)
	data["Scene"] = sceneOf(pictures(rep))
	render(w, "replay.html", data)
}

// pictures are the replay's pictures, one a step: the kick-off, then after every event.
func pictures(rep arena.Replay) []frame.Picture {
	names := [2]string{rep.Match.HomeAgent, rep.Match.AwayAgent}
	out := []frame.Picture{{State: rep.Start, Names: names}}
	for _, e := range rep.Events {
		out = append(out, frame.Picture{State: e.After, LastThrow: e.Describe(), Names: names})
	}
	return out
}

func hasJumps(events []env.Event) bool {
	for _, e := range events {
		if e.Jump > 0 {
			return true
		}
	}
	return false
}

// matchOf is the request's finished run and match ID, or false once it has answered.
// The caller closes the run.
func (s *Server) matchOf(w http.ResponseWriter, r *http.Request) (servedRun, int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id < 0 {
		http.Error(w, "bad match number", http.StatusBadRequest)
		return servedRun{}, 0, false
	}
	run, ok := s.finishedRun(w, r)
	return run, id, ok
}

func (s *Server) replayFrame(w http.ResponseWriter, r *http.Request) {
	run, id, ok := s.matchOf(w, r)
	if !ok {
		return
	}
	defer run.Close()
	name := r.PathValue("step")
	step, err := strconv.Atoi(name[:len(name)-len(filepath.Ext(name))])
	if err != nil || filepath.Ext(name) != ".png" || step < 0 {
		http.Error(w, "bad frame: want frame/N.png", http.StatusBadRequest)
		return
	}
	rep, err := s.replay(run, id)
	switch {
	case errors.Is(err, arena.ErrNoSuchMatch):
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	case err != nil:
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	case step > len(rep.Events):
		http.Error(w, fmt.Sprintf("match %d has frames 0..%d", id, len(rep.Events)), http.StatusNotFound)
		return
	}
	writePNG(w, pictures(rep)[step])
}
