package datasets

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/kingoal/kingoal/datasets/internal/columnar"
)

// ChecksumKey is the key-value metadata entry with a file's own checksum
// (columnar.ChecksumValue): the CRC-32 of the whole file up to its footer's length, the
// footer included with this entry's CRC zeroed — the magic, every page, the column names,
// the row counts. The columnar writer (match and throw files) writes it, and every reader
// here verifies it before trusting the file, so a flipped byte is an error even where no
// page is decoded (a merge copies chunks as bytes). Files of earlier builds carry a checksum
// of their pages only, verified as such. Pages carry Parquet's own CRC-32 too (the page
// header's crc), which parquet-go checks as it decodes them; files parquet-go writes
// (decisions, solver outputs) have those page CRCs but no file checksum: their columns are
// checked against their schema tag's (checkColumns).
const ChecksumKey = columnar.ChecksumKey

// verifyChecksum checks the file's checksum entry, if it has one (files an earlier build
// wrote have none: their pages are read as they are).
func verifyChecksum(f io.ReaderAt, size int64, value string, ok bool) error {
	if !ok {
		return nil
	}
	var want uint32
	var n int64
	_, err := fmt.Sscanf(value, "%08x %d", &want, &n)
	whole := columnar.ChecksumValue(want, n) == value
	if err != nil || (!whole && columnar.LegacyChecksumValue(want, n) != value) || n < 4 || n > size-8 {
		return fmt.Errorf("its checksum entry %q is damaged", value)
	}
	h := crc32.NewIEEE()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, n)); err != nil {
		return err
	}
	if whole {
		var tail [4]byte
		if _, err := f.ReadAt(tail[:], size-8); err != nil {
			return err
		}
		if int64(binary.LittleEndian.Uint32(tail[:])) != size-8-n {
			return fmt.Errorf("its checksum entry %q does not end where the footer begins", value)
		}
		footer := make([]byte, size-8-n) // the footer, as long as the file says
		if _, err := f.ReadAt(footer, n); err != nil {
			return err
		}
		at := bytes.LastIndex(footer, []byte(value))
		if at < 0 {
			return fmt.Errorf("its checksum entry is not where the footer holds it")
		}
		copy(footer[at:], columnar.ChecksumPlaceholder(n))
		h.Write(footer)
	}
	if got := h.Sum32(); got != want {
		return fmt.Errorf("its checksum is %08x, the file says %08x: damaged on disk", got, want)
	}
	return nil
}
