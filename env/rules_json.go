package env

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode"
	"unicode/utf8"
)

// MarshalJSON writes r as its Knobs — {"knockout":false,"ties_count":false,
// "throws_per_half":45,…,"home_mode":"basic",…} — the names and words people use, not Go's.
func (r Rules) MarshalJSON() ([]byte, error) { return json.Marshal(KnobsOf(r)) }

// UnmarshalJSON reads the Knobs MarshalJSON writes: an unknown key is refused, a missing knob
// is its default, and the values are checked (Knobs.Rules). Files written before 0.9.0 held
// Go's field names ({"ThrowsPerHalf":45,…}); those still read, as they were written.
func (r *Rules) UnmarshalJSON(data []byte) error {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(data, &keys); err != nil {
		return fmt.Errorf("env: rules: %w", err)
	}
	for k := range keys {
		if first, _ := utf8.DecodeRuneInString(k); unicode.IsUpper(first) {
			if err := strictDecode(data, (*goFieldRules)(r)); err != nil {
				return err
			}
			return r.Validate()
		}
	}
	k := DefaultKnobs()
	if err := strictDecode(data, &k); err != nil {
		return err
	}
	rules, err := k.Rules()
	if err != nil {
		return err
	}
	*r = rules
	return nil
}

// goFieldRules are Rules without their JSON methods: the form of files before 0.9.0.
type goFieldRules Rules

func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("env: rules: %w", err)
	}
	return nil
}
