// A stationary policy as a file: what it chose, for each side, at the kick-off and at every break state a match can reach.

package game

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/internal/framed"
	"github.com/kingoal/kingoal/solver/internal/induction"
	"github.com/kingoal/kingoal/solver/lineup"
	"github.com/kingoal/kingoal/solver/odds"
	"github.com/kingoal/kingoal/solver/policy"
)

// ErrBadPolicyTable is wrapped by ReadPolicyTable's errors for a file that is not a policy
// table of this version, or is damaged or truncated.
var ErrBadPolicyTable = errors.New("solver: not a readable policy table")

// A policy table (format "kingoal policy table", version 1; by convention FILE.kgp) is framed
// as a game table (magic, version, header JSON, zstd body, SHA-256 trailer). Its body,
// little-endian: for home then away, the kick-off mix (uint8 n, n × (uint8 line-up, float64
// probability)); uint32 rows; each row a difference and home's entry — uint8 period, uint16
// throws left, int16 difference, uint16 home's entry (line-up × (moves+1) + moves left) —
// then for home then away, one code per away entry: the line-up index of a pure choice or
// 255 for a mix, whose uint8 n, n line-ups and n float32 probabilities follow the codes in
// order. Rows are sorted; probabilities keep ~7 digits (renormalised when read).
var policyFraming = framed.Kind{Magic: "kingoal policy table\n", Version: 1, Bad: ErrBadPolicyTable, What: "policy table",
	Hint: "written by kingoal.save_policy"}

// PolicyInfo is what a policy table says about itself.
type PolicyInfo struct {
	Format  string    `json:"format"`
	Version int       `json:"version"`
	Rules   env.Rules `json:"rules"`
	Moves   int       `json:"moves"`
	Name    string    `json:"name,omitempty"`
	// Exploitability is the tabulated policy's, when measured as it was tabulated (score
	// terms: a best response's P(win) + ½ P(draw), or P(advance), beyond ½); −1 unmeasured.
	Exploitability float64 `json:"exploitability"`
}

// rowKey names a row: a difference and home's entry in a layer.
type rowKey struct {
	per   uint8
	t     uint16
	d     int16
	entry uint16
}

func (k rowKey) compare(o rowKey) int {
	return cmp.Or(cmp.Compare(k.per, o.per), cmp.Compare(k.t, o.t), cmp.Compare(k.d, o.d), cmp.Compare(k.entry, o.entry))
}

// PolicyTable is a stationary policy for both sides held as a table (see policyFraming):
// recorded from GamePolicies as a solve asks them (Record), or read from a file. Its
// sides are GamePolicies (Side) and it answers a break state's mix (Mix).
type PolicyTable struct {
	info    PolicyInfo
	entries int
	mu      sync.Mutex // recording
	rows    map[rowKey]uint32
	keys    []rowKey // by row
	kick    [2][]env.Weighted
	side    [2]tableSide
	// decided reports a break whose result no goal to come can change (layers.decided):
	// no best response asks for it, so a table holds no row there, and keeping is an answer
	// as good as any — the game's own (Game.At) there.
	decided func(per, t, d int) bool
	// bytes is what recording holds (codes, mixes); over maxBytes (when > 0) it fails.
	bytes, maxBytes int64
}

// tableSide is one side's choices: a code per position (row × entries + away's entry).
type tableSide struct {
	code  []uint8
	mixes map[uint32][]mixCell
}

type mixCell struct {
	lineup uint8
	p      float32
}

// NewPolicyTable starts an empty table for rules r (Basic v Basic) to Record into.
func NewPolicyTable(r env.Rules, name string) (*PolicyTable, error) {
	moves, err := checkGame(Problem{Rules: r, Payoff: lineup.PayoffWinLoss})
	if err != nil {
		return nil, err
	}
	// Every result-based payoff (win-loss, points, advance) has the same decided breaks: the
	// result's sign cannot change, or, under cup rules, a level score is out of reach.
	final := func(d int, _ bool) float64 { return float64(odds.Sign(d)) }
	t := &PolicyTable{info: PolicyInfo{Format: "kingoal-policy-table", Version: int(policyFraming.Version), Rules: r, Moves: moves, Name: name, Exploitability: -1},
		entries: env.NumLineups * (moves + 1), rows: map[rowKey]uint32{}, decided: induction.GameLayers(r, lineup.PayoffWinLoss, final, true).Decided}
	for s := range t.side {
		t.side[s].mixes = map[uint32][]mixCell{}
	}
	return t, nil
}

// SetMaxBytes bounds what the table holds while it records: the answer that would pass n
// bytes fails the Record with policy.ErrTooLarge (a soft policy's mix at every break state
// of the default rules needs tens of GB). 0, the default, leaves it unbounded.
func (t *PolicyTable) SetMaxBytes(n int64) { t.maxBytes = n }

