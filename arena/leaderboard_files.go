package arena

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"

	"github.com/kingoal/kingoal/internal/charts"
)

// Ranking is the agents' indices in the order of the leaderboard's main table (the league
// or cup table, else the ratings).
func (lb *Leaderboard) Ranking() []int {
	var order []int
	switch {
	case lb.Table != nil:
		for _, s := range lb.Table {
			order = append(order, s.Index)
		}
	case lb.Cup != nil:
		for _, s := range lb.Cup {
			order = append(order, s.Index)
		}
	default:
		for _, r := range lb.Ratings {
			order = append(order, r.Index)
		}
	}
	return order
}

// WriteFiles writes the leaderboard's files into the run directory dir: the ratings as
// ratings.parquet (ratings/3) and drawn with their intervals (ratings.png), and the
// head-to-head matrix (head_to_head.png).
func (lb *Leaderboard) WriteFiles(dir string) error {
	if err := lb.WriteRatings(filepath.Join(dir, RatingsFile)); err != nil {
		return err
	}
	points := make([]charts.Estimate, len(lb.Ratings))
	for i, r := range lb.Ratings {
		points[i] = charts.Estimate{Label: r.Agent, Value: r.Rating, Low: r.Low, High: r.High}
	}
	if err := charts.IntervalChart(filepath.Join(dir, "ratings.png"), "Ratings (Bradley–Terry with draws, Elo scale) with bootstrap 95% intervals", "rating", points); err != nil {
		return err
	}
	h2h, info := lb.HeadToHead, lb.Info
	n := len(info.Agents)
	// In the text table's order (the leaderboard's ranking), its first agent in the top row;
	// columns by number alone (the rows name them: long specs side by side overlapped). A pair
	// that never met (and an agent against itself) is NaN, drawn white, never an even grey.
	order := lb.Ranking()
	names, numbers := make([]string, n), make([]string, n)
	for k, i := range order {
		names[k], numbers[k] = fmt.Sprintf("%d %s", k+1, info.Agents[i]), fmt.Sprint(k+1)
	}
	rowNames := slices.Clone(names)
	slices.Reverse(rowNames)
	score := func(c, r int) float64 { return h2h[order[n-1-r]][order[c]] }
	return charts.Heatmap{
		Title:    "Head to head: the row agent's score against the column agent (win 1, draw ½; white: never met)",
		XLabel:   "column agent (numbered as the rows)",
		YLabel:   "row agent",
		BarLabel: "score − ½",
		Limit:    0.5,
		XNames:   numbers,
		YNames:   rowNames,
		Grid:     charts.Grid{Cols: n, Rows: n, ColX: charts.Identity, RowY: charts.Identity, At: func(c, r int) float64 { return score(c, r) - 0.5 }},
		CellText: func(c, r int) string {
			if math.IsNaN(score(c, r)) {
				return "—"
			}
			return fmt.Sprintf("%.2f", score(c, r))
		},
	}.WritePNG(filepath.Join(dir, "head_to_head.png"))
}
