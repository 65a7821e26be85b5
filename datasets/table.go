package datasets

import (
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"

	"github.com/parquet-go/parquet-go"
)

// Table is a whole file's columns in memory, each in one typed slice: what Python's
// kingoal.read_parquet hands NumPy without a value per cell crossing (through JSON and
// base64 it took ~870 times the file's size).
type Table struct {
	Info    FileInfo
	Columns []TableColumn
}

// TableColumn is one column of a Table. The value slice its Type names is set — for a list
// column, the values of all its rows end to end, row i's being Offsets[i]..Offsets[i+1].
// Strings are dictionary codes into Dict (a column of millions of throws has a handful of
// distinct strings). A flat numeric column with nulls is Float64 with NaN for them; Null lists
// the nulls of a flat column that has any (nil otherwise). A null element of a list is left
// out of it.
type TableColumn struct {
	Name    string
	Type    string // bool, int32, int64, uint64, float32, float64 or string
	List    bool
	Offsets []int64 // list columns: len = rows + 1
	Bool    []bool
	Int32   []int32
	Int64   []int64
	Uint64  []uint64
	Float32 []float32
	Float64 []float64
	Codes   []int32  // string columns: an index into Dict for each value
	Dict    []string // string columns: each distinct value once, in order of appearance
	Null    []bool

	index map[string]int32 // Dict's, while reading
	rows  int              // rows begun, while reading a list column
}

// Len is the number of values (a list column's: of all its rows together).
func (c *TableColumn) Len() int { return reflect.ValueOf(c.Values()).Len() }

// Values is the column's values as the one slice its Type names ([]bool, []int32, []int64,
// []uint64, []float32 or []float64); a string column's are its Codes.
func (c *TableColumn) Values() any {
	switch c.Type {
	case "bool":
		return c.Bool
	case "int32":
		return c.Int32
	case "int64":
		return c.Int64
	case "uint64":
		return c.Uint64
	case "float32":
		return c.Float32
	case "float64":
		return c.Float64
	}
	return c.Codes
}

// ReadTable reads a flat file (lists allowed, as for ScanRecords) column by column into
// typed columns, after the checks every reader here makes (checksum, footer, page headers;
// each page's CRC as it is decoded).
func ReadTable(path string) (t *Table, err error) {
	defer func() { // see ScanRecords: a damaged file is an error, never a crash
		if r := recover(); r != nil {
			t, err = nil, fmt.Errorf("datasets: %s is corrupt: %v", path, r)
		}
	}()
	f, pf, err := openParquet(path, true)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, lists, unsigned, err := describe(path, pf)
	if err != nil {
		return nil, err
	}
	t = &Table{Info: info, Columns: make([]TableColumn, len(info.Columns))}
	for i, name := range info.Columns {
		t.Columns[i] = TableColumn{Name: name, Type: tableType(info.Kinds[i], unsigned[i]), List: lists[i]}
		if lists[i] {
			t.Columns[i].Offsets = []int64{0}
		}
	}
	maxDef := make([]int, len(info.Columns))
	for i, path := range pf.Schema().Columns() {
		leaf, _ := pf.Schema().Lookup(path...)
		maxDef[i] = leaf.MaxDefinitionLevel
	}
	buf := make([]parquet.Value, 4096)
	for _, rg := range pf.RowGroups() {
		for i, cc := range rg.ColumnChunks() {
			if err := t.Columns[i].readChunk(cc, buf, maxDef[i]); err != nil {
				return nil, fmt.Errorf("datasets: reading %s, column %s: %w", path, info.Columns[i], err)
			}
		}
	}
	for i := range t.Columns {
		c := &t.Columns[i]
		c.index = nil
		rows := c.Len()
		if c.List {
			c.Offsets = append(c.Offsets, int64(c.Len()))
			rows = len(c.Offsets) - 1
			if c.rows == 0 { // no row at all: the first boundary was never a row's end
				c.Offsets = c.Offsets[:1]
				rows = 0
			}
		}
		if int64(rows) != info.Rows {
			return nil, fmt.Errorf("datasets: %s: column %s has %d rows, the footer says %d", path, c.Name, rows, info.Rows)
		}
		if c.Null != nil && c.Type != "string" {
			c.toFloat64()
		}
	}
	return t, nil
}

// readChunk appends one column chunk's values.
func (c *TableColumn) readChunk(cc parquet.ColumnChunk, buf []parquet.Value, maxDef int) error {
	pages := cc.Pages()
	defer pages.Close()
	for {
		p, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		vr := p.Values()
		if maxDef == 0 && !c.List { // required and flat: no levels to read, typed if the page can
			done, err := c.readTyped(vr)
			if done || err != nil {
				parquet.Release(p)
				if err != nil {
					return err
				}
				continue
			}
		}
		for {
			n, err := vr.ReadValues(buf)
			for _, v := range buf[:n] {
				c.addValue(v, maxDef)
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				parquet.Release(p)
				return err
			}
		}
		parquet.Release(p)
	}
}