// mixBytes is what a recorded mix of n line-ups holds: its cells, its slice and its map entry.
func mixBytes(n int) int64 { return int64(n)*8 + 24 + 48 } // a mixCell is 8 bytes aligned

// Info is the table's header.
func (t *PolicyTable) Info() PolicyInfo { return t.info }

// SetExploitability records the tabulated policy's measured exploitability in the header.
func (t *PolicyTable) SetExploitability(x float64) { t.info.Exploitability = x }

// States is the number of break states the table holds an answer at, per side.
func (t *PolicyTable) States() int64 { return int64(len(t.keys)) * int64(t.entries) }

// Record wraps side's policy p: its answers pass through and are kept in the table. A
// DensePolicy stays one.
func (t *PolicyTable) Record(side env.Player, p Policy) Policy {
	if dp, ok := p.(DensePolicy); ok {
		return denseRecorder{recorder{t: t, side: side, inner: p}, dp}
	}
	return recorder{t: t, side: side, inner: p}
}

type recorder struct {
	t     *PolicyTable
	side  env.Player
	inner Policy
}

func (r recorder) KickOff() ([]env.Weighted, error) {
	mix, err := r.inner.KickOff()
	if err == nil {
		r.t.mu.Lock()
		r.t.kick[r.side] = slices.Clone(mix)
		r.t.mu.Unlock()
	}
	return mix, err
}

func (r recorder) Breaks(side env.Player, states []State, mixes [][]env.Weighted) error {
	if err := r.inner.Breaks(side, states, mixes); err != nil {
		return err
	}
	t := r.t
	t.mu.Lock()
	defer t.mu.Unlock()
	var cells []mixCell
	for i, s := range states {
		cells = cells[:0]
		for _, w := range mixes[i] {
			cells = append(cells, mixCell{lineup: uint8(w.Lineup.Index()), p: float32(w.Prob)})
		}
		if err := t.keep(side, s, cells); err != nil {
			return err
		}
	}
	return nil
}

type denseRecorder struct {
	recorder
	dense DensePolicy
}

func (r denseRecorder) BreakProbabilities(side env.Player, states []State, answer func(i int, probs []float64) error) error {
	var cells []mixCell
	return r.dense.BreakProbabilities(side, states, func(i int, probs []float64) error {
		if err := answer(i, probs); err != nil {
			return err // checked first: the table keeps only mixes the solve took
		}
		cells = cells[:0]
		for l, p := range probs {
			if p != 0 {
				cells = append(cells, mixCell{lineup: uint8(l), p: float32(p)})
			}
		}
		r.t.mu.Lock()
		defer r.t.mu.Unlock()
		return r.t.keep(side, states[i], cells)
	})
}

// keep holds side's answer at s (t.mu held): a pure choice as its line-up's code, a mix as
// a copy of cells; an error when that passes the table's bound.
func (t *PolicyTable) keep(side env.Player, s State, cells []mixCell) error {
	sd := &t.side[side]
	pos := t.position(s, true)
	if _, held := sd.mixes[uint32(pos)]; len(cells) > 1 && !held {
		t.bytes += mixBytes(len(cells))
	}
	if t.maxBytes > 0 && t.bytes > t.maxBytes {
		return fmt.Errorf("%w: the policy table of %q passes %s at %d rows of break states (its mixes: %d); a mix at every break state does not fit here — a pure policy's table does",
			policy.ErrTooLarge, t.info.Name, formatBytes(t.bytes), len(t.keys), len(t.side[env.Home].mixes)+len(t.side[env.Away].mixes))
	}
	if len(cells) == 1 {
		sd.code[pos] = cells[0].lineup
		return nil
	}
	sd.code[pos] = mixedCode
	sd.mixes[uint32(pos)] = slices.Clone(cells)
	return nil
}

// position is where the break s is held; with add, a row it lacks is added; −1 when it has none.
func (t *PolicyTable) position(s State, add bool) int {
	w := t.info.Moves + 1
	k := rowKey{per: uint8(s.Period - env.FirstHalf), t: uint16(s.ThrowsLeft), d: int16(s.GoalDiff), entry: uint16(s.Home.Index()*w + s.HomeMoves)}
	row, ok := t.rows[k]
	if !ok {
		if !add {
			return -1
		}
		row = uint32(len(t.keys))
		t.rows[k], t.keys = row, append(t.keys, k)
		t.bytes += 2*int64(t.entries) + 32 // both sides' codes, the key and its map entry
		for s := range t.side {
			t.side[s].code = append(t.side[s].code, make([]uint8, t.entries)...)
		}
	}
	return int(row)*t.entries + s.Away.Index()*w + s.AwayMoves
}

