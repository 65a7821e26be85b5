package env

import (
	"fmt"
	"strings"
)

// Plural is "1 move", "3 moves": the count and the noun, in the right number (for every
// message that counts: the rules' words in one place).
func Plural(n int, noun string) string {
	switch {
	case n == 1 || n == -1:
		return fmt.Sprintf("%d %s", n, noun)
	case noun == "die":
		return fmt.Sprintf("%d dice", n)
	case strings.HasSuffix(noun, "ch"), strings.HasSuffix(noun, "sh"), strings.HasSuffix(noun, "s"), strings.HasSuffix(noun, "x"):
		return fmt.Sprintf("%d %ses", n, noun) // matches
	case len(noun) > 1 && strings.HasSuffix(noun, "y") && !strings.ContainsAny(noun[len(noun)-2:len(noun)-1], "aeiou"):
		return fmt.Sprintf("%d %sies", n, noun[:len(noun)-1]) // inaccuracies, entries, directories
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
