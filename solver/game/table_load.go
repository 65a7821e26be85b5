// Reading a game table back: a Game that plays the stored strategy without solving.

package game

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"runtime"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/internal/framed"
	"github.com/kingoal/kingoal/solver/internal/induction"
	"github.com/kingoal/kingoal/solver/lineup"
)

// ErrBadTable is wrapped by Load's errors for a file that is not a game table of this
// version, or is damaged or truncated.
var ErrBadTable = errors.New("solver: not a readable game table")

// LoadFile reads the game table at path (Load).
func LoadFile(ctx context.Context, path string) (g *Game, err error) {
	err = framed.Open(path, func(r io.ReaderAt, size int64) error {
		g, err = Load(ctx, r, size)
		return err
	})
	return g, err
}

// ReadBack reads the table at path that the solve of solved wrote (Problem.Table, typically
// with Stream) and checks it holds that solve: the kick-off's value to the bit, the
// statistics and the check. The game returned is the table's.
func ReadBack(ctx context.Context, path string, solved *Game) (*Game, error) {
	// A solve that just ended leaves its working layers as garbage, gigabytes the collector
	// would let the table's arrays come on top of (measured: 9.5 GB at the knockout game's
	// peak, for a solve estimated at 7.1 GiB and a table that reads in 3.1 GB): collect them first.
	runtime.GC()
	g, err := LoadFile(ctx, path)
	if err != nil {
		return nil, err
	}
	c1, ok1 := solved.Check()
	c2, ok2 := g.Check()
	if g.Value() != solved.Value() || g.Stats() != solved.Stats() || ok1 != ok2 || c1.HomeBest != c2.HomeBest || c1.AwayBest != c2.AwayBest {
		return nil, fmt.Errorf("%w: it holds value %v, its solve %v", ErrBadTable, g.Value(), solved.Value())
	}
	return g, nil
}

// Load reads a game table of size bytes (Problem.Table): a Game with the rules,
// payoff, strategy, kick-off, statistics and check of the solve that wrote it — At, Breaks,
// Strategy, KickOff, KickOffWith and Verify work on it; it holds no values from which to
// solve. A file that is not a table of this version, or is damaged or truncated, is refused
// with an error wrapping ErrBadTable. ctx, if set, stops the read between layers (its error
// is returned).
func Load(ctx context.Context, r io.ReaderAt, size int64) (*Game, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	var g *Game
	var ls *induction.Layers
	err := framed.Read(r, size, gameFraming, func(raw []byte) (err error) {
		g, ls, err = readTableHeader(raw)
		return err
	}, func(body io.Reader) error {
		return (&tableReader{rd: body, g: g, ls: ls, ctx: ctx}).readAll()
	})
	if err != nil {
		return nil, err
	}
	if err := g.solveKickOff(); err != nil {
		return nil, err
	}
	return g, nil
}

func badTable(format string, args ...any) error { return gameFraming.Badf(format, args...) }

// readFailure names a read error (framed.Kind.Failure).
func readFailure(err error) error { return gameFraming.Failure(err) }

// readTableHeader reads the header and lays out the game it describes.
func readTableHeader(raw []byte) (*Game, *induction.Layers, error) {
	var h tableHeader
	if err := decodeStrict(raw, &h); err != nil {
		return nil, nil, badTable("damaged header: %v", err)
	}
	payoff, err := lineup.ParsePayoff(h.Payoff)
	if err != nil {
		return nil, nil, badTable("damaged header: %v", err)
	}
	p := Problem{Rules: h.Rules, Payoff: payoff}
	moves, err := checkGame(p)
	if err != nil {
		return nil, nil, badTable("damaged header: %v", err)
	}
	if h.Format != "kingoal-game-table" || h.Version != tableVersion || h.Moves != moves {
		return nil, nil, badTable("damaged header: format %q, version %d, %d moves", h.Format, h.Version, h.Moves)
	}
	return newGame(p, moves, false)
}

