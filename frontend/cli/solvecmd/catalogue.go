package solvecmd

import (
	"context"
	"fmt"
	stdio "io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/solver/catalogue"
)

type catalogueOptions struct {
	rules    command.RuleFlags
	out      string
	markdown string
	maxGiB   float64
	json     bool
	force    bool
	only     []string
	varied   []string // rule flags the catalogue sets itself, given on the command line (refused)
	given    []string // the flags given, for the page's "made by"
}

func newSolveCatalogueCmd(io command.Streams) *cobra.Command {
	var o catalogueOptions
	cmd := &cobra.Command{
		Use:   "catalogue [--out DIR] [--markdown FILE.md] [rule flags] [--max-gib G] [--only NAME,...] [--json]",
		Short: "Every rule set of the rule sheets solved, kept as a table and read back: the catalogue",
		Long: `Catalogue solves every rule set the rule sheets describe — a league and a knockout
match, each with two Basic coaches and with a Dynamic coach on either side or both under
either trigger (a won throw, or winning the ball back): 14 games — each with its
best-response check, writes each one's game table to DIR/NAME.kgt (nash:table= plays it),
reads it back and checks it holds the solve, and lists them: the value to home, both
kick-off mixes, what the right to substitute is worth (two Basic sides), the states held,
the solve's time, its peak resident memory (Linux), the table's size and SHA-256.

The other rule flags (length, moves, ties, points) set what every row shares; with none it is
the sheets' default length. A row whose estimated peak exceeds --max-gib is listed with its
estimate, not solved. Each row's report is kept in DIR/NAME.json as it finishes: a run
stopped (Ctrl-C) or failed resumes where it stopped, and rows already made are not solved
again (delete DIR to start afresh) — a run killed outright (kill -9) too: a row's report is
written as "pending" before its solve and replaced when it is done, so a pending row is
solved again, and the temporary files of a killed write are removed (one run holds DIR at a
time). A table in DIR without its report is refused, not replaced. --only makes the named
rows alone (NAME as in the table: league-basic-basic, knockout-dynamic-basic-win, …). At the default length it takes about 35 minutes and up to ~10 GB on two cores
(BENCHMARKS.md); --markdown FILE.md writes the page the docs show (--force to replace it).`,
		Example: `  kingoal solve catalogue --out catalogue --markdown docs/catalogue.md --force
  kingoal solve catalogue --throws-per-half 5 --out /tmp/small --json
  kingoal solve catalogue --only league-basic-basic,league-basic-dynamic-win --out /tmp/two`,
		Args: command.ArgsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			cmd.Flags().Visit(func(f *pflag.Flag) {
				o.given = append(o.given, "--"+f.Name+" "+f.Value.String())
				switch f.Name {
				case "knockout", "home-mode", "away-mode", "dynamic-trigger":
					o.varied = append(o.varied, "--"+f.Name)
				}
			})
			return runCatalogue(cmd.Context(), io, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.out, "out", "catalogue", "the directory of the tables (NAME.kgt), each row's report (NAME.json) and catalogue.json")
	f.StringVar(&o.markdown, "markdown", "", "also write the catalogue as a Markdown page to FILE.md")
	f.BoolVar(&o.force, "force", false, "replace --markdown if it exists")
	f.StringSliceVar(&o.only, "only", nil, "make only these rows, by name (comma-separated; the names are the table's)")
	f.Float64Var(&o.maxGiB, "max-gib", 12, "list, without solving, a row whose estimated peak memory exceeds this (GiB)")
	command.JSONFlag(f, &o.json, "the rows")
	o.rules.Register(f)
	return cmd
}

func runCatalogue(ctx context.Context, io command.Streams, o catalogueOptions) error {
	if len(o.varied) > 0 {
		return command.Usagef("catalogue: %s: every row sets the competition, modes and trigger itself", strings.Join(o.varied, ", "))
	}
	if !(o.maxGiB > 0) || o.maxGiB > 1<<20 {
		return command.Usagef("--max-gib %v: want a size in GiB above 0", o.maxGiB)
	}
	if o.out == "" {
		return command.Usagef("--out: name a directory")
	}
	base, err := o.rules.Rules()
	if err != nil {
		return err
	}
	release, err := command.ClaimOutputs(map[string]string{"--markdown": o.markdown}, o.force)
	if err != nil {
		return err
	}
	defer release()
	start := time.Now()
	if o.only != nil && len(o.only) == 0 {
		return command.Usagef("--only: name at least one row")
	}
	if _, err := catalogue.Only(catalogue.Sets(base), o.only); err != nil {
		return command.Usage(err)
	}
	rows, err := catalogue.Make(catalogue.Config{Base: base, Dir: o.out, MaxBytes: int64(o.maxGiB * (1 << 30)), Context: ctx, Only: o.only,
		Started: func(name string, estimate int64) {
			fmt.Fprintf(io.ErrOut, "kingoal: catalogue: solving %s (~%s at the peak, estimated) after %s\n", name, safefile.FormatBytes(estimate), time.Since(start).Round(time.Second))
		}})
	if err != nil {
		return err
	}
	fmt.Fprintf(io.ErrOut, "kingoal: catalogue: %d rows in %s, in %s\n", len(rows), o.out, time.Since(start).Round(time.Second))
	if o.markdown != "" {
		page := catalogue.Page(rows, time.Now(), strings.Join(append([]string{"kingoal solve catalogue"}, o.given...), " "))
		if err := safefile.WriteAtomic(o.markdown, func(w stdio.Writer) error { _, err := stdio.WriteString(w, page); return err }); err != nil {
			return err
		}
	}
	if o.json {
		return command.WriteJSON(io.Out, rows)
	}
	_, err = stdio.WriteString(io.Out, catalogue.Markdown(rows))
	return err
}
