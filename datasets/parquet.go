package datasets

import (
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"

	"github.com/kingoal/kingoal/datasets/internal/columnar"
	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/parquet-go/parquet-go"
)

// SchemaKey is the key-value metadata entry naming a file's schema and version.
const SchemaKey = columnar.SchemaKey

// rowGroupRows bounds row groups so readers and writers stream in bounded memory.
const rowGroupRows = columnar.RowGroupRows

// WriteParquet writes rows to path atomically as a Parquet file tagged with schema (such as
// "matrix/1").
func WriteParquet[T any](path, schema string, rows []T) error {
	w, err := NewParquetWriter[T](path, schema)
	if err != nil {
		return err
	}
	w.Write(rows) // sticky: Close reports it
	return w.Close()
}

// ErrSchema is wrapped when a file is Parquet but not of the expected schema.
var ErrSchema = errors.New("datasets: wrong schema")

// ReadParquet reads every row of a file written by WriteParquet with the same schema. A file
// that is missing, not Parquet, truncated, or of another schema returns an error naming it.
func ReadParquet[T any](path, schema string) ([]T, error) {
	var rows []T
	err := ScanParquet(path, schema, func(batch []T) error {
		rows = append(rows, batch...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if rows == nil {
		rows = []T{}
	}
	return rows, nil
}

// ScanParquet streams the rows of a file written by WriteParquet to fn, a bounded batch at
// a time (the batch is reused: copy what you keep), with ReadParquet's checks. An error from
// fn stops the scan and is returned.
func ScanParquet[T any](path, schema string, fn func(batch []T) error) error {
	f, err := safefile.Open(path, 0) // regular files only: a FIFO or a device is refused
	if err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	defer f.Close()
	return ScanParquetFile(f, schema, fn)
}

// ScanParquetFile is ScanParquet of a file open already, such as one found through an
// os.Root (f stays open; it is named by f.Name()).
func ScanParquetFile[T any](f *os.File, schema string, fn func(batch []T) error) (err error) {
	path := f.Name()
	// parquet-go panics on some corrupt pages (found by FuzzReadParquet); a damaged file
	// is bad input, so it becomes an error here.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("datasets: %s is corrupt: %v", path, r)
		}
	}()
	pf, err := taggedOf(f, schema, true)
	if err != nil {
		return err
	}
	want := parquet.SchemaOf(new(T))
	for _, col := range want.Columns() {
		leaf, ok := pf.Schema().Lookup(col...)
		wl, _ := want.Lookup(col...)
		if !ok || leaf.Node.Type().Kind() != wl.Node.Type().Kind() {
			return fmt.Errorf("%w: %s lacks column %v of %s", ErrSchema, path, col, schema)
		}
	}
	r := parquet.NewGenericReader[T](f)
	defer r.Close()
	buf := make([]T, 1024)
	var total int64
	for {
		n, rerr := r.Read(buf)
		total += int64(n)
		if n > 0 {
			if err := fn(buf[:n]); err != nil {
				return err
			}
		}
		if errors.Is(rerr, io.EOF) {
			break
		}
		if rerr != nil {
			return fmt.Errorf("datasets: reading %s: %w", path, rerr)
		}
	}
	if total != pf.NumRows() {
		return fmt.Errorf("datasets: %s: read %d rows, the footer says %d", path, total, pf.NumRows())
	}
	return nil
}

// openTagged opens a Parquet file (see openParquet) and checks its schema tag; the caller
// closes f.
func openTagged(path, schema string, pages bool) (f *os.File, pf *parquet.File, err error) {
	return openWith(path, func(f *os.File) (*parquet.File, error) { return taggedOf(f, schema, pages) })
}

// taggedOf is openTagged's reading of f, open already.
func taggedOf(f *os.File, schema string, pages bool) (*parquet.File, error) {
	pf, err := parquetOf(f, pages)
	if err != nil {
		return nil, err
	}
	if got, _ := pf.Lookup(SchemaKey); got != schema {
		if got == "" {
			got = "no kingoal schema"
		}
		return nil, fmt.Errorf("%w: %s holds %s, want %s", ErrSchema, f.Name(), got, schema)
	}
	return pf, nil
}

// CountRows returns the number of rows a file of the given schema says it holds (its
// footer), without reading them.
func CountRows(path, schema string) (int64, error) {
	f, pf, err := openTagged(path, schema, false)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return pf.NumRows(), nil
}

// CountRowsFile is CountRows of a file open already (f stays open).
func CountRowsFile(f *os.File, schema string) (int64, error) {
	pf, err := taggedOf(f, schema, false)
	if err != nil {
		return 0, err
	}
	return pf.NumRows(), nil
}

// writerOptions configures every file we write: bounded row groups, zstd, the schema tag,
// and no min/max statistics on string columns. Those bounds cost a comparison of every
// value (a third of the time of writing a match row) and prune nothing anyone filters on;
// the integer columns keep theirs (DuckDB prunes row groups on match_id and cup with them).
func writerOptions(s *parquet.Schema, tag string) []parquet.WriterOption {
	opts := []parquet.WriterOption{parquet.MaxRowsPerRowGroup(rowGroupRows), parquet.Compression(&columnar.FastZstd),
		parquet.KeyValueMetadata(SchemaKey, tag)}
	for _, col := range s.Columns() {
		if leaf, _ := s.Lookup(col...); leaf.Node.Type().Kind() == parquet.ByteArray {
			opts = append(opts, parquet.SkipPageBounds(col...), parquet.SkipPageStatistics(col...))
		}
	}
	return opts
}

// ParquetWriter streams rows of T into a Parquet file tagged with a schema, atomically: the
// file appears under its name only when Close succeeds. Writes after an error keep failing
// with that error (sticky), like encoding/csv. Match and throw rows, which the arena writes
// by the million, go through a columnar writer of our own (internal/columnar); every other row
// type through parquet-go's.
type ParquetWriter[T any] struct {
	path   string
	schema string
	file   *safefile.AtomicFile
	pw     *parquet.GenericWriter[T]
	cw     *columnar.Writer // instead of pw
	split  *splitter[T]     // with cw
	err    error
}

// NewParquetWriter starts writing path.
func NewParquetWriter[T any](path, schema string) (*ParquetWriter[T], error) {
	a, err := safefile.CreateAtomic(path)
	if err != nil {
		return nil, err
	}
	w := &ParquetWriter[T]{path: path, schema: schema, file: a}
	if w.split = splitterOf[T](); w.split != nil {
		if w.cw, err = columnar.New(a.File(), schema, w.split.Shape); err != nil {
			a.Abort()
			return nil, fmt.Errorf("datasets: writing %s: %w", path, err)
		}
		return w, nil
	}
	w.pw = parquet.NewGenericWriter[T](a.File(), writerOptions(parquet.SchemaOf(new(T)), schema)...)
	return w, nil
}

// Write appends rows.
func (w *ParquetWriter[T]) Write(rows []T) error {
	if w.err != nil || w.closed() {
		return w.err
	}
	var err error
	if w.cw != nil {
		for len(rows) > 0 && err == nil {
			k := min(len(rows), w.cw.Room())
			w.split.add(w.cw, rows[:k])
			w.cw.RowsAdded(k)
			if w.cw.Room() == 0 {
				err = w.cw.Flush()
			}
			rows = rows[k:]
		}
	} else {
		_, err = w.pw.Write(rows)
	}
	if err != nil {
		w.err = fmt.Errorf("datasets: writing %s: %w", w.path, err)
	}
	return w.err
}

// AppendFile appends every row of path, a file of the same schema written by a ParquetWriter
// (such as a shard of the same run). Its row groups are copied as compressed bytes, without
// decoding them, which makes merging shards cost little more than copying the files.
func (w *ParquetWriter[T]) AppendFile(path string) error {
	if w.err != nil || w.closed() {
		return w.err
	}
	w.err = func() (err error) {
		defer func() { // see ScanParquet: a damaged shard is an error, not a crash
			if r := recover(); r != nil {
				err = fmt.Errorf("datasets: %s is corrupt: %v", path, r)
			}
		}()
		// Pages are copied by their chunk's extent; their headers are walked first, so the
		// footer's offsets and counts are checked against the pages themselves.
		f, pf, err := openTagged(path, w.schema, true)
		if err != nil {
			return err
		}
		defer f.Close()
		if !parquet.EqualNodes(pf.Schema(), w.fileSchema()) {
			return fmt.Errorf("%w: %s has other columns than %s", ErrSchema, path, w.schema)
		}
		if w.cw != nil {
			if err := w.cw.AppendFile(f, pf); err != nil {
				return fmt.Errorf("datasets: appending %s to %s: %w", path, w.path, err)
			}
			return nil
		}
		for _, rg := range pf.RowGroups() {
			if _, err := w.pw.WriteRowGroup(rg); err != nil {
				return fmt.Errorf("datasets: appending %s to %s: %w", path, w.path, err)
			}
		}
		return nil
	}()
	return w.err
}

// Abort gives the file up: the temporary file is removed and nothing appears under the
// path (for a writer whose rows stopped coming for an error of the caller's).
func (w *ParquetWriter[T]) Abort() {
	if w.file != nil {
		w.file.Abort()
		w.file = nil
		w.releaseEncoder()
		if w.err == nil {
			w.err = fmt.Errorf("datasets: writing %s: aborted", w.path)
		}
	}
}

// Close finishes the file and moves it into place; after an error it removes the temporary
// file and returns the error.
func (w *ParquetWriter[T]) Close() error {
	if w.file == nil {
		return w.err // closed already
	}
	if w.err == nil {
		if err := w.closeEncoder(); err != nil {
			w.err = fmt.Errorf("datasets: writing %s: %w", w.path, err)
		}
	}
	if w.err != nil {
		w.file.Abort()
	} else {
		w.err = w.file.Commit()
	}
	w.file = nil
	w.releaseEncoder()
	return w.err
}

// fileSchema is the schema of the rows the file holds.
func (w *ParquetWriter[T]) fileSchema() *parquet.Schema {
	if w.split != nil {
		return w.split.Schema
	}
	return w.pw.Schema()
}

// closed reports a writer closed without error, and makes it an error to use it.
func (w *ParquetWriter[T]) closed() bool {
	if w.file == nil && w.err == nil {
		w.err = fmt.Errorf("datasets: writing %s: the writer is closed", w.path)
	}
	return w.file == nil
}

// releaseEncoder gives the columnar writer's buffers back for the next file.
func (w *ParquetWriter[T]) releaseEncoder() {
	if w.cw != nil {
		w.cw.Release()
		w.cw = nil
	}
}

// closeEncoder finishes the file's encoding (the footer), before it is moved into place.
func (w *ParquetWriter[T]) closeEncoder() error {
	if w.cw != nil {
		return w.cw.Close()
	}
	return w.pw.Close()
}

// rows are the row type of every schema tag this package writes — declared once, for the
// readers' column check (rowTypes) and for the generated reference (RowTypes).
var rows = map[string]any{
	MatchesSchema:             MatchRow{},
	ThrowsSchema:              ThrowRow{},
	DecisionsSchema:           DecisionRow{},
	MatrixSchema:              MatrixRow{},
	PolicySchema:              PolicyRow{},
	LearningCurveSchema:       LearningCurveRow{},
	ExploitabilityCurveSchema: ExploitabilityCurveRow{},
	BenchCurveSchema:          BenchCurveRow{},
	EquilibriumSchema:         EquilibriumRow{},
	GameSchema:                GameRow{},
	RatingsSchema:             RatingRow{},
}

// rowTypes are the schemas of the tags this package writes: a file tagged with one must hold
// exactly its columns, by name, order and kind — a mangled column name in a file without a
// checksum is an error, not a column nobody asked for.
var rowTypes = func() map[string]*parquet.Schema {
	m := make(map[string]*parquet.Schema, len(rows))
	for tag, row := range rows {
		m[tag] = parquet.SchemaOf(row)
	}
	return m
}()

// RowTypes maps every schema tag this package writes ("matches/2", …) to its row's Go type.
func RowTypes() map[string]reflect.Type {
	m := make(map[string]reflect.Type, len(rows))
	for tag, row := range rows {
		m[tag] = reflect.TypeOf(row)
	}
	return m
}
