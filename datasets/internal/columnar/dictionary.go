package columnar

import (
	"unsafe"
)

// Dictionary numbers distinct strings in order of first appearance. Rows mostly carry
// Strings from constant tables (agent specs, line-up names, outcomes), the same bytes at
// the same address row after row, so a string is first looked up by its address in a
// small direct-mapped cache; the cache holds the string itself, which keeps that address
// from being reused for other bytes while the entry stands. Misses go to a map.
type Dictionary struct {
	values []string
	index  map[string]int32
	recent [recentEntries]recentString
}

type recentString struct {
	s   string
	id1 int32 // the id plus one; 0: an empty entry
}

const recentEntries = 128

// ID returns s's number.
func (d *Dictionary) ID(s string) int32 {
	e := &d.recent[uintptr(unsafe.Pointer(unsafe.StringData(s)))>>4%recentEntries]
	if e.id1 != 0 && len(e.s) == len(s) && unsafe.StringData(e.s) == unsafe.StringData(s) {
		return e.id1 - 1
	}
	return d.miss(s, e)
}

// miss finds or adds s by its bytes, and caches it in e.
func (d *Dictionary) miss(s string, e *recentString) int32 {
	id, ok := d.index[s]
	if !ok {
		id = int32(len(d.values))
		d.values = append(d.values, s)
		if d.index == nil {
			d.index = map[string]int32{}
		}
		d.index[s] = id
	}
	e.s, e.id1 = s, id+1
	return id
}

func (d *Dictionary) reset() {
	d.values = d.values[:0]
	d.index = nil
	d.recent = [recentEntries]recentString{}
}
