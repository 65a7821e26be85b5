// The columnar writer's encodings: integers delta-packed, strings in dictionaries, lists with RLE levels, pages compressed and checksummed.

package columnar

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"math/bits"

	"github.com/parquet-go/parquet-go/encoding/delta"
	"github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// encode empties col into c.page (and its dictionary, if it has one, into c.dictPage: dict
// is then the number of its values, else -1), with its statistics in md.
func (c *Writer) encode(col *column, md *format.ColumnMetaData) (enc format.Encoding, dict int, err error) {
	dict = -1
	switch col.kind {
	case int32Column:
		enc, err = format.DeltaBinaryPacked, encodeInts(c, md, col.i32, col.stats)
		col.i32 = col.i32[:0]
	case int64Column:
		enc, err = format.DeltaBinaryPacked, encodeInts(c, md, col.i64, col.stats)
		col.i64 = col.i64[:0]
	case boolColumn:
		enc = format.Plain
		c.page = appendBits(c.page[:0], col.bools)
		col.bools = col.bools[:0]
	case stringColumn:
		enc, dict, err = c.encodeStrings(col)
		col.ids = col.ids[:0]
		col.dict.reset()
	case int32ListColumn:
		enc, err = format.DeltaBinaryPacked, c.encodeInt32Lists(col)
		col.i32, col.lens = col.i32[:0], col.lens[:0]
	}
	return enc, dict, err
}

// levels is the number of entries the column's chunk holds: one a row, but a list row has
// one a value (an empty list, one entry all the same).
func (col *column) levels() int {
	if col.kind != int32ListColumn {
		return col.len()
	}
	n := 0
	for _, k := range col.lens {
		n += max(int(k), 1)
	}
	return n
}

// encodeInt32Lists puts a list column in c.page as a version 1 data page holds it: the
// repetition levels (0: a row begins, 1: the next value of its list) and the definition
// levels (0: an empty list, 1: a value), each RLE with its length before it, then the values.
func (c *Writer) encodeInt32Lists(col *column) error {
	if sum := col.levels(); sum < len(col.i32) {
		return fmt.Errorf("%d values for lists of %d", len(col.i32), sum)
	}
	page := c.page[:0]
	if len(col.i32) == 0 { // every list empty (a run without --dice): both levels one run of zeros
		run := binary.AppendUvarint(nil, uint64(len(col.lens))<<1)
		run = append(run, 0)
		for range 2 {
			page = binary.LittleEndian.AppendUint32(page, uint32(len(run)))
			page = append(page, run...)
		}
	} else {
		rep, def := c.rep[:0], c.def[:0]
		for _, k := range col.lens {
			rep, def = append(rep, 0), append(def, uint8(min(k, 1)))
			for range max(k-1, 0) {
				rep, def = append(rep, 1), append(def, 1)
			}
		}
		c.rep, c.def = rep, def
		for _, levels := range [][]uint8{rep, def} {
			enc, err := (&rle.Encoding{BitWidth: 1}).EncodeLevels(c.scratch[:0], levels)
			if err != nil {
				return err
			}
			c.scratch = enc
			page = binary.LittleEndian.AppendUint32(page, uint32(len(enc)))
			page = append(page, enc...)
		}
	}
	var err error
	c.scratch, err = new(delta.BinaryPackedEncoding).EncodeInt32(c.scratch[:0], col.i32)
	c.page = append(page, c.scratch...)
	return err
}

// encodeInts puts v DELTA_BINARY_PACKED in c.page, with its min/max in md if stats.
func encodeInts[T int32 | int64](c *Writer, md *format.ColumnMetaData, v []T, stats bool) (err error) {
	switch v := any(v).(type) {
	case []int32:
		c.page, err = new(delta.BinaryPackedEncoding).EncodeInt32(c.page[:0], v)
	case []int64:
		c.page, err = new(delta.BinaryPackedEncoding).EncodeInt64(c.page[:0], v)
	}
	if stats {
		md.Statistics = statistics(v)
	}
	return err
}

// encodeStrings puts a string column's dictionary in c.dictPage and its indexes in
// c.page, or its values plain in c.page when the dictionary would be too large.
func (c *Writer) encodeStrings(col *column) (enc format.Encoding, dict int, err error) {
	if col.enum != nil && len(col.ids) > 0 { // every code up to the largest, used or not
		_, most := bounds(col.ids)
		for k := range most + 1 {
			col.dict.values = append(col.dict.values, col.enum(k))
		}
	}
	d := col.dict.values
	if len(d) > MaxDictionary {
		c.page = c.page[:0]
		for _, id := range col.ids {
			c.page = appendPlainString(c.page, d[id])
		}
		return format.Plain, -1, nil
	}
	c.dictPage = c.dictPage[:0]
	for _, v := range d {
		c.dictPage = appendPlainString(c.dictPage, v)
	}
	width := max(1, bits.Len(uint(len(d)-1)))
	c.scratch, err = (&rle.Encoding{BitWidth: width}).EncodeInt32(c.scratch[:0], col.ids)
	c.page = append(append(c.page[:0], byte(width)), c.scratch...)
	return format.RLEDictionary, len(d), err
}

// writePage writes page compressed under header h, counting it in md.
func (c *Writer) writePage(md *format.ColumnMetaData, page []byte, h format.PageHeader) error {
	var err error
	if c.zpage, err = FastZstd.Encode(c.zpage[:0], page); err != nil {
		return fmt.Errorf("compressing column %s: %w", md.PathInSchema[0], err)
	}
	body := c.zpage
	if len(page) > math.MaxInt32 || len(body) > math.MaxInt32 {
		return fmt.Errorf("a page of column %s exceeds 2 GiB", md.PathInSchema[0])
	}
	h.UncompressedPageSize, h.CompressedPageSize = int32(len(page)), int32(len(body))
	h.CRC = int32(crc32.ChecksumIEEE(body)) // Parquet's page checksum: of the compressed page
	hb, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
	if err != nil {
		return err
	}
	if _, err := c.write(hb); err != nil {
		return err
	}
	if _, err := c.write(body); err != nil {
		return err
	}
	md.TotalUncompressedSize += int64(len(hb) + len(page))
	return nil
}

// len is the number of rows the column holds.
func (col *column) len() int {
	if col.kind == int32ListColumn {
		return len(col.lens)
	}
	return len(col.i32) + len(col.i64) + len(col.bools) + len(col.ids)
}

// write writes b, counting and checksumming it. Its errors, like every error of a file being
// written, come to the user through ParquetWriter, which names the package and the file.
func (c *Writer) write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.offset += int64(n)
	c.crc = crc32.Update(c.crc, crc32.IEEETable, b[:n])
	if err != nil {
		return n, err
	}
	return n, nil
}
