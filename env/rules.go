package env

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Player is one of the two sides.
type Player uint8

const (
	Home Player = iota
	Away
)

// Other returns the opponent of p.
func (p Player) Other() Player { return 1 - p }

func (p Player) String() string { return nameOf([]string{"home", "away"}, uint8(p), "player") }

// Mode is how a player may change formation during a match (rules §6).
type Mode uint8

const (
	Basic   Mode = iota // moves at breaks from a per-match budget (the default)
	Dynamic             // one adjacent shift after each throw won
)

func (m Mode) String() string { return nameOf([]string{"basic", "dynamic"}, uint8(m), "mode") }

// ParseMode reads "basic" or "dynamic".
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "basic":
		return Basic, nil
	case "dynamic":
		return Dynamic, nil
	}
	return 0, fmt.Errorf("env: mode %q: want basic or dynamic", s)
}

// Trigger says which won throws earn a Dynamic shift.
type Trigger uint8

const (
	TriggerWin      Trigger = iota // every throw won (the default)
	TriggerTurnover                // only a throw that regains the ball
)

func (t Trigger) String() string {
	if t == TriggerTurnover {
		return "turnover"
	}
	return "win"
}

// ParseTrigger reads "win" or "turnover".
func ParseTrigger(s string) (Trigger, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "win", "every-win":
		return TriggerWin, nil
	case "turnover":
		return TriggerTurnover, nil
	}
	return 0, fmt.Errorf("env: dynamic trigger %q: want win or turnover", s)
}

// Points are the league points for a win, a draw and a loss. The zero value means 3/1/0.
type Points struct{ Win, Draw, Loss int }

// ParsePoints reads "3,1,0".
func ParsePoints(s string) (Points, error) {
	p, err := parsePoints(s)
	if err != nil {
		return p, fmt.Errorf("env: points %w", err)
	}
	return p, nil
}

// parsePoints is ParsePoints with an error that names neither the package nor the knob:
// its callers do ("env: points …", "--points …", "points=…").
func parsePoints(s string) (Points, error) {
	parts := strings.Split(s, ",")
	var v [3]int
	for i, part := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || len(parts) != 3 {
			return Points{}, fmt.Errorf("%q: want three integers win,draw,loss like 3,1,0", s)
		}
		v[i] = n
	}
	p := Points{v[0], v[1], v[2]}
	if err := p.validate(); err != nil {
		return Points{}, err
	}
	return p, nil
}

func (p Points) orDefault() Points {
	if p == (Points{}) {
		return Points{3, 1, 0}
	}
	return p
}

func (p Points) validate() error {
	q := p.orDefault()
	if !(q.Win >= q.Draw && q.Draw >= q.Loss && q.Win > q.Loss) {
		return fmt.Errorf("%d,%d,%d: want win ≥ draw ≥ loss and win > loss", q.Win, q.Draw, q.Loss)
	}
	return nil
}

func (p Points) String() string {
	q := p.orDefault()
	return fmt.Sprintf("%d,%d,%d", q.Win, q.Draw, q.Loss)
}

// Sentinels for knobs whose zero value is a non-zero default.
const (
	NoMoves     = -1 // Rules.Moves: no Basic moves at all
	NoExtraTime = -1 // Rules.ExtraThrowsPerHalf: a level knockout goes straight to penalties
)

// Limits that keep every count inside the State's fields.
const (
	MaxThrowsPerHalf = 10000
	MaxMoves         = 100
)

// Rules are the knobs of rules §9. The zero value is exactly the rules of docs/rules.md:
// 45 throws a half, 15 a half of extra time, 3 Basic moves, ties rethrown, every win earns a
// Dynamic shift, 3/1/0 points, a league match, both players Basic.
type Rules struct {
	ThrowsPerHalf      int     // regular half length; 0 means 45
	ExtraThrowsPerHalf int     // extra-time half length; 0 means 15, NoExtraTime none
	Moves              int     // Basic moves per match; 0 means 3, NoMoves none
	TiesCount          bool    // a tied throw consumes a throw and leaves the ball
	DynamicTrigger     Trigger // which won throws earn a Dynamic shift
	Points             Points  // league points; zero means 3/1/0
	Knockout           bool    // a draw goes to extra time and penalties (rules §7)
	Modes              [2]Mode // mode per player, indexed by Player
}

// HalfThrows is the length of a regular half.
func (r Rules) HalfThrows() int {
	if r.ThrowsPerHalf == 0 {
		return 45
	}
	return r.ThrowsPerHalf
}

