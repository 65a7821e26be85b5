// The equilibrium of a game with a Dynamic side as a file that lasts: its decisions, a byte each.

package dyngame

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/game"
	"github.com/kingoal/kingoal/solver/internal/framed"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/zerosum"
)

// A Dynamic game table (format "kingoal dynamic game table", version 1; by convention
// FILE.kgt) is:
//
//	magic "kingoal dynamic game table\n", uint32 version, uint32 length, that many bytes of
//	header JSON (format, version, rules, payoff, moves)
//	a zstd stream, little-endian:
//	  'L' a layer, in the solve's order (the last period first, 1 throw left first): uint8
//	      period, uint16 throws left, int16 lowest difference, uint16 differences; then the
//	      layer's decisions, one byte each, as the solve keeps them (dynDecisions): the Basic
//	      side's breaks if there is one, then for each Dynamic side (home first) its shifts
//	      after a won throw and after a goal.
//	  'E' the end: uint32 length and the Stats/Check JSON, then the kick-off's 121 × 121
//	      values to home (float64, home's line-up by row), from which Load solves the
//	      kick-off's matrix game again — the solve's mixes, to the bit.
//	SHA-256 of every byte before it.
//
// A decision is the index of the line-up played in the deciding side's options (0: keep);
// every one is checked on reading, so a damaged file cannot make Choice read out of range.
const tableVersion = 1

// ErrBadTable is wrapped when a file is not a Dynamic game table of this version, or is
// damaged or truncated.
var ErrBadTable = errors.New("solver: bad dynamic game table")

var tableKind = framed.Kind{Magic: "kingoal dynamic game table\n", Version: tableVersion, Bad: ErrBadTable, What: "dynamic game table",
	Hint: "written by kingoal solve game --out FILE.kgt under rules with a Dynamic side"}

type tableHeader struct {
	Format  string    `json:"format"`
	Version int       `json:"version"`
	Rules   env.Rules `json:"rules"`
	Payoff  string    `json:"payoff"`
	Moves   int       `json:"moves"` // a Basic side's budget held (capped at 5)
}

type tableEnd struct {
	Stats game.Stats  `json:"stats"`
	Check *game.Check `json:"check"` // nil: solved without it
}

// WriteTable writes the game's whole strategy as a table (Load reads it back). A game read
// from a table writes the same bytes.
func (g *Game) WriteTable(w io.Writer) error { return g.writeTable(context.Background(), w) }

// writeTable is WriteTable, stopped between layers by ctx (the largest table's decisions take
// seconds to compress).
func (g *Game) writeTable(ctx context.Context, w io.Writer) error {
	fw, err := framed.NewWriter(w, tableKind, tableHeader{Format: "kingoal-dynamic-game-table", Version: tableVersion,
		Rules: g.Problem.Rules, Payoff: g.Problem.Payoff.String(), Moves: g.space.moves})
	if err != nil {
		return err
	}
	err = g.eachLayer(func(per, t int, dec *dynDecisions) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		b := []byte{'L', uint8(per)}
		b = binary.LittleEndian.AppendUint16(b, uint16(t))
		b = binary.LittleEndian.AppendUint16(b, uint16(int16(dec.lo)))
		b = binary.LittleEndian.AppendUint16(b, uint16(dec.n))
		fw.Put(b)
		for _, arr := range dec.arrays() {
			fw.Put(*arr)
		}
		return fw.Err()
	})
	if err != nil {
		return err
	}
	c := g.check
	if c != nil { // the best responses' line-ups are not kept (as in game tables)
		kept := game.Check{HomeBest: c.HomeBest, AwayBest: c.AwayBest, Exploitability: c.Exploitability, Solves: c.Solves}
		c = &kept
	}
	end, err := json.Marshal(tableEnd{Stats: g.stats, Check: c})
	if err != nil {
		return err
	}
	b := binary.LittleEndian.AppendUint32([]byte{'E'}, uint32(len(end)))
	b = append(b, end...)
	for _, row := range g.kickValues {
		for _, v := range row {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	fw.Put(b)
	return fw.Close()
}

// eachLayer calls fn with every layer's decisions in the solve's order, up to its first error.
func (g *Game) eachLayer(fn func(per, t int, dec *dynDecisions) error) error {
	for per := len(g.ls.Lengths) - 1; per >= 0; per-- {
		for t := 1; t <= g.ls.Lengths[per]; t++ {
			if err := fn(per, t, g.dec[per][t]); err != nil {
				return err
			}
		}
	}
	return nil
}

// arrays lists the layer's decision arrays in the table's order (those its modes keep).
func (d *dynDecisions) arrays() []*[]uint8 {
	out := []*[]uint8{&d.brk}
	for p := range 2 {
		out = append(out, &d.shift[p], &d.breakShift[p])
	}
	return out
}

// LoadFile reads the Dynamic game table at path (Load).
func LoadFile(ctx context.Context, path string) (g *Game, err error) {
	err = framed.Open(path, func(r io.ReaderAt, size int64) error {
		g, err = Load(ctx, r, size)
		return err
	})
	return g, err
}

// Load reads a Dynamic game table of size bytes (Game.WriteTable): a Game with the rules,
// payoff, strategy, kick-off, statistics and check of the solve that wrote it — Choice,
// ChoiceFor, Value, KickOff, Check and WriteTable work on it. A file that is not such a
// table, or is damaged or truncated, is refused with an error wrapping ErrBadTable; ctx, if
// set, stops the read between layers.
func Load(ctx context.Context, r io.ReaderAt, size int64) (*Game, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	var g *Game
	err := framed.Read(r, size, tableKind, func(raw []byte) (err error) {
		g, err = readTableHeader(raw)
		return err
	}, func(body io.Reader) error { return g.readBody(ctx, body) })
	if err != nil {
		return nil, err
	}
	return g, nil
}

func readTableHeader(raw []byte) (*Game, error) {
	var h tableHeader
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return nil, tableKind.Badf("damaged header: %v", err)
	}
	payoff, err := lineup.ParsePayoff(h.Payoff)
	if err != nil {
		return nil, tableKind.Badf("damaged header: %v", err)
	}
	p := game.Problem{Rules: h.Rules, Payoff: payoff}
	sp, ls, err := newDynamicRecursion(p)
	if err != nil {
		return nil, tableKind.Badf("damaged header: %v", err)
	}
	if h.Format != "kingoal-dynamic-game-table" || h.Version != tableVersion || h.Moves != sp.moves {
		return nil, tableKind.Badf("damaged header: format %q, version %d, %d moves", h.Format, h.Version, h.Moves)
	}
	g := &Game{Problem: p, space: sp, ls: ls, dec: make([][]*dynDecisions, len(ls.Lengths))}
	for per, n := range ls.Lengths {
		g.dec[per] = make([]*dynDecisions, n+1)
	}
	return g, nil
}

