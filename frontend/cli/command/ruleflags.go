package command

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kingoal/kingoal/env"
)

// RuleFlags are the rule knobs (rules §9) shared by every command that plays or solves:
// env.Knobs bound to flags, so the CLI and the Python bridge read them through one parser.
type RuleFlags struct{ env.Knobs }

// register adds a flag per knob of env.KnobTable, in its order, at its default.
func (f *RuleFlags) Register(fs *pflag.FlagSet) {
	f.Knobs = env.DefaultKnobs()
	for _, k := range env.KnobTable {
		fl := fs.VarPF(knobValue{k, &f.Knobs}, k.Name, "", k.Doc)
		fl.DefValue = k.Default()
		if k.Bool {
			fl.NoOptDefVal = "true"
		}
	}
}

// knobValue is one knob of a Knobs as a pflag.Value.
type knobValue struct {
	k  env.Knob
	ks *env.Knobs
}

func (v knobValue) String() string {
	if v.ks == nil { // pflag asks a zero Value for its default
		return v.k.Default()
	}
	return v.k.Get(*v.ks)
}
func (v knobValue) Set(s string) error {
	err := v.k.Set(v.ks, s)
	if ke := (*env.KnobError)(nil); errors.As(err, &ke) {
		return ke.Err // pflag names the flag and the value (FlagMessage words it)
	}
	return err
}
func (v knobValue) IsBoolFlag() bool { return v.k.Bool }
func (v knobValue) Type() string {
	switch {
	case v.k.Bool:
		return "bool"
	case v.k.Default() != "" && strings.Trim(v.k.Default(), "0123456789") == "":
		return "int"
	}
	return "string"
}

// rules turns the flags into env.Rules; every problem is a usage error naming its flag.
func (f *RuleFlags) Rules() (env.Rules, error) {
	r, err := f.Knobs.Rules()
	var ke *env.KnobError
	switch {
	case errors.As(err, &ke):
		return r, Usagef("--%s %v", ke.Knob, ke.Err)
	case err != nil:
		return r, UsageError{err}
	}
	return r, nil
}

// RefuseChangeFlags refuses, for a command of two line-ups kept all match (simulate, solve
// odds), a change knob given on the command line: it cannot apply, and echoing it in the
// rules line would say it did.
func RefuseChangeFlags(cmd *cobra.Command) error {
	for _, k := range env.KnobTable {
		if f := cmd.Flags().Lookup(k.Name); k.Change && f != nil && f.Changed {
			return Usagef("--%s: %s plays two line-ups that never change, so formation changes cannot apply "+
				"(kingoal solve policy or solve game for a side that changes; kingoal arena for agents)", k.Name, cmd.CommandPath())
		}
	}
	return nil
}
