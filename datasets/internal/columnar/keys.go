package columnar

import (
	"fmt"

	"github.com/parquet-go/parquet-go/compress/zstd"
)

// CreatedBy is the writer's name in every file's footer: a file that carries it must carry
// a checksum too (a flipped byte in the checksum's key would otherwise pass as no checksum).
const CreatedBy = "kingoal datasets"

// SchemaKey is the key-value metadata entry naming a file's schema and version.
const SchemaKey = "kingoal.schema"

// ChecksumKey is the key-value metadata entry with a file's own checksum (ChecksumValue),
// which the datasets readers verify before trusting a file.
const ChecksumKey = "kingoal.checksum"

// ChecksumValue is ChecksumKey's value for a file whose pages end at byte n: "CRC N
// footer", where CRC (8 hex digits) is the CRC-32 (IEEE) of the whole file up to its footer's
// length — the pages and the footer itself, this value written with CRC 00000000. So a
// flipped byte anywhere, column names and row counts included, fails the check. (Files of
// earlier builds have "CRC N", covering the first N bytes only: LegacyChecksumValue.)
func ChecksumValue(crc uint32, n int64) string { return fmt.Sprintf("%08x %d footer", crc, n) }

// LegacyChecksumValue is the value of files written before the footer was covered.
func LegacyChecksumValue(crc uint32, n int64) string { return fmt.Sprintf("%08x %d", crc, n) }

// ChecksumPlaceholder is ChecksumValue with the CRC zeroed: the footer is summed with it in
// place of the value it then carries.
func ChecksumPlaceholder(n int64) string { return ChecksumValue(0, n) }

// RowGroupRows bounds row groups so readers and writers stream in bounded memory.
const RowGroupRows = 64 * 1024

// FastZstd is zstd at its fastest level: on arena shards it compresses within a few per
// cent of the default level in about half the time (BENCHMARKS.md, issue 14).
var FastZstd = zstd.Codec{Level: zstd.SpeedFastest}
