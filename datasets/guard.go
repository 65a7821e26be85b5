package datasets

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/parquet-go/parquet-go"

	"github.com/kingoal/kingoal/datasets/internal/columnar"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// parquet-go trusts the sizes a file declares: it allocates a footer's length and each
// page's compressed size before reading them (up to 4 GiB each), so a corrupt file can
// exhaust memory — found by FuzzReadParquet. Every reader here checks those sizes first.

// maxPageBytes bounds a page's declared uncompressed size (writers use pages of ~1 MiB).
const maxPageBytes = 256 << 20

// openParquet opens path as Parquet after checking that its footer fits in the file and,
// with pages, that every page of every column chunk fits in its chunk. The caller closes f.
func openParquet(path string, pages bool) (*os.File, *parquet.File, error) {
	return openWith(path, func(f *os.File) (*parquet.File, error) { return parquetOf(f, pages) })
}

// openWith opens path (a regular file only: a FIFO or a device is refused) and reads it as
// Parquet with read, closing it unless read succeeds.
func openWith(path string, read func(f *os.File) (*parquet.File, error)) (*os.File, *parquet.File, error) {
	f, err := safefile.Open(path, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("datasets: %w", err)
	}
	// Close on every way out but success, a recovered parquet-go panic included: the
	// results are nil on those paths, so the deferred close must use f itself.
	ok := false
	defer func() {
		if !ok {
			f.Close()
		}
	}()
	pf, err := read(f)
	if err != nil {
		return nil, nil, err
	}
	ok = true
	return f, pf, nil
}

// parquetOf is openParquet's reading of f, open already (the caller closes it).
func parquetOf(f *os.File, pages bool) (*parquet.File, error) {
	path := f.Name()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	bad := func(err error) error {
		return fmt.Errorf("datasets: %s is not a readable Parquet file (truncated or corrupt?): %v", path, err)
	}
	if err := checkFooterLength(f, st.Size()); err != nil {
		return nil, bad(err)
	}
	pf, err := openFile(f, st.Size())
	if err != nil {
		return nil, bad(err)
	}
	if err := checkRowCounts(pf); err != nil {
		return nil, bad(err)
	}
	sum, has := pf.Lookup(ChecksumKey)
	if !has && pf.Metadata().CreatedBy == columnar.CreatedBy {
		return nil, bad(errors.New("written by the columnar writer, which checksums every file, yet it has no checksum"))
	}
	if err := verifyChecksum(f, st.Size(), sum, has); err != nil {
		return nil, bad(err)
	}
	if tag, tagged := pf.Lookup(SchemaKey); tagged {
		if err := checkColumns(path, tag, pf); err != nil {
			return nil, err
		}
	}
	if pages {
		if err := checkPages(f, st.Size(), pf); err != nil {
			return nil, bad(err)
		}
	}
	return pf, nil
}

// openFile is parquet.OpenFile with its panics on corrupt metadata (found by the fuzzer
// and TestRefusedReadsCloseTheirFiles) turned into errors, for every caller.
func openFile(f *os.File, size int64) (pf *parquet.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			pf, err = nil, fmt.Errorf("parquet-go: %v", r)
		}
	}()
	return parquet.OpenFile(f, size)
}

// checkFooterLength refuses a footer longer than the file.
func checkFooterLength(f io.ReaderAt, size int64) error {
	if size < 12 {
		return fmt.Errorf("%d bytes is too short", size)
	}
	var tail [8]byte
	if _, err := f.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	if n := int64(binary.LittleEndian.Uint32(tail[:4])); n > size-12 {
		return fmt.Errorf("its footer claims %d bytes of a %d-byte file", n, size)
	}
	return nil
}

