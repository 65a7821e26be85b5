package arena

import (
	"math/bits"
)

// Rounds is the number of rounds of a cup of n agents.
func Rounds(n int) int { return bits.Len(uint(n - 1)) }
