// A moment of a match in words, for decisions and the curve.

package analysis

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
)

func timeOf(s env.State) string {
	switch {
	case s.Decision() == env.KickOff:
		return "kick-off"
	case s.Node() == env.Terminal:
		return "full time"
	}
	return fmt.Sprintf("%s, %s left", s.Period(), env.Plural(s.ThrowsLeft(), "throw"))
}

func scoreOf(s env.State) string { return fmt.Sprintf("%d-%d", s.Goals(env.Home), s.Goals(env.Away)) }
