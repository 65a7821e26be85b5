package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/solver"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/odds"
)

// policyPoints reads a solve policy file, open already (the file the root check found, never
// its name again): the optimal value at every state, the change it recommends as the note,
// one slice a line-up and moves left (and ball, for Dynamic).
func policyPoints(f *os.File) (string, string, []point, error) {
	path := f.Name()
	var points []point
	kind := ""
	err := datasets.ScanParquetFile(f, datasets.PolicySchema, func(rows []datasets.PolicyRow) error {
		var err error
		for _, r := range rows {
			var p point
			if p, err = policyPoint(path, r); err != nil {
				return err
			}
			kind = r.Kind
			points = append(points, p)
		}
		return nil
	})
	if err != nil {
		return "", "", nil, err
	}
	return fmt.Sprintf("Optimal %s policy against a kept line-up", kind), "value", points, nil
}

// policyPoint is one row of a policy file as a point of its heatmap.
func policyPoint(path string, r datasets.PolicyRow) (point, error) {
	per, ok := periodNamed(r.Period)
	if !ok {
		return point{}, fmt.Errorf("web: %s: period %q", path, r.Period)
	}
	slice := fmt.Sprintf("line-up %s, %s left", r.Lineup, env.Plural(int(r.MovesLeft), "move"))
	if r.Kind == "dynamic" {
		slice = fmt.Sprintf("line-up %s, ball in own sector %d, possession %+d", r.Lineup, r.Ball, r.Possession)
	}
	p := point{period: per, throwsLeft: int(r.ThrowsLeft), diff: int(r.GoalDiff), slice: slice, rank: int(r.MovesLeft), value: r.Value}
	if r.Action != r.Lineup {
		from, err1 := env.ParseLineup(r.Lineup)
		to, err2 := env.ParseLineup(r.Action)
		if err1 != nil || err2 != nil {
			return point{}, fmt.Errorf("web: %s: line-ups %q, %q", path, r.Lineup, r.Action)
		}
		p.note = fmt.Sprintf("%s (keeping: %.4f)", env.DescribeChange(from, to), r.KeepValue)
	}
	return p, nil
}

// gameTablePoints reads a game table: home's value at every break of the kick-off's likeliest
// pair of line-ups, both budgets whole (a game table holds every pair: the slice shown is the
// one a match starts in) — or, for the table of a game with a Dynamic side, its decisions.
func gameTablePoints(ctx context.Context, f *os.File) (string, string, []point, error) {
	st, err := f.Stat()
	if err != nil {
		return "", "", nil, err
	}
	g, err := solver.Load(ctx, f, st.Size())
	if err != nil {
		return "", "", nil, err
	}
	switch g := g.(type) {
	case solver.BreakMixes:
		return breakMixPoints(g)
	case solver.Decisions:
		return decisionPoints(g)
	}
	return "", "", nil, fmt.Errorf("web: %s: a game table of no kind it shows", f.Name())
}

// breakMixPoints is gameTablePoints for a game of two Basic sides: home's value at every break
// and how likely home changes its line-up there.
func breakMixPoints(g solver.BreakMixes) (string, string, []point, error) {
	ko := g.KickOff()
	home, away := ko.Home[0].Lineup, ko.Away[0].Lineup
	slice := fmt.Sprintf("home %s (%s) v away %s (%d)", home, env.Plural(g.Moves(), "move"), away, g.Moves())
	var points []point
	err := eachHalfBreak(g.Rules(), func(per env.Period, left, d int) error {
		sol, err := g.At(game.State{Period: per, ThrowsLeft: left, GoalDiff: d, Home: home, Away: away, HomeMoves: g.Moves(), AwayMoves: g.Moves()})
		if err != nil {
			return err
		}
		p := point{period: per, throwsLeft: left, diff: d, slice: slice, value: sol.Value}
		change := 1.0
		for _, w := range sol.Home {
			if w.Lineup == home {
				change -= w.Prob
			}
		}
		if change > 1e-9 {
			p.note = fmt.Sprintf("home changes its line-up with probability %.3f", change)
		}
		points = append(points, p)
		return nil
	})
	return fmt.Sprintf("Equilibrium of the substitution game (%s), from a game table", g.Payoff()), "value to home", points, err
}

