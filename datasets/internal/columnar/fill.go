package columnar

import "github.com/parquet-go/parquet-go"

// Shape is what a columnar file is made of.
type Shape struct {
	Schema  *parquet.Schema // of the rows the file holds
	Columns []string        // its leaf columns, in order (New checks them against Schema)
	Bounded []string        // the integer columns given min/max statistics
}

// Fill sets dst[i] to get(&rows[i]) for every row: a splitter's loop for one column, which
// the compiler reduces to loads and stores.
func Fill[R, V any](dst []V, rows []R, get func(*R) V) {
	dst = dst[:len(rows)]
	for i := range rows {
		dst[i] = get(&rows[i])
	}
}

// FillStrings grows string column j by the rows' values, numbered by its dictionary.
func FillStrings[R any](c *Writer, j int, rows []R, get func(*R) string) {
	dst, d := c.Strings(j, len(rows))
	for i := range rows {
		dst[i] = d.ID(get(&rows[i]))
	}
}

// FillLists grows list column j by the rows' lists, appended to the column's values by add.
func FillLists[R any](c *Writer, j int, rows []R, add func(r *R, dst []int32) []int32) {
	lens, values := c.Int32Lists(j, len(rows))
	for i := range rows {
		before := len(*values)
		*values = add(&rows[i], *values)
		lens[i] = int32(len(*values) - before)
	}
}
