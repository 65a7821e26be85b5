package env_test

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/env"
)

// The table names every field of Knobs once: setting a knob changes its field alone, and the
// JSON names of Knobs (Python's keywords) are the table's, no more and no fewer.
func TestKnobTableCoversKnobs(t *testing.T) {
	other := map[string]string{"throws-per-half": "7", "extra-throws": "3", "moves": "1", "ties-count": "true", "dynamic-trigger": "turnover",
		"points": "2,1,0", "home-mode": "dynamic", "away-mode": "dynamic", "knockout": "true"}
	if len(other) != len(env.KnobTable) {
		t.Fatalf("the test knows %d knobs, the table has %d", len(other), len(env.KnobTable))
	}
	for _, k := range env.KnobTable {
		ks := env.DefaultKnobs()
		if err := k.Set(&ks, other[k.Name]); err != nil {
			t.Fatal(err)
		}
		for _, o := range env.KnobTable {
			changed := o.Get(ks) != o.Default()
			if changed != (o.Name == k.Name) {
				t.Fatalf("setting --%s changed --%s: %v", k.Name, o.Name, changed)
			}
		}
		if _, err := ks.Rules(); err != nil {
			t.Fatalf("--%s %s: %v", k.Name, other[k.Name], err)
		}
		if err := k.Set(&ks, "x"); k.Name != "points" && !strings.Contains(k.Name, "mode") && k.Name != "dynamic-trigger" && err == nil {
			t.Fatalf("--%s x accepted", k.Name)
		}
	}
	b, _ := json.Marshal(env.DefaultKnobs())
	var keys map[string]any
	json.Unmarshal(b, &keys)
	for _, k := range env.KnobTable {
		if _, ok := keys[k.PythonName()]; !ok {
			t.Errorf("Knobs has no JSON key %s", k.PythonName())
		}
		delete(keys, k.PythonName())
	}
	if len(keys) > 0 {
		t.Errorf("Knobs' JSON keys not in the table: %v", keys)
	}
}

// docs/rules.md §9 names exactly the table's flags.
func TestRulesPageListsEveryKnob(t *testing.T) {
	b, err := os.ReadFile("../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	start := strings.Index(page, "## 9. The knobs")
	end := strings.Index(page, "## 10.")
	if start < 0 || end < start {
		t.Fatal("docs/rules.md has no §9 before §10")
	}
	var onPage, inTable []string
	for _, m := range regexp.MustCompile("--([a-z][a-z-]*)").FindAllStringSubmatch(page[start:end], -1) {
		if !slices.Contains(onPage, m[1]) {
			onPage = append(onPage, m[1])
		}
	}
	for _, k := range env.KnobTable {
		inTable = append(inTable, k.Name)
	}
	slices.Sort(onPage)
	slices.Sort(inTable)
	if !slices.Equal(onPage, inTable) {
		t.Fatalf("docs/rules.md §9 names %v; the knob table %v", onPage, inTable)
	}
}
