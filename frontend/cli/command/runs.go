// Run directories: the pieces the commands that play into one (arena, datasets generate) and
// that resume a stored run (train) share.

package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/kingoal/kingoal/internal/shellquote"
)

// A resumed run takes its settings from what it stored (run.json, the model file): flags
// left out are filled in from there, and a flag given explicitly must say the same, or the
// resume is refused naming it — a resume never silently changes what is being computed.

// ApplyStored sets every flag of stored that the user left out to its stored value, and
// checks those the user gave. normal, if not nil, puts a flag's value in a canonical form
// before the comparison (like agent lists with or without spaces). source names where the
// values come from, for the error.
func ApplyStored(fs *pflag.FlagSet, stored map[string]string, source string, normal func(name, v string) string) error {
	if normal == nil {
		normal = func(_, v string) string { return v }
	}
	names := make([]string, 0, len(stored))
	for name := range stored {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		fl := fs.Lookup(name)
		if fl == nil {
			continue
		}
		want := stored[name]
		if fl.Changed {
			if got := fl.Value.String(); normal(name, got) != normal(name, want) {
				return Usagef("--resume: --%s %s differs from %s's %s; leave --%s out to resume, or start afresh with --force", name, got, source, want, name)
			}
			continue
		}
		if err := fs.Set(name, want); err != nil {
			return Usagef("--resume: %s holds --%s %q, which this version cannot read: %v", source, name, want, err)
		}
	}
	return nil
}

// ruleFlagValues is the inverse of RuleFlags.rules: the flag values that give r.
func ruleFlagValues(r env.Rules) map[string]string {
	ks, v := env.KnobsOf(r), map[string]string{}
	for _, k := range env.KnobTable {
		v[k.Name] = k.Get(ks)
	}
	return v
}

// specList joins agent specs given as "A;B" (or "A,B" where that is unambiguous) in one
// canonical form, labels included as the arena gives them, for comparisons.
func specList(s string) string { return strings.Join(arena.Labelled(SplitSpecs(s)), ";") }

// ArenaFlagValues are the flags of the run a run.json describes.
func ArenaFlagValues(info arena.RunInfo) map[string]string {
	v := ruleFlagValues(info.RulesConfig)
	v["agents"] = strings.Join(info.Agents, ";")
	v["format"] = info.Competition
	v["matches"] = fmt.Sprint(info.MatchesPerPairing)
	v["seed"] = fmt.Sprint(info.Seed)
	v["draw-bracket"] = fmt.Sprint(info.DrawBracket)
	if info.GroupSize != 0 {
		v["group-size"] = fmt.Sprint(info.GroupSize)
	}
	v["log-throws"] = fmt.Sprint(info.LogThrows)
	v["dice"] = fmt.Sprint(info.Dice)
	v["log-decisions"] = fmt.Sprint(info.LogDecisions)
	v["sampler"] = info.DrawnBy()
	return v
}

// resumeRun fills in the flags of the run in dir that the user left out and checks those
// the user gave (see ApplyStored); a directory without a run is refused before anything
// is created.
func resumeRun(fs *pflag.FlagSet, dir string, values func(arena.RunInfo) map[string]string) error {
	if dir == "" {
		return Usagef("--out: want a directory name")
	}
	info, err := arena.ReadInfo(dir)
	if errors.Is(err, os.ErrNotExist) {
		// A run being started holds the directory before it writes run.json: name it (a
		// holder that cannot be asked leaves the answer that there is no run.json).
		if held, pid, herr := safefile.DirHolder(dir); herr == nil && held {
			return LockError(&safefile.LockedError{Path: dir, PID: pid})
		}
		return Usagef("--resume: %s holds no run to resume (no run.json there)", dir)
	}
	if err != nil {
		return Usage(err)
	}
	// Not a setting of the matches: the run's choice unless the resume makes another.
	if f := fs.Lookup("no-exploitability"); f != nil && !f.Changed && info.NoExploitability {
		if err := fs.Set("no-exploitability", "true"); err != nil {
			return err
		}
	}
	return ApplyStored(fs, values(info), filepath.Join(dir, "run.json"), func(name, v string) string {
		if name == "agents" {
			return specList(v)
		}
		return v
	})
}

