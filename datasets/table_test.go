package datasets

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// foreignRow is a file another tool might write: optional columns with nulls, unsigned
// integers, ragged and empty lists.
type foreignRow struct {
	ID    int64     `parquet:"id"`
	Seed  uint64    `parquet:"seed"`
	Small *int32    `parquet:"small,optional"`
	Name  *string   `parquet:"name,optional"`
	Score float32   `parquet:"score"`
	On    bool      `parquet:"on"`
	Xs    []float64 `parquet:"xs,list"`
}

// TestReadTableAgreesWithScanRecords reads files of our writers and a foreign one column by
// column (ReadTable) and row by row (ScanRecords, the reader inspect and export use): every
// cell must agree, nulls and list boundaries included.
func TestReadTableAgreesWithScanRecords(t *testing.T) {
	dir := t.TempDir()
	files := map[string]func(string) error{
		"throws.parquet":  func(p string) error { return WriteParquet(p, ThrowsSchema, randomThrows(70_000, 5)) }, // two row groups
		"matches.parquet": func(p string) error { return WriteParquet(p, MatchesSchema, randomMatches(300, 6)) },
		"foreign.parquet": func(p string) error {
			f, err := os.Create(p)
			if err != nil {
				return err
			}
			w := parquet.NewGenericWriter[foreignRow](f)
			var rows []foreignRow
			for i := range 5000 {
				r := foreignRow{ID: int64(i), Seed: math.MaxUint64 - uint64(i), Score: float32(i) / 3, On: i%3 == 0}
				if i%4 != 0 {
					n, s := int32(i), string(rune('a'+i%26))
					r.Small, r.Name = &n, &s
				}
				for k := range i % 5 { // 0..4 elements: empty lists too
					r.Xs = append(r.Xs, float64(i*10+k))
				}
				rows = append(rows, r)
			}
			if _, err := w.Write(rows); err != nil {
				return err
			}
			if err := w.Close(); err != nil {
				return err
			}
			return f.Close()
		},
	}
	for name, write := range files {
		path := filepath.Join(dir, name)
		if err := write(path); err != nil {
			t.Fatal(err)
		}
		tab, err := ReadTable(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		row := 0
		_, err = ScanRecords(path, func(info FileInfo, cells []Value) error {
			for i, want := range cells {
				if got := tab.Columns[i].cell(row); !sameCell(got, want) {
					t.Fatalf("%s row %d column %s: table %#v, records %#v", name, row, info.Columns[i], got, want)
				}
			}
			row++
			return nil
		})
		if err != nil || int64(row) != tab.Info.Rows {
			t.Fatalf("%s: %d rows scanned of %d (%v)", name, row, tab.Info.Rows, err)
		}
	}
}

// cell is row r of c as ScanRecords gives it.
func (c *TableColumn) cell(r int) Value {
	if c.List {
		var l []Value
		for k := c.Offsets[r]; k < c.Offsets[r+1]; k++ {
			l = append(l, c.value(int(k)))
		}
		if l == nil {
			l = []Value{}
		}
		return l
	}
	if c.Null != nil && c.Null[r] {
		return nil
	}
	return c.value(r)
}

func (c *TableColumn) value(k int) Value {
	switch c.Type {
	case "bool":
		return c.Bool[k]
	case "int32":
		return int64(c.Int32[k])
	case "int64":
		return c.Int64[k]
	case "uint64":
		return c.Uint64[k]
	case "float32":
		return c.Float32[k]
	case "float64":
		return c.Float64[k]
	}
	return c.Dict[c.Codes[k]]
}

// sameCell compares cells, a numeric column with nulls being float64 in a table.
func sameCell(got, want Value) bool {
	if f, isFloat := got.(float64); isFloat {
		switch w := want.(type) {
		case int64:
			return f == float64(w)
		case nil:
			return math.IsNaN(f)
		}
	}
	return reflect.DeepEqual(got, want)
}
