package datasets

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// FileInfo describes any Parquet file with a flat schema.
type FileInfo struct {
	Schema  string   // the kingoal schema tag, "" for a foreign file
	Columns []string // leaf column names, in order
	Types   []string // their types as Parquet names them (logical if any: "INT(32,true)", "STRING"; "LIST<FLOAT>" for a list)
	Kinds   []string // their physical types: BOOLEAN, INT32, INT64, FLOAT, DOUBLE, BYTE_ARRAY, …
	Rows    int64
}

// Value is one cell: int64, uint64, float32 (a FLOAT column: printed as the float32 it is,
// not as 0.6000000238418579), float64, bool, string, nil for a null, or []Value for a list
// column.
type Value = any

// ScanRecords opens any flat Parquet file (ours or another tool's) and streams each row to
// fn as one Value per column (see Value). Corrupt, truncated or
// nested files return an error naming the file.
func ScanRecords(path string, fn func(info FileInfo, row []Value) error) (info FileInfo, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("datasets: %s is corrupt: %v", path, r)
		}
	}()
	f, pf, err := openParquet(path, true)
	if err != nil {
		return info, err
	}
	defer f.Close()
	info, lists, unsigned, err := describe(path, pf)
	if err != nil {
		return info, err
	}
	if fn == nil {
		return info, nil
	}
	r := parquet.NewReader(pf)
	defer r.Close()
	rows := make([]parquet.Row, 256)
	cells := make([]Value, len(info.Columns))
	var seen int64
	for {
		n, rerr := r.ReadRows(rows)
		for _, row := range rows[:n] {
			clear(cells)
			for c := range cells {
				if lists[c] {
					cells[c] = []Value{}
				}
			}
			for _, v := range row {
				c := v.Column()
				switch {
				case c < 0 || c >= len(cells):
				case lists[c]:
					if !v.IsNull() { // an empty list is one null value
						cells[c] = append(cells[c].([]Value), cellOf(v, unsigned[c]))
					}
				default:
					cells[c] = cellOf(v, unsigned[c])
				}
			}
			if err := fn(info, cells); err != nil {
				return info, err
			}
		}
		seen += int64(n)
		if errors.Is(rerr, io.EOF) {
			break
		}
		if rerr != nil {
			return info, fmt.Errorf("datasets: reading %s: %w", path, rerr)
		}
	}
	if seen != info.Rows {
		return info, fmt.Errorf("datasets: %s: read %d rows, the footer says %d", path, seen, info.Rows)
	}
	return info, nil
}

// describe reads a file's columns: names, types, which are 3-level LIST columns
// (name.list.element, a []Value per row) and which integers are unsigned (uint64 seeds).
// Other nesting is an error.
func describe(path string, pf *parquet.File) (info FileInfo, lists, unsigned []bool, err error) {
	info.Schema, _ = pf.Lookup(SchemaKey)
	info.Rows = pf.NumRows()
	for _, col := range pf.Schema().Columns() {
		leaf, _ := pf.Schema().Lookup(col...)
		isList := len(col) == 3 && col[1] == "list" && col[2] == "element"
		if !isList && (len(col) != 1 || leaf.Node.Repeated()) {
			return info, nil, nil, fmt.Errorf("datasets: %s has nested column %v; only flat columns and lists are supported", path, col)
		}
		lists = append(lists, isList)
		info.Columns = append(info.Columns, col[0])
		typ := leaf.Node.Type().String()
		if isList {
			typ = "LIST<" + typ + ">"
		}
		info.Types = append(info.Types, typ)
		info.Kinds = append(info.Kinds, leaf.Node.Type().Kind().String())
		it, isInt := logicalInt(leaf.Node.Type().LogicalType())
		unsigned = append(unsigned, isInt && !it.IsSigned)
	}
	return info, lists, unsigned, nil
}

func cellOf(v parquet.Value, unsigned bool) Value {
	if v.IsNull() {
		return nil
	}
	switch v.Kind() {
	case parquet.Boolean:
		return v.Boolean()
	case parquet.Int32:
		return int64(v.Int32())
	case parquet.Int64:
		if unsigned {
			return v.Uint64()
		}
		return v.Int64()
	case parquet.Float:
		return v.Float()
	case parquet.Double:
		return v.Double()
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return string(v.ByteArray())
	}
	return nil // null (or a type we do not export)
}

// FormatCell writes a cell for CSV: numbers in Go's shortest form, nulls empty, lists as
// JSON arrays.
func FormatCell(v Value) string {
	switch x := v.(type) {
	case nil:
		return ""
	case []Value:
		return string(JSONCell(x))
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// JSONCell returns a cell for JSON: NaN and infinities become null (JSON has no such numbers).
func JSONCell(v Value) json.RawMessage {
	if f, ok := v.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
		return json.RawMessage("null")
	}
	if f, ok := v.(float32); ok && (math.IsNaN(float64(f)) || math.IsInf(float64(f), 0)) {
		return json.RawMessage("null")
	}
	if list, ok := v.([]Value); ok {
		b := []byte{'['}
		for i, x := range list {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, JSONCell(x)...)
		}
		return append(b, ']')
	}
	b, _ := json.Marshal(v)
	return b
}

// logicalInt returns the integer annotation of a logical type, if it has one.
func logicalInt(lt *format.LogicalType) (*format.IntType, bool) {
	if lt == nil {
		return nil, false
	}
	it, ok := lt.Value.(*format.IntType)
	return it, ok
}