// readBody reads every layer, checking each is the one the rules put there and each decision
// is one its side may take, then the end block; it solves the kick-off again.
func (g *Game) readBody(ctx context.Context, body io.Reader) error {
	sp := g.space
	var stored int64
	err := g.eachLayer(func(per, t int, _ *dynDecisions) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		var head [8]byte
		if _, err := io.ReadFull(body, head[:]); err != nil {
			return err
		}
		lo, hi := g.ls.Span(per, t)
		n := max(hi-lo+1, 0)
		if head[0] != 'L' || int(head[1]) != per || int(binary.LittleEndian.Uint16(head[2:])) != t ||
			int(int16(binary.LittleEndian.Uint16(head[4:]))) != lo || int(binary.LittleEndian.Uint16(head[6:])) != n {
			return tableKind.Badf("damaged: layer %d of period %d is not where these rules put it", t, per)
		}
		dec := newDecisions(sp, lo, n)
		for _, arr := range dec.arrays() {
			if _, err := io.ReadFull(body, *arr); err != nil {
				return err
			}
			stored += int64(len(*arr))
		}
		if err := dec.check(sp); err != nil {
			return err
		}
		g.dec[per][t] = dec
		return nil
	})
	if err != nil {
		return err
	}
	return g.readEnd(body, stored)
}

// check refuses a decision out of its side's options.
func (d *dynDecisions) check(sp *dynSpace) error {
	c := sp.configs
	for i, choice := range d.brk {
		if p, _ := sp.basicSide(); int(choice) >= sp.optionCount(p, i%c) {
			return tableKind.Badf("damaged: a break's choice out of reach")
		}
	}
	for p := env.Home; p <= env.Away; p++ {
		for _, arr := range [][]uint8{d.shift[p], d.breakShift[p]} {
			for i, choice := range arr {
				if int(choice) >= sp.optionCount(p, i%c) {
					return tableKind.Badf("damaged: a shift out of reach")
				}
			}
		}
	}
	return nil
}

// readEnd reads the statistics, check and kick-off values, and solves the kick-off.
func (g *Game) readEnd(body io.Reader, stored int64) error {
	var head [5]byte
	if _, err := io.ReadFull(body, head[:]); err != nil {
		return err
	}
	n := binary.LittleEndian.Uint32(head[1:])
	if head[0] != 'E' || n > 1<<16 {
		return tableKind.Badf("damaged: no end block")
	}
	raw := make([]byte, n)
	if _, err := io.ReadFull(body, raw); err != nil {
		return err
	}
	var end tableEnd
	if err := json.Unmarshal(raw, &end); err != nil || end.Stats.Bytes != stored {
		return tableKind.Badf("damaged: the end block (%v; %d decisions stored)", err, stored)
	}
	vals := make([]byte, 8*env.NumLineups*env.NumLineups)
	if _, err := io.ReadFull(body, vals); err != nil {
		return err
	}
	if k, err := body.Read(make([]byte, 1)); k > 0 || err != io.EOF {
		return tableKind.Badf("damaged: bytes after the end")
	}
	g.stats, g.check = end.Stats, end.Check
	g.kickValues = make([][]float64, env.NumLineups)
	for i := range g.kickValues {
		g.kickValues[i] = make([]float64, env.NumLineups)
		for j := range g.kickValues[i] {
			v := math.Float64frombits(binary.LittleEndian.Uint64(vals[8*(i*env.NumLineups+j):]))
			if !(math.Abs(v) <= 1e6) {
				return tableKind.Badf("damaged: a kick-off value %v", v)
			}
			g.kickValues[i][j] = v
		}
	}
	m, err := zerosum.SolveMatrixGame(g.kickValues)
	if err != nil {
		return tableKind.Badf("damaged: the kick-off: %v", err)
	}
	g.kickOff = m
	return nil
}

// Tables tell their kind by their first bytes: IsTable reports whether r starts as a Dynamic
// game table does (Load says whether it is a whole one).
func IsTable(r io.ReaderAt) bool { return tableKind.Starts(r) }

// IsTableFile is IsTable for the regular file at path (false for anything else).
func IsTableFile(path string) bool { return tableKind.IsFile(path) }
