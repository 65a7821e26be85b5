// The full-width learners' checkpoint: fictitious play's averages (regret matching's regrets
// and averages) as they stand after an iteration, so that an interrupted or killed run
// continues where it stopped (kingoal train fictitious|regret --resume).

package agents

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"slices"
	"time"

	"github.com/kingoal/kingoal/env"
)

// A checkpoint (format "kingoal fictitious checkpoint", version 1) is a JSON header line
// (FictitiousCheckpoint, the curve so far included), then, little-endian, for each of the
// learner's stores (fictitious play: its averages; regret matching: its regrets, then its
// averages): both kick-off mixes (121 float64 each), its number of rows (int64), the rows in
// key order — period, throws left, difference, home's entry (int32 each), home's legal
// line-ups (int32), home's mixes, away's mixes (float64) — and last the CRC-32 (IEEE) of
// everything before it. (Fictitious play's files have no "learner" and no row count: their
// one store's rows are the header's.)
const (
	checkpointFormat  = "kingoal fictitious checkpoint"
	checkpointVersion = 1
)

// ErrBadCheckpoint is wrapped when a checkpoint cannot be read back; ErrCheckpointRules (which
// wraps it too) when it was written under other rules.
var (
	ErrBadCheckpoint   = errors.New("agents: not a readable fictitious-play checkpoint")
	ErrCheckpointRules = fmt.Errorf("%w: other rules", ErrBadCheckpoint)
)

// FictitiousCheckpoint is a checkpoint's header: what it resumes, and the learning curve so
// far (the caller's to keep; Fictitious does not read it).
type FictitiousCheckpoint struct {
	Format     string            `json:"format"`
	Version    int               `json:"version"`
	Learner    string            `json:"learner,omitempty"` // "regret-matching" or "psro"; none: fictitious play
	Rules      env.Rules         `json:"rules"`
	Iterations int               `json:"iterations"`
	Seconds    float64           `json:"seconds"`
	Rows       int               `json:"rows"`
	Passes     int               `json:"passes,omitempty"` // PSRO's passes so far
	Curve      []FictitiousPoint `json:"curve"`
}

// WriteCheckpoint writes f's state, with the curve so far, to w.
func (f *Fictitious) WriteCheckpoint(w io.Writer, curve []FictitiousPoint) error {
	return writeCheckpoint(w, FictitiousCheckpoint{Rules: f.rules, Iterations: f.iter, Seconds: f.training.Seconds(), Rows: len(f.rows), Curve: curve},
		storesBody(false, f.breakMixes))
}

// WriteCheckpoint writes m's state, with the curve so far, to w.
func (m *RegretMatching) WriteCheckpoint(w io.Writer, curve []FictitiousPoint) error {
	return writeCheckpoint(w, FictitiousCheckpoint{Learner: regretLearner, Rules: m.rules, Iterations: m.iter, Seconds: m.training.Seconds(), Curve: curve},
		storesBody(true, m.regret, m.avg))
}

// regretLearner names regret matching's checkpoints.
const regretLearner = "regret-matching"

// writeCheckpoint writes head, then the learner's body (written by body's calls to put, which
// after the first error write nothing more), then the checksum.
func writeCheckpoint(w io.Writer, head FictitiousCheckpoint, body func(put func(any))) error {
	head.Format, head.Version = checkpointFormat, checkpointVersion
	h := crc32.NewIEEE()
	bw := bufio.NewWriter(io.MultiWriter(w, h))
	line, err := json.Marshal(head)
	if err != nil {
		return err
	}
	_, werr := bw.Write(append(line, '\n'))
	body(func(v any) { // after the first error (a full disk, a writer told to stop), nothing more
		if werr == nil {
			werr = binary.Write(bw, binary.LittleEndian, v)
		}
	})
	if werr != nil {
		return werr
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return binary.Write(w, binary.LittleEndian, h.Sum32())
}

// storesBody writes the stores, each with its number of rows first when counted.
func storesBody(counted bool, stores ...*breakMixes) func(put func(any)) {
	return func(put func(any)) {
		for _, b := range stores {
			put(b.kick[0])
			put(b.kick[1])
			if counted {
				put(int64(len(b.rows)))
			}
			for _, k := range sortedKeys(b.rows) {
				row := b.rows[k]
				put([5]int32{int32(k.per), int32(k.t), int32(k.d), int32(k.h), int32(row.count)})
				put(row.home)
				put(row.away)
			}
		}
	}
}

// sortedKeys are a store's row keys in order: period, throws left, difference, entry.
func sortedKeys[V any](rows map[fspKey]V) []fspKey {
	keys := make([]fspKey, 0, len(rows))
	for k := range rows {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b fspKey) int {
		return cmp.Or(cmp.Compare(a.per, b.per), cmp.Compare(a.t, b.t), cmp.Compare(a.d, b.d), cmp.Compare(a.h, b.h))
	})
	return keys
}

