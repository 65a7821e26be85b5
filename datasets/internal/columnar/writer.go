package columnar

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"slices"
	"sync"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// MaxDictionary bounds a column chunk's dictionary; a chunk with more distinct strings is
// written plain (only --dice's dice lists come near it).
const MaxDictionary = 1 << 12

// columnKind is how a column holds its values until its row group is written.
type columnKind uint8

const (
	int32Column columnKind = iota
	int64Column
	boolColumn
	stringColumn
	int32ListColumn // a required list of required int32s (the dice shown)
)

// column buffers one column of the current row group.
type column struct {
	kind  columnKind
	stats bool // write min/max (a bounded column of signed integers)
	typ   format.Type
	path  string   // the field's name (a list's: its group's)
	leaf  []string // the leaf's path in the schema
	i32   []int32  // the values (a list column's: every row's, one after another)
	lens  []int32  // a list column's: how many values each row has
	i64   []int64
	bools []bool
	ids   []int32                 // strings, as indexes into dict
	enum  func(code int32) string // if set, ids are codes and this names them (dict is built from it)
	dict  *Dictionary             // strings of the row group (apart: its cache would spread the columns' headers over many cache lines)
}

// columnar writes rows of one flat schema as a Parquet file.
type Writer struct {
	layout   *layout
	w        *bufio.Writer
	offset   int64
	crc      uint32              // CRC-32 of every byte written so far (ChecksumKey)
	meta     format.FileMetaData // schema elements and column orders from parquet-go; row groups so far
	cols     []column
	rows     int    // rows buffered in cols
	page     []byte // a data page being written
	dictPage []byte // its Dictionary
	zpage    []byte // compressed
	scratch  []byte
	rep, def []uint8 // a list column's levels
}

var magic = []byte("PAR1")

// writerFunc is an io.Writer of a write method (the chunks a merge copies are counted and
// checksummed like every other byte).
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// New starts a file of shape sh on w, tagged tag. The shape's columns must be
// parquet-go's for its schema, in order.
func New(w io.Writer, tag string, sh Shape) (*Writer, error) {
	l, err := layoutOf(sh.Schema)
	if err != nil {
		return nil, err
	}
	if len(l.cols) != len(sh.Columns) {
		return nil, fmt.Errorf("the columnar writer fills %d columns of %s, which has %d", len(sh.Columns), tag, len(l.cols))
	}
	for i, col := range l.cols {
		if col.path != sh.Columns[i] {
			return nil, fmt.Errorf("the columnar writer fills column %d of %s as %s; it is %s", i, tag, sh.Columns[i], col.path)
		}
	}
	// Buffers come from the files written before: a shard's columns grow once per run,
	// not once per file.
	c, _ := l.pool.Get().(*Writer)
	if c == nil {
		c = &Writer{w: bufio.NewWriterSize(w, 1<<18), layout: l}
		for _, col := range l.cols {
			c.cols = append(c.cols, column{kind: col.kind, typ: col.typ, path: col.path, leaf: col.leaf})
			if col.kind == stringColumn {
				c.cols[len(c.cols)-1].dict = new(Dictionary)
			}
		}
	}
	for i := range c.cols {
		c.cols[i].stats = l.cols[i].stats && slices.Contains(sh.Bounded, c.cols[i].path)
	}
	c.w.Reset(w)
	c.offset, c.crc = 0, 0
	c.meta = format.FileMetaData{Version: 2, Schema: l.schema, ColumnOrders: l.orders, CreatedBy: CreatedBy,
		KeyValueMetadata: []format.KeyValue{{Key: SchemaKey, Value: tag}}}
	if _, err := c.write(magic); err != nil {
		return nil, err
	}
	return c, nil
}

// layout is what a columnar file takes from parquet-go: the schema elements and column
// orders of an empty file it writes for the schema, and each leaf's kind.
type layout struct {
	schema []format.SchemaElement
	orders []format.ColumnOrder
	cols   []column  // kind, type and name of each leaf; stats marks the signed integers (they may be bounded)
	pool   sync.Pool // of *Writer, for files of this layout
}

var layouts sync.Map // *parquet.Schema → *layout (parquet.SchemaOf caches schemas by type)

