package env

import (
	"fmt"
)

// Knobs are the rule knobs as a person writes them — the CLI's rule flags, the Python
// keyword arguments — with docs/rules.md §9's defaults: counts where 0 means "none" and
// names for the modes, the trigger and the points. DefaultKnobs is the default rules;
// Knobs.Rules turns them into Rules, KnobsOf back.
//
// Their JSON names are the Python keyword arguments; Rules are written to JSON as their
// Knobs (rules_json.go).
type Knobs struct {
	Knockout      bool   `json:"knockout"`
	TiesCount     bool   `json:"ties_count"`
	ThrowsPerHalf int    `json:"throws_per_half"` // 1..MaxThrowsPerHalf
	ExtraThrows   int    `json:"extra_throws"`    // 0..MaxThrowsPerHalf; 0: a level knockout goes straight to penalties
	Moves         int    `json:"moves"`           // 0..MaxMoves; 0: no Basic moves
	HomeMode      string `json:"home_mode"`       // basic or dynamic
	AwayMode      string `json:"away_mode"`       // basic or dynamic
	Trigger       string `json:"dynamic_trigger"` // win or turnover
	Points        string `json:"points"`          // win,draw,loss like 3,1,0
}

// DefaultKnobs are the knobs of the default rules.
func DefaultKnobs() Knobs { return KnobsOf(Rules{}) }

// KnobsOf returns the knobs that give r.
func KnobsOf(r Rules) Knobs {
	return Knobs{Knockout: r.Knockout, TiesCount: r.TiesCount, ThrowsPerHalf: r.HalfThrows(), ExtraThrows: r.ExtraThrows(),
		Moves: r.MoveBudget(), HomeMode: r.Modes[Home].String(), AwayMode: r.Modes[Away].String(),
		Trigger: r.DynamicTrigger.String(), Points: r.Points.String()}
}

// KnobError names the knob whose value is wrong, in the knob names of the CLI's flags
// ("throws-per-half"); front ends render the name their way.
type KnobError struct {
	Knob string
	Err  error
}

func (e *KnobError) Error() string { return fmt.Sprintf("env: %s %v", e.Knob, e.Err) }
func (e *KnobError) Unwrap() error { return e.Err }

// Rules checks the knobs and returns the rules they describe; a bad value is a *KnobError.
func (k Knobs) Rules() (Rules, error) {
	bad := func(knob, format string, a ...any) (Rules, error) {
		return Rules{}, &KnobError{knob, fmt.Errorf(format, a...)}
	}
	r := Rules{Knockout: k.Knockout, TiesCount: k.TiesCount, ThrowsPerHalf: k.ThrowsPerHalf}
	if k.ThrowsPerHalf < 1 || k.ThrowsPerHalf > MaxThrowsPerHalf {
		return bad("throws-per-half", "%d: want 1..%d", k.ThrowsPerHalf, MaxThrowsPerHalf)
	}
	counts := []struct {
		knob        string
		v, max, non int
		dst         *int
	}{{"extra-throws", k.ExtraThrows, MaxThrowsPerHalf, NoExtraTime, &r.ExtraThrowsPerHalf}, {"moves", k.Moves, MaxMoves, NoMoves, &r.Moves}}
	for _, c := range counts {
		switch {
		case c.v < 0 || c.v > c.max:
			return bad(c.knob, "%d: want 0..%d", c.v, c.max)
		case c.v == 0:
			*c.dst = c.non
		default:
			*c.dst = c.v
		}
	}
	var err error
	for _, m := range []struct {
		knob, val string
		dst       *Mode
	}{{"home-mode", k.HomeMode, &r.Modes[Home]}, {"away-mode", k.AwayMode, &r.Modes[Away]}} {
		if *m.dst, err = ParseMode(m.val); err != nil {
			return bad(m.knob, "%q: want basic or dynamic", m.val)
		}
	}
	if r.DynamicTrigger, err = ParseTrigger(k.Trigger); err != nil {
		return bad("dynamic-trigger", "%q: want win or turnover", k.Trigger)
	}
	if r.Points, err = parsePoints(k.Points); err != nil {
		return bad("points", "%w", err)
	}
	if err := r.Validate(); err != nil {
		return Rules{}, err
	}
	return r, nil
}
