package catalogue

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/internal/jsonfile"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/solver"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/lineup"
)

// Config says which catalogue to make. The zero value is the rule sheets' catalogue at
// their default length, kept under DefaultMaxBytes, in the current directory.
type Config struct {
	// Base is the rules every row starts from (zero: the defaults); each row sets its
	// competition, modes and trigger.
	Base env.Rules
	// Dir receives each row's table (NAME.kgt) and report (NAME.json) and catalogue.json. A
	// row whose report is there already is read, not solved again (an interrupted run resumes).
	Dir string
	// MaxBytes bounds a row's estimated peak (0: game.DefaultMaxBytes): a row that needs more
	// is listed with its estimate, not solved.
	MaxBytes int64
	// Context, if set, stops the run between and within solves.
	Context context.Context
	// Started, if set, is called before each row's solve with its name and estimated peak.
	Started func(name string, estimate int64)
	// Only, if set, names the rows to make (Name's names); nil: every row of Sets.
	Only []string
}

// Row is one rule set of the catalogue and what solving it took.
type Row struct {
	Name        string      `json:"name"`                          // the table's file name without .kgt: competition, modes and trigger
	Competition string      `json:"competition"`                   // league or knockout
	Modes       [2]string   `json:"modes"`                         // home's and away's: basic or dynamic
	Trigger     string      `json:"trigger"`                       // what earns a Dynamic shift (win or turnover); "" with two Basic sides
	Rules       string      `json:"rules"`                         // the rules in words
	Payoff      string      `json:"payoff"`                        // win-loss in a league, advance in a knockout
	States      int64       `json:"states"`                        // break states (two Basic sides) or throw states (a Dynamic side) with a value
	Estimate    int64       `json:"estimate"`                      // the solve's estimated peak memory, bytes
	Solved      bool        `json:"solved"`                        // false: the row does not fit MaxBytes (Estimate says by how much)
	Value       float64     `json:"value"`                         // the game's value to home
	KickOffHome []Weighted  `json:"kickoff_home"`                  // home's equilibrium kick-off mix, most likely first
	KickOffAway []Weighted  `json:"kickoff_away"`                  // away's
	Substitute  *Substitute `json:"right_to_substitute,omitempty"` // two Basic sides: the value when both, only home, only away or neither may substitute
	// Exploitability is what both sides' best responses gain together over the strategy,
	// from the check the solve ran.
	Exploitability float64 `json:"exploitability"`
	Seconds        float64 `json:"seconds"`      // the solve with its check, the table written and read back once (game.ReadBack)
	PeakRSS        int64   `json:"peak_rss"`     // the process's peak resident memory during the solve, bytes (0: not measured on this system)
	TableBytes     int64   `json:"table_bytes"`  // the table's size
	SHA256         string  `json:"sha256"`       // the table's SHA-256
	ReadBack       bool    `json:"read_back"`    // the table read back held the solve's value, statistics and check (game.ReadBack, dyngame.ReadBack)
	ReadSeconds    float64 `json:"read_seconds"` // reading it again, as nash:table= does, with nothing else held
	// Pending marks the report written as the row's solve begins: a run killed before the
	// row's report replaced it left it, and the next run solves the row again (its table
	// too, if it was written).
	Pending bool `json:"pending,omitempty"`
}

// File is catalogue.json.
type File struct {
	Format  string `json:"format"`  // kingoal-catalogue
	Version int    `json:"version"` // 1
	Rows    []Row  `json:"rows"`    // Sets' order
}

// Weighted is a line-up of a mix and its probability.
type Weighted struct {
	Lineup string  `json:"lineup"` // like 1-3-3-2-1
	Prob   float64 `json:"prob"`   // its probability
}

func weighted(ws []env.Weighted) []Weighted {
	out := make([]Weighted, len(ws))
	for i, w := range ws {
		out[i] = Weighted{w.Lineup.String(), w.Prob}
	}
	return out
}

// Substitute is what the right to substitute is worth: the kick-off's value to home when
// both sides, only home, only away or neither may use their moves.
type Substitute struct {
	Both     float64 `json:"both"`      // both may (the game's value)
	OnlyHome float64 `json:"only_home"` // only home may
	OnlyAway float64 `json:"only_away"` // only away may
	Neither  float64 `json:"neither"`   // nobody may: the line-up game
}

