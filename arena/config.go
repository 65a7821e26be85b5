package arena

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kingoal/kingoal/env"
)

// MaxMatches bounds the matches of one competition (at a million matches a second it is
// more than an hour of play; beyond it, counts would overflow on 32-bit machines).
const MaxMatches = 1 << 32

// MaxAgents bounds the agents of one competition: the tally and the head-to-head hold a cell
// per ordered pair (~64 bytes), and the ratings fit as many parameters — 2,048 agents are
// ~270 MB; 15,000 reached 16 GB before the first match.
const MaxAgents = 2048

// Format is the kind of competition.
type Format uint8

const (
	League   Format = iota // every pair of agents
	Gauntlet               // the first agent against each of the others
	Knockout               // single-elimination cups (rules §7: extra time, then penalties)
	WorldCup               // group stages under league rules, then a knockout bracket of the top two of each group
)

var formatNames = [...]string{League: "league", Gauntlet: "gauntlet", Knockout: "knockout", WorldCup: "worldcup"}

func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("format(%d)", f)
}

// ParseFormat reads league, gauntlet, knockout (also "cup") or worldcup (also "world-cup").
func ParseFormat(s string) (Format, error) {
	for f, name := range formatNames {
		if s == name {
			return Format(f), nil
		}
	}
	switch s {
	case "cup":
		return Knockout, nil
	case "world-cup":
		return WorldCup, nil
	}
	return 0, fmt.Errorf("arena: format %q: want league, gauntlet, knockout or worldcup", s)
}

// Config describes a competition. League: every pair of Agents plays Matches matches, sides
// alternating, each fixture and its mirror sharing their dice. Gauntlet: the same for the
// first agent against each other. Knockout: Matches single-elimination cups of all the
// agents, seeded in the order given (or drawn afresh for every cup with DrawBracket), byes to
// the top seeds, one match a tie under knockout rules. WorldCup: Matches tournaments of all
// the agents, each with groups drawn afresh (see Groups and worldcup.go). The zero values of
// Format, Matches, GroupSize and Workers mean a league, 20, groups of 4 and all cores.
type Config struct {
	Format      Format
	Agents      []string  // registry specs, at least two
	Rules       env.Rules // the rules of every match; a knockout or World Cup needs Rules.Knockout (a World Cup's groups play them as league matches)
	Matches     int       // per pairing; in a knockout or World Cup, the number of cups
	DrawBracket bool      // knockout: draw each cup's seeding from (seed, cup)
	GroupSize   int       // World Cup: agents a group (0: DefaultGroupSize)
	Seed        uint64
	Workers     int
	// LogThrows also writes throws.parquet, one row per chance node; with Dice every die is
	// rolled and its value logged (a different random stream: another run). LogDecisions also
	// writes decisions.parquet, one row per agent decision.
	LogThrows, Dice, LogDecisions bool
	// EveryThrow draws every throw even where nothing logs them. By default matches without
	// logged throws are drawn goal by goal (env.GoalSampler: the same law, ~7 random numbers
	// a match instead of ~90, so other matches); with EveryThrow a run plays the same matches
	// as the LogThrows run of its seed (and as runs started before the goal sampler existed).
	EveryThrow bool
	// NoExploitability records that the leaderboard is to go without the exploitability
	// column (kingoal arena --no-exploitability), so that a resume makes the same choice. It
	// plays no part in the matches.
	NoExploitability bool
}

// Sampler names how the run draws its throws: "goals" (env.GoalSampler) or "throws" (one at
// a time: logged, rolled as dice, or EveryThrow).
func (c Config) Sampler() string {
	if c.EveryThrow || c.LogThrows || c.Dice {
		return "throws"
	}
	return "goals"
}

// RulesFor returns r as a competition of format f plays it: knockout and World Cup formats
// play knockout rules (extra time, then penalties; a World Cup's groups play them as league
// matches all the same), which Validate requires of them.
func (f Format) RulesFor(r env.Rules) env.Rules {
	if f == Knockout || f == WorldCup {
		r.Knockout = true
	}
	return r
}

// Validate checks the configuration; NewPlan does, then builds the agents.
func (c Config) Validate() error {
	if len(c.Agents) < 2 {
		return fmt.Errorf("arena: a %s needs at least two agents, got %d", c.Format, len(c.Agents))
	}
	if len(c.Agents) > MaxAgents {
		return fmt.Errorf("arena: %d agents: at most %d (the leaderboard holds a cell for every pair of them)", len(c.Agents), MaxAgents)
	}
	if c.Format > WorldCup {
		return fmt.Errorf("arena: format %d unknown", c.Format)
	}
	if c.cups() && !c.Rules.Knockout {
		return fmt.Errorf("arena: a %s needs knockout rules (Rules.Knockout: extra time, then penalties)", c.Format)
	}
	if c.GroupSize != 0 && c.Format != WorldCup {
		return errors.New("arena: GroupSize is for World Cups")
	}
	if c.Format == WorldCup {
		if err := c.validateGroups(); err != nil {
			return err
		}
	}
	if c.DrawBracket && c.Format != Knockout {
		return errors.New("arena: DrawBracket is for knockout cups")
	}
	if c.Matches < 0 || c.Workers < 0 {
		return errors.New("arena: matches and workers must not be negative")
	}
	if c.Matches > MaxMatches || c.totalMatches() > MaxMatches { // the first check keeps the product from overflowing
		return fmt.Errorf("arena: %d matches per pairing make more than %d matches in all, the limit", c.Matches, MaxMatches)
	}
	if err := c.Rules.Validate(); err != nil {
		return err
	}
	for i, s := range c.Agents {
		if j := slices.Index(c.Agents, s); j < i {
			return fmt.Errorf("arena: agent %q is listed twice; tell them apart with a label, like %s#2", s, s)
		}
	}
	return nil
}

// Labelled tells repeated agent specs apart with labels: "random;random" plays random and
// random#2, so the leaderboard has two rows a reader can tell apart.
func Labelled(specs []string) []string {
	seen := map[string]int{}
	out := make([]string, len(specs))
	for i, s := range specs {
		seen[s]++
		out[i] = s
		if n := seen[s]; n > 1 {
			out[i] = fmt.Sprintf("%s#%d", s, n)
		}
	}
	return out
}
