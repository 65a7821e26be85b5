package datasets

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/parquet-go/parquet-go"
)

// SchemaKey is the key-value metadata entry naming a file's schema and version.
const SchemaKey = "kingoal.schema"

// rowGroupRows bounds row groups so readers and writers stream in bounded memory.
const rowGroupRows = 64 * 1024

// WriteAtomic creates path by writing a temporary file in the same directory, syncing it
// and renaming it over path. If write fails, nothing is left at path.
func WriteAtomic(path string, write func(w io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = write(tmp); err != nil {
		return err
	}
	if err = tmp.Chmod(0o644); err != nil { // CreateTemp makes 0600; outputs are for sharing
		return fmt.Errorf("datasets: %w", err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	return nil
}

// WriteParquet writes rows to path atomically as a Parquet file tagged with schema (such as
// "matrix/1").
func WriteParquet[T any](path, schema string, rows []T) error {
	return WriteAtomic(path, func(w io.Writer) error {
		pw := parquet.NewGenericWriter[T](w, parquet.MaxRowsPerRowGroup(rowGroupRows), parquet.Compression(&parquet.Zstd),
			parquet.KeyValueMetadata(SchemaKey, schema))
		if _, err := pw.Write(rows); err != nil {
			return fmt.Errorf("datasets: writing %s: %w", path, err)
		}
		if err := pw.Close(); err != nil {
			return fmt.Errorf("datasets: writing %s: %w", path, err)
		}
		return nil
	})
}

// ErrSchema is wrapped when a file is Parquet but not of the expected schema.
var ErrSchema = errors.New("datasets: wrong schema")

// ReadParquet reads every row of a file written by WriteParquet with the same schema. A file
// that is missing, not Parquet, truncated, or of another schema returns an error naming it.
func ReadParquet[T any](path, schema string) (rows []T, err error) {
	// parquet-go panics on some corrupt pages (found by FuzzReadParquet); a damaged file
	// is bad input, so it becomes an error here.
	defer func() {
		if r := recover(); r != nil {
			rows, err = nil, fmt.Errorf("datasets: %s is corrupt: %v", path, r)
		}
	}()
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("datasets: %s is not a readable Parquet file (truncated or corrupt?): %v", path, err)
	}
	if got, _ := pf.Lookup(SchemaKey); got != schema {
		if got == "" {
			got = "no kingoal schema"
		}
		return nil, fmt.Errorf("%w: %s holds %s, want %s", ErrSchema, path, got, schema)
	}
	want := parquet.SchemaOf(new(T))
	for _, col := range want.Columns() {
		leaf, ok := pf.Schema().Lookup(col...)
		wl, _ := want.Lookup(col...)
		if !ok || leaf.Node.Type().Kind() != wl.Node.Type().Kind() {
			return nil, fmt.Errorf("%w: %s lacks column %v of %s", ErrSchema, path, col, schema)
		}
	}
	r := parquet.NewGenericReader[T](f)
	defer r.Close()
	rows = make([]T, 0, min(max(pf.NumRows(), 0), rowGroupRows)) // never trust a footer's count for memory
	buf := make([]T, 1024)
	for {
		n, err := r.Read(buf)
		rows = append(rows, buf[:n]...)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("datasets: reading %s: %w", path, err)
		}
	}
	if int64(len(rows)) != pf.NumRows() {
		return nil, fmt.Errorf("datasets: %s: read %d rows, the footer says %d", path, len(rows), pf.NumRows())
	}
	return rows, nil
}
