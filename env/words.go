package env

import (
	"fmt"
)

// Plural is "1 move", "3 moves": the count and the noun, in the right number (for every
// message that counts: the rules' words in one place).
func Plural(n int, noun string) string {
	switch {
	case n == 1 || n == -1:
		return fmt.Sprintf("%d %s", n, noun)
	case noun == "die":
		return fmt.Sprintf("%d dice", n)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
