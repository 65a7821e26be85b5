package command

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/kingoal/kingoal/rank"
)

// The flags many commands share, registered by one helper each, so a flag means the same
// and reads the same everywhere.

// SeedFlag registers --seed (default 1); what, if not "", says what it seeds.
func SeedFlag(fs *pflag.FlagSet, seed *uint64, what string) {
	usage := "random seed"
	if what != "" {
		usage += " (" + what + ")"
	}
	fs.Uint64Var(seed, "seed", 1, usage)
}

// WorkersFlag registers --workers (default 0: all cores); of, if not "", says what runs on them.
func WorkersFlag(fs *pflag.FlagSet, workers *int, of string) {
	usage := "goroutines (0: all cores); does not change the result"
	if of != "" {
		usage = "goroutines " + of + " (0: all cores); does not change the result"
	}
	fs.IntVar(workers, "workers", 0, usage)
}

// RunDirFlags registers --out (the run directory, def by default), --resume and --force for
// a command that plays what (a run, a dataset) into a directory; files says what --force
// replaces.
func RunDirFlags(fs *pflag.FlagSet, out *string, resume, force *bool, def, what, files string) {
	fs.StringVar(out, "out", def, what+" directory")
	fs.BoolVar(resume, "resume", false, "finish the interrupted "+what+" in --out with its own settings (from its run.json; other flags must agree)")
	fs.BoolVar(force, "force", false, "replace the "+what+" already in --out ("+files+")")
}

// JSONFlag registers --json: print what as JSON.
func JSONFlag(fs *pflag.FlagSet, asJSON *bool, what string) {
	fs.BoolVar(asJSON, "json", false, "print "+what+" as JSON")
}

// AlphaRankFlags registers --alpharank-m and --alpharank-alpha, α-Rank's population and
// intensity (0: the defaults); CheckAlphaRank refuses values out of range.
func AlphaRankFlags(fs *pflag.FlagSet, p *rank.AlphaRankParams) {
	fs.IntVar(&p.Population, "alpharank-m", rank.AlphaRankPopulation, "α-Rank's population m (OpenSpiel's alpharank m=), 2..1000000")
	fs.Float64Var(&p.Intensity, "alpharank-alpha", rank.AlphaRankIntensity, "α-Rank's ranking intensity α (OpenSpiel's alpharank alpha=), positive")
}

// CheckAlphaRank is a usage error for α-Rank knobs out of range, before any work.
func CheckAlphaRank(p rank.AlphaRankParams) error {
	if _, err := p.Resolved(); err != nil {
		return UsageError{err}
	}
	return nil
}

// PayoffFlag registers --payoff, one of choices (the first is the default).
func PayoffFlag(fs *pflag.FlagSet, payoff *string, usage string, choices ...string) {
	EnumFlag(fs, payoff, "payoff", usage, choices...)
}

// EnumFlag registers a string flag that takes one of choices (the first is the default):
// anything else is refused when the flags are parsed, naming the choices.
func EnumFlag(fs *pflag.FlagSet, v *string, name, usage string, choices ...string) {
	EnumFlagWithAliases(fs, v, name, usage, nil, choices...)
}

// EnumFlagWithAliases is EnumFlag that also takes other names for some choices (alias →
// choice); an alias is stored as its choice, so the flag's value is always one of choices
// (a resumed run compares it with what run.json says).
func EnumFlagWithAliases(fs *pflag.FlagSet, v *string, name, usage string, aliases map[string]string, choices ...string) {
	*v = choices[0]
	fs.Var(&enumValue{v, choices, aliases}, name, fmt.Sprintf("%s: %s", usage, choiceList(choices)))
	fs.Lookup(name).DefValue = choices[0]
}

type enumValue struct {
	v       *string
	choices []string
	aliases map[string]string
}

func (e *enumValue) String() string { return *e.v }
func (e *enumValue) Type() string   { return "string" }
func (e *enumValue) Set(s string) error {
	if c, ok := e.aliases[s]; ok {
		s = c
	}
	if !slices.Contains(e.choices, s) {
		return fmt.Errorf("%q: want %s", s, choiceList(e.choices))
	}
	*e.v = s
	return nil
}

// choiceList is "a, b or c".
func choiceList(c []string) string {
	if len(c) == 1 {
		return c[0]
	}
	return strings.Join(c[:len(c)-1], ", ") + " or " + c[len(c)-1]
}
