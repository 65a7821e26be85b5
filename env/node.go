package env

import "fmt"

// What a State is at: chance, decision or the end, and the outcomes of its chance nodes.

// NodeKind says what happens next at a State.
type NodeKind uint8

const (
	Chance   NodeKind = iota // a throw, the shoot-out coin or a penalty kick
	Decision                 // one or both players choose a formation
	Terminal                 // the match is over
)

func (k NodeKind) String() string {
	return nameOf([]string{"chance", "decision", "terminal"}, uint8(k), "node")
}

// DecisionKind says which decision is pending at a decision node.
type DecisionKind uint8

const (
	NoDecision DecisionKind = iota // a chance or terminal node
	KickOff                        // both players declare line-ups, hidden (rules §2)
	Break                          // Basic players with moves left choose, hidden (rules §6)
	Shift                          // a Dynamic player who won a throw may shift one counter
)

func (d DecisionKind) String() string {
	return nameOf([]string{"none", "kick-off", "break", "shift"}, uint8(d), "decision")
}

// nameOf is names[v], or kind(v) for a value out of range: a String method never panics.
func nameOf(names []string, v uint8, kind string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", kind, v)
}

// Outcome is the result of a chance node.
type Outcome uint8

const (
	HomeWins       Outcome = iota // home wins the throw
	AwayWins                      // away wins the throw
	Tie                           // a tied throw that counts (TiesCount only)
	HomeKicksFirst                // the shoot-out coin
	AwayKicksFirst                //
	KickScored                    // the penalty is scored
	KickSaved                     // the penalty is saved
)

func (o Outcome) String() string {
	names := [...]string{"home wins", "away wins", "tie", "home kicks first", "away kicks first", "scored", "saved"}
	if int(o) < len(names) {
		return names[o]
	}
	return fmt.Sprintf("outcome(%d)", o)
}

// ChanceOutcome is one result of a chance node with its exact probability.
type ChanceOutcome struct {
	Outcome Outcome
	Prob    float64
}