func layoutOf(schema *parquet.Schema) (*layout, error) {
	if l, ok := layouts.Load(schema); ok {
		return l.(*layout), nil
	}
	var tmpl bytes.Buffer
	if err := parquet.NewWriter(&tmpl, schema).Close(); err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(bytes.NewReader(tmpl.Bytes()), int64(tmpl.Len()))
	if err != nil {
		return nil, err
	}
	m := pf.Metadata()
	l := &layout{schema: m.Schema, orders: m.ColumnOrders}
	for i := 1; i < len(m.Schema); i++ {
		e := m.Schema[i]
		col := column{path: e.Name, leaf: []string{e.Name}}
		if isInt32List(m.Schema[i:]) {
			e, i = m.Schema[i+2], i+2
			col.kind, col.typ, col.leaf = int32ListColumn, format.Int32, []string{col.path, m.Schema[i-1].Name, e.Name}
			l.cols = append(l.cols, col)
			continue
		}
		if n, _ := e.NumChildren.Get(); n != 0 {
			return nil, fmt.Errorf("the columnar writer takes flat schemas and lists of int32; %s is neither", e.Name)
		}
		t, _ := e.Type.Get()
		col.typ = t
		switch t {
		case format.Int32:
			col.kind, col.stats = int32Column, signed(e)
		case format.Int64:
			col.kind, col.stats = int64Column, signed(e)
		case format.Boolean:
			col.kind = boolColumn
		case format.ByteArray:
			col.kind = stringColumn
		default:
			return nil, fmt.Errorf("the columnar writer has no %v column (%s)", t, e.Name)
		}
		l.cols = append(l.cols, col)
	}
	layouts.Store(schema, l)
	return l, nil
}

// isInt32List reports whether the schema elements e begin with a required list of required
// Int32s, as parquet-go writes a []int32 tagged list: a LIST group, its repeated group, the leaf.
func isInt32List(e []format.SchemaElement) bool {
	if len(e) < 3 {
		return false
	}
	n0, _ := e[0].NumChildren.Get()
	n1, _ := e[1].NumChildren.Get()
	n2, _ := e[2].NumChildren.Get()
	r0, _ := e[0].RepetitionType.Get()
	r1, _ := e[1].RepetitionType.Get()
	r2, _ := e[2].RepetitionType.Get()
	t, _ := e[2].Type.Get()
	_, isList := e[0].LogicalType.Value.(*format.ListType)
	return isList && n0 == 1 && n1 == 1 && n2 == 0 && r0 == format.Required && r1 == format.Repeated && r2 == format.Required && t == format.Int32
}

// signed reports whether an integer column's values order as signed integers (an unsigned
// column, such as dice_seed, gets no min/max: they would order differently).
func signed(e format.SchemaElement) bool {
	it, ok := e.LogicalType.Value.(*format.IntType)
	return !ok || it.IsSigned
}

// Column extenders for the splitters: each grows column j by n values and returns them
// to be filled (strings with the dictionary to number them by).
func (c *Writer) Int32s(j, n int) []int32 {
	col := &c.cols[j]
	col.i32 = slices.Grow(col.i32, n)[:len(col.i32)+n]
	return col.i32[len(col.i32)-n:]
}

func (c *Writer) Int64s(j, n int) []int64 {
	col := &c.cols[j]
	col.i64 = slices.Grow(col.i64, n)[:len(col.i64)+n]
	return col.i64[len(col.i64)-n:]
}

func (c *Writer) Bools(j, n int) []bool {
	col := &c.cols[j]
	col.bools = slices.Grow(col.bools, n)[:len(col.bools)+n]
	return col.bools[len(col.bools)-n:]
}

// Int32Lists grows list column j by n rows: it returns their lengths to be filled, and the
// column's values, to which the rows' values are to be appended in order.
func (c *Writer) Int32Lists(j, n int) (lens []int32, values *[]int32) {
	col := &c.cols[j]
	col.lens = slices.Grow(col.lens, n)[:len(col.lens)+n]
	return col.lens[len(col.lens)-n:], &col.i32
}

// Codes grows a string column whose values are an enumeration's codes, named by name.
func (c *Writer) Codes(j, n int, name func(code int32) string) []int32 {
	ids, _ := c.Strings(j, n)
	c.cols[j].enum = name
	return ids
}

func (c *Writer) Strings(j, n int) ([]int32, *Dictionary) {
	col := &c.cols[j]
	col.ids = slices.Grow(col.ids, n)[:len(col.ids)+n]
	return col.ids[len(col.ids)-n:], col.dict
}

// RowsAdded counts n rows a splitter appended.
func (c *Writer) RowsAdded(n int) { c.rows += n }

// Room is how many rows fit in the current row group.
func (c *Writer) Room() int { return RowGroupRows - c.rows }

// Flush writes the buffered rows as a row group.
func (c *Writer) Flush() error {
	if c.rows == 0 {
		return nil
	}
	rg := format.RowGroup{NumRows: int64(c.rows), FileOffset: c.offset, Ordinal: int16(len(c.meta.RowGroups))}
	for i := range c.cols {
		cc, err := c.writeChunk(&c.cols[i])
		if err != nil {
			return err
		}
		rg.Columns = append(rg.Columns, cc)
		rg.TotalByteSize += cc.MetaData.TotalUncompressedSize
		rg.TotalCompressedSize += cc.MetaData.TotalCompressedSize
	}
	c.meta.RowGroups = append(c.meta.RowGroups, rg)
	c.meta.NumRows += int64(c.rows)
	c.rows = 0
	return nil
}

