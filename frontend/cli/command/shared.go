package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/kingoal/kingoal/bench"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/exploit"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
)

// Helpers that more than one command uses (cli/cli's cmdutil): no command file calls
// another command file's functions.

// SplitSpecs splits a list of agent specs at ';', or, when there is none, at the commas
// that are not inside a spec: a piece with '=' and no ':' is a parameter of the spec before
// it ("uct:iters=200,c=1.2,random" is two agents).
func SplitSpecs(s string) []string {
	var out []string
	if strings.Contains(s, ";") {
		for _, x := range strings.Split(s, ";") {
			if x = strings.TrimSpace(x); x != "" {
				out = append(out, x)
			}
		}
		return out
	}
	for _, x := range strings.Split(s, ",") {
		x = strings.TrimSpace(x)
		switch {
		case x == "":
		case len(out) > 0 && strings.Contains(x, "=") && !strings.Contains(x, ":"):
			out[len(out)-1] += "," + x
		default:
			out = append(out, x)
		}
	}
	return out
}

func ParseLineupArg(args []string, i int, def string) (env.Lineup, error) {
	s := def
	if i < len(args) {
		s = args[i]
	}
	l, err := env.ParseLineup(s)
	if err != nil {
		return l, UsageError{err}
	}
	return l, nil
}

// RulesAndPair reads the rule flags and the optional HOME and AWAY arguments
// (2-2-2-2-2 when absent).
func RulesAndPair(f RuleFlags, args []string) (r env.Rules, home, away env.Lineup, err error) {
	if r, err = f.Rules(); err != nil {
		return
	}
	if home, err = ParseLineupArg(args, 0, env.DefaultOpponent); err != nil {
		return
	}
	away, err = ParseLineupArg(args, 1, env.DefaultOpponent)
	return
}

// maxWorkers bounds --workers: each worker holds its own buffers (and, in the arena, a shard
// being encoded), so a mistyped 1000000 would exhaust memory before doing any work.
const maxWorkers = 1024

// CheckWorkers refuses a --workers outside 0 (all cores) … maxWorkers.
func CheckWorkers(workers int) error {
	if workers < 0 || workers > maxWorkers {
		return Usagef("--workers %d: want 0 (all cores) to %d", workers, maxWorkers)
	}
	return nil
}

// ComputeMatrix runs odds.ComputeMatrix with a progress bar on errOut.
func ComputeMatrix(ctx context.Context, io Streams, r env.Rules, workers int) (*odds.OddsMatrix, error) {
	if err := CheckWorkers(workers); err != nil {
		return nil, err
	}
	bar := NewProgress(io.ErrOut, env.NumLineups, "rows")
	m, err := odds.ComputeMatrix(ctx, r, odds.MatrixOptions{Workers: workers, Progress: func(n int) { _ = bar.Set(n) }})
	_ = bar.Finish()
	return m, err
}

// RulesAndPayoff reads the rule flags and a --payoff for those rules.
func RulesAndPayoff(f RuleFlags, payoff string) (env.Rules, lineup.Payoff, error) {
	r, err := f.Rules()
	if err != nil {
		return r, 0, err
	}
	p, err := parsePayoff(payoff, r)
	return r, p, err
}

// attack measures how far forward a change moves counters: Σ sector × (to − from).
func Attack(from, to env.Lineup) float64 {
	f, t := from.Counts(), to.Counts()
	s := 0
	for k := range f {
		s += (k + 1) * (t[k] - f[k])
	}
	return float64(s)
}

// ParseSide reads a side flag's value (home or away).
func ParseSide(flag, s string) (env.Player, error) {
	for p := env.Home; p <= env.Away; p++ {
		if s == p.String() {
			return p, nil
		}
	}
	return 0, Usagef("%s %q: want home or away", flag, s)
}

func parsePayoff(s string, r env.Rules) (lineup.Payoff, error) {
	p, err := lineup.ParsePayoff(s)
	if err != nil {
		return p, FlagError("--payoff", err)
	}
	if p == lineup.PayoffAdvance && !r.Knockout {
		return p, Usagef("--payoff advance needs --knockout")
	}
	return p, nil
}

// plural is env.Plural: "1 move", "3 moves".
func Plural(n int, noun string) string { return env.Plural(n, noun) }

// signed is a difference with its sign ("+3", "-2"), and 0 plain: "+0" and "-0" read as
// something other than nothing.
func Signed(n int) string {
	if n == 0 {
		return "0"
	}
	return fmt.Sprintf("%+d", n)
}

// signedf is signed for a number shown with prec decimals: what rounds to 0 is "0" (to the
// shown precision: "0.0000"), never "+0" or "-0.0000".
func Signedf(x float64, prec int) string {
	s := fmt.Sprintf("%+.*f", prec, x)
	if strings.Trim(s, "+-0.") == "" {
		return s[1:]
	}
	return s
}

// CardFigures are the exact exploitabilities on the zoo cards of the policy files the specs
// play (bench.CardFigures), unless the column is left out; a card that cannot be used is
// said in a line, and its policy measured instead.
func CardFigures(streams Streams, specs []string, r env.Rules, skip bool) map[string]exploit.Exploitability {
	if skip {
		return nil
	}
	known, unusable := bench.CardFigures(specs, r)
	for _, err := range unusable {
		fmt.Fprintf(streams.ErrOut, "kingoal: %v: its exploitability is measured instead\n", err)
	}
	return known
}
