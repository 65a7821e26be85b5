package env

import (
	"fmt"
	"strconv"
	"strings"
)

// KnobTable declares every rule knob once, in docs/rules.md §9's order: its flag name (the
// Python keyword and JSON name are the same with "_"), what it means, and how it reads and
// sets a Knobs value as text. The CLI's flags, the resume comparison, `kingoal rules` and
// the Python bridge's names are made from it; docs/rules.md's table is checked against it.
var KnobTable = []Knob{
	intKnob("throws-per-half", "throws per half", "throws in each regular half", func(k *Knobs) *int { return &k.ThrowsPerHalf }),
	intKnob("extra-throws", "extra-time throws per half", "throws in each extra-time half (0: a level knockout goes straight to penalties)",
		func(k *Knobs) *int { return &k.ExtraThrows }),
	intKnob("moves", "Basic moves per match", "Basic-mode moves per match (0: none)", func(k *Knobs) *int { return &k.Moves }).changes(),
	boolKnob("ties-count", "ties count", "a tied throw consumes a throw and leaves the ball (default: ties are thrown again)",
		func(k *Knobs) *bool { return &k.TiesCount }),
	stringKnob("dynamic-trigger", "dynamic trigger", "which won throws earn a Dynamic shift: win or turnover", func(k *Knobs) *string { return &k.Trigger }).changes(),
	stringKnob("points", "league points", "league points for win,draw,loss", func(k *Knobs) *string { return &k.Points }),
	stringKnob("home-mode", "home mode", "home's mode: basic or dynamic", func(k *Knobs) *string { return &k.HomeMode }).changes(),
	stringKnob("away-mode", "away mode", "away's mode: basic or dynamic", func(k *Knobs) *string { return &k.AwayMode }).changes(),
	boolKnob("knockout", "knockout", "knockout match: a draw goes to extra time, then penalties", func(k *Knobs) *bool { return &k.Knockout }),
}

// A Knob is one rule knob of KnobTable.
type Knob struct {
	Name   string // the CLI's flag name: "throws-per-half"
	Label  string // in words, for tables: "throws per half"
	Doc    string // what it does, for help texts
	Bool   bool   // a switch: the flag takes no value
	Change bool   // a knob of formation changes (meaningless when line-ups never change)
	get    func(Knobs) string
	set    func(*Knobs, string) error
}

// PythonName is the knob's keyword argument in Python and its key in JSON: "throws_per_half".
func (k Knob) PythonName() string { return strings.ReplaceAll(k.Name, "-", "_") }

// Get returns the knob's value in ks as text ("45", "true", "basic").
func (k Knob) Get(ks Knobs) string { return k.get(ks) }

// Set sets the knob in ks from text; it checks the text's type (a number, a boolean), not
// its range: Knobs.Rules checks the values together.
func (k Knob) Set(ks *Knobs, v string) error { return k.set(ks, v) }

// Default is the knob's value in the default rules, as text.
func (k Knob) Default() string { return k.get(DefaultKnobs()) }

func (k Knob) changes() Knob { k.Change = true; return k }

func intKnob(name, label, doc string, field func(*Knobs) *int) Knob {
	return Knob{Name: name, Label: label, Doc: doc,
		get: func(ks Knobs) string { return strconv.Itoa(*field(&ks)) },
		set: func(ks *Knobs, v string) error {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return &KnobError{name, fmt.Errorf("%q: want a whole number", v)}
			}
			*field(ks) = n
			return nil
		}}
}

func boolKnob(name, label, doc string, field func(*Knobs) *bool) Knob {
	return Knob{Name: name, Label: label, Doc: doc, Bool: true,
		get: func(ks Knobs) string { return strconv.FormatBool(*field(&ks)) },
		set: func(ks *Knobs, v string) error {
			b, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				return &KnobError{name, fmt.Errorf("%q: want true or false", v)}
			}
			*field(ks) = b
			return nil
		}}
}

func stringKnob(name, label, doc string, field func(*Knobs) *string) Knob {
	return Knob{Name: name, Label: label, Doc: doc,
		get: func(ks Knobs) string { return *field(&ks) },
		set: func(ks *Knobs, v string) error { *field(ks) = v; return nil }}
}

// KnobNamed returns the knob of flag name, or false.
func KnobNamed(name string) (Knob, bool) {
	for _, k := range KnobTable {
		if k.Name == name {
			return k, true
		}
	}
	return Knob{}, false
}
