// Writing and reading a framed file.

package framed

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"

	"github.com/kingoal/kingoal/internal/safefile"
	"github.com/klauspost/compress/zstd"
)

// Kind names a kind of file: its magic line, version, and the error its damage wraps.
type Kind struct {
	Magic   string
	Version uint32
	Bad     error  // wrapped by every refusal
	What    string // "game table": in messages
	Hint    string // how such a file is written, for a file that is not one
}

const window = 4 << 20 // zstd's window: what a reader must hold, bounded against a damaged frame header

// Writer writes one framed file: the prelude at once, then the body through zstd,
// then (close) the checksum of every byte before it.
type Writer struct {
	f   Kind
	dst io.Writer
	sum hash.Hash
	zw  *zstd.Encoder
	buf *bufio.Writer // into zw
	err error
}

func NewWriter(dst io.Writer, f Kind, header any) (*Writer, error) {
	fw := &Writer{f: f, dst: dst, sum: sha256.New()}
	out := io.MultiWriter(dst, fw.sum)
	head, err := json.Marshal(header)
	if err != nil {
		return nil, err
	}
	pre := binary.LittleEndian.AppendUint32([]byte(f.Magic), f.Version)
	pre = binary.LittleEndian.AppendUint32(pre, uint32(len(head)))
	if _, err := out.Write(append(pre, head...)); err != nil {
		return nil, fmt.Errorf("solver: writing the %s: %w", f.What, err)
	}
	// One encoder goroutine: the bytes do not depend on the machine, and a solve has the cores.
	fw.zw, err = zstd.NewWriter(out, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(window))
	if err != nil {
		return nil, err
	}
	fw.buf = bufio.NewWriterSize(fw.zw, 1<<20)
	return fw, nil
}

// Put writes b to the body; the first error is kept for Close (and Err).
func (fw *Writer) Put(b []byte) {
	if fw.err == nil {
		_, fw.err = fw.buf.Write(b)
	}
}

// Err is the first error of the write so far.
func (fw *Writer) Err() error { return fw.err }

// Close ends the body and writes the checksum; the first error of the whole write.
func (fw *Writer) Close() error {
	if fw.err == nil {
		fw.err = fw.buf.Flush()
	}
	if err := fw.zw.Close(); fw.err == nil {
		fw.err = err
	}
	if fw.err == nil {
		_, fw.err = fw.dst.Write(fw.sum.Sum(nil))
	}
	if fw.err != nil {
		return fmt.Errorf("solver: writing the %s: %w", fw.f.What, fw.err)
	}
	return nil
}

// Read reads a framed file of size bytes: header gets the header JSON, body the
// decompressed body (it must read all of it); then the checksum is compared. Every refusal
// wraps f.Bad.
func Read(r io.ReaderAt, size int64, f Kind, header func(raw []byte) error, body func(io.Reader) error) error {
	if size < int64(len(f.Magic))+8+sha256.Size {
		return f.Badf("truncated: %d bytes", size)
	}
	sum := sha256.New()
	in := bufio.NewReaderSize(io.TeeReader(io.NewSectionReader(r, 0, size-sha256.Size), sum), 1<<20)
	pre := make([]byte, len(f.Magic)+8)
	if _, err := io.ReadFull(in, pre); err != nil {
		return f.Failure(err)
	}
	if string(pre[:len(f.Magic)]) != f.Magic {
		return f.Badf("not a Kingoal %s (%s)", f.What, f.Hint)
	}
	if v := binary.LittleEndian.Uint32(pre[len(f.Magic):]); v != f.Version {
		return f.Badf("version %d; this build reads version %d", v, f.Version)
	}
	n := binary.LittleEndian.Uint32(pre[len(f.Magic)+4:])
	if n > 1<<16 {
		return f.Badf("damaged: a header of %d bytes", n)
	}
	raw := make([]byte, n)
	if _, err := io.ReadFull(in, raw); err != nil {
		return f.Failure(err)
	}
	if err := header(raw); err != nil {
		return err
	}
	zr, err := zstd.NewReader(in, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(window))
	if err != nil {
		return err
	}
	defer zr.Close()
	if err := body(zr); err != nil {
		return f.Failure(err)
	}
	zr.Close()
	if _, err := io.Copy(io.Discard, in); err != nil {
		return f.Failure(err)
	}
	want := make([]byte, sha256.Size)
	if _, err := r.ReadAt(want, size-sha256.Size); err != nil {
		return f.Failure(err)
	}
	if !bytes.Equal(sum.Sum(nil), want) {
		return f.Badf("damaged: its checksum does not match")
	}
	return nil
}

func (f Kind) Badf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", f.Bad, fmt.Sprintf(format, args...))
}

// Failure names a read error: a short file is truncated, bad compressed data damaged; a
// context's error and the file's own pass through.
func (f Kind) Failure(err error) error {
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return f.Badf("truncated")
	case errors.Is(err, f.Bad), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("solver: %w", err)
	}
	return f.Badf("damaged: %v", err)
}

// Open opens path for Read.
func Open(path string, read func(r io.ReaderAt, size int64) error) error {
	file, err := safefile.Open(path, 0) // regular files only: a FIFO or a device is refused
	if err != nil {
		return fmt.Errorf("solver: %w", err)
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		return fmt.Errorf("solver: %w", err)
	}
	return read(file, info.Size())
}

// Keep writes a new file at path with write, atomically — nothing is left there if write
// fails — then reads it back with read, which is handed what write made.
func Keep[T any](path string, write func(io.Writer) (T, error), read func(made T) (T, error)) (T, error) {
	var made T
	err := safefile.WriteAtomic(path, func(w io.Writer) (err error) {
		made, err = write(w)
		return err
	})
	if err != nil {
		var zero T
		return zero, err
	}
	return read(made)
}

// Starts reports whether r starts as a file of this kind does (its magic line; Read says
// whether it is a whole one).
func (f Kind) Starts(r io.ReaderAt) bool {
	b := make([]byte, len(f.Magic))
	_, err := r.ReadAt(b, 0)
	return err == nil && string(b) == f.Magic
}

// IsFile is Starts for the regular file at path (false for anything else).
func (f Kind) IsFile(path string) bool {
	is := false
	_ = Open(path, func(r io.ReaderAt, _ int64) error { is = f.Starts(r); return nil })
	return is
}
