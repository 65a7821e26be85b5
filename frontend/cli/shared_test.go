package cli

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/frontend/cli/command"
)

func TestSignedNumbersHaveNoSignedZero(t *testing.T) {
	for _, c := range []struct {
		x    float64
		prec int
		want string
	}{{0, 0, "0"}, {-0.3, 0, "0"}, {0.4, 0, "0"}, {12.6, 0, "+13"}, {-200, 0, "-200"}, {-0.00001, 4, "0.0000"}, {0.0387, 4, "+0.0387"}} {
		if got := command.Signedf(c.x, c.prec); got != c.want {
			t.Errorf("signedf(%v, %d) = %q, want %q", c.x, c.prec, got, c.want)
		}
	}
	if command.Signed(0) != "0" || command.Signed(3) != "+3" || command.Signed(-2) != "-2" {
		t.Error("signed")
	}
}

func TestJSONHasNoNegativeZero(t *testing.T) {
	var b strings.Builder
	negZero := math.Copysign(0, -1)
	if err := command.WriteJSON(&b, map[string]any{"away_best": negZero, "list": []float64{negZero, -0.5, 0}, "text": "x: -0, y", "n": -10}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, `"away_best": 0,`) || !strings.Contains(out, "[\n    0,\n    -0.5,") || !strings.Contains(out, `"x: -0, y"`) ||
		!strings.Contains(out, "-10") {
		t.Fatalf("%s", out)
	}
}

// FuzzWithoutNegativeZero: whatever the strings and numbers, the rewritten JSON is valid and
// means the same but for -0 read as 0.
func FuzzWithoutNegativeZero(f *testing.F) {
	f.Add("x: -0, y", math.Copysign(0, -1), 3.5)
	f.Add(`\"-0`, 0.0, math.Copysign(0, -1))
	f.Fuzz(func(t *testing.T, s string, a, b float64) {
		if math.IsNaN(a) || math.IsInf(a, 0) || math.IsNaN(b) || math.IsInf(b, 0) {
			return
		}
		in := map[string]any{"s": s, "a": a, "l": []any{b, s, a}}
		var w strings.Builder
		if err := command.WriteJSON(&w, in); err != nil {
			return // a string that is not UTF-8 is encoding/json's business
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(w.String()), &got); err != nil {
			t.Fatalf("invalid JSON %v:\n%s", err, w.String())
		}
		if got["s"] != s && strings.ToValidUTF8(s, "\uFFFD") == s || got["a"].(float64) != a || got["l"].([]any)[1] != got["s"] {
			t.Fatalf("changed: %v from %v", got, in)
		}
	})
}
