// Fictitious play's checkpoint: the averages as they stand after an iteration, so that an
// interrupted or killed run continues where it stopped (kingoal train fictitious --resume).

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
// (FictitiousCheckpoint, the curve so far included), then, little-endian: both kick-off
// mixes (121 float64 each), the rows in key order — period, throws left, difference, home's
// entry (int32 each), home's legal line-ups (int32), home's mixes, away's mixes (float64) —
// and last the CRC-32 (IEEE) of everything before it.
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
	Rules      env.Rules         `json:"rules"`
	Iterations int               `json:"iterations"`
	Seconds    float64           `json:"seconds"`
	Rows       int               `json:"rows"`
	Curve      []FictitiousPoint `json:"curve"`
}

// WriteCheckpoint writes f's state, with the curve so far, to w.
func (f *Fictitious) WriteCheckpoint(w io.Writer, curve []FictitiousPoint) error {
	h := crc32.NewIEEE()
	bw := bufio.NewWriter(io.MultiWriter(w, h))
	head, err := json.Marshal(FictitiousCheckpoint{Format: checkpointFormat, Version: checkpointVersion, Rules: f.rules,
		Iterations: f.iter, Seconds: f.training.Seconds(), Rows: len(f.rows), Curve: curve})
	if err != nil {
		return err
	}
	_, werr := bw.Write(append(head, '\n'))
	put := func(v any) { // after the first error (a full disk, a writer told to stop), nothing more
		if werr == nil {
			werr = binary.Write(bw, binary.LittleEndian, v)
		}
	}
	put(f.kick[0])
	put(f.kick[1])
	keys := make([]fspKey, 0, len(f.rows))
	for k := range f.rows {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b fspKey) int {
		return cmp.Or(cmp.Compare(a.per, b.per), cmp.Compare(a.t, b.t), cmp.Compare(a.d, b.d), cmp.Compare(a.h, b.h))
	})
	for _, k := range keys {
		row := f.rows[k]
		put([5]int32{int32(k.per), int32(k.t), int32(k.d), int32(k.h), int32(row.count)})
		put(row.home)
		put(row.away)
	}
	if werr != nil {
		return werr
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return binary.Write(w, binary.LittleEndian, h.Sum32())
}

// ResumeFictitious reads a checkpoint written by WriteCheckpoint under the rules r (another
// rule set, a damaged or truncated file: an error wrapping ErrBadCheckpoint, saying which)
// and returns fictitious play as it stood, with the checkpoint's header.
func ResumeFictitious(rd io.Reader, r env.Rules) (*Fictitious, FictitiousCheckpoint, error) {
	var c FictitiousCheckpoint
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrBadCheckpoint, fmt.Sprintf(format, args...))
	}
	f, err := NewFictitious(r)
	if err != nil {
		return nil, c, err
	}
	h := crc32.NewIEEE()
	br := bufio.NewReader(rd)
	line, err := br.ReadBytes('\n')
	if err != nil || json.Unmarshal(line, &c) != nil || c.Format != checkpointFormat {
		return nil, c, bad("no header")
	}
	h.Write(line)
	body := io.TeeReader(br, h) // what is read, summed: the stored sum follows it
	switch {
	case c.Version != checkpointVersion:
		return nil, c, bad("version %d, this build reads %d", c.Version, checkpointVersion)
	case !c.Rules.Equal(r):
		return nil, c, fmt.Errorf("%w: written under %q, not %q", ErrCheckpointRules, c.Rules.String(), r.String())
	case c.Iterations < 0 || c.Rows < 0 || c.Seconds < 0 || math.IsNaN(c.Seconds) || c.Iterations > 1<<30:
		return nil, c, bad("damaged header")
	}
	get := func(v any) error { return binary.Read(body, binary.LittleEndian, v) }
	for s := range f.kick {
		if err := get(f.kick[s]); err != nil {
			return nil, c, bad("truncated")
		}
	}
	w := f.moves + 1
	for range c.Rows {
		var k [5]int32
		if err := get(&k); err != nil {
			return nil, c, bad("truncated")
		}
		key := fspKey{int(k[0]), int(k[1]), int(k[2]), int(k[3])}
		count := int(k[4])
		if key.h < 0 || key.h >= env.NumLineups*w || count != env.LineupAt(key.h/w).Reachable(key.h%w).Count() || f.rows[key] != nil {
			return nil, c, bad("a row that is not one of these rules' (%v)", k)
		}
		row := &fspRow{home: make([]float64, count*env.NumLineups*w), away: make([]float64, f.awayLen), count: count}
		if get(row.home) != nil || get(row.away) != nil {
			return nil, c, bad("truncated")
		}
		f.rows[key] = row
	}
	sum := h.Sum32()
	var stored uint32
	if err := binary.Read(br, binary.LittleEndian, &stored); err != nil || stored != sum {
		return nil, c, bad("its checksum does not match: damaged")
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, c, bad("bytes after its end")
	}
	f.iter, f.training = c.Iterations, time.Duration(c.Seconds*float64(time.Second))
	return f, c, nil
}