// ResumeFictitious reads a checkpoint written by WriteCheckpoint under the rules r (another
// rule set, a damaged or truncated file, another learner's: an error wrapping
// ErrBadCheckpoint, saying which) and returns fictitious play as it stood, with the
// checkpoint's header.
func ResumeFictitious(rd io.Reader, r env.Rules) (*Fictitious, FictitiousCheckpoint, error) {
	f, err := NewFictitious(r)
	if err != nil {
		return nil, FictitiousCheckpoint{}, err
	}
	c, err := readCheckpoint(rd, r, "", storesReader(f.breakMixes))
	if err != nil {
		return nil, c, err
	}
	f.iter, f.training = c.Iterations, time.Duration(c.Seconds*float64(time.Second))
	return f, c, nil
}

// ResumeRegretMatching is ResumeFictitious for regret matching+.
func ResumeRegretMatching(rd io.Reader, r env.Rules) (*RegretMatching, FictitiousCheckpoint, error) {
	m, err := NewRegretMatching(r)
	if err != nil {
		return nil, FictitiousCheckpoint{}, err
	}
	c, err := readCheckpoint(rd, r, regretLearner, storesReader(m.regret, m.avg))
	if err != nil {
		return nil, c, err
	}
	m.iter, m.training = c.Iterations, time.Duration(c.Seconds*float64(time.Second))
	return m, c, nil
}

// readCheckpoint reads a checkpoint of learner under r, its body by body (an error saying
// what is wrong, which readCheckpoint wraps), and returns its header.
func readCheckpoint(rd io.Reader, r env.Rules, learner string, body func(c FictitiousCheckpoint, get func(any) error) error) (FictitiousCheckpoint, error) {
	var c FictitiousCheckpoint
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrBadCheckpoint, fmt.Sprintf(format, args...))
	}
	h := crc32.NewIEEE()
	br := bufio.NewReader(rd)
	line, err := br.ReadBytes('\n')
	if err != nil || json.Unmarshal(line, &c) != nil || c.Format != checkpointFormat {
		return c, bad("no header")
	}
	h.Write(line)
	summed := io.TeeReader(br, h) // what is read, summed: the stored sum follows it
	switch {
	case c.Version != checkpointVersion:
		return c, bad("version %d, this build reads %d", c.Version, checkpointVersion)
	case c.Learner != learner:
		return c, bad("a checkpoint of %q, not %q", cmp.Or(c.Learner, "fictitious"), cmp.Or(learner, "fictitious"))
	case !c.Rules.Equal(r):
		return c, fmt.Errorf("%w: written under %q, not %q", ErrCheckpointRules, c.Rules.String(), r.String())
	case c.Iterations < 0 || c.Rows < 0 || c.Passes < 0 || c.Seconds < 0 || math.IsNaN(c.Seconds) || c.Iterations > 1<<30:
		return c, bad("damaged header")
	}
	if err := body(c, func(v any) error { return binary.Read(summed, binary.LittleEndian, v) }); err != nil {
		return c, bad("%v", err)
	}
	sum := h.Sum32()
	var stored uint32
	if err := binary.Read(br, binary.LittleEndian, &stored); err != nil || stored != sum {
		return c, bad("its checksum does not match: damaged")
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return c, bad("bytes after its end")
	}
	return c, nil
}

// storesReader reads the stores (as storesBody wrote them) into the empty stores given.
func storesReader(stores ...*breakMixes) func(c FictitiousCheckpoint, get func(any) error) error {
	return func(c FictitiousCheckpoint, get func(any) error) error {
		for _, b := range stores {
			for s := range b.kick {
				if err := get(b.kick[s]); err != nil {
					return errors.New("truncated")
				}
			}
			rows := int64(c.Rows)
			if c.Learner != "" {
				if err := get(&rows); err != nil {
					return errors.New("truncated")
				}
			}
			if err := readRows(b, rows, get); err != nil {
				return err
			}
		}
		return nil
	}
}

// readRows reads n rows of b's (from get).
func readRows(b *breakMixes, n int64, get func(any) error) error {
	w := b.moves + 1
	if n < 0 || n > 1<<40 {
		return errors.New("damaged row count")
	}
	for range n {
		var k [5]int32
		if err := get(&k); err != nil {
			return errors.New("truncated")
		}
		key := fspKey{int(k[0]), int(k[1]), int(k[2]), int(k[3])}
		count := int(k[4])
		if key.h < 0 || key.h >= env.NumLineups*w || count != env.LineupAt(key.h/w).Reachable(key.h%w).Count() || b.rows[key] != nil {
			return fmt.Errorf("a row that is not one of these rules' (%v)", k)
		}
		row := &fspRow{home: make([]float64, count*env.NumLineups*w), away: make([]float64, b.awayLen), count: count}
		if get(row.home) != nil || get(row.away) != nil {
			return errors.New("truncated")
		}
		b.rows[key] = row
	}
	return nil
}
