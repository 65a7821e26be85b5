package solvecmd

import (
	"errors"
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/solver"
	"github.com/kingoal/kingoal/solver/game"
)

// GameReport is what solve game prints (and --json writes): the substitution game's value,
// the kick-off mixes, the right to substitute, equilibrium substitutions in typical
// situations, the solve's size and its verification by both best responses. With --in
// FILE.kgt it is read from the table: verification is the one its solve stored, or with
// --verify the one run again on the loaded strategy (reverified), and the summary's values
// are the table's, to float32 (≈ 7 digits).
type GameReport struct {
	Payoff       string                 `json:"payoff"`               // win-loss, goal-diff, points or advance
	Scale        string                 `json:"scale"`                // what the value and the check measure (the payoff's scale)
	Rules        string                 `json:"rules"`                // the rules in words
	Value        float64                `json:"value"`                // the game's value to home
	KickOffHome  []command.WeightedJSON `json:"kickoff_home"`         // home's equilibrium mix of starting line-ups
	KickOffAway  []command.WeightedJSON `json:"kickoff_away"`         // away's
	Worth        []worthRow             `json:"right_to_substitute"`  // the starting line-ups' equilibrium value under each pair of budgets
	Summary      []gameSituation        `json:"summary"`              // equilibrium substitutions in typical situations (situations no match reaches are left out)
	Stats        game.Stats             `json:"stats"`                // the solve's size
	Seconds      float64                `json:"seconds"`              // solving it, or reading Table
	Table        string                 `json:"table,omitempty"`      // the game table read instead of solving (--in)
	Verification *game.Check            `json:"verification"`         // nil: not run
	Reverified   bool                   `json:"reverified,omitempty"` // Verification ran on the loaded table (--in --verify), not stored by its solve
}

// worthRow is the value of the starting line-ups' equilibrium under one pair of budgets.
type worthRow struct {
	Who       string  `json:"who"`        // both, only home, only away or neither: who may substitute
	HomeMoves int     `json:"home_moves"` // home's budget
	AwayMoves int     `json:"away_moves"` // away's budget
	Value     float64 `json:"value"`      // the value to home
}

// gameSituation is one line of the readable summary.
type gameSituation struct {
	Situation string  `json:"situation"` // the break, in words
	Home      string  `json:"home"`      // home's mix as changes ("keep 0.62 · 2→5 0.38")
	Away      string  `json:"away"`      // away's mix as changes
	Value     float64 `json:"value"`     // the value to home (with --in: the table's, to float32)
}

// dynamicGameReport is what solve game prints (and --json writes) when a side plays Dynamic.
type dynamicGameReport struct {
	Payoff       string                 `json:"payoff"`               // win-loss, goal-diff, points or advance
	Scale        string                 `json:"scale"`                // what the value and the check measure (the payoff's scale)
	Rules        string                 `json:"rules"`                // the rules in words
	Modes        [2]string              `json:"modes"`                // home's, away's
	Trigger      string                 `json:"dynamic_trigger"`      // win or turnover: what earns a Dynamic shift
	Value        float64                `json:"value"`                // the game's value to home
	KickOffHome  []command.WeightedJSON `json:"kickoff_home"`         // home's equilibrium mix of starting line-ups
	KickOffAway  []command.WeightedJSON `json:"kickoff_away"`         // away's
	Decisions    []dynamicSituation     `json:"decisions"`            // equilibrium decisions in typical situations
	Stats        game.Stats             `json:"stats"`                // the solve's size
	Seconds      float64                `json:"seconds"`              // the solve with its check (with --in: reading the table)
	Table        string                 `json:"table,omitempty"`      // the table read instead of solving (--in)
	Verification *game.Check            `json:"verification"`         // nil: not run (with --in: the check its solve stored, or with --verify the one run again)
	Reverified   bool                   `json:"reverified,omitempty"` // Verification ran on the loaded table (--in --verify), not stored by its solve
}

// dynamicSituation is one decision of the equilibrium, for the summary.
type dynamicSituation struct {
	Situation string `json:"situation"` // the decision point, in words
	Side      string `json:"side"`      // home or away: who decides
	Plays     string `json:"plays"`     // its equilibrium choice, as a mix of changes
}

