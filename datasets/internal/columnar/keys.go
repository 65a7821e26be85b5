package columnar

import (
	"fmt"

	"github.com/parquet-go/parquet-go/compress/zstd"
)

// SchemaKey is the key-value metadata entry naming a file's schema and version.
const SchemaKey = "kingoal.schema"

// ChecksumKey is the key-value metadata entry with a file's own checksum (ChecksumValue),
// which the datasets readers verify before trusting a file.
const ChecksumKey = "kingoal.checksum"

// ChecksumValue is ChecksumKey's value for a file whose first n bytes (everything before
// the footer) have CRC-32 (IEEE) crc: "CRC N", the CRC in 8 hex digits.
func ChecksumValue(crc uint32, n int64) string { return fmt.Sprintf("%08x %d", crc, n) }

// RowGroupRows bounds row groups so readers and writers stream in bounded memory.
const RowGroupRows = 64 * 1024

// FastZstd is zstd at its fastest level: on arena shards it compresses within a few per
// cent of the default level in about half the time (BENCHMARKS.md, issue 14).
var FastZstd = zstd.Codec{Level: zstd.SpeedFastest}
