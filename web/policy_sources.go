package web

import (
	"context"
	"fmt"
	"net/http"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver"
)

// policyPoints reads a solve policy file: the optimal value at every state, the change it
// recommends as the note, one slice a line-up and moves left (and ball, for Dynamic).
func policyPoints(path string) (string, string, []point, error) {
	rows, err := datasets.ReadParquet[datasets.PolicyRow](path, datasets.PolicySchema)
	if err != nil {
		return "", "", nil, err
	}
	points := make([]point, 0, len(rows))
	kind := ""
	for _, r := range rows {
		per, ok := periodNamed(r.Period)
		if !ok {
			return "", "", nil, fmt.Errorf("web: %s: period %q", path, r.Period)
		}
		slice := fmt.Sprintf("line-up %s, %d moves left", r.Lineup, r.MovesLeft)
		if kind = r.Kind; kind == "dynamic" {
			slice = fmt.Sprintf("line-up %s, ball in own sector %d, possession %+d", r.Lineup, r.Ball, r.Possession)
		}
		p := point{period: per, throwsLeft: int(r.ThrowsLeft), diff: int(r.GoalDiff), slice: slice, rank: int(r.MovesLeft), value: r.Value}
		if r.Action != r.Lineup {
			from, err1 := env.ParseLineup(r.Lineup)
			to, err2 := env.ParseLineup(r.Action)
			if err1 != nil || err2 != nil {
				return "", "", nil, fmt.Errorf("web: %s: line-ups %q, %q", path, r.Lineup, r.Action)
			}
			p.note = fmt.Sprintf("%s (keeping: %.4f)", env.DescribeChange(from, to), r.KeepValue)
		}
		points = append(points, p)
	}
	return fmt.Sprintf("Optimal %s policy against a kept line-up", kind), "value", points, nil
}

// gameTablePoints reads a game table: home's value at every break of the kick-off's likeliest
// pair of line-ups, both budgets whole (a game table holds every pair: the slice shown is the
// one a match starts in).
func gameTablePoints(ctx context.Context, path string) (string, string, []point, error) {
	g, err := solver.LoadGameFile(ctx, path)
	if err != nil {
		return "", "", nil, err
	}
	r, ko := g.Problem.Rules, g.KickOff()
	home, away := ko.Home[0].Lineup, ko.Away[0].Lineup
	slice := fmt.Sprintf("home %s (%d moves) v away %s (%d)", home, g.Moves(), away, g.Moves())
	var points []point
	elapsed := 0
	for _, per := range []env.Period{env.FirstHalf, env.SecondHalf} {
		for left := r.PeriodLength(per); left >= 1; left-- {
			at := elapsed + r.PeriodLength(per) - left
			for d := -3; d <= 3; d++ {
				if at == 0 || max(d, -d)*solver.ThrowsToScore() > at {
					continue // no break at the kick-off; the score cannot be reached yet
				}
				sol, err := g.At(solver.GameState{Period: per, ThrowsLeft: left, GoalDiff: d, Home: home, Away: away, HomeMoves: g.Moves(), AwayMoves: g.Moves()})
				if err != nil {
					return "", "", nil, err
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
			}
		}
		elapsed += r.PeriodLength(per)
	}
	return fmt.Sprintf("Equilibrium of the substitution game (%s), from a game table", g.Problem.Payoff), "value to home", points, nil
}

func (s *Server) policiesPage(w http.ResponseWriter, r *http.Request) {
	render(w, "policies.html", map[string]any{"Files": s.policyFiles()})
}

func (s *Server) policyPage(w http.ResponseWriter, r *http.Request) {
	path, err := s.inRoot(r.PathValue("root"), r.PathValue("file"), false)
	if err != nil {
		writeRefusal(w, err)
		return
	}
	data := map[string]any{"Name": r.PathValue("file")}
	var title, measure string
	var points []point
	switch policyKind(path) {
	case "policy":
		title, measure, points, err = policyPoints(path)
	case "game table":
		title, measure, points, err = gameTablePoints(r.Context(), path)
	default:
		http.Error(w, "not a policy file: want solve policy's Parquet (policy/1) or a game table (.kgt)", http.StatusNotFound)
		return
	}
	if err != nil {
		data["Err"] = err.Error() // a corrupt file: one message on the page
	} else {
		data["Map"] = layout(title, measure, points, r.URL.Query().Get("slice"))
	}
	render(w, "policy.html", data)
}
