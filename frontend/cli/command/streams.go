package command

import (
	"fmt"
	"io"
)

// Streams are a command's input and outputs: data to Out, status and progress to ErrOut.
type Streams struct {
	In          io.Reader
	Out, ErrOut io.Writer
}

// Notifier writes the lines agents.Setup.Notify is told to w, as the command's own
// ("kingoal: …"): why a command is about to wait.
func Notifier(w io.Writer) func(line string) {
	return func(line string) { fmt.Fprintln(w, "kingoal: "+line) }
}
