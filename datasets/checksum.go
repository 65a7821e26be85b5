package datasets

import (
	"fmt"
	"hash/crc32"
	"io"

	"github.com/kingoal/kingoal/datasets/internal/columnar"
)

// ChecksumKey is the key-value metadata entry with a file's own checksum: "CRC N", the
// CRC-32 (IEEE, 8 hex digits) of its first N bytes — everything before the footer: the
// magic and every page. The columnar writer (match and throw files) writes it, and every
// reader here verifies it before trusting the file, so a flipped byte in a page is an error
// even where no page is decoded (a merge copies chunks as bytes). Pages carry Parquet's own
// CRC-32 too (the page header's crc), which parquet-go checks as it decodes them; files
// parquet-go writes (decisions, solver outputs) have those page CRCs but no file checksum.
const ChecksumKey = columnar.ChecksumKey

// verifyChecksum checks the file's checksum entry, if it has one (files an earlier build
// wrote have none: their pages are read as they are).
func verifyChecksum(f io.ReaderAt, size int64, value string, ok bool) error {
	if !ok {
		return nil
	}
	var want uint32
	var n int64
	if _, err := fmt.Sscanf(value, "%08x %d", &want, &n); err != nil || columnar.ChecksumValue(want, n) != value || n < 4 || n > size {
		return fmt.Errorf("its checksum entry %q is damaged", value)
	}
	h := crc32.NewIEEE()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, n)); err != nil {
		return err
	}
	if got := h.Sum32(); got != want {
		return fmt.Errorf("its checksum is %08x, the file says %08x: damaged on disk", got, want)
	}
	return nil
}