// ExtraThrows is the length of an extra-time half (0 when there is no extra time).
func (r Rules) ExtraThrows() int {
	switch {
	case r.ExtraThrowsPerHalf == 0:
		return 15
	case r.ExtraThrowsPerHalf < 0:
		return 0
	}
	return r.ExtraThrowsPerHalf
}

// MoveBudget is the number of Basic moves per match.
func (r Rules) MoveBudget() int {
	switch {
	case r.Moves == 0:
		return 3
	case r.Moves < 0:
		return 0
	}
	return r.Moves
}

// LeaguePoints returns the points for a win, a draw and a loss.
func (r Rules) LeaguePoints() Points { return r.Points.orDefault() }

// ErrRules is wrapped by every error Validate returns.
var ErrRules = errors.New("env: invalid rules")

// Validate reports nonsense knob values.
func (r Rules) Validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrRules, fmt.Sprintf(format, a...))
	}
	switch {
	case r.ThrowsPerHalf < 0 || r.ThrowsPerHalf > MaxThrowsPerHalf:
		return bad("throws per half %d: want 1..%d (0 means 45)", r.ThrowsPerHalf, MaxThrowsPerHalf)
	case r.ExtraThrowsPerHalf < NoExtraTime || r.ExtraThrowsPerHalf > MaxThrowsPerHalf:
		return bad("extra-time throws per half %d: want 1..%d, 0 for the default 15, or NoExtraTime", r.ExtraThrowsPerHalf, MaxThrowsPerHalf)
	case r.Moves < NoMoves || r.Moves > MaxMoves:
		return bad("moves %d: want 1..%d, 0 for the default 3, or NoMoves", r.Moves, MaxMoves)
	case r.DynamicTrigger > TriggerTurnover:
		return bad("dynamic trigger %d", r.DynamicTrigger)
	case r.Modes[0] > Dynamic || r.Modes[1] > Dynamic:
		return bad("mode %d/%d", r.Modes[0], r.Modes[1])
	}
	if err := r.Points.validate(); err != nil {
		return fmt.Errorf("%w: points %w", ErrRules, err)
	}
	return nil
}

// String summarises the knobs, e.g. "league, 45+45 throws, ties rethrown, 3 moves, basic v basic".
// Equal reports whether r and o are the same rules once the defaults are resolved — they
// play the same matches (extra time counts only in a knockout, the Dynamic trigger only with a
// Dynamic player). Identity is by these values, never by String, which is for people.
func (r Rules) Equal(o Rules) bool { return r.resolved() == o.resolved() }

// Canonical returns r with every default resolved and every knob that cannot matter cleared:
// rules are Equal exactly when their Canonical values are ==, so it is what an identity
// (a run's hash) is computed from.
func (r Rules) Canonical() Rules { return r.resolved() }

func (r Rules) resolved() Rules {
	c := Rules{ThrowsPerHalf: r.HalfThrows(), Moves: r.MoveBudget(), TiesCount: r.TiesCount, Points: r.LeaguePoints(), Knockout: r.Knockout, Modes: r.Modes}
	if r.Knockout {
		c.ExtraThrowsPerHalf = r.ExtraThrows()
	}
	if r.Modes[Home] == Dynamic || r.Modes[Away] == Dynamic {
		c.DynamicTrigger = r.DynamicTrigger
	}
	return c
}

func (r Rules) String() string {
	var b strings.Builder
	switch {
	case r.Knockout && r.ExtraThrows() == 0:
		b.WriteString("knockout (no extra time, penalties)")
	case r.Knockout:
		fmt.Fprintf(&b, "knockout (extra time %d+%d, penalties)", r.ExtraThrows(), r.ExtraThrows())
	default:
		b.WriteString("league")
	}
	fmt.Fprintf(&b, ", %d+%d throws", r.HalfThrows(), r.HalfThrows())
	if r.TiesCount {
		b.WriteString(", ties count")
	} else {
		b.WriteString(", ties rethrown")
	}
	fmt.Fprintf(&b, ", %s, %s v %s", Plural(r.MoveBudget(), "move"), r.Modes[Home], r.Modes[Away])
	if r.Modes[Home] == Dynamic || r.Modes[Away] == Dynamic {
		fmt.Fprintf(&b, " (shift on %s)", r.DynamicTrigger)
	}
	fmt.Fprintf(&b, ", points %s", r.Points)
	return b.String()
}
