package command

import (
	"io"
)

// Streams are a command's input and outputs: data to Out, status and progress to ErrOut.
type Streams struct {
	In          io.Reader
	Out, ErrOut io.Writer
}
