package datasets

import (
	"fmt"
	"math"
	"strconv"
	"sync"

	"github.com/kingoal/kingoal/env"
)

// ThrowRecord is a ThrowRow in a compact form without pointers (48 bytes against 152,
// nothing for the garbage collector to scan): what the arena keeps of every logged throw
// until its shard is written. A ParquetWriter[ThrowRecord] writes ThrowRows — the same
// file — with the enumerations numbered by their codes instead of looked up by name.
type ThrowRecord struct {
	MatchID    int64
	Index      int32
	Rethrows   int32
	ThrowsLeft int32
	HomeGoals  uint16
	AwayGoals  uint16
	Kind       ChanceKind
	Period     env.Period
	Outcome    env.Outcome
	BallBefore uint8
	BallAfter  uint8
	HomeDice   uint8
	AwayDice   uint8
	Goal       bool
	HomeValues DiceValues // --dice only
	AwayValues DiceValues
}

// ChanceKind is a ThrowRow's kind.
type ChanceKind uint8

const (
	ChanceThrow ChanceKind = iota // a throw of the dice
	ChanceCoin                    // the shoot-out's coin
	ChanceKick                    // a penalty kick
)

var chanceKindNames = [...]string{"throw", "coin", "kick"}

func (k ChanceKind) String() string {
	if int(k) < len(chanceKindNames) {
		return chanceKindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// DiceValues are the dice one side showed (env.Roll's), empty when dice are not rolled.
type DiceValues struct {
	Values [env.MaxDice]uint8
	Count  uint8
}

// String lists the dice space-separated.
func (d DiceValues) String() string {
	b := make([]byte, 0, 2*d.Count)
	for i, v := range d.Values[:min(int(d.Count), env.MaxDice)] {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendUint(b, uint64(v), 10)
	}
	return string(b)
}

// appendTo appends the dice to dst, as ThrowRow holds them.
func (d DiceValues) appendTo(dst []int32) []int32 {
	for _, v := range d.Values[:min(int(d.Count), env.MaxDice)] {
		dst = append(dst, int32(v))
	}
	return dst
}

// Row returns the record as a ThrowRow.
func (t ThrowRecord) Row() ThrowRow {
	return ThrowRow{MatchID: t.MatchID, Index: t.Index, Kind: t.Kind.String(), Period: t.Period.String(), ThrowsLeft: t.ThrowsLeft,
		BallBefore: int32(t.BallBefore), BallAfter: int32(t.BallAfter), HomeDice: int32(t.HomeDice), AwayDice: int32(t.AwayDice),
		HomeValues: t.HomeValues.appendTo(nil), AwayValues: t.AwayValues.appendTo(nil), Rethrows: t.Rethrows, Outcome: t.Outcome.String(),
		Goal: t.Goal, HomeGoals: int32(t.HomeGoals), AwayGoals: int32(t.AwayGoals)}
}

// ThrowRecordOf reads a ThrowRow back into a record (resuming a run reads its shards so);
// a row no record can hold — an unknown name, a value out of range — is an error naming it.
func ThrowRecordOf(r ThrowRow) (ThrowRecord, error) {
	names := recordNames()
	kind, okKind := names.kinds[r.Kind]
	period, okPeriod := names.periods[r.Period]
	outcome, okOutcome := names.outcomes[r.Outcome]
	homeValues, errHome := diceOf(r.HomeValues)
	awayValues, errAway := diceOf(r.AwayValues)
	inRange := func(v int32, most int) bool { return v >= 0 && int(v) <= most }
	if !okKind || !okPeriod || !okOutcome || errHome != nil || errAway != nil ||
		!inRange(r.BallBefore, env.Sectors) || !inRange(r.BallAfter, env.Sectors) ||
		!inRange(r.HomeDice, env.MaxDice) || !inRange(r.AwayDice, env.MaxDice) ||
		!inRange(r.HomeGoals, math.MaxUint16) || !inRange(r.AwayGoals, math.MaxUint16) {
		return ThrowRecord{}, fmt.Errorf("datasets: throw %d of match %d holds values no throw has (%v)", r.Index, r.MatchID, r)
	}
	return ThrowRecord{MatchID: r.MatchID, Index: r.Index, Rethrows: r.Rethrows, ThrowsLeft: r.ThrowsLeft,
		HomeGoals: uint16(r.HomeGoals), AwayGoals: uint16(r.AwayGoals), Kind: kind, Period: period, Outcome: outcome,
		BallBefore: uint8(r.BallBefore), BallAfter: uint8(r.BallAfter), HomeDice: uint8(r.HomeDice), AwayDice: uint8(r.AwayDice),
		Goal: r.Goal, HomeValues: homeValues, AwayValues: awayValues}, nil
}

// diceOf reads the dice of a ThrowRow: up to env.MaxDice faces.
func diceOf(v []int32) (DiceValues, error) {
	var d DiceValues
	if len(v) > env.MaxDice {
		return d, fmt.Errorf("datasets: %d dice: at most %d are thrown", len(v), env.MaxDice)
	}
	for _, f := range v {
		if f < 1 || f > env.DieFaces {
			return DiceValues{}, fmt.Errorf("datasets: %v is not a list of dice", v)
		}
		d.Values[d.Count] = uint8(f)
		d.Count++
	}
	return d, nil
}

// recordNames maps the names of ThrowRow's enumerations back to their codes.
var recordNames = sync.OnceValue(func() (n struct {
	kinds    map[string]ChanceKind
	periods  map[string]env.Period
	outcomes map[string]env.Outcome
}) {
	n.kinds, n.periods, n.outcomes = map[string]ChanceKind{}, map[string]env.Period{}, map[string]env.Outcome{}
	for c := range 256 {
		if k := ChanceKind(c); k.String() != fmt.Sprintf("kind(%d)", c) {
			n.kinds[k.String()] = k
		}
		if p := env.Period(c); p.String() != fmt.Sprintf("period(%d)", c) {
			n.periods[p.String()] = p
		}
		if o := env.Outcome(c); o.String() != fmt.Sprintf("outcome(%d)", c) {
			n.outcomes[o.String()] = o
		}
	}
	return n
})