// Mix is side's mix at the break s (seen from home): at a break whose result is decided,
// keeping; elsewhere the table's, or an error when it holds none there (a state no match
// under its rules reaches, or other rules).
func (t *PolicyTable) Mix(side env.Player, s State) ([]env.Weighted, error) {
	if s.HomeMoves < 0 || s.HomeMoves > t.info.Moves || s.AwayMoves < 0 || s.AwayMoves > t.info.Moves {
		return nil, fmt.Errorf("solver: the policy table has no answer at %v", s)
	}
	pos := t.position(s, false)
	if pos < 0 && t.decided(int(s.Period-env.FirstHalf), s.ThrowsLeft, s.GoalDiff) {
		own := s.Home
		if side == env.Away {
			own = s.Away
		}
		return []env.Weighted{{Lineup: own, Prob: 1}}, nil
	}
	if pos < 0 {
		return nil, fmt.Errorf("solver: the policy table has no answer at %v", s)
	}
	sd := &t.side[side]
	if c := sd.code[pos]; c != mixedCode {
		return []env.Weighted{{Lineup: env.LineupAt(int(c)), Prob: 1}}, nil
	}
	cells := sd.mixes[uint32(pos)]
	out, total := make([]env.Weighted, len(cells)), 0.0
	for _, c := range cells {
		total += float64(c.p)
	}
	for j, c := range cells {
		out[j] = env.Weighted{Lineup: env.LineupAt(int(c.lineup)), Prob: float64(c.p) / total}
	}
	return out, nil
}

// Pure reports whether every choice in the table is a single line-up.
func (t *PolicyTable) Pure() bool {
	for s := range t.side {
		if len(t.side[s].mixes) > 0 || len(t.kick[s]) != 1 {
			return false
		}
	}
	return true
}

// KickOff is side's kick-off mix.
func (t *PolicyTable) KickOff(side env.Player) []env.Weighted { return slices.Clone(t.kick[side]) }

// Side is side's policy as a Policy (for RespondToPolicies).
func (t *PolicyTable) Side(side env.Player) Policy { return tableSidePolicy{t, side} }

type tableSidePolicy struct {
	t    *PolicyTable
	side env.Player
}

func (p tableSidePolicy) KickOff() ([]env.Weighted, error) { return p.t.KickOff(p.side), nil }

func (p tableSidePolicy) Breaks(side env.Player, states []State, mixes [][]env.Weighted) error {
	for i, s := range states {
		m, err := p.t.Mix(side, s)
		if err != nil {
			return err
		}
		mixes[i] = append(mixes[i][:0], m...)
	}
	return nil
}

// WriteTo writes the table (policyFraming), rows sorted: the same table, the same bytes.
func (t *PolicyTable) WriteTo(dst io.Writer) (int64, error) {
	cw := &countingWriter{w: dst}
	fw, err := framed.NewWriter(cw, policyFraming, t.info)
	if err != nil {
		return cw.n, err
	}
	for s := range t.kick {
		if len(t.kick[s]) == 0 || len(t.kick[s]) > env.NumLineups {
			return cw.n, fmt.Errorf("solver: the policy table has no kick-off for %s", env.Player(s))
		}
		b := []byte{uint8(len(t.kick[s]))}
		for _, w := range t.kick[s] {
			b = binary.LittleEndian.AppendUint64(append(b, uint8(w.Lineup.Index())), math.Float64bits(w.Prob))
		}
		fw.Put(b)
	}
	order := make([]uint32, len(t.keys))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(x, y uint32) int { return t.keys[x].compare(t.keys[y]) })
	fw.Put(binary.LittleEndian.AppendUint32(nil, uint32(len(order))))
	var b []byte
	for _, row := range order {
		k := t.keys[row]
		b = binary.LittleEndian.AppendUint16(append(b[:0], k.per), k.t)
		b = binary.LittleEndian.AppendUint16(binary.LittleEndian.AppendUint16(b, uint16(k.d)), k.entry)
		for s := range t.side {
			sd := &t.side[s]
			start := int(row) * t.entries
			b = append(b, sd.code[start:start+t.entries]...)
			for a, c := range sd.code[start : start+t.entries] {
				if c != mixedCode {
					continue
				}
				cells := sd.mixes[uint32(start+a)]
				b = append(b, uint8(len(cells)))
				for _, c := range cells {
					b = append(b, c.lineup)
				}
				for _, c := range cells {
					b = binary.LittleEndian.AppendUint32(b, math.Float32bits(c.p))
				}
			}
		}
		fw.Put(b)
	}
	return cw.n, fw.Close()
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}