// readTyped appends a page's values through its typed reader, without a parquet.Value each
// (a several-fold faster read of the numbers); done is false when the page has none for c.
func (c *TableColumn) readTyped(vr parquet.ValueReader) (done bool, err error) {
	switch c.Type {
	case "bool":
		if r, ok := vr.(parquet.BooleanReader); ok {
			c.Bool, err = readAll(c.Bool, r.ReadBooleans)
			return true, err
		}
	case "int32":
		if r, ok := vr.(parquet.Int32Reader); ok {
			c.Int32, err = readAll(c.Int32, r.ReadInt32s)
			return true, err
		}
	case "int64":
		if r, ok := vr.(parquet.Int64Reader); ok {
			c.Int64, err = readAll(c.Int64, r.ReadInt64s)
			return true, err
		}
	case "float32":
		if r, ok := vr.(parquet.FloatReader); ok {
			c.Float32, err = readAll(c.Float32, r.ReadFloats)
			return true, err
		}
	case "float64":
		if r, ok := vr.(parquet.DoubleReader); ok {
			c.Float64, err = readAll(c.Float64, r.ReadDoubles)
			return true, err
		}
	}
	return false, nil
}

// readAll appends what read gives until io.EOF.
func readAll[T any](dst []T, read func([]T) (int, error)) ([]T, error) {
	for {
		if len(dst) == cap(dst) {
			dst = append(dst, make([]T, max(4096, len(dst)))...)[:len(dst)]
		}
		n, err := read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if errors.Is(err, io.EOF) {
			return dst, nil
		}
		if err != nil {
			return dst, err
		}
		if n == 0 {
			return dst, io.ErrNoProgress
		}
	}
}

// addValue appends one value as a page gives it: with its levels, for list columns and nulls.
func (c *TableColumn) addValue(v parquet.Value, maxDef int) {
	if c.List {
		if v.RepetitionLevel() == 0 { // a row begins: the previous one ends here
			if c.rows > 0 {
				c.Offsets = append(c.Offsets, int64(c.Len()))
			}
			c.rows++
		}
		if v.DefinitionLevel() == maxDef { // else an empty list, or a null element
			c.add(v)
		}
		return
	}
	if v.IsNull() && c.Null == nil {
		c.Null = make([]bool, c.Len(), c.Len()+1)
	}
	if c.Null != nil {
		c.Null = append(c.Null, v.IsNull())
	}
	c.add(v)
}

// tableType is the column type a physical Parquet type reads as.
func tableType(physical string, unsigned bool) string {
	switch physical {
	case "BOOLEAN":
		return "bool"
	case "INT32":
		return "int32"
	case "INT64":
		if unsigned {
			return "uint64"
		}
		return "int64"
	case "FLOAT":
		return "float32"
	case "DOUBLE":
		return "float64"
	}
	return "string"
}

// add appends v (a null as a zero, NaN for floats, "" for strings; Null says which).
func (c *TableColumn) add(v parquet.Value) {
	null := v.IsNull()
	switch c.Type {
	case "bool":
		c.Bool = append(c.Bool, !null && v.Boolean())
	case "int32":
		var n int32
		if !null {
			n = v.Int32()
		}
		c.Int32 = append(c.Int32, n)
	case "int64":
		var n int64
		if !null {
			n = v.Int64()
		}
		c.Int64 = append(c.Int64, n)
	case "uint64":
		var n uint64
		if !null {
			n = v.Uint64()
		}
		c.Uint64 = append(c.Uint64, n)
	case "float32":
		f := float32(math.NaN())
		if !null {
			f = v.Float()
		}
		c.Float32 = append(c.Float32, f)
	case "float64":
		f := math.NaN()
		if !null {
			f = v.Double()
		}
		c.Float64 = append(c.Float64, f)
	default:
		var b []byte
		if !null {
			b = v.ByteArray()
		}
		code, seen := c.index[string(b)] // no allocation for the lookup
		if !seen {
			if c.index == nil {
				c.index = map[string]int32{}
			}
			code = int32(len(c.Dict))
			c.Dict = append(c.Dict, string(b))
			c.index[c.Dict[code]] = code
		}
		c.Codes = append(c.Codes, code)
	}
}

// toFloat64 makes a numeric column with nulls float64, NaN for the nulls (pandas' way: a
// null has no integer).
func (c *TableColumn) toFloat64() {
	f := make([]float64, len(c.Null))
	for i, null := range c.Null {
		switch {
		case null:
			f[i] = math.NaN()
		case c.Type == "bool":
			f[i] = float64(boolInt(c.Bool[i]))
		case c.Type == "int32":
			f[i] = float64(c.Int32[i])
		case c.Type == "int64":
			f[i] = float64(c.Int64[i])
		case c.Type == "uint64":
			f[i] = float64(c.Uint64[i])
		case c.Type == "float32":
			f[i] = float64(c.Float32[i])
		default:
			f[i] = c.Float64[i]
		}
	}
	*c = TableColumn{Name: c.Name, Type: "float64", Float64: f, Null: c.Null}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
