package shellquote_test

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/internal/shellquote"
)

func TestQuoteReadsBackThroughAShell(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on this machine:", err)
	}
	words := []string{"runs/league", "", "my run", "a'b", `q'"&amp;%2e%2e`, "$(touch x)", "`id`", "x;y|z", "~user", "*", "new\nline", "tab\there", "-dash"}
	for _, w := range words {
		out, err := exec.Command(sh, "-c", "printf %s "+shellquote.Quote(w)).Output()
		if err != nil || string(out) != w {
			t.Errorf("Quote(%q) = %s read back as %q (%v)", w, shellquote.Quote(w), out, err)
		}
	}
	if got := shellquote.Quote("runs/league"); strings.ContainsAny(got, `'"`) {
		t.Errorf("a plain path is quoted: %s", got)
	}
}

func ExampleQuote() {
	fmt.Println("kingoal arena --resume --out", shellquote.Quote("runs/my run $(touch x)"))
	fmt.Println("kingoal arena --resume --out", shellquote.Quote("runs/league"))
	// Output:
	// kingoal arena --resume --out 'runs/my run $(touch x)'
	// kingoal arena --resume --out runs/league
}
