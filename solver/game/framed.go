// The framing game tables and policy tables share: magic, version, header JSON, a zstd body, a SHA-256 trailer.

package game

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

// framing names a kind of file: its magic line, version, and the error its damage wraps.
type framing struct {
	magic   string
	version uint32
	bad     error  // wrapped by every refusal
	what    string // "game table": in messages
	hint    string // how such a file is written, for a file that is not one
}

const framedWindow = 4 << 20 // zstd's window: what a reader must hold, bounded against a damaged frame header

// framedWriter writes one framed file: the prelude at once, then the body through zstd,
// then (close) the checksum of every byte before it.
type framedWriter struct {
	f   framing
	dst io.Writer
	sum hash.Hash
	zw  *zstd.Encoder
	buf *bufio.Writer // into zw
	err error
}

func newFramedWriter(dst io.Writer, f framing, header any) (*framedWriter, error) {
	fw := &framedWriter{f: f, dst: dst, sum: sha256.New()}
	out := io.MultiWriter(dst, fw.sum)
	head, err := json.Marshal(header)
	if err != nil {
		return nil, err
	}
	pre := binary.LittleEndian.AppendUint32([]byte(f.magic), f.version)
	pre = binary.LittleEndian.AppendUint32(pre, uint32(len(head)))
	if _, err := out.Write(append(pre, head...)); err != nil {
		return nil, fmt.Errorf("solver: writing the %s: %w", f.what, err)
	}
	// One encoder goroutine: the bytes do not depend on the machine, and a solve has the cores.
	fw.zw, err = zstd.NewWriter(out, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(framedWindow))
	if err != nil {
		return nil, err
	}
	fw.buf = bufio.NewWriterSize(fw.zw, 1<<20)
	return fw, nil
}

func (fw *framedWriter) write(b []byte) {
	if fw.err == nil {
		_, fw.err = fw.buf.Write(b)
	}
}

// close ends the body and writes the checksum; the first error of the whole write.
func (fw *framedWriter) close() error {
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
		return fmt.Errorf("solver: writing the %s: %w", fw.f.what, fw.err)
	}
	return nil
}

// readFramed reads a framed file of size bytes: header gets the header JSON, body the
// decompressed body (it must read all of it); then the checksum is compared. Every refusal
// wraps f.bad.
func readFramed(r io.ReaderAt, size int64, f framing, header func(raw []byte) error, body func(io.Reader) error) error {
	if size < int64(len(f.magic))+8+sha256.Size {
		return f.badf("truncated: %d bytes", size)
	}
	sum := sha256.New()
	in := bufio.NewReaderSize(io.TeeReader(io.NewSectionReader(r, 0, size-sha256.Size), sum), 1<<20)
	pre := make([]byte, len(f.magic)+8)
	if _, err := io.ReadFull(in, pre); err != nil {
		return f.failure(err)
	}
	if string(pre[:len(f.magic)]) != f.magic {
		return f.badf("not a Kingoal %s (%s)", f.what, f.hint)
	}
	if v := binary.LittleEndian.Uint32(pre[len(f.magic):]); v != f.version {
		return f.badf("version %d; this build reads version %d", v, f.version)
	}
	n := binary.LittleEndian.Uint32(pre[len(f.magic)+4:])
	if n > 1<<16 {
		return f.badf("damaged: a header of %d bytes", n)
	}
	raw := make([]byte, n)
	if _, err := io.ReadFull(in, raw); err != nil {
		return f.failure(err)
	}
	if err := header(raw); err != nil {
		return err
	}
	zr, err := zstd.NewReader(in, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(framedWindow))
	if err != nil {
		return err
	}
	defer zr.Close()
	if err := body(zr); err != nil {
		return f.failure(err)
	}
	zr.Close()
	if _, err := io.Copy(io.Discard, in); err != nil {
		return f.failure(err)
	}
	want := make([]byte, sha256.Size)
	if _, err := r.ReadAt(want, size-sha256.Size); err != nil {
		return f.failure(err)
	}
	if !bytes.Equal(sum.Sum(nil), want) {
		return f.badf("damaged: its checksum does not match")
	}
	return nil
}

func (f framing) badf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", f.bad, fmt.Sprintf(format, args...))
}

// failure names a read error: a short file is truncated, bad compressed data damaged; a
// context's error and the file's own pass through.
func (f framing) failure(err error) error {
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return f.badf("truncated")
	case errors.Is(err, f.bad), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("solver: %w", err)
	}
	return f.badf("damaged: %v", err)
}

// openFramed opens path for readFramed.
func openFramed(path string, read func(r io.ReaderAt, size int64) error) error {
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