func newGameReport(g *game.Game, s solvedGame) (GameReport, error) {
	p := g.Problem
	ko := g.KickOff()
	rep := GameReport{Payoff: p.Payoff.String(), Scale: p.Payoff.Scale(), Rules: p.Rules.String(), Value: g.Value(), KickOffHome: command.ToWeightedJSON(ko.Home),
		KickOffAway: command.ToWeightedJSON(ko.Away), Stats: g.Stats(), Seconds: s.took.Seconds(), Table: s.table}
	rep.Verification, rep.Reverified = s.verification()
	m := g.Moves()
	for _, w := range []worthRow{{"both", m, m, 0}, {"only home", m, 0, 0}, {"only away", 0, m, 0}, {"neither", 0, 0, 0}} {
		eq, err := g.KickOffWith(w.HomeMoves, w.AwayMoves)
		if err != nil {
			return rep, err
		}
		w.Value = eq.Value
		rep.Worth = append(rep.Worth, w)
	}
	var err error
	rep.Summary, err = gameSummary(g)
	return rep, err
}

// gameSummary: the likeliest starting pair with full budgets, at the summary's times and
// scores (home's view), each side's mix.
func gameSummary(g *game.Game) ([]gameSituation, error) {
	r, ko := g.Problem.Rules, g.KickOff()
	home, away := ko.Home[0].Lineup, ko.Away[0].Lineup
	scores := []int{-2, -1, 0, 1, 2}
	if additive(g) {
		scores = []int{0} // the score does not change what to do
	}
	var out []gameSituation
	for _, when := range command.SummaryTimes(r) {
		for _, d := range scores {
			sol, err := g.At(game.State{Period: when.Per, ThrowsLeft: when.Left, GoalDiff: d, Home: home, Away: away, HomeMoves: g.Moves(), AwayMoves: g.Moves()})
			if errors.Is(err, game.ErrNotSolved) {
				continue // a score no match reaches by then (goals take throws)
			}
			if err != nil {
				return nil, err
			}
			score := "home " + command.ScoreWord(d)
			if additive(g) {
				score = "any score"
			}
			out = append(out, gameSituation{fmt.Sprintf("%s, %s", when.Name, score), mixWords(home, sol.Home), mixWords(away, sol.Away), sol.Value})
		}
	}
	return out, nil
}

func newDynamicGameReport(g solver.Decisions, s solvedGame) dynamicGameReport {
	r, payoff, ko := g.Rules(), g.Payoff(), g.KickOff()
	rep := dynamicGameReport{Payoff: payoff.String(), Scale: payoff.Scale(), Rules: r.String(), Modes: [2]string{r.Modes[env.Home].String(), r.Modes[env.Away].String()},
		Trigger: r.DynamicTrigger.String(), Value: g.Value(), KickOffHome: command.ToWeightedJSON(ko.Home), KickOffAway: command.ToWeightedJSON(ko.Away),
		Stats: g.Stats(), Seconds: s.took.Seconds(), Table: s.table, Decisions: dynamicGameSummary(g)}
	rep.Verification, rep.Reverified = s.verification()
	return rep
}

// verification is the check a report shows: the one run again on the loaded table, or the
// one its solve ran (nil: none).
func (s solvedGame) verification() (c *game.Check, reverified bool) {
	if s.reverified != nil {
		return s.reverified, true
	}
	if c, ok := s.g.Check(); ok {
		return &c, false
	}
	return nil, false
}

// dynamicGameSummary: for the likeliest starting pair, what each side does at the summary's
// times and scores — a Dynamic side's shift after winning a throw that leaves the ball in
// midfield, a Basic side's choice at the break after a goal.
func dynamicGameSummary(g solver.Decisions) []dynamicSituation {
	r, ko := g.Rules(), g.KickOff()
	start := [2]env.Lineup{ko.Home[0].Lineup, ko.Away[0].Lineup}
	var out []dynamicSituation
	for _, when := range command.SummaryTimes(r) {
		for d := -1; d <= 1; d++ {
			for p := env.Home; p <= env.Away; p++ {
				to, at, err := g.Typical(p, when.Per, when.Left, d, start[env.Home], start[env.Away])
				if err != nil {
					continue // a score no match reaches by then
				}
				situation := fmt.Sprintf("%s, home %s", when.Name, command.ScoreWord(d))
				if r.Modes[p] == env.Dynamic {
					situation = fmt.Sprintf("%s, %s left, home %s: %s wins a throw to midfield", when.Per, command.Plural(at, "throw"), command.ScoreWord(d), p)
				}
				out = append(out, dynamicSituation{situation, p.String(), env.DescribeChange(start[p], to)})
			}
		}
	}
	return out
}
