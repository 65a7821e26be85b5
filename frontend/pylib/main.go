package main

/*
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/internal/version"
)

func main() {} // a c-shared library needs one

// Error classes returned to Python (see doc.go).
const (
	ok           = 0
	badInput     = 1
	wrongState   = 2
	internalFail = 3
)

// inputError marks an error the caller's input caused.
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

func inputf(format string, a ...any) error { return inputError{fmt.Errorf(format, a...)} }

// classify maps an error to its class: the user's input, the env's state, or ours.
func classify(err error) C.int {
	var in inputError
	var ke *env.KnobError
	switch {
	case err == nil:
		return ok
	case errors.As(err, &in), errors.As(err, &ke), errors.Is(err, env.ErrIllegalAction), errors.Is(err, env.ErrRules):
		return badInput
	}
	return wrongState
}

// report writes err's one line into the caller's buffer and returns its class.
func report(err error, buf *C.char, size C.int) C.int {
	if err == nil {
		return ok
	}
	writeString(strings.ReplaceAll(err.Error(), "\n", " "), buf, size)
	return classify(err)
}

// writeString copies s, NUL-terminated and cut to size, into buf.
func writeString(s string, buf *C.char, size C.int) {
	if buf == nil || size <= 0 {
		return
	}
	n := min(len(s), int(size)-1)
	dst := unsafe.Slice((*byte)(unsafe.Pointer(buf)), int(size))
	copy(dst, s[:n])
	dst[n] = 0
}

// guard turns a panic into an internal error for the caller: nothing crosses the boundary.
func guard(rc *C.int, buf *C.char, size C.int) {
	if r := recover(); r != nil {
		writeString(fmt.Sprintf("kingoal: internal error: %v", r), buf, size)
		*rc = internalFail
	}
}

// handles holds the live objects by the numbers Python holds.
var handles = struct {
	sync.Mutex
	next uint64
	m    map[uint64]*entry
}{m: map[uint64]*entry{}}

// entry is a live object and whether a call is using it: an environment is not safe for
// concurrent use, and two threads in one (a Go map written twice at once) would abort the
// whole process, so the second call is refused instead.
type entry struct {
	v    any
	busy atomic.Bool
}

func register(v any) C.uint64_t {
	handles.Lock()
	defer handles.Unlock()
	handles.next++
	handles.m[handles.next] = &entry{v: v}
	return C.uint64_t(handles.next)
}

// errBusy is what a second thread gets from an environment the first is in.
var errBusy = errors.New("kingoal: this environment is in use by another thread (environments are not thread-safe: make one per thread)")

// acquire returns the object behind h for one call, which must call release when it ends.
func acquire[T any](h C.uint64_t) (t T, release func(), err error) {
	handles.Lock()
	e, found := handles.m[uint64(h)]
	handles.Unlock()
	if found {
		t, found = e.v.(T)
	}
	if !found {
		return t, nil, errors.New("kingoal: the environment is closed (or was never made)")
	}
	if !e.busy.CompareAndSwap(false, true) {
		return t, nil, errBusy
	}
	return t, func() { e.busy.Store(false) }, nil
}

//export kg_close
func kg_close(h C.uint64_t) {
	handles.Lock()
	delete(handles.m, uint64(h))
	handles.Unlock()
}

//export kg_version
func kg_version(buf *C.char, size C.int) {
	writeString(version.String(), buf, size)
}

//export kg_free
func kg_free(p *C.char) { C.free(unsafe.Pointer(p)) }

// floats, int8s, … view a Python-owned buffer for the length of one call.
func floats(p *C.float, n int) []float32 { return unsafe.Slice((*float32)(unsafe.Pointer(p)), n) }
func doubles(p *C.double, n int) []float64 {
	return unsafe.Slice((*float64)(unsafe.Pointer(p)), n)
}
func int8s(p *C.int8_t, n int) []int8    { return unsafe.Slice((*int8)(unsafe.Pointer(p)), n) }
func int64s(p *C.int64_t, n int) []int64 { return unsafe.Slice((*int64)(unsafe.Pointer(p)), n) }
func bytesAt(p *C.uint8_t, n int) []byte { return unsafe.Slice((*byte)(unsafe.Pointer(p)), n) }

// byteBits[b] is the 0/1 bytes of the 8 bits of b, lowest first.
var byteBits = func() (t [256][8]int8) {
	for b := range t {
		for i := range 8 {
			t[b][i] = int8(b >> i & 1)
		}
	}
	return t
}()

// writeMask writes m as NumActions 0/1 bytes, eight at a time.
func writeMask(dst []int8, m env.Mask) {
	for a := 0; a < len(dst); a += 8 {
		w := m[a/64] >> (a % 64)
		copy(dst[a:min(a+8, len(dst))], byteBits[byte(w)][:])
	}
}

func b2i(b bool) int8 {
	if b {
		return 1
	}
	return 0
}