// decisionPoints is gameTablePoints for a game with a Dynamic side, whose table keeps
// decisions, not values: for the kick-off's likeliest pair of line-ups, at every time and
// score of the halves, whether each side changes its line-up (1) or keeps it (0) — a Basic
// side at the break, a Dynamic side right after winning a throw to midfield
// (solver.Decisions' Typical) —, one slice a side.
func decisionPoints(g solver.Decisions) (string, string, []point, error) {
	r, ko := g.Rules(), g.KickOff()
	start := [2]env.Lineup{ko.Home[0].Lineup, ko.Away[0].Lineup}
	var points []point
	for side := env.Home; side <= env.Away; side++ {
		slice := fmt.Sprintf("%s (Basic, %s v %s): its choice at the break", side, start[env.Home], start[env.Away])
		if r.Modes[side] == env.Dynamic {
			slice = fmt.Sprintf("%s (Dynamic, %s v %s): its shift after winning a throw to midfield", side, start[env.Home], start[env.Away])
		}
		err := eachHalfBreak(r, func(per env.Period, left, d int) error {
			to, _, err := g.Typical(side, per, left, d, start[env.Home], start[env.Away])
			if errors.Is(err, game.ErrNotSolved) {
				return nil
			}
			if err != nil {
				return err
			}
			p := point{period: per, throwsLeft: left, diff: d, slice: slice, rank: 1 - int(side)}
			if to != start[side] {
				p.value, p.note = 1, env.DescribeChange(start[side], to)
			}
			points = append(points, p)
			return nil
		})
		if err != nil {
			return "", "", nil, err
		}
	}
	return fmt.Sprintf("Equilibrium of the substitution game with a Dynamic side (%s), from its table: 1 where a side changes its line-up", g.Payoff()),
		"changes (1) or keeps (0)", points, nil
}

// eachHalfBreak calls fn at every time of the two halves with a break and every score from
// −3 to +3 a match can have reached by then, up to fn's first error.
func eachHalfBreak(r env.Rules, fn func(per env.Period, left, d int) error) error {
	elapsed := 0
	for _, per := range []env.Period{env.FirstHalf, env.SecondHalf} {
		for left := r.PeriodLength(per); left >= 1; left-- {
			at := elapsed + r.PeriodLength(per) - left
			for d := -3; d <= 3; d++ {
				if at == 0 || max(d, -d)*odds.ThrowsToScore() > at {
					continue // no break at the kick-off; the score cannot be reached yet
				}
				if err := fn(per, left, d); err != nil {
					return err
				}
			}
		}
		elapsed += r.PeriodLength(per)
	}
	return nil
}

func (s *Server) policiesPage(w http.ResponseWriter, r *http.Request) {
	render(w, "policies.html", map[string]any{"Files": s.policyFiles(), "Zoo": s.zooShelves()})
}

// heatmapsKept bounds the heatmaps kept, by their cells.
const heatmapsKept = 1 << 20

// tableCache keeps the points of each policy file as it is now, and reads one file at a
// time: fifty requests for a table read it once, not fifty times at once.
type tableCache struct {
	reading sync.Mutex
	points  lru[fileVersion, policyView]
}

type fileVersion struct {
	path string
	size int64
	mod  time.Time
}

type policyView struct {
	title, measure string
	points         []point
}

// policyView reads the points of the policy file name in root i once per version of it.
func (s *Server) policyView(ctx context.Context, root, name string) (policyView, error) {
	f, err := s.root(root).Open(name, s.maxFileBytes())
	if err != nil {
		return policyView{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return policyView{}, err
	}
	key := fileVersion{f.Name(), st.Size(), st.ModTime()}
	c := &s.tables
	c.reading.Lock()
	defer c.reading.Unlock()
	if v, ok := c.points.get(key); ok {
		return v, nil
	}
	var v policyView
	switch policyKind(f) {
	case "policy":
		v.title, v.measure, v.points, err = policyPoints(f)
	case "game table":
		v.title, v.measure, v.points, err = gameTablePoints(ctx, f)
		debug.FreeOSMemory() // the table is gone, its points kept: give its memory back now
	default:
		return v, errNotPolicy
	}
	if err != nil {
		return v, err
	}
	c.points.put(key, v, int64(len(v.points)))
	return v, nil
}

// errNotPolicy is a file in a root that is neither kind of policy file.
var errNotPolicy = errors.New("web: not a policy file: want solve policy's Parquet (policy/1) or a game table (.kgt)")

func (s *Server) policyPage(w http.ResponseWriter, r *http.Request) {
	if _, err := s.inRoot(r.PathValue("root"), r.PathValue("file"), false); err != nil {
		writeRefusal(w, err)
		return
	}
	v, err := s.policyView(r.Context(), r.PathValue("root"), r.PathValue("file"))
	switch {
	case errors.Is(err, errNotPolicy):
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	case errors.Is(err, safefile.ErrOutside):
		writeRefusal(w, errNotFound)
		return
	case errors.Is(err, safefile.ErrTooLarge):
		http.Error(w, fmt.Sprintf("web: %s is larger than the %s this server reads (kingoal serve --max-file-mib)", r.PathValue("file"), safefile.FormatBytes(s.maxFileBytes())), http.StatusRequestEntityTooLarge)
		return
	}
	data := map[string]any{"Name": r.PathValue("file"), "Numbers": r.URL.Query().Get("numbers") == "on"}
	if err != nil { // a corrupt file: one message on the page
		s.renderFailure(w, "policy.html", data, err, http.StatusInternalServerError)
		return
	}
	data["Map"] = layout(v.title, v.measure, v.points, r.URL.Query().Get("slice"))
	render(w, "policy.html", data)
}