// checkPages walks the page headers of every column chunk, decoding them from the chunk's
// bytes (so no declared length can make the decoder allocate beyond them), and refuses a
// chunk outside the file, a page larger than the rest of its chunk or than maxPageBytes, or
// more values in a page than its chunk holds.
func checkPages(f io.ReaderAt, size int64, pf *parquet.File) error {
	var proto thrift.CompactProtocol
	r := proto.NewReaderFromBytes(nil)
	dec := thrift.NewDecoder(r)
	var buf []byte
	for i, rg := range pf.Metadata().RowGroups {
		for j, cc := range rg.Columns {
			md := cc.MetaData
			start := md.DataPageOffset
			if md.DictionaryPageOffset > 0 && md.DictionaryPageOffset < start {
				start = md.DictionaryPageOffset
			}
			n := md.TotalCompressedSize
			if start < 4 || n <= 0 || n > size-8-start || md.NumValues < 0 {
				return fmt.Errorf("row group %d, column %d: its chunk lies outside the file", i, j)
			}
			buf = append(buf[:0], make([]byte, n)...)
			if _, err := f.ReadAt(buf, start); err != nil {
				return err
			}
			var dataPages, values int64
			for pos := 0; pos < len(buf); {
				at := start + int64(pos)
				r.ResetBytes(buf[pos:])
				var h format.PageHeader
				if err := dec.Decode(&h); err != nil {
					return fmt.Errorf("row group %d, column %d: page header at byte %d: %v", i, j, start+int64(pos), err)
				}
				pos += r.BytesRead()
				c, u := int(h.CompressedPageSize), int64(h.UncompressedPageSize)
				v := int64(0)
				switch {
				case h.DataPageHeader.Valid:
					v = int64(h.DataPageHeader.V.NumValues)
				case h.DataPageHeaderV2.Valid:
					v = int64(h.DataPageHeaderV2.V.NumValues)
				}
				if c < 0 || c > len(buf)-pos || u < 0 || u > maxPageBytes || v < 0 || v > md.NumValues {
					return fmt.Errorf("row group %d, column %d: a page at byte %d declares sizes its chunk cannot hold", i, j, start+int64(pos))
				}
				// The offsets the footer gives must be where the pages are: a reader seeks to them.
				if h.Type == format.DataPage || h.Type == format.DataPageV2 {
					if dataPages == 0 && at != md.DataPageOffset {
						return fmt.Errorf("row group %d, column %d: its first data page is at byte %d, the footer says %d", i, j, at, md.DataPageOffset)
					}
					dataPages++
				} else if h.Type == format.DictionaryPage && at != md.DictionaryPageOffset && at != md.DataPageOffset {
					return fmt.Errorf("row group %d, column %d: its dictionary page is at byte %d, the footer says %d", i, j, at, md.DictionaryPageOffset)
				}
				values += v
				pos += c
			}
			if values != md.NumValues {
				return fmt.Errorf("row group %d, column %d: its pages hold %d values, the footer says %d", i, j, values, md.NumValues)
			}
		}
	}
	return nil
}

// checkRowCounts refuses a footer whose row counts disagree: the file's with its row groups'
// sum, a row group's with the values of each of its flat columns. The footer lies outside the
// file checksum, and CountRows answers from these counts alone.
func checkRowCounts(pf *parquet.File) error {
	md := pf.Metadata()
	flat := make([]bool, len(pf.Schema().Columns()))
	for i, path := range pf.Schema().Columns() {
		leaf, _ := pf.Schema().Lookup(path...)
		flat[i] = leaf.MaxRepetitionLevel == 0
	}
	var total int64
	for i, rg := range md.RowGroups {
		total += rg.NumRows
		for j, cc := range rg.Columns {
			if j < len(flat) && flat[j] && cc.MetaData.NumValues != rg.NumRows {
				return fmt.Errorf("row group %d has %d rows, its column %s %d values", i, rg.NumRows, cc.MetaData.PathInSchema, cc.MetaData.NumValues)
			}
		}
	}
	if total != md.NumRows {
		return fmt.Errorf("the footer counts %d rows, its row groups %d", md.NumRows, total)
	}
	return nil
}

// checkColumns refuses a file whose columns are not its tag's (tags this package does not
// know are left to their readers).
func checkColumns(path, tag string, pf *parquet.File) error {
	want, known := rowTypes[tag]
	if !known {
		return nil
	}
	have, need := pf.Schema().Columns(), want.Columns()
	if len(have) != len(need) {
		return fmt.Errorf("%w: %s has %d columns, %s has %d", ErrSchema, path, len(have), tag, len(need))
	}
	for i, col := range need {
		leaf, _ := pf.Schema().Lookup(have[i]...)
		wl, _ := want.Lookup(col...)
		if !slices.Equal(have[i], col) || leaf.Node.Type().Kind() != wl.Node.Type().Kind() {
			return fmt.Errorf("%w: %s has column %q where %s has %q", ErrSchema, path, strings.Join(have[i], "."), tag, strings.Join(col, "."))
		}
	}
	return nil
}
