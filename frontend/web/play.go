package web

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frame"
	"github.com/kingoal/kingoal/match"
	"github.com/kingoal/kingoal/solver/policy"
)

// A game on the play page is its URL: the opponent, side, seed, rule knobs (kingoal play's
// flags, by the same names) and the person's choices so far ("choices=60.60.58": action
// indices). Every request plays it again from the start — a few milliseconds — so a game
// needs no server state, can be bookmarked, and is the match `kingoal play` plays with the
// same flags and the same choices typed in.
type playedGame struct {
	m       match.Human
	choices []int
	query   url.Values // what the request gave, without the choices
}

// playParams reports whether a query's parameter k is one of the game's (its choices aside).
func playParams(k string) bool {
	switch k {
	case "vs", "side", "seed", "hints":
		return true
	}
	return slices.ContainsFunc(env.KnobTable, func(knob env.Knob) bool { return knob.Name == k })
}

// parseGame reads a game from a query; a bad value is an error naming its parameter.
func parseGame(q url.Values) (playedGame, error) {
	g := playedGame{m: match.Human{Opponent: strings.TrimSpace(q.Get("vs")), Seed: 1, Hints: q.Get("hints") != "off"}, query: url.Values{}}
	for k, v := range q {
		if len(v) > 0 && playParams(k) {
			g.query.Set(k, v[0]) // the page's links carry it: only what the game reads
		}
	}
	switch side := q.Get("side"); side {
	case "", "home":
	case "away":
		g.m.Side = env.Away
	default:
		return g, fmt.Errorf("side %q: want home or away", side)
	}
	if v := q.Get("seed"); v != "" {
		seed, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return g, fmt.Errorf("seed %q: want a whole number ≥ 0", v)
		}
		g.m.Seed = seed
	}
	r, err := rulesOf(q)
	if err != nil {
		return g, err
	}
	g.m.Rules = r
	if v := q.Get("choices"); v != "" {
		for i, f := range strings.Split(v, ".") {
			a, err := strconv.Atoi(f)
			if err != nil || a < 0 || a >= env.NumLineups {
				return g, fmt.Errorf("choices: choice %d, %q, is not a line-up index 0..%d", i+1, f, env.NumLineups-1)
			}
			g.choices = append(g.choices, a)
		}
	}
	return g, nil
}

// with is the game's URL with one more choice.
func (g playedGame) with(a int) string {
	g.choices = append(g.choices[:len(g.choices):len(g.choices)], a)
	return g.url()
}

// played is a game played as far as its choices go.
type played struct {
	state   env.State     // at the prompt, or the end
	events  []env.Event   // so far
	prompt  *match.Prompt // the decision waiting for the person; nil at the end
	lastOne string        // the last event's line
}

// errIllegalChoice is a choice the rules do not allow where it was made.
var errIllegalChoice = errors.New("web: a choice not allowed there")

func (s *Server) playGame(r *http.Request, g playedGame) (played, error) {
	var p played
	next := 0
	ask := func(q match.Prompt) (int, error) {
		if next == len(g.choices) {
			p.prompt = &q
			return 0, match.ErrStopped
		}
		a := g.choices[next]
		next++
		if !q.Legal.Has(a) {
			return 0, fmt.Errorf("%w: choice %d, %s, at the %s", errIllegalChoice, next, env.LineupAt(a), q.Obs.Decision)
		}
		return a, nil
	}
	m := g.m
	m.Open, m.MaxBytes = s.openServed, playSolveBytes
	end, err := m.Play(r.Context(), ask, func(e env.Event) { p.events = append(p.events, e) })
	p.state = end
	if len(p.events) > 0 {
		p.lastOne = p.events[len(p.events)-1].Describe()
	}
	if errors.Is(err, match.ErrStopped) {
		return p, nil
	}
	if err == nil && next < len(g.choices) {
		return p, fmt.Errorf("%w: %d choices for a match that asked %d", errIllegalChoice, len(g.choices), next)
	}
	return p, err
}

// rulesOf reads the rule knobs of a query (the play and explorer forms): the defaults where
// absent.
func rulesOf(q url.Values) (env.Rules, error) {
	knobs := env.DefaultKnobs()
	for _, k := range env.KnobTable {
		if v := q.Get(k.Name); v != "" {
			if err := k.Set(&knobs, v); err != nil {
				return env.Rules{}, err
			}
		}
	}
	return knobs.Rules()
}

func (s *Server) playPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	data := map[string]any{"Agents": agents.Kinds(), "Knobs": env.KnobTable}
	if !q.Has("vs") {
		render(w, "play.html", data) // the form
		return
	}
	if g, p, ok := s.requestedGame(w, r); ok {
		s.renderGame(w, g, p, data)
	}
}

// requestedGame reads the request's game and plays it as far as its choices go, or answers
// with the error and false: 400 for the request's fault, 500 for the server's.
func (s *Server) requestedGame(w http.ResponseWriter, r *http.Request) (playedGame, played, bool) {
	return s.gameOf(w, r, r.URL.Query())
}

