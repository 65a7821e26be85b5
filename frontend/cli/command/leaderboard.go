// The leaderboard as kingoal leaderboard and kingoal arena print it: tables, ratings, head
// to head (both commands render it; a command file calls no other).

package command

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/exploit"
	"github.com/kingoal/kingoal/rank"
)

// WriteLeaderboard renders lb: as text tables (or Markdown), or as JSON.
// The α-Rank column is computed with alpharank (its zero fields: the defaults).
func WriteLeaderboard(w io.Writer, lb *arena.Leaderboard, markdown, asJSON bool, alpharank rank.AlphaRankParams) error {
	lb, err := lb.WithAlphaRank(alpharank)
	if err != nil {
		return UsageError{err}
	}
	if asJSON {
		return WriteJSON(w, lb)
	}
	if lb.IsCup() {
		err = writeCupTable(w, lb, markdown)
	} else {
		err = writeLeagueTable(w, lb, markdown)
	}
	if err != nil {
		return err
	}
	if err := writeRatings(w, lb, markdown); err != nil {
		return err
	}
	return writeHeadToHead(w, lb, markdown)
}

// gapFor is a blank line before a Markdown table or note: GFM renders a table only after
// one, and takes a line right after one for a row.
func gapFor(w io.Writer, markdown bool) func() {
	return func() {
		if markdown {
			fmt.Fprintln(w)
		}
	}
}

// writeLeagueTable writes a league's (or gauntlet's) header and table.
func writeLeagueTable(w io.Writer, lb *arena.Leaderboard, markdown bool) error {
	info := lb.Info
	title := "League"
	gauntlet := info.Competition == arena.Gauntlet.String()
	if gauntlet {
		title = "Gauntlet"
	}
	fmt.Fprintf(w, "%s: %d agents, %s (%d per pair), seed %d\nrules: %s\n", title,
		len(info.Agents), Plural(lb.Tally.Matches(), "match"), info.MatchesPerPairing, info.Seed, info.Rules)
	if gauntlet {
		// Ranked by total points, the challenger, who plays every match, would always top
		// the others; they each play it once a pairing.
		fmt.Fprintf(w, "%s plays every match, each of the others %d: rows are ranked by points a match (Pts/P)\n",
			info.Agents[0], info.MatchesPerPairing)
	}
	fmt.Fprintln(w)
	head := []string{"#", "agent", "P", "W", "D", "L", "GF", "GA", "GD", "Pts"}
	if gauntlet {
		head = append(head, "Pts/P")
	}
	t := NewTableAs(w, 2, markdown, head...)
	var out [][]string
	for i, s := range lb.Table {
		row := []string{fmt.Sprint(i + 1), s.Agent, fmt.Sprint(s.P), fmt.Sprint(s.W), fmt.Sprint(s.D), fmt.Sprint(s.L),
			fmt.Sprint(s.GF), fmt.Sprint(s.GA), Signed(s.GD()), fmt.Sprint(s.Pts)}
		if gauntlet {
			row = append(row, fmt.Sprintf("%.2f", float64(s.Pts)/float64(max(s.P, 1))))
		}
		out = append(out, row)
	}
	return AppendRows(t, out)
}

// writeRatings writes the ratings with their intervals, and the exploitability column.
func writeRatings(w io.Writer, lb *arena.Leaderboard, markdown bool) error {
	gap, expl := gapFor(w, markdown), lb.Exploitability
	fmt.Fprintf(w, "\nRatings (Bradley–Terry with draws, Elo scale, mean 0; %d bootstrap resamples for the 95%% interval):\n", arena.RatingBootstrapFor(len(lb.Info.Agents)))
	gap()
	header := []string{"agent", "rating", "95% interval"}
	if expl != nil {
		header = append(header, "exploitability")
	}
	if lb.AlphaRank != nil {
		header = append(header, "α-Rank")
	}
	if lb.NashMix != nil {
		header = append(header, "Nash mass", "Nash average")
	}
	t := NewTableAs(w, 1, markdown, header...)
	var out [][]string
	for _, r := range lb.Ratings {
		row := []string{r.Agent, Signedf(r.Rating, 0), Signedf(r.Low, 0) + " … " + Signedf(r.High, 0)}
		if expl != nil {
			row = append(row, expl[r.Index].String())
		}
		if lb.AlphaRank != nil {
			row = append(row, fmt.Sprintf("%.3f", lb.AlphaRank[r.Index]))
		}
		if lb.NashMix != nil {
			row = append(row, fmt.Sprintf("%.3f", lb.NashMix[r.Index]), Signedf(lb.NashAverage[r.Index], 3))
		}
		out = append(out, row)
	}
	if err := AppendRows(t, out); err != nil {
		return err
	}
	if expl != nil {
		gap()
		fmt.Fprintln(w, "Exploitability ("+exploit.Scale+") against the agent — exact, \"≥\" a Monte Carlo lower bound ± its 95% interval, or not computed (a live Python policy with state).")
	}
	if lb.AlphaRank != nil {
		gap()
		fmt.Fprintln(w, lb.AlphaRankParams.Note())
	}
	if lb.NashMix != nil {
		gap()
		fmt.Fprintln(w, rank.NashAverageNote())
	}
	return nil
}

