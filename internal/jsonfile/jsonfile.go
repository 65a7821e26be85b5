// Package jsonfile reads and writes the JSON files kingoal keeps beside its data — run.json,
// Q-learning models, the exploitability cache — strictly: a key the reader does not know, or
// a required key missing, is an error (a misspelt or dropped setting would otherwise run
// with its zero value), and every file carries a checksum of its content, so a file edited
// or damaged after it was written is refused rather than trusted.
//
// The checksum is the SHA-256 of the file's text without it, kept as its last key
// ("checksum", written compact). Files an earlier build wrote have none and are read as
// they are.
package jsonfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
)

// ErrChecksum is wrapped by the error for a file whose content is not what was written.
var ErrChecksum = errors.New("its checksum does not match its content: edited or damaged after it was written")

// Encode writes v as JSON (indented for people, or compact for large files) with its
// checksum as the last key, as Decode reads it.
func Encode(w io.Writer, v any, indent bool) error {
	var body []byte
	var err error
	if indent {
		body, err = json.MarshalIndent(v, "", "  ")
	} else {
		body, err = json.Marshal(v)
	}
	if err != nil {
		return err
	}
	if len(body) < 2 || body[0] != '{' || body[len(body)-1] != '}' {
		return fmt.Errorf("jsonfile: %T is not a JSON object", v)
	}
	open := bytes.TrimRight(body[:len(body)-1], " \n") // the object without its closing brace
	sum := sha256.Sum256(append(open[:len(open):len(open)], '}'))
	sep := ","
	if len(open) == 1 { // "{": no key before the checksum
		sep = ""
	}
	key, end := `"checksum":"`, "}\n"
	if indent { // the checksum on its own line, as every other key
		key, end = "\n  \"checksum\": \"", "\n}\n"
	}
	_, err = fmt.Fprintf(w, "%s%s%s%s\"%s", open, sep, key, hex.EncodeToString(sum[:]), end)
	return err
}

var checksumAtEnd = regexp.MustCompile(`,?\s*"checksum":\s*"([0-9a-f]{64})"\s*\}\n?$`)

// Decode reads a JSON object from data into v, refusing unknown keys, a missing required key
// (by its JSON name) and a checksum that does not match its content. Its errors name no
// file: the caller says which.
func Decode(data []byte, v any, required ...string) error {
	body := data
	if m := checksumAtEnd.FindSubmatchIndex(data); m != nil {
		body = append(append([]byte(nil), data[:m[0]]...), '}')
		sum := sha256.Sum256(body)
		if hex.EncodeToString(sum[:]) != string(data[m[2]:m[3]]) {
			return ErrChecksum
		}
	} else if bytes.Contains(data, []byte(`"checksum"`)) {
		return fmt.Errorf("%w (the checksum is not where it is written)", ErrChecksum)
	}
	if err := Require(body, required...); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return Readable(err)
	}
	return nil
}

// Readable is a decoding error of encoding/json in a reader's words: shown without Go's
// "json: " prefix, and still unwrapping to the original (errors.As finds a
// *json.SyntaxError through it).
func Readable(err error) error { return readableError{err} }

type readableError struct{ err error }

func (e readableError) Error() string { return strings.TrimPrefix(e.err.Error(), "json: ") }
func (e readableError) Unwrap() error { return e.err }

// Require returns an error naming the keys of keys the JSON object in data lacks (for a
// reader that checks what a file is before what it holds).
func Require(data []byte, keys ...string) error {
	var have map[string]json.RawMessage
	if err := json.Unmarshal(data, &have); err != nil {
		return fmt.Errorf("not a JSON object: %v", err)
	}
	var missing []string
	for _, k := range keys {
		if _, ok := have[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return fmt.Errorf("it lacks %s", strings.Join(missing, ", "))
	}
	return nil
}