// Resumable is the RunE of a command that plays into a run directory: --out left at its
// default is numbered (defaultRunDir), with --resume the stored run's flags are applied
// (resumeRun, from the run in *out), then run runs.
func Resumable(resume *bool, out *string, values func(arena.RunInfo) map[string]string, run func(cmd *cobra.Command) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, _ []string) error {
		if err := defaultRunDir(cmd, out); err != nil {
			return err
		}
		if *resume {
			if err := resumeRun(cmd.Flags(), *out, values); err != nil {
				return err
			}
		}
		return run(cmd)
	}
}

// defaultRunDir numbers --out when it was left at its default (RunDirChoice): a
// rerun of `kingoal arena` goes into kingoal-arena-2, and says so; --resume and --force
// take the newest run.
func defaultRunDir(cmd *cobra.Command, out *string) error {
	fl := cmd.Flags().Lookup("out")
	if fl == nil || fl.Changed {
		return nil
	}
	set := func(name string) bool { f := cmd.Flags().Lookup(name); return f != nil && f.Value.String() == "true" }
	latest := set("resume") || set("force")
	dir, numbered, err := RunDirChoice(fl.DefValue, latest)
	if err != nil {
		return err
	}
	if numbered && !latest {
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: %s holds an earlier run: this one goes into %s (--out DIR chooses)\n", cmd.Root().Name(), fl.DefValue, dir)
	}
	*out = dir
	return nil
}

// RunDirError turns the arena's refusals to touch a run directory into usage errors that
// say the ways on.
func RunDirError(err error) error {
	var e *arena.ExistingRunError
	switch {
	case errors.As(err, &e) && e.Complete:
		return Usagef("%s; see it with kingoal leaderboard %s, or replace it with --force", e.Situation(), e.Dir)
	case errors.As(err, &e):
		return Usagef("%s; continue it with --resume or replace it with --force", e.Situation())
	case errors.Is(err, arena.ErrNoRun):
		return Usage(err)
	}
	return err
}

// OutputChoices checks the flags every command that writes a run directory shares.
func OutputChoices(out string, markdown, asJSON, resume, force bool) error {
	switch {
	case strings.TrimSpace(out) == "":
		return Usagef("--out: want a directory name (it is created if missing)")
	case markdown && asJSON:
		return Usagef("--markdown and --json: choose one")
	case resume && force:
		return Usagef("--resume and --force: choose one (continue the run in %s, or replace it)", out)
	}
	return nil
}

// Plan is the competition planned (arena.NewPlan): a configuration it refuses, an agent
// spec that does not build included, is a usage error; an interruption while an agent
// builds is not.
func Plan(ctx context.Context, c arena.Config, errOut io.Writer) (*arena.Plan, error) {
	p, err := arena.NewPlanWithin(ctx, c, arena.Limits{Notify: Notifier(errOut)})
	if err != nil && ctx.Err() == nil {
		return nil, Usage(err)
	}
	return p, err
}

// RunError says a run's refusals and interruptions in the command's words: how to go on.
func RunError(err error) error {
	var stopped *arena.InterruptedError
	switch {
	case errors.As(err, &stopped) && stopped.Measuring:
		return fmt.Errorf("interrupted while measuring the exploitability; the run in %s is complete: print it with kingoal leaderboard %s, or run again with --resume: %w",
			stopped.Dir, stopped.Dir, stopped.Err)
	case errors.As(err, &stopped):
		return fmt.Errorf("interrupted; finished matches are kept in %s: continue with --out %s --resume: %w", stopped.Dir, shellquote.Quote(stopped.Dir), stopped.Err)
	}
	return RunDirError(LockError(err))
}
