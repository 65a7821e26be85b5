// Reading a policy table back, every byte checked against the rules its header names.

package game

import (
	"encoding/binary"
	"io"
	"math"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/internal/framed"
	"github.com/kingoal/kingoal/solver/lineup"
)

// ReadPolicyTable reads a policy table of size bytes (PolicyTable.WriteTo). A file that is
// not one of this version, is damaged or truncated, or holds a choice its rules do not allow
// (a line-up out of reach, a mix that does not sum to 1, a row twice or a row too many) is
// refused with an error wrapping ErrBadPolicyTable.
func ReadPolicyTable(r io.ReaderAt, size int64) (*PolicyTable, error) {
	var t *PolicyTable
	err := framed.Read(r, size, policyFraming, func(raw []byte) error {
		var info PolicyInfo
		if err := decodeStrict(raw, &info); err != nil {
			return policyFraming.Badf("damaged header: %v", err)
		}
		var err error
		if t, err = NewPolicyTable(info.Rules, info.Name); err != nil {
			return policyFraming.Badf("damaged header: %v", err)
		}
		if info.Format != t.info.Format || info.Version != t.info.Version || info.Moves != t.info.Moves || math.IsNaN(info.Exploitability) {
			return policyFraming.Badf("damaged header: format %q, version %d, %d moves", info.Format, info.Version, info.Moves)
		}
		t.info = info
		return nil
	}, func(body io.Reader) error { return t.read(body) })
	if err != nil {
		return nil, err
	}
	return t, nil
}

// read reads the body into an empty table.
func (t *PolicyTable) read(body io.Reader) error {
	rd := &checkedReader{r: body}
	for s := range t.kick {
		mix := rd.kickOffMix()
		if rd.err != nil {
			return rd.err
		}
		if err := checkMixSum(mix); err != nil {
			return policyFraming.Badf("damaged: %s's kick-off: %v", env.Player(s), err)
		}
		t.kick[s] = mix
	}
	rows := int64(binary.LittleEndian.Uint32(rd.bytes(4)))
	size, err := Estimate(t.info.Rules, lineup.PayoffWinLoss)
	if err != nil {
		return policyFraming.Badf("damaged header: %v", err)
	}
	if rd.err == nil && rows*int64(t.entries) > size.BreakStates {
		return policyFraming.Badf("damaged: %d rows, more than these rules reach", rows)
	}
	w := t.info.Moves + 1
	for range rows {
		if rd.err != nil {
			return rd.err
		}
		head := rd.bytes(7)
		if rd.err != nil {
			return rd.err
		}
		k := rowKey{per: head[0], t: binary.LittleEndian.Uint16(head[1:]), d: int16(binary.LittleEndian.Uint16(head[3:])), entry: binary.LittleEndian.Uint16(head[5:])}
		if err := t.checkRow(k); err != nil {
			return err
		}
		s := State{Period: env.FirstHalf + env.Period(k.per), ThrowsLeft: int(k.t), GoalDiff: int(k.d),
			Home: env.LineupAt(int(k.entry) / w), HomeMoves: int(k.entry) % w, Away: env.LineupAt(0)}
		base := t.position(s, true)
		for side := range t.side {
			sd := &t.side[side]
			codes := rd.bytes(t.entries)
			if rd.err != nil {
				return rd.err
			}
			copy(sd.code[base:], codes) // codes is the reader's buffer: the mixes below reuse it
			for a, c := range sd.code[base : base+t.entries] {
				own, moves := s.Home, s.HomeMoves
				if side == int(env.Away) {
					own, moves = env.LineupAt(a/w), a%w
				}
				if c != mixedCode {
					if int(c) >= env.NumLineups || !own.Reachable(moves).Has(int(c)) {
						return policyFraming.Badf("damaged: a choice out of reach")
					}
					continue
				}
				cells := rd.cells(own, moves)
				if rd.err != nil {
					return rd.err
				}
				sd.mixes[uint32(base+a)] = cells
			}
		}
	}
	if rd.err != nil {
		return rd.err
	}
	if n, _ := body.Read(make([]byte, 1)); n != 0 {
		return policyFraming.Badf("damaged: bytes after the last row")
	}
	return nil
}

// checkRow refuses a row its rules never reach, or one read before.
func (t *PolicyTable) checkRow(k rowKey) error {
	r := t.info.Rules
	per := env.FirstHalf + env.Period(k.per)
	length, most := r.HalfThrows(), 2*(r.HalfThrows()+r.ExtraThrows())
	if per >= env.ExtraFirst {
		length = r.ExtraThrows()
	}
	switch {
	case per > env.ExtraSecond || (per >= env.ExtraFirst && !r.Knockout), k.t == 0, int(k.t) > length,
		int(k.d) > most, int(k.d) < -most, int(k.entry) >= t.entries:
		return policyFraming.Badf("damaged: a row (%d, %d, %d, %d) these rules never reach", k.per, k.t, k.d, k.entry)
	}
	if _, seen := t.rows[k]; seen {
		return policyFraming.Badf("damaged: a row twice")
	}
	return nil
}

// checkedReader reads the body, keeping its first error.
type checkedReader struct {
	r   io.Reader
	err error
	buf []byte
}

func (c *checkedReader) bytes(n int) []byte {
	if cap(c.buf) < n {
		c.buf = make([]byte, n)
	}
	b := c.buf[:n]
	if c.err == nil {
		_, c.err = io.ReadFull(c.r, b)
		if c.err != nil {
			c.err = policyFraming.Failure(c.err)
		}
	}
	return b
}

// kickOffMix reads a kick-off mix: n, then n × (line-up, float64).
func (c *checkedReader) kickOffMix() []env.Weighted {
	n := int(c.bytes(1)[0])
	if c.err != nil {
		return nil
	}
	b := c.bytes(9 * n)
	out := make([]env.Weighted, n)
	for j := range n {
		if int(b[9*j]) >= env.NumLineups {
			c.err = policyFraming.Badf("damaged: a kick-off line-up %d", b[9*j])
			return nil
		}
		out[j] = env.Weighted{Lineup: env.LineupAt(int(b[9*j])), Prob: math.Float64frombits(binary.LittleEndian.Uint64(b[9*j+1:]))}
	}
	return out
}

// cells reads a break's mix (n, n line-ups, n float32), each line-up reachable from own with
// moves left, the probabilities finite, ≥ 0 and summing to 1 within float32's rounding.
func (c *checkedReader) cells(own env.Lineup, moves int) []mixCell {
	n := int(c.bytes(1)[0])
	if c.err != nil {
		return nil
	}
	if n < 2 {
		c.err = policyFraming.Badf("damaged: a mix of %d line-ups", n)
		return nil
	}
	b := c.bytes(5 * n)
	if c.err != nil {
		return nil
	}
	cells, total, legal := make([]mixCell, n), 0.0, own.Reachable(moves)
	for j := range n {
		p := math.Float32frombits(binary.LittleEndian.Uint32(b[n+4*j:]))
		if int(b[j]) >= env.NumLineups || !legal.Has(int(b[j])) || !(p >= 0 && p <= 1) {
			c.err = policyFraming.Badf("damaged: a mix with a line-up out of reach or a probability %v", p)
			return nil
		}
		cells[j], total = mixCell{lineup: b[j], p: p}, total+float64(p)
	}
	if math.Abs(total-1) > 1e-5 {
		c.err = policyFraming.Badf("damaged: a mix summing to %v", total)
		return nil
	}
	return cells
}
