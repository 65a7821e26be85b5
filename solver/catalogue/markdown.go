// The catalogue as a Markdown page.

package catalogue

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/kingoal/kingoal/internal/safefile"
)

// Markdown writes the rows as two Markdown tables, each narrow enough to read: the games
// (value, kick-off mixes, the right to substitute) and what solving each took.
func Markdown(rows []Row) string {
	var b strings.Builder
	b.WriteString("| competition | home v away | shift on | value to home | kick-off mix, home / away | only home / only away may substitute |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	for _, r := range rows {
		b.WriteString(rowName(r))
		if !r.Solved {
			fmt.Fprintf(&b, "not solved here: needs ~%s at the peak (estimated) | | |\n", safefile.FormatBytes(r.Estimate))
			continue
		}
		worth := "—"
		if s := r.Substitute; s != nil {
			worth = fmt.Sprintf("%+.6f / %+.6f", s.OnlyHome, s.OnlyAway)
		}
		value := fmt.Sprintf("%+.9f", r.Value)
		if math.Abs(r.Value) < 5e-10 {
			value = "0" // not −0.000000000: a value of 0 up to rounding
		}
		fmt.Fprintf(&b, "%s | %s / %s | %s |\n", value, mix(r.KickOffHome), mix(r.KickOffAway), worth)
	}
	b.WriteString("\n| game | states held | solve | peak memory | table | SHA-256 | read back, alone |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		game := fmt.Sprintf("%s, %s v %s", r.Competition, r.Modes[0], r.Modes[1])
		if r.Trigger != "" {
			game += ", " + r.Trigger
		}
		fmt.Fprintf(&b, "| %s | ", game)
		if !r.Solved {
			fmt.Fprintf(&b, "%s | not solved | | | | |\n", count(r.States))
			continue
		}
		back := "✘"
		if r.ReadBack {
			back = fmt.Sprintf("✔ %.1f s", r.ReadSeconds)
		}
		rss := "—"
		if r.PeakRSS > 0 {
			rss = safefile.FormatBytes(r.PeakRSS)
		}
		fmt.Fprintf(&b, "%s | %.0f s | %s | %s | `%s…` | %s |\n", count(r.States), r.Seconds, rss, safefile.FormatBytes(r.TableBytes), shortHash(r.SHA256), back)
	}
	return b.String()
}

// rowName opens a row of either table: competition, modes and trigger.
func rowName(r Row) string {
	trigger := r.Trigger
	if trigger == "" {
		trigger = "—"
	}
	return fmt.Sprintf("| %s | %s v %s | %s | ", r.Competition, r.Modes[0], r.Modes[1], trigger)
}

// mix writes a kick-off mix's line-ups, most likely first, with their probabilities when mixed.
func mix(ws []Weighted) string {
	if len(ws) == 1 {
		return ws[0].Lineup
	}
	parts := make([]string, 0, len(ws))
	for i, w := range ws {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("… (%d)", len(ws)))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %.3f", w.Lineup, w.Prob))
	}
	return strings.Join(parts, " · ")
}

// count writes a count in millions.
func count(n int64) string { return fmt.Sprintf("%.1f M", float64(n)/1e6) }

func shortHash(h string) string { return h[:min(len(h), 16)] }

// Page is the catalogue's documentation page: what it is, the table, how it was made (command
// and date).
func Page(rows []Row, date time.Time, command string) string {
	var b strings.Builder
	b.WriteString(`# The catalogue: every rule set of the sheets, solved and kept

Each row is a game of the rule sheets at their default length — a league match (win-loss) or a
knockout match (advance: extra time, then penalties), with two Basic coaches or a Dynamic coach
on either side or both, a shift earned by every won throw (win) or only by winning the ball back
(turnover) — solved with its best-response check, written as a game table, and read back: the
value to home, both kick-off mixes, what the right to substitute is worth (two Basic sides: the
value when only home, or only away, may use its moves; neither side's is the line-up game, both
the value), the states held (break states for two Basic sides, throw states with a Dynamic
side), the solve's time (its table written and read back once) and peak resident memory, the
table's size and SHA-256, and the time to read the table alone. Play any of
them with ` + "`nash:table=FILE.kgt`" + `; ` + "`kingoal solve game --in FILE.kgt`" + ` prints one.
A Dynamic side's table holds its decisions (a byte each), not values at breaks.

`)
	b.WriteString(Markdown(rows))
	fmt.Fprintf(&b, "\nMade by `%s` on %s, one row after another on a 2-core, 24 GiB machine (times vary by up to 2× from run to run there). Every row's exploitability is at most 1e-9; each `.json` beside the tables holds its row in full (`catalogue.json`: all of them).\n",
		command, date.UTC().Format("2006-01-02"))
	return b.String()
}
