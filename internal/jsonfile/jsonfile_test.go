package jsonfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

type file struct {
	Format string            `json:"format"`
	Seed   uint64            `json:"seed"`
	Agents []string          `json:"agents"`
	Note   string            `json:"note,omitempty"`
	Map    map[string]string `json:"map,omitempty"`
}

func TestRoundTripAndRefusals(t *testing.T) {
	in := file{Format: "x", Seed: 1<<63 + 5, Agents: []string{"a", "b"}, Map: map[string]string{"k": "v"}}
	var b bytes.Buffer
	if err := Encode(&b, in, true); err != nil {
		t.Fatal(err)
	}
	var out file
	if err := Decode(b.Bytes(), &out, "format", "seed", "agents"); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	var compact bytes.Buffer
	Encode(&compact, in, false)
	if err := Decode(compact.Bytes(), &out, "format"); err != nil || bytes.Contains(compact.Bytes(), []byte("\n ")) {
		t.Fatalf("compact: %v\n%s", err, compact.String())
	}
	if out.Seed != in.Seed || out.Map["k"] != "v" || len(out.Agents) != 2 {
		t.Fatalf("round trip: %+v", out)
	}
	text := b.String()
	for name, bad := range map[string]string{
		"edited":        strings.Replace(text, `"seed": 9223372036854775813`, `"seed": 9223372036854775814`, 1),
		"one byte":      strings.Replace(text, `"a"`, `"A"`, 1),
		"sum moved":     strings.Replace(text, `"format": "x",`, `"checksum":"00", "format": "x",`, 1),
		"unknown key":   `{"format": "x", "seed": 1, "agents": [], "sede": 2}`,
		"missing seed":  `{"format": "x", "agents": []}`,
		"not an object": `[1, 2]`,
	} {
		if err := Decode([]byte(bad), &out, "format", "seed", "agents"); err == nil {
			t.Errorf("%s: accepted\n%s", name, bad)
		} else if strings.HasPrefix(name, "edited") && !errors.Is(err, ErrChecksum) {
			t.Errorf("%s: %v, want ErrChecksum", name, err)
		}
	}
	// A file of an earlier build: no checksum, read as it is.
	if err := Decode([]byte(`{"format": "x", "seed": 2, "agents": ["a"]}`), &out, "format", "seed"); err != nil || out.Seed != 2 {
		t.Fatalf("a file without a checksum: %v", err)
	}
	var empty struct{}
	b.Reset()
	Encode(&b, empty, true)
	if err := Decode(b.Bytes(), &empty); err != nil {
		t.Fatalf("empty object: %v\n%s", err, b.String())
	}
}

func FuzzDecode(f *testing.F) {
	var b bytes.Buffer
	Encode(&b, file{Format: "x", Agents: []string{"a"}}, true)
	f.Add(b.Bytes())
	f.Add([]byte(`{"format": "x", "seed": 1, "agents": []}`))
	f.Add([]byte(`{"checksum":"` + strings.Repeat("0", 64) + `"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var v file
		if err := Decode(data, &v, "format"); err != nil {
			return
		}
		// What Decode accepts, Encode writes back and Decode reads again the same.
		var b bytes.Buffer
		if err := Encode(&b, v, len(data)%2 == 0); err != nil {
			t.Fatal(err)
		}
		var again file
		if err := Decode(b.Bytes(), &again, "format"); err != nil {
			t.Fatalf("re-encoded: %v", err)
		}
	})
}

// A decoding error reads without Go's prefix and still unwraps to encoding/json's error.
func TestDecodeErrorsUnwrap(t *testing.T) {
	var v struct{ A int }
	err := Decode([]byte(`{"A": "x"}`), &v)
	var te *json.UnmarshalTypeError
	if err == nil || strings.HasPrefix(err.Error(), "json: ") || !errors.As(err, &te) {
		t.Fatalf("%v (%T)", err, err)
	}
}