func substitute(g solver.BreakMixes) (*Substitute, error) {
	m := g.Moves()
	var v [4]float64
	for i, b := range [4][2]int{{m, m}, {m, 0}, {0, m}, {0, 0}} {
		eq, err := g.KickOffWith(b[0], b[1])
		if err != nil {
			return nil, err
		}
		v[i] = eq.Value
	}
	return &Substitute{v[0], v[1], v[2], v[3]}, nil
}

// Sets lists the rule sets of the rule sheets from base: a league and a knockout, each with
// two Basic sides and with each Dynamic pair (Basic v Dynamic, Dynamic v Basic, Dynamic v
// Dynamic) under both triggers — 14 rows.
func Sets(base env.Rules) []env.Rules {
	var out []env.Rules
	for _, knockout := range []bool{false, true} {
		for _, modes := range [][2]env.Mode{{env.Basic, env.Basic}, {env.Basic, env.Dynamic}, {env.Dynamic, env.Basic}, {env.Dynamic, env.Dynamic}} {
			triggers := []env.Trigger{env.TriggerWin, env.TriggerTurnover}
			if modes == [2]env.Mode{env.Basic, env.Basic} {
				triggers = triggers[:1] // no Dynamic side: the trigger changes nothing
			}
			for _, tr := range triggers {
				r := base
				r.Knockout, r.Modes, r.DynamicTrigger = knockout, modes, tr
				out = append(out, r)
			}
		}
	}
	return out
}

// Name is the row's name for r: "league-basic-basic", "knockout-basic-dynamic-turnover".
func Name(r env.Rules) string {
	s := "league"
	if r.Knockout {
		s = "knockout"
	}
	s += "-" + r.Modes[env.Home].String() + "-" + r.Modes[env.Away].String()
	if solver.HasDynamic(r) {
		s += "-" + r.DynamicTrigger.String()
	}
	return s
}

// Make solves every rule set of Sets(c.Base) that fits, writes each table, reads it back and
// returns the rows in Sets' order; catalogue.json in c.Dir holds them too.
func Make(c Config) ([]Row, error) {
	ctx := c.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if c.MaxBytes <= 0 {
		c.MaxBytes = game.DefaultMaxBytes
	}
	sets, err := Only(Sets(c.Base), c.Only)
	if err != nil {
		return nil, err
	}
	// The directory's lock: one run writes there at a time, and the temporary files a
	// killed run left (nobody else's while we hold it) are removed.
	lock, err := safefile.LockDir(dirOr(c.Dir))
	if err != nil {
		return nil, fmt.Errorf("catalogue: %w", err)
	}
	defer lock.Unlock()
	if err := lock.RemoveStaleTemps(dirOr(c.Dir)); err != nil {
		return nil, fmt.Errorf("catalogue: %w", err)
	}
	var rows []Row
	for _, r := range sets {
		row, err := makeRow(ctx, c, r)
		if err != nil {
			return rows, fmt.Errorf("catalogue: %s: %w", Name(r), err)
		}
		rows = append(rows, row)
	}
	return rows, writeJSON(filepath.Join(dirOr(c.Dir), "catalogue.json"), File{Format: "kingoal-catalogue", Version: 1, Rows: rows})
}

// Only keeps the rule sets named in names (Name's names; all for nil), refusing a name no row
// has.
func Only(sets []env.Rules, names []string) ([]env.Rules, error) {
	if names == nil {
		return sets, nil
	}
	var all []string
	for _, r := range sets {
		all = append(all, Name(r))
	}
	for _, n := range names {
		if !slices.Contains(all, n) {
			return nil, fmt.Errorf("catalogue: no row is named %q: the rows are %s", n, strings.Join(all, ", "))
		}
	}
	return slices.DeleteFunc(sets, func(r env.Rules) bool { return !slices.Contains(names, Name(r)) }), nil
}

// maxReportBytes bounds a row's report as it is read back: far above what a row writes.
const maxReportBytes = 1 << 20

// writeJSON writes v as indented JSON to path, atomically.
func writeJSON(path string, v any) error {
	return safefile.WriteAtomic(path, func(w io.Writer) error { return jsonfile.Encode(w, v, true) })
}

