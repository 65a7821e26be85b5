package main

/*
#include <stdint.h>
*/
import "C"

import (
	"encoding/json"
	"reflect"
	"unsafe"

	"github.com/kingoal/kingoal/datasets"
)

// A table is a Parquet file read into typed columns (datasets.ReadTable) and held until
// Python has copied each column into a NumPy array of its own: one copy of the values, no
// per-cell encoding (read_parquet went through JSON and base64 before: ~870× the file).

// tableInfo is what Python learns of a table to allocate its arrays.
type tableInfo struct {
	Schema  string            `json:"schema"`
	Rows    int64             `json:"rows"`
	Columns []tableColumnInfo `json:"columns"`
}

type tableColumnInfo struct {
	Name   string `json:"name"`
	Type   string `json:"type"` // bool, int32, int64, uint64, float32, float64, string
	List   bool   `json:"list"`
	Values int    `json:"values"` // values (all rows' together for a list column)
	Dict   int    `json:"dict"`   // string columns: distinct values
	Bytes  int    `json:"bytes"`  // string columns: UTF-8 bytes of the distinct values
	Nulls  bool   `json:"nulls"`
}

//export kg_table_open
func kg_table_open(path *C.char, out *C.uint64_t, info **C.char, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	t, err := datasets.ReadTable(C.GoString(path))
	if err != nil {
		return report(inputError{err}, errBuf, errSize)
	}
	ti := tableInfo{Schema: t.Info.Schema, Rows: t.Info.Rows}
	for i := range t.Columns {
		c := &t.Columns[i]
		ci := tableColumnInfo{Name: c.Name, Type: c.Type, List: c.List, Values: c.Len(), Dict: len(c.Dict), Nulls: c.Null != nil}
		for _, s := range c.Dict {
			ci.Bytes += len(s)
		}
		ti.Columns = append(ti.Columns, ci)
	}
	b, _ := json.Marshal(ti)
	*info = C.CString(string(b))
	*out = register(t)
	return ok
}

// What kg_table_copy copies of a column.
const (
	copyValues        = 0 // the values (fixed width); a string column's distinct values' UTF-8 bytes end to end
	copyListOffsets   = 1 // int64[rows+1]: row i's values are [o[i], o[i+1])
	copyStringOffsets = 2 // int64[dict+1]: distinct string k's bytes are [o[k], o[k+1])
	copyNulls         = 3 // uint8[rows]: 1 where the value is null
	copyCodes         = 4 // int32[values]: each value's index among the distinct strings
)

//export kg_table_copy
func kg_table_copy(h C.uint64_t, col C.int, what C.int, dst unsafe.Pointer, size C.int64_t, errBuf *C.char, errSize C.int) (rc C.int) {
	defer guard(&rc, errBuf, errSize)
	t, release, err := acquire[*datasets.Table](h)
	if err != nil {
		return report(err, errBuf, errSize)
	}
	defer release()
	if col < 0 || int(col) >= len(t.Columns) {
		return report(inputf("column %d: the table has %d", int(col), len(t.Columns)), errBuf, errSize)
	}
	src := columnBytes(&t.Columns[col], int(what))
	if src == nil && what != copyValues || int64(len(src)) != int64(size) {
		return report(inputf("column %d part %d: %d bytes, the buffer holds %d", int(col), int(what), len(src), int64(size)), errBuf, errSize)
	}
	if size > 0 {
		copy(unsafe.Slice((*byte)(dst), int(size)), src)
	}
	return ok
}

// columnBytes is a part of c as the bytes NumPy reads: the machine's own layout, which
// NumPy's native dtypes are.
func columnBytes(c *datasets.TableColumn, what int) []byte {
	switch what {
	case copyListOffsets:
		return asBytes(c.Offsets)
	case copyStringOffsets:
		if c.Type != "string" {
			return nil
		}
		o := make([]int64, 0, len(c.Dict)+1)
		n := int64(0)
		o = append(o, 0)
		for _, s := range c.Dict {
			n += int64(len(s))
			o = append(o, n)
		}
		return asBytes(o)
	case copyCodes:
		if c.Type != "string" {
			return nil
		}
		return asBytes(c.Codes)
	case copyNulls:
		if c.Null == nil {
			return nil
		}
		return asBytes(c.Null)
	}
	if c.Type != "string" {
		return sliceBytes(c.Values())
	}
	b := make([]byte, 0)
	for _, s := range c.Dict {
		b = append(b, s...)
	}
	return b
}

// asBytes views a slice of fixed-size values as its bytes (a bool is one byte, 0 or 1).
func asBytes[T bool | int32 | int64 | uint64 | float32 | float64](v []T) []byte { return sliceBytes(v) }

// sliceBytes views v, a slice of fixed-size values, as its bytes.
func sliceBytes(v any) []byte {
	rv := reflect.ValueOf(v)
	if rv.Len() == 0 {
		return []byte{}
	}
	return unsafe.Slice((*byte)(rv.UnsafePointer()), rv.Len()*int(rv.Type().Elem().Size()))
}
