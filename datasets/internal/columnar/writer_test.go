package columnar

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// A splitter that fills a column short is refused when the row group is written: never a
// file that lies.
func TestWriterRefusesAColumnFilledShort(t *testing.T) {
	type row struct {
		A int32  `parquet:"a"`
		B string `parquet:"b"`
	}
	c, err := New(&strings.Builder{}, "test", Shape{Schema: parquet.SchemaOf(new(row)), Columns: []string{"a", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	rows := []row{{1, "x"}}
	Fill(c.Int32s(0, 1), rows, func(r *row) int32 { return r.A }) // and b forgotten
	c.RowsAdded(1)
	if err := c.Close(); err == nil || !strings.Contains(err.Error(), "b holds 0 values for 1 rows") {
		t.Fatalf("short column written: %v", err)
	}
}

// The dictionary numbers strings by their bytes, whatever their addresses: equal strings at
// different addresses share a number, and different strings never do — also prefixes of one
// string, which share its address.
func TestDictionaryNumbersByContent(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	var d Dictionary
	byName := map[string]int32{}
	const digits = "0123456789"
	for i := range 20000 {
		s := fmt.Sprint(r.IntN(300)) // the same bytes at a new address every time
		if i%2 == 0 {
			s = digits[:1+r.IntN(len(digits))] // one address, ten strings
		}
		id := d.ID(s)
		if want, ok := byName[s]; ok && want != id {
			t.Fatalf("%q numbered %d, then %d", s, want, id)
		}
		byName[s] = id
		if d.values[id] != s {
			t.Fatalf("%q numbered as %q", s, d.values[id])
		}
	}
	if len(d.values) != len(byName) {
		t.Fatalf("%d values for %d strings", len(d.values), len(byName))
	}
	d.reset()
	if d.ID("x") != 0 || d.ID("") != 1 || d.ID("x") != 0 {
		t.Fatal("reset kept numbers")
	}
}

func TestBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for n := 1; n < 40; n++ {
		v := make([]int64, n)
		for i := range v {
			v[i] = r.Int64N(1000) - 500
		}
		lo, hi := bounds(v)
		if lo != slices.Min(v) || hi != slices.Max(v) {
			t.Fatalf("bounds of %v: %d, %d", v, lo, hi)
		}
	}
}
