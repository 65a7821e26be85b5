package web

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/kingoal/kingoal/analysis"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
)

// The explorer: any break of the solved game — both sides' mixes, the value, the matrix game
// on the mixes' supports, and what every line-up a side may choose gives away.

// choiceCost is one line-up a side may choose at the break: its payoff to home against the
// other side's mix, and what it gives away.
type choiceCost struct {
	Lineup string
	Prob   float64 // its weight in the side's mix
	Payoff float64
	Points float64
	Grade  string
}

// sideCosts are one side's choices.
type sideCosts struct {
	Side  string
	Costs []choiceCost
}

// stageMatrix is the matrix game on the supports: rows home's line-ups, columns away's.
type stageMatrix struct {
	Rows, Cols []env.Weighted
	Cells      [][]float64
}

// breakFields are the explorer form's fields of a break, with the defaults of its form.
var breakFields = []struct{ Name, Label, Default string }{
	{"period", "period", "second half"}, {"throws-left", "throws left", "3"}, {"diff", "home goals − away goals", "0"},
	{"home", "home line-up", "1-1-4-2-2"}, {"home-moves", "home moves left", "1"},
	{"away", "away line-up", "1-2-3-2-2"}, {"away-moves", "away moves left", "1"},
}

// explorerDefaults are the rules the explorer's form starts with: small enough to solve in a
// request.
var explorerDefaults = map[string]string{"throws-per-half": "4", "moves": "2"}

func breakOf(q url.Values) (game.State, error) {
	var s game.State
	var err error
	num := func(name string) int {
		if err != nil {
			return 0
		}
		n, e := strconv.Atoi(q.Get(name))
		if e != nil {
			err = fmt.Errorf("%s %q: want a whole number", name, q.Get(name))
		}
		return n
	}
	s.ThrowsLeft, s.GoalDiff, s.HomeMoves, s.AwayMoves = num("throws-left"), num("diff"), num("home-moves"), num("away-moves")
	if err != nil {
		return s, err
	}
	per, ok := periodNamed(q.Get("period"))
	if !ok || per < env.FirstHalf || per > env.ExtraSecond {
		return s, fmt.Errorf("period %q: want one of %s", q.Get("period"), strings.Join(breakPeriods(), ", "))
	}
	s.Period = per
	if s.Home, err = env.ParseLineup(q.Get("home")); err != nil {
		return s, fmt.Errorf("home: %w", err)
	}
	if s.Away, err = env.ParseLineup(q.Get("away")); err != nil {
		return s, fmt.Errorf("away: %w", err)
	}
	return s, nil
}

// breakPeriods are the periods a break can be in, by name (env's).
func breakPeriods() []string {
	var out []string
	for p := env.FirstHalf; p <= env.ExtraSecond; p++ {
		out = append(out, p.String())
	}
	return out
}

func (s *Server) explorePage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	values := map[string]string{}
	for _, f := range breakFields {
		values[f.Name] = f.Default
	}
	for _, k := range env.KnobTable {
		values[k.Name] = k.Default()
	}
	for k, v := range explorerDefaults {
		values[k] = v
	}
	asked := q.Has("home")
	for k := range values {
		if q.Has(k) {
			values[k] = q.Get(k)
		}
	}
	data := map[string]any{"Knobs": env.KnobTable, "Fields": breakFields, "Values": values}
	if asked {
		if err := s.explore(r, q, data); err != nil { // the query's values
			s.renderFailure(w, "explore.html", data, err, http.StatusBadRequest)
			return
		}
	}
	render(w, "explore.html", data)
}

// explore fills data with the break the query names.
func (s *Server) explore(r *http.Request, q url.Values, data map[string]any) error {
	rules, err := rulesOf(q)
	if err != nil {
		return err
	}
	st, err := breakOf(q)
	if err != nil {
		return err
	}
	g, err := s.judge(r.Context(), rules)
	if err != nil {
		return err
	}
	sol, err := g.At(st)
	if err != nil {
		return err
	}
	homes, aways := st.Home.Reachable(st.HomeMoves).Actions(), st.Away.Reachable(st.AwayMoves).Actions()
	byRow, err := g.BreakValues(r.Context(), st, lineupsAt(homes), lineupsOf(sol.Away))
	if err != nil {
		return err
	}
	byCol, err := g.BreakValues(r.Context(), st, lineupsOf(sol.Home), lineupsAt(aways))
	if err != nil {
		return err
	}
	// costs lists a side's choices, what gives away least first.
	costs := func(ls []int, mix []env.Weighted, payoff func(i int) float64, sign float64) []choiceCost {
		out := make([]choiceCost, len(ls))
		for i, l := range ls {
			p := payoff(i)
			points := analysis.PointsOf(g.Problem.Payoff, max(sign*(sol.Value-p), 0))
			out[i] = choiceCost{Lineup: env.LineupAt(l).String(), Prob: weightOf(mix, env.LineupAt(l)), Payoff: p, Points: points, Grade: analysis.GradeOf(points).String()}
		}
		slices.SortStableFunc(out, func(a, b choiceCost) int { return cmp.Compare(a.Points, b.Points) })
		return out
	}
	dot := func(row []float64, mix []env.Weighted) float64 {
		v := 0.0
		for j, w := range mix {
			v += w.Prob * row[j]
		}
		return v
	}
	data["Game"], data["State"], data["Solution"] = g.Problem, st, sol
	home := costs(homes, sol.Home, func(i int) float64 { return dot(byRow[i], sol.Away) }, 1)
	away := costs(aways, sol.Away, func(j int) float64 {
		col := make([]float64, len(sol.Home))
		for i := range col {
			col[i] = byCol[i][j]
		}
		return dot(col, sol.Home)
	}, -1)
	data["Costs"] = []sideCosts{{"home", home}, {"away", away}}
	data["Matrix"] = stageMatrix{Rows: sol.Home, Cols: sol.Away, Cells: supportCells(byRow, homes, sol.Home)}
	return nil
}

// supportCells picks the rows of home's support out of byRow (home's reachable line-ups
// against away's support).
func supportCells(byRow [][]float64, homes []int, support []env.Weighted) [][]float64 {
	out := make([][]float64, len(support))
	for i, w := range support {
		for k, h := range homes {
			if h == w.Lineup.Index() {
				out[i] = byRow[k]
			}
		}
	}
	return out
}

func lineupsAt(is []int) []env.Lineup {
	out := make([]env.Lineup, len(is))
	for i, a := range is {
		out[i] = env.LineupAt(a)
	}
	return out
}

func lineupsOf(m []env.Weighted) []env.Lineup {
	out := make([]env.Lineup, len(m))
	for i, w := range m {
		out[i] = w.Lineup
	}
	return out
}

func weightOf(m []env.Weighted, l env.Lineup) float64 {
	for _, w := range m {
		if w.Lineup == l {
			return w.Prob
		}
	}
	return 0
}
