package columnar

import (
	"encoding/binary"
	"unsafe"

	"github.com/parquet-go/parquet-go/format"
)

// Value encodings of the columnar writer that parquet-go's encoding packages do not give.

// statistics returns v's min/max as Parquet writes them (PLAIN: little-endian).
func statistics[T int32 | int64](v []T) format.Statistics {
	if len(v) == 0 {
		return format.Statistics{}
	}
	lo, hi := bounds(v)
	plain := func(x T) []byte {
		if unsafe.Sizeof(x) == 4 {
			return binary.LittleEndian.AppendUint32(nil, uint32(x))
		}
		return binary.LittleEndian.AppendUint64(nil, uint64(x))
	}
	return format.Statistics{MinValue: plain(lo), MaxValue: plain(hi)}
}

// bounds returns the least and greatest of v (not empty), in four independent lanes held
// in registers: one running minimum would make every comparison wait for the one before.
func bounds[T int32 | int64](v []T) (lo, hi T) {
	l0, l1, l2, l3 := v[0], v[0], v[0], v[0]
	h0, h1, h2, h3 := v[0], v[0], v[0], v[0]
	i := 0
	for ; i+4 <= len(v); i += 4 {
		w := v[i : i+4 : i+4]
		l0, h0 = min(l0, w[0]), max(h0, w[0])
		l1, h1 = min(l1, w[1]), max(h1, w[1])
		l2, h2 = min(l2, w[2]), max(h2, w[2])
		l3, h3 = min(l3, w[3]), max(h3, w[3])
	}
	for _, x := range v[i:] {
		l0, h0 = min(l0, x), max(h0, x)
	}
	return min(l0, l1, l2, l3), max(h0, h1, h2, h3)
}

// appendBits appends booleans PLAIN-encoded: bit-packed, least significant bit first.
func appendBits(dst []byte, v []bool) []byte {
	for i := 0; i < len(v); i += 8 {
		var b byte
		for j, x := range v[i:min(i+8, len(v))] {
			if x {
				b |= 1 << j
			}
		}
		dst = append(dst, b)
	}
	return dst
}

func appendPlainString(dst []byte, s string) []byte {
	return append(binary.LittleEndian.AppendUint32(dst, uint32(len(s))), s...)
}