// decodeStrict reads JSON that must hold v's fields and no others.
func decodeStrict(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// tableReader reads the blocks of a table into its Game.
type tableReader struct {
	ctx context.Context
	rd  io.Reader
	g   *Game
	ls  *induction.Layers
	buf []byte // a layer's values as read
}

func (tr *tableReader) readAll() error {
	g := tr.g
	g.table = make([][]*tableLayer, len(g.lengths))
	for per := len(g.lengths) - 1; per >= 0; per-- {
		g.table[per] = make([]*tableLayer, g.lengths[per]+1)
		for t := 1; t <= g.lengths[per]; t++ {
			if err := tr.ctx.Err(); err != nil {
				return err // a default table's layer takes ~80 ms to read
			}
			if err := tr.layer(per, t); err != nil {
				return err
			}
		}
	}
	return tr.end()
}

// layer reads the block of the layer (per, t), which must be the next one.
func (tr *tableReader) layer(per, t int) error {
	g, sp := tr.g, tr.g.space
	head := make([]byte, 12)
	if _, err := io.ReadFull(tr.rd, head); err != nil {
		return readFailure(err)
	}
	lo, hi := tr.ls.Span(per, t)
	n := max(hi-lo+1, 0)
	tl := &tableLayer{entries: sp.entries, base: make([]int, n), kind: make([]uint8, n)}
	count := 0
	for dd := range n {
		tl.base[dd], tl.kind[dd] = count, uint8(differenceKind(g.mirror, lo, n, lo+dd))
		switch tl.kind[dd] {
		case solvedAll:
			count += sp.configs()
		case solvedTriangle:
			count += sp.entries * (sp.entries + 1) / 2
		}
	}
	if head[0] != 'L' || int(head[1]) != per || int(binary.LittleEndian.Uint16(head[2:])) != t ||
		int(int16(binary.LittleEndian.Uint16(head[4:]))) != lo || int(binary.LittleEndian.Uint16(head[6:])) != n ||
		int(binary.LittleEndian.Uint32(head[8:])) != count {
		return badTable("damaged: the block of %s, %d throws left does not match the rules", env.FirstHalf+env.Period(per), t)
	}
	if cap(tr.buf) < 4*count {
		tr.buf = make([]byte, 4*count)
	}
	raw := tr.buf[:4*count]
	tl.value = make([]float32, count)
	tl.code = [2][]uint8{make([]uint8, count), make([]uint8, count)}
	for _, b := range [][]byte{raw, tl.code[0], tl.code[1]} {
		if _, err := io.ReadFull(tr.rd, b); err != nil {
			return readFailure(err)
		}
	}
	for i := range tl.value {
		tl.value[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	if err := tr.mixes(tl, canonicalRuns(sp, g.mirror, lo, n), count); err != nil {
		return err
	}
	g.kicks[per][t] = &kickLayer{lo: lo, n: n}
	g.table[per][t] = tl
	return nil
}

// mixes reads a layer's mixes: one for each code 255, in order, each checked.
func (tr *tableReader) mixes(tl *tableLayer, runs iter.Seq2[int, int], count int) error {
	sp := tr.g.space
	head := make([]byte, 4)
	if _, err := io.ReadFull(tr.rd, head); err != nil {
		return readFailure(err)
	}
	size := int(binary.LittleEndian.Uint32(head))
	if size > 2*count*(1+9*maxMix) {
		return badTable("damaged: %d bytes of mixes for %d breaks", size, count)
	}
	tl.mix = make([]byte, size)
	if _, err := io.ReadFull(tr.rd, tl.mix); err != nil {
		return readFailure(err)
	}
	mixed := bytes.Count(tl.code[0], []byte{mixedCode}) + bytes.Count(tl.code[1], []byte{mixedCode})
	tl.mixAt, tl.mixOff = make([]uint64, 0, mixed), make([]uint32, 0, mixed)
	reachOf := make([]uint8, sp.entries) // reach lists hold ≤ 121 entries
	for e, r := range sp.reach {
		reachOf[e] = uint8(len(r))
	}
	off, i := 0, 0 // i: the index of the run's first break (breaks are held in order)
	for start, m := range runs {
		home, first := reachOf[start%sp.configs()/sp.entries], start%sp.entries
		hc, ac, away := tl.code[0][i:i+m], tl.code[1][i:i+m], reachOf[first:first+m]
		for j := range m {
			if hc[j] >= home && hc[j] != mixedCode || ac[j] >= away[j] && ac[j] != mixedCode {
				return badTable("damaged: a choice out of its line-ups' range")
			}
		}
		// The run's mixes, in index order, home's before away's at one break.
		for j := 0; j < m; j++ {
			nh, na := bytes.IndexByte(hc[j:], mixedCode), bytes.IndexByte(ac[j:], mixedCode)
			if nh < 0 && na < 0 {
				break
			}
			if nh < 0 || na >= 0 && na < nh {
				nh = na
			}
			j += nh
			for side, reach := range [2]uint8{home, away[j]} {
				if tl.code[side][i+j] != mixedCode {
					continue
				}
				n, err := readMix(tl.mix[off:], int(reach))
				if err != nil {
					return err
				}
				tl.mixAt = append(tl.mixAt, uint64(i+j)*2+uint64(side))
				tl.mixOff = append(tl.mixOff, uint32(off))
				off += 1 + 9*n
			}
		}
		i += m
	}
	if off != size {
		return badTable("damaged: %d bytes of mixes, %d read", size, off)
	}
	return nil
}

// readMix checks the mix at the head of b over a reach list of reach entries and returns
// its size: 2..maxMix distinct indices, probabilities above 0 summing to 1.
func readMix(b []byte, reach int) (int, error) {
	if len(b) == 0 {
		return 0, badTable("damaged: a mix is missing")
	}
	n := int(b[0])
	if n < 2 || n > maxMix || len(b) < 1+9*n {
		return 0, badTable("damaged: a mix of %d line-ups", n)
	}
	var seen [256]bool
	total := 0.0
	for j := range n {
		i := int(b[1+j])
		p := math.Float64frombits(binary.LittleEndian.Uint64(b[1+n+8*j:]))
		if i >= reach || seen[i] || !(p > 0 && p <= 1) {
			return 0, badTable("damaged: a mix's line-up %d of %d with probability %v", i, reach, p)
		}
		seen[i] = true
		total += p
	}
	if math.Abs(total-1) > 1e-9 {
		return 0, badTable("damaged: a mix sums to %v", total)
	}
	return n, nil
}

// end reads the end block: statistics, check, the first kick-off's values; then nothing.
func (tr *tableReader) end() error {
	g := tr.g
	head := make([]byte, 5)
	if _, err := io.ReadFull(tr.rd, head); err != nil {
		return readFailure(err)
	}
	n := binary.LittleEndian.Uint32(head[1:])
	if head[0] != 'E' || n > 1<<16 {
		return badTable("damaged: no end block")
	}
	raw := make([]byte, n)
	if _, err := io.ReadFull(tr.rd, raw); err != nil {
		return readFailure(err)
	}
	var end tableEnd
	if err := decodeStrict(raw, &end); err != nil {
		return badTable("damaged end block: %v", err)
	}
	g.stats, g.check = end.Stats, end.Check
	kl := g.kicks[0][g.lengths[0]]
	raw = make([]byte, 8*kl.n*g.space.configs())
	if _, err := io.ReadFull(tr.rd, raw); err != nil {
		return readFailure(err)
	}
	kl.k = make([]float64, kl.n*g.space.configs())
	for i := range kl.k {
		v := math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return badTable("damaged: a kick-off value %v", v)
		}
		kl.k[i] = v
	}
	if n, err := tr.rd.Read(make([]byte, 1)); err != io.EOF {
		if n > 0 || err == nil {
			return badTable("damaged: bytes after the end block")
		}
		return readFailure(err)
	}
	return nil
}

// SolveToFile solves p, the strategy streamed to a new table at path (Problem.Stream; written
// atomically: nothing is left at path if the solve fails, is stopped or its check — with
// p.Verify — finds the strategy exploitable beyond 1e-9), and returns the table read back
// (ReadBack). p.Table and p.Stream are set here.
func SolveToFile(path string, p Problem) (*Game, error) {
	p.Stream = true
	return framed.Keep(path, func(w io.Writer) (*Game, error) {
		p.Table = w
		g, err := Solve(p)
		if err != nil {
			return nil, err
		}
		return g, Checked(g)
	}, func(g *Game) (*Game, error) { return ReadBack(p.Context, path, g) })
}

// Checked refuses a solved game — Basic, or with a Dynamic side — whose check
// (Problem.Verify) found it exploitable beyond 1e-9 either way: not an equilibrium, up to
// rounding.
func Checked(g interface{ Check() (Check, bool) }) error {
	if c, ok := g.Check(); ok && !c.Verified() {
		return fmt.Errorf("solver: the best responses gain %.3g over the equilibrium (home %.12f, away %.12f): not an equilibrium",
			c.Exploitability, c.HomeBest, c.AwayBest)
	}
	return nil
}

// IsTableFile reports whether the regular file at path starts as a game table of two Basic
// sides does (LoadFile says whether it is a whole one); false for anything else.
func IsTableFile(path string) bool { return gameFraming.IsFile(path) }

// IsTable reports whether r starts as a game table of two Basic sides does.
func IsTable(r io.ReaderAt) bool { return gameFraming.Starts(r) }