// gameOf is requestedGame for the query q.
func (s *Server) gameOf(w http.ResponseWriter, r *http.Request, q url.Values) (playedGame, played, bool) {
	g, err := parseGame(q)
	if err != nil {
		http.Error(w, "play: "+err.Error(), http.StatusBadRequest)
		return g, played{}, false
	}
	p, err := s.playGame(r, g)
	if err != nil {
		http.Error(w, "play: "+err.Error(), playStatus(err))
		return g, p, false
	}
	return g, p, true
}

// playStatus is the status of a game that could not be played: the request's fault (an
// unknown agent, a file it may not name, a choice the rules do not allow, rules too large to
// solve here) or the server's.
func playStatus(err error) int {
	var bad match.SpecError
	if errors.As(err, &bad) || errors.Is(err, errIllegalChoice) || errors.Is(err, policy.ErrTooLarge) {
		return http.StatusBadRequest
	}
	return http.StatusInternalServerError
}

// choice is one clickable decision.
type choice struct {
	Label, URL string
	Solver     bool // the solver's advice
}

func (s *Server) renderGame(w http.ResponseWriter, g playedGame, p played, data map[string]any) {
	lines := make([]string, len(p.events))
	for i, e := range p.events {
		lines[i] = e.Describe()
	}
	me := g.m.Side
	data["Game"], data["M"], data["Me"], data["Lines"], data["Rules"] = true, g.m, me, lines, g.m.Rules.String()
	data["Frame"] = "frame.png" + g.url()
	if p.prompt == nil {
		outcome := "a draw"
		switch p.state.Result(me) {
		case 1:
			outcome = "you win"
		case -1:
			outcome = "you lose"
		}
		again := g
		again.choices, again.query = nil, url.Values{}
		for k, v := range g.query {
			again.query[k] = v
		}
		again.query.Set("seed", strconv.FormatUint(g.m.Seed+1, 10))
		data["Again"], data["Analysis"] = again.url(), "analysis/"+g.url()
		data["Final"] = fmt.Sprintf("Final score %d-%d (you are %s): %s.", p.state.Goals(env.Home), p.state.Goals(env.Away), me, outcome)
		render(w, "play.html", data)
		return
	}
	q := p.prompt
	data["Decision"], data["Obs"] = q.Obs.Decision.String(), q.Obs
	advice, advised := q.Advice()
	if advised {
		data["Advice"] = env.DescribeChange(q.Obs.Own, advice)
	}
	var mix []env.Lineup // the equilibrium's line-ups, marked among the kick-off's choices
	var weighted []env.Weighted
	if q.Obs.Decision == env.KickOff && q.Hints() {
		if hint, err := s.kickOffHint(*q); err != nil {
			data["HintErr"] = err.Error()
		} else {
			data["Hint"], weighted = hint, hint.Mix
			for _, w := range hint.Mix {
				mix = append(mix, w.Lineup)
			}
		}
	}
	var choices []choice
	if q.Obs.Decision != env.KickOff {
		own := q.Obs.Own.Index()
		choices = append(choices, choice{"keep " + q.Obs.Own.String(), g.with(own), advised && advice.Index() == own})
	}
	for _, a := range q.Legal.Actions() {
		if q.Obs.Decision != env.KickOff && a == q.Obs.Own.Index() {
			continue
		}
		l := env.LineupAt(a)
		choices = append(choices, choice{l.String(), g.with(a), advised && advice == l || slices.Contains(mix, l)})
	}
	data["Choices"] = choices
	own, hinted := q.Obs.Own, (*env.Lineup)(nil)
	if advised {
		hinted = &advice
	}
	if len(mix) > 0 {
		own, hinted = mix[0], &mix[0] // the kick-off: the equilibrium's likeliest line-up to start from
	}
	data["SetFields"], data["Sectors"] = counterForm(g, own)
	data["Board"] = boardOf(g, p, q.Legal, hinted, weighted)
	render(w, "play.html", data)
}

// url is the game's own URL (its choices so far).
func (g playedGame) url() string {
	q := url.Values{}
	for k, v := range g.query {
		q[k] = v
	}
	if len(g.choices) > 0 {
		q.Set("choices", choicesParam(g.choices))
	}
	return "?" + q.Encode()
}

func (s *Server) playFrame(w http.ResponseWriter, r *http.Request) {
	if g, p, ok := s.requestedGame(w, r); ok {
		writePNG(w, frame.Picture{State: p.state, LastThrow: p.lastOne, Names: g.names()})
	}
}

// hintsKept bounds the kick-off hints kept (one per rules: computing one solves every pair
// of line-ups, and every game's first page asks for it).
const hintsKept = 64

func (s *Server) kickOffHint(q match.Prompt) (match.KickOffHint, error) {
	r := env.KnobsOf(q.Rules())
	if h, ok := s.hints.get(r); ok {
		return h, nil
	}
	h, err := q.KickOffHint()
	if err != nil {
		return h, err
	}
	s.hints.put(r, h, 1)
	return h, nil
}

// playSolveBytes bounds what an opponent may solve inside a request (nash without a table),
// by the solver's estimate: games up to about 10-throw halves with a move. Larger ones are
// refused with one message; a game table in a served directory plays them.
const playSolveBytes = 32 << 20
