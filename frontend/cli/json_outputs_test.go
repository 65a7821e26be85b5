package cli

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/frontend/docgen"
)

// TestJSONOutputsAreTheirTypes: every command of JSONOutputs, run with its arguments, prints
// a document whose keys are its declared type's — every key it prints is declared, and every
// declared key without omitempty is printed — at every level (objects, list elements). So
// the generated reference (docs/reference/json.md, from the types) is what users get.
func TestJSONOutputsAreTheirTypes(t *testing.T) {
	for _, o := range JSONOutputs() {
		t.Run(o.Command, func(t *testing.T) {
			args := slices.Clone(o.Args)
			for i, a := range args {
				if a == OutDir {
					args[i] = filepath.Join(t.TempDir(), "out")
				}
			}
			code, stdout, stderr := run(t, args...)
			if code != 0 {
				t.Fatalf("kingoal %s: exit %d: %s", strings.Join(args, " "), code, stderr)
			}
			var doc any
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
				t.Fatalf("not JSON: %v", err)
			}
			checkKeys(t, o.Command, doc, reflect.TypeOf(o.Value))
		})
	}
}

// checkKeys compares a decoded document with type t, recursively.
func checkKeys(t *testing.T, path string, doc any, ty reflect.Type) {
	t.Helper()
	for ty.Kind() == reflect.Pointer {
		ty = ty.Elem()
	}
	switch v := doc.(type) {
	case nil:
		return
	case []any:
		if ty.Kind() != reflect.Slice && ty.Kind() != reflect.Array {
			t.Errorf("%s: a list, declared %v", path, ty)
			return
		}
		for _, e := range v {
			checkKeys(t, path+"[]", e, ty.Elem())
		}
	case map[string]any:
		if ty.Kind() == reflect.Map {
			return
		}
		if ty.Kind() != reflect.Struct {
			t.Errorf("%s: an object, declared %v", path, ty)
			return
		}
		declared := map[string]reflect.StructField{}
		for i := range ty.NumField() {
			f := ty.Field(i)
			name, omitEmpty, ok := docgen.JSONKey(f)
			if !ok {
				continue
			}
			declared[name] = f
			if _, printed := v[name]; !printed && !omitEmpty {
				t.Errorf("%s.%s: declared, not printed", path, name)
			}
		}
		for k, e := range v {
			f, ok := declared[k]
			if !ok {
				t.Errorf("%s.%s: printed, not declared in %v", path, k, ty)
				continue
			}
			checkKeys(t, path+"."+k, e, f.Type)
		}
	}
}