// writeHeadToHead writes the head-to-head matrix in the table's order.
func writeHeadToHead(w io.Writer, lb *arena.Leaderboard, markdown bool) error {
	fmt.Fprintln(w, "\nHead to head: the row agent's score (win 1, draw ½) against the column agent, in the table's order:")
	gapFor(w, markdown)()
	order := lb.Ranking()
	header := []string{"agent"}
	for k := range order {
		header = append(header, fmt.Sprint(k+1))
	}
	t := NewTableAs(w, 1, markdown, header...)
	var out [][]string
	for k, i := range order {
		row := []string{fmt.Sprintf("%d %s", k+1, lb.Info.Agents[i])}
		for _, j := range order {
			cell := "·"
			if i != j && !math.IsNaN(lb.HeadToHead[i][j]) {
				cell = fmt.Sprintf("%.2f", lb.HeadToHead[i][j])
			}
			row = append(row, cell)
		}
		out = append(out, row)
	}
	return AppendRows(t, out)
}

// writeCupTable prints the cup ranking: titles (with a 95% interval on the rate), then how
// often each agent reached each round from the quarter-finals on; for World Cups also how
// often it went out in its group and its group points a match.
func writeCupTable(w io.Writer, lb *arena.Leaderboard, markdown bool) error {
	info, tally, cups, wc := lb.Info, lb.Tally, lb.Cup, lb.IsWorldCup()
	if wc {
		var sizes []string // the sizes played, not the largest allowed
		for _, n := range arena.GroupSizes(len(info.Agents), info.GroupSize) {
			sizes = append(sizes, fmt.Sprint(n))
		}
		fmt.Fprintf(w, "World Cup: %d agents in %d groups (%s), %d cups (%d matches), groups drawn for every cup, seed %d\nrules: %s (groups: league matches)\n\n",
			len(info.Agents), len(sizes), strings.Join(sizes, ", "), info.MatchesPerPairing, tally.Matches(), info.Seed, info.Rules)
	} else {
		draw := "seeded in the order given"
		if info.DrawBracket {
			draw = "bracket drawn for every cup"
		}
		fmt.Fprintf(w, "Knockout: %d agents, %d cups (%d matches), %s, seed %d\nrules: %s\n\n",
			len(info.Agents), info.MatchesPerPairing, tally.Matches(), draw, info.Seed, info.Rules)
	}
	rounds := 0
	if len(cups) > 0 {
		rounds = len(cups[0].Reached) - 1
	}
	header := []string{"#", "agent", "titles", "title rate (95%)"}
	first := max(1, rounds-2) // quarter-finals on: earlier rounds say little a reader wants
	for r := rounds; r >= first; r-- {
		header = append(header, arena.RoundName(r, rounds)+"s")
	}
	header = append(header, "ties won")
	if wc {
		header = append(header, "out in group", "group pts/match")
	}
	t := NewTableAs(w, 2, markdown, header...)
	var out [][]string
	for i, s := range cups {
		row := []string{fmt.Sprint(i + 1), s.Agent, fmt.Sprint(s.Titles),
			fmt.Sprintf("%.3f (%.3f–%.3f)", float64(s.Titles)/float64(max(1, s.Cups)), s.TitleLow, s.TitleHigh)}
		for r := rounds; r >= first; r-- {
			row = append(row, fmt.Sprint(s.Reached[r]))
		}
		row = append(row, fmt.Sprint(s.TiesWon))
		if wc {
			row = append(row, fmt.Sprint(s.Cups-s.Reached[1]), fmt.Sprintf("%.2f", float64(s.GroupPoints)/float64(max(1, s.GroupMatches))))
		}
		out = append(out, row)
	}
	return AppendRows(t, out)
}
