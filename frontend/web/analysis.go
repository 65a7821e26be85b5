package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kingoal/kingoal/analysis"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/policy"
)

// judgeSolveBytes bounds a game solved inside a request to judge a match (no table of its
// rules given to Server.Tables): games up to about 6-throw halves with two moves.
const judgeSolveBytes = 256 << 20

// judgesKept bounds the games solved in requests that are kept (by rules).
const judgesKept = 2

// judges holds the games that judge matches: the tables given, read once, and games solved
// here, a few.
type judges struct {
	once    sync.Once
	tables  []*game.Game
	err     error
	solved  lru[env.Knobs, *game.Game]
	solving chan struct{} // holds the one solve under way: concurrent requests cannot add up their memory
	waiting atomic.Int32  // requests waiting for it, at most judgeWaiters
}

// judgeWaiters bounds the requests waiting for another's solve: more are refused at once
// (errBusy), so a flood of them holds no more than this many goroutines.
const judgeWaiters = 8

// errBusy is the refusal of a request that would wait behind judgeWaiters others.
var errBusy = errors.New("web: the server is solving other games for pages like this one; try again in a moment")

// judge is the game that judges matches under r: a table of Server.Tables made under r, or
// the game solved here when small. A request waits for another's solve until ctx ends.
func (s *Server) judge(ctx context.Context, r env.Rules) (*game.Game, error) {
	j := &s.judges
	j.once.Do(func() {
		for _, path := range s.Tables {
			g, err := game.LoadFile(s.context(), path)
			if err != nil {
				j.err = fmt.Errorf("web: --table %s: %w", path, err)
				return
			}
			j.tables = append(j.tables, g)
		}
	})
	if j.err != nil {
		return nil, j.err
	}
	for _, g := range j.tables {
		if g.Problem.Rules.Equal(r) {
			return g, nil
		}
	}
	k := env.KnobsOf(r)
	if g, ok := j.solved.get(k); ok {
		return g, nil
	}
	if j.waiting.Add(1) > judgeWaiters {
		j.waiting.Add(-1)
		return nil, errBusy
	}
	select {
	case j.solving <- struct{}{}:
		j.waiting.Add(-1)
	case <-ctx.Done():
		j.waiting.Add(-1)
		return nil, ctx.Err()
	}
	defer func() { <-j.solving }()
	if g, ok := j.solved.get(k); ok { // solved while this request waited
		return g, nil
	}
	g, err := analysis.Source{MaxBytes: judgeSolveBytes}.Game(s.context(), r)
	if errors.Is(err, policy.ErrTooLarge) {
		return nil, fmt.Errorf("%w (kingoal serve --table FILE.kgt gives the server a table of these rules)", err)
	}
	if err != nil {
		return nil, err
	}
	j.solved.put(k, g, 1)
	return g, nil
}

// curveView is the value curve drawn as an SVG polyline: home's value after each event,
// from the top (home wins) to the bottom (away wins), the goals as vertical lines and the
// decisions that gave value away as marks.
type curveView struct {
	Points             string
	Width, Height, Mid int
	LastStep           int    // the replay's step of the last point
	ViewBox            string // the drawing and a margin for the marks
	Top, Bottom        string
	Goals              []int // x of each goal
	Marks              []curveMark
}

type curveMark struct {
	X, Y  int
	Grade string
	Label string
}

const curveWidth, curveHeight = 720, 200

// curveOf scales a report's curve: win-loss and advance run from −1 to 1, goal-diff from
// its lowest to its highest value.
func curveOf(rep analysis.Report) curveView {
	lo, hi := -1.0, 1.0
	if rep.Payoff == "goal-diff" {
		lo, hi = rep.Curve[0].Value, rep.Curve[0].Value
		for _, p := range rep.Curve {
			lo, hi = min(lo, p.Value), max(hi, p.Value)
		}
		lo, hi = lo-0.5, hi+0.5
	}
	n := max(len(rep.Curve)-1, 1)
	x := func(i int) int { return i * curveWidth / n }
	y := func(v float64) int { return int((hi - v) / (hi - lo) * curveHeight) }
	var b strings.Builder
	v := curveView{Width: curveWidth, Height: curveHeight, Mid: y((hi + lo) / 2), Top: "home wins", Bottom: "away wins",
		ViewBox: fmt.Sprintf("-8 -14 %d %d", curveWidth+16, curveHeight+28)}
	if rep.Payoff == "goal-diff" {
		v.Top, v.Bottom = fmt.Sprintf("%+.1f goals", hi), fmt.Sprintf("%+.1f goals", lo)
	}
	at := map[int]int{} // event → its point
	prev := rep.Curve[0].Score
	for i, p := range rep.Curve {
		fmt.Fprintf(&b, "%d,%d ", x(i), y(p.Value))
		if p.Score != prev {
			v.Goals = append(v.Goals, x(i))
		}
		prev, at[p.Event] = p.Score, i
	}
	v.Points = strings.TrimSpace(b.String())
	v.LastStep = rep.Curve[len(rep.Curve)-1].Event + 1
	for _, d := range rep.Decisions {
		if d.Grade == analysis.Best {
			continue
		}
		i := at[d.Event-1] // the value before the decision
		off := -7          // home's mark above the curve, away's below: both show at one decision
		if d.Side == env.Away.String() {
			off = 7
		}
		v.Marks = append(v.Marks, curveMark{x(i), y(rep.Curve[i].Value) + off, d.Grade.String(),
			fmt.Sprintf("%s (%s) at %s: %s, %.4f points", d.Agent, d.Side, d.Time, d.Grade, d.Points)})
	}
	return v
}

func (s *Server) analysisPage(w http.ResponseWriter, r *http.Request) {
	rep, data, ok, err := s.requestedReplay(w, r)
	if !ok {
		return
	}
	if err == nil {
		data["Match"] = rep.Match
		err = s.analyse(r, rep.Start.Rules(), [2]string{rep.Match.HomeAgent, rep.Match.AwayAgent}, rep.Events, rep.Match.MatchID, data)
	}
	if err != nil {
		s.renderFailure(w, "analysis.html", data, err, http.StatusInternalServerError)
		return
	}
	render(w, "analysis.html", data)
}

// playAnalysisPage reads the match of the Play page (its URL's query: rules, seed and your
// choices so far) against the solved game.
func (s *Server) playAnalysisPage(w http.ResponseWriter, r *http.Request) {
	g, p, ok := s.requestedGame(w, r)
	if !ok {
		return
	}
	names := [2]string{g.m.Opponent, g.m.Opponent}
	names[g.m.Side] = "you"
	data := map[string]any{"Name": "your match", "Play": "/play/" + g.url(), "Names": names}
	if err := s.analyse(r, g.m.Rules, names, p.events, 0, data); err != nil { // rules the request chose
		s.renderFailure(w, "analysis.html", data, err, http.StatusBadRequest)
		return
	}
	render(w, "analysis.html", data)
}

// analyse fills data with the report of the match under rules that plays events (its id in
// its run, if any).
func (s *Server) analyse(r *http.Request, rules env.Rules, names [2]string, events []env.Event, id int64, data map[string]any) error {
	start, err := env.NewState(rules)
	if err != nil {
		return err
	}
	g, err := s.judge(r.Context(), rules)
	if err != nil {
		return err
	}
	report, err := analysis.Match(r.Context(), g, start, events, names)
	if err != nil {
		return err
	}
	report.Match = id
	data["Report"], data["Curve"] = report, curveOf(report)
	return nil
}