// dirOr is dir, or the current directory for "".
func dirOr(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}

// makeRow reads the row's report if an earlier run left one, or solves it.
func makeRow(ctx context.Context, c Config, r env.Rules) (Row, error) {
	name := Name(r)
	report := filepath.Join(dirOr(c.Dir), name+".json")
	table := filepath.Join(dirOr(c.Dir), name+".kgt")
	var row Row
	// A FIFO or a device named like a report is refused, not waited on.
	if raw, err := safefile.ReadFile(report, maxReportBytes); err == nil {
		if err := jsonfile.Decode(raw, &row, "name", "rules", "solved"); err != nil {
			return row, fmt.Errorf("%s: %w", report, err)
		}
		if row.Rules != r.String() { // another run's, under other rules: not this catalogue's row
			return row, fmt.Errorf("%s was made under %q, not %q: use another directory or delete it", report, row.Rules, r.String())
		}
		if !row.Pending {
			return row, nil
		}
		// Our solve of it was killed: its table, if written, goes, and the row is solved again.
		if err := os.Remove(table); err != nil && !errors.Is(err, os.ErrNotExist) {
			return row, err
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return row, err
	} else if _, err := os.Lstat(table); err == nil { // a pending report comes first: not this catalogue's
		return row, fmt.Errorf("%s exists without its report %s: move it away or use another directory (it is not replaced)", table, report)
	}
	payoff := lineup.PayoffWinLoss
	if r.Knockout {
		payoff = lineup.PayoffAdvance
	}
	row = Row{Name: name, Competition: "league", Modes: [2]string{r.Modes[env.Home].String(), r.Modes[env.Away].String()},
		Rules: r.String(), Payoff: payoff.String()}
	if r.Knockout {
		row.Competition = "knockout"
	}
	if solver.HasDynamic(r) {
		row.Trigger = r.DynamicTrigger.String()
	}
	size, err := solver.Estimate(r, payoff)
	if err != nil {
		return row, err
	}
	row.States, row.Estimate = size.States, size.Peak(true, true)
	if row.Estimate > c.MaxBytes {
		return row, writeJSON(report, row)
	}
	pending := row
	pending.Pending = true
	if err := writeJSON(report, pending); err != nil {
		return row, err
	}
	if c.Started != nil {
		c.Started(name, row.Estimate)
	}
	if err := solveRow(ctx, &row, r, payoff, table); err != nil {
		return row, err
	}
	return row, writeJSON(report, row)
}

// solveRow solves the row's game with its check, writes its table, measures the solve and
// reads the table back.
func solveRow(ctx context.Context, row *Row, r env.Rules, payoff lineup.Payoff, path string) error {
	runtime.GC()
	debug.FreeOSMemory() // the last row's memory is not this one's
	resetPeakRSS()
	p := game.Problem{Rules: r, Payoff: payoff, Context: ctx, Verify: true}
	start := time.Now()
	solved, err := solver.SolveToFile(path, p)
	if err != nil {
		return err
	}
	if b, ok := solved.(solver.BreakMixes); ok {
		if row.Substitute, err = substitute(b); err != nil {
			return err
		}
	}
	row.Seconds, row.PeakRSS = time.Since(start).Seconds(), peakRSS()
	row.Solved, row.Value = true, solved.Value()
	ko := solved.KickOff()
	row.KickOffHome, row.KickOffAway = weighted(ko.Home), weighted(ko.Away)
	if chk, ok := solved.Check(); ok {
		row.Exploitability = chk.Exploitability
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha256.New()
	if row.TableBytes, err = io.Copy(h, f); err != nil {
		return err
	}
	row.SHA256 = hex.EncodeToString(h.Sum(nil))
	row.ReadBack = true // SolveToFile read the table back and found the solve in it
	return timeRead(ctx, row, path)
}

// timeRead reads the row's table once more, alone in memory, as nash:table= would, and
// times it.
func timeRead(ctx context.Context, row *Row, path string) error {
	runtime.GC()
	start := time.Now()
	_, err := solver.LoadFile(ctx, path)
	row.ReadSeconds = time.Since(start).Seconds()
	return err
}