// writeChunk writes one column of the row group (a dictionary page if any, one data page)
// and empties it.
func (c *Writer) writeChunk(col *column) (format.ColumnChunk, error) {
	if n := col.len(); n != c.rows {
		return format.ColumnChunk{}, fmt.Errorf("column %s holds %d values for %d rows", col.path, n, c.rows)
	}
	md := format.ColumnMetaData{Type: col.typ, PathInSchema: col.leaf, NumValues: int64(col.levels())}
	enc, dict, err := c.encode(col, &md)
	if err != nil {
		return format.ColumnChunk{}, fmt.Errorf("encoding column %s: %w", col.path, err)
	}
	md.Codec = format.Zstd // every chunk: parquet-go reads a column with its first chunk's codec
	start := c.offset
	if dict >= 0 {
		md.DictionaryPageOffset = c.offset
		if err := c.writePage(&md, c.dictPage, format.PageHeader{Type: format.DictionaryPage,
			DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{NumValues: int32(dict), Encoding: format.Plain})}); err != nil {
			return format.ColumnChunk{}, err
		}
	}
	md.DataPageOffset = c.offset
	if err := c.writePage(&md, c.page, format.PageHeader{Type: format.DataPage, DataPageHeader: thrift.New(format.DataPageHeader{
		NumValues: int32(md.NumValues), Encoding: enc, DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE})}); err != nil {
		return format.ColumnChunk{}, err
	}
	md.Encoding = append(md.Encoding, enc)
	if dict >= 0 {
		md.Encoding = append(md.Encoding, format.Plain) // the Dictionary page's
	}
	md.TotalCompressedSize = c.offset - start
	return format.ColumnChunk{FileOffset: start, MetaData: md}, nil
}

// AppendFile copies the row groups of pf (read from f, of the same schema, its footer and
// page headers checked by openTagged) as compressed bytes: each column chunk's extent, with
// its offsets moved. Page indexes, which we never write, are dropped.
func (c *Writer) AppendFile(f *os.File, pf *parquet.File) error {
	if err := c.Flush(); err != nil {
		return err
	}
	for _, rg := range pf.Metadata().RowGroups {
		out := rg
		out.Columns = make([]format.ColumnChunk, len(rg.Columns))
		out.FileOffset, out.Ordinal = c.offset, int16(len(c.meta.RowGroups))
		for i, cc := range rg.Columns {
			md := cc.MetaData
			start := md.DataPageOffset
			if md.DictionaryPageOffset > 0 && md.DictionaryPageOffset < start {
				start = md.DictionaryPageOffset
			}
			if md.Codec != format.Zstd { // a column's chunks must share a codec (see writeChunk)
				return fmt.Errorf("column %s is compressed with %v, not ZSTD", cc.MetaData.PathInSchema, md.Codec)
			}
			shift := c.offset - start
			if _, err := io.Copy(writerFunc(c.write), io.NewSectionReader(f, start, md.TotalCompressedSize)); err != nil {
				return err
			}
			md.DataPageOffset += shift
			if md.DictionaryPageOffset > 0 {
				md.DictionaryPageOffset += shift
			}
			md.IndexPageOffset = 0
			out.Columns[i] = format.ColumnChunk{FileOffset: start + shift, MetaData: md}
		}
		c.meta.RowGroups = append(c.meta.RowGroups, out)
		c.meta.NumRows += rg.NumRows
	}
	return nil
}

// Close writes the buffered rows and the footer.
func (c *Writer) Close() error {
	if err := c.Flush(); err != nil {
		return err
	}
	placeholder := ChecksumPlaceholder(c.offset)
	c.meta.KeyValueMetadata = append(c.meta.KeyValueMetadata, format.KeyValue{Key: ChecksumKey, Value: placeholder})
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), &c.meta)
	if err != nil {
		return err
	}
	// The checksum covers the footer with the placeholder in it; the value then takes the
	// placeholder's place (the same length: the footer's size does not change).
	at := bytes.LastIndex(footer, []byte(placeholder))
	if at < 0 {
		return errors.New("columnar: the checksum entry is not in the footer")
	}
	copy(footer[at:], ChecksumValue(crc32.Update(c.crc, crc32.IEEETable, footer), c.offset))
	footer = binary.LittleEndian.AppendUint32(footer, uint32(len(footer)))
	if _, err := c.write(append(footer, magic...)); err != nil {
		return err
	}
	if err := c.w.Flush(); err != nil {
		return err
	}
	return nil
}

// Release empties c and gives its buffers to the next file of its layout; c is not used
// again.
func (c *Writer) Release() {
	for i := range c.cols {
		col := &c.cols[i]
		col.i32, col.i64, col.bools, col.ids = col.i32[:0], col.i64[:0], col.bools[:0], col.ids[:0]
		if col.dict != nil {
			col.dict.reset()
		}
		col.enum = nil
	}
	c.rows = 0
	c.w.Reset(nil)
	c.meta = format.FileMetaData{}
	c.layout.pool.Put(c)
}
