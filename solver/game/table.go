// The equilibrium as a file that lasts: the strategy table Solve writes as it solves (Problem.Table).

package game

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"io"
	"iter"
	"math"
	"slices"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/internal/framed"
)

// A game table (format "kingoal game table", version 1; by convention FILE.kgt) is:
//
//	magic "kingoal game table\n", uint32 version, uint32 length, that many bytes of header JSON
//	a zstd stream of blocks, little-endian:
//	  'L' a layer, in the solve's order (the last period first, 1 throw left first):
//	      uint8 period, uint16 throws left, int16 lowest difference, uint16 differences,
//	      uint32 breaks; then the breaks' float32 values, home's codes, away's codes, each
//	      in break order (the breaks the solve solved itself — not their mirror images — by
//	      difference, home's entry, away's); uint32 bytes of mixes and the mixes. A code is
//	      the index of the pure choice in the side's reach list, or 255 for a mix: uint8 n,
//	      n indices, n float64 probabilities (in break order, home's before away's).
//	  'E' the end: uint32 length and the Stats/Check JSON, then the float64 values
//	      from the first kick-off (its layer's differences × configurations).
//	SHA-256 of every byte before it.
//
// The strategy is kept exactly (it is what the check verified); the values of breaks to
// float32 (≈ 7 digits); the first kick-off's values exactly, so the kick-off mixes and the
// right to substitute come out as the solve's.
const (
	tableVersion = 1
	mixedCode    = 255
)

var gameFraming = framed.Kind{Magic: "kingoal game table\n", Version: tableVersion, Bad: ErrBadTable, What: "game table",
	Hint: "written by kingoal solve game --out FILE.kgt"}

// tableHeader is the JSON at the head of a table: what it was solved for.
type tableHeader struct {
	Format  string    `json:"format"`
	Version int       `json:"version"`
	Rules   env.Rules `json:"rules"`
	Payoff  string    `json:"payoff"`
	Moves   int       `json:"moves"`
}

// tableEnd is the JSON of the end block: the solve's statistics and check.
type tableEnd struct {
	Stats Stats  `json:"stats"`
	Check *Check `json:"check"` // nil: solved without it
}

// tableWriter writes a table as the solve goes: Solve hands it each layer's answers.
type tableWriter struct {
	*framed.Writer
	// The layer being solved, by position (d−lo)*configs + h*entries + a; each worker
	// writes its own configurations' positions and collects its mixes.
	value []float32
	code  [2][]uint8
	mixes [][]tableMix
}

// tableMix is a side's mix at a break, recorded by a worker.
type tableMix struct {
	key uint64 // position*2 + side
	m   breakMix
}

func newTableWriter(dst io.Writer, p Problem, moves, workers int) (*tableWriter, error) {
	fw, err := framed.NewWriter(dst, gameFraming, tableHeader{Format: "kingoal-game-table", Version: tableVersion, Rules: p.Rules, Payoff: p.Payoff.String(), Moves: moves})
	if err != nil {
		return nil, err
	}
	return &tableWriter{Writer: fw, mixes: make([][]tableMix, workers)}, nil
}

// startLayer readies the arrays for a layer of n differences.
func (tw *tableWriter) startLayer(n, configs int) {
	size := n * configs
	if cap(tw.value) < size {
		tw.value = make([]float32, size)
		tw.code = [2][]uint8{make([]uint8, size), make([]uint8, size)}
	}
	tw.value, tw.code[0], tw.code[1] = tw.value[:size], tw.code[0][:size], tw.code[1][:size]
	for w := range tw.mixes {
		tw.mixes[w] = tw.mixes[w][:0]
	}
}

// put records the answer at position pos, from worker w.
func (tw *tableWriter) put(w, pos int, ans *breakAnswer) {
	tw.value[pos] = float32(ans.value)
	for side, m := range [2]*breakMix{&ans.home, &ans.away} {
		if m.n == 1 {
			tw.code[side][pos] = m.at[0]
			continue
		}
		tw.code[side][pos] = mixedCode
		tw.mixes[w] = append(tw.mixes[w], tableMix{key: uint64(pos)*2 + uint64(side), m: *m})
	}
}

// endLayer writes the layer (per, t) of differences lo..lo+n−1: its canonical breaks in order.
func (tw *tableWriter) endLayer(per, t, lo, n int, sp *gameSpace, mirror bool) {
	if tw.Err() != nil {
		return
	}
	b := []byte{'L', uint8(per)}
	b = binary.LittleEndian.AppendUint16(b, uint16(t))
	b = binary.LittleEndian.AppendUint16(b, uint16(int16(lo)))
	b = binary.LittleEndian.AppendUint16(b, uint16(n))
	runs := canonicalRuns(sp, mirror, lo, n)
	count := 0
	for _, m := range runs {
		count += m
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(count))
	tw.Put(b)
	for start, m := range runs {
		b = b[:0]
		for _, v := range tw.value[start : start+m] {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
		}
		tw.Put(b)
	}
	for side := range tw.code {
		for start, m := range runs {
			tw.Put(tw.code[side][start : start+m])
		}
	}
	var all []tableMix
	for _, m := range tw.mixes {
		all = append(all, m...)
	}
	slices.SortFunc(all, func(x, y tableMix) int { return cmp.Compare(x.key, y.key) })
	var mb []byte
	for _, m := range all {
		mb = append(mb, uint8(m.m.n))
		mb = append(mb, m.m.at[:m.m.n]...)
		for _, p := range m.m.p[:m.m.n] {
			mb = binary.LittleEndian.AppendUint64(mb, math.Float64bits(p))
		}
	}
	tw.Put(binary.LittleEndian.AppendUint32(nil, uint32(len(mb))))
	tw.Put(mb)
}

// finish writes the end block and the checksum.
func (tw *tableWriter) finish(g *Game) error {
	end, err := json.Marshal(tableEnd{Stats: g.stats, Check: g.check})
	if err != nil {
		return err
	}
	kl := g.kicks[0][g.lengths[0]]
	b := binary.LittleEndian.AppendUint32([]byte{'E'}, uint32(len(end)))
	b = append(b, end...)
	for _, v := range kl.k {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	tw.Put(b)
	return tw.Close()
}

// canonicalRuns are the breaks of a layer a solve solves itself (not read off their mirror),
// in order, as runs of positions (start, length): for each difference and home entry, away's
// entries from the first canonical one on.
func canonicalRuns(sp *gameSpace, mirror bool, lo, n int) iter.Seq2[int, int] {
	e, c := sp.entries, sp.configs()
	return func(yield func(int, int) bool) {
		for d := lo; d < lo+n; d++ {
			kind := differenceKind(mirror, lo, n, d)
			for h := range e {
				first := 0
				switch kind {
				case solvedNone:
					continue
				case solvedTriangle:
					first = h
				}
				if !yield((d-lo)*c+h*e+first, e-first) {
					return
				}
			}
		}
	}
}
