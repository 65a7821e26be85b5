package command

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// NewTable returns a table writer with the header as written (auto-format off), the first
// `text` columns left-aligned and the others (numbers) right-aligned.
func NewTable(w io.Writer, text int, header ...string) *tablewriter.Table {
	return NewTableAs(w, text, false, header...)
}

// NewTableAs is NewTable with a choice of Markdown output.
func NewTableAs(w io.Writer, text int, markdown bool, header ...string) *tablewriter.Table {
	aligns := make([]tw.Align, len(header))
	for i := range aligns {
		aligns[i] = tw.AlignRight
		if i < text {
			aligns[i] = tw.AlignLeft
		}
	}
	opts := []tablewriter.Option{
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: aligns}),
	}
	if markdown {
		opts = append(opts, tablewriter.WithRenderer(renderer.NewMarkdown()))
	}
	t := tablewriter.NewTable(w, opts...)
	t.Header(header)
	return t
}

// AppendRows adds rows to t and renders it.
func AppendRows(t *tablewriter.Table, rows [][]string) error {
	for _, r := range rows {
		if err := t.Append(r); err != nil {
			return err
		}
	}
	return t.Render()
}

// WriteJSON writes v indented, with a final newline.
func WriteJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(withoutNegativeZero(b), '\n'))
	return err
}

// withoutNegativeZero rewrites the number -0 as 0 in JSON text: a computed 0 can be IEEE's
// −0, which encoding/json writes as -0, and a reader takes it for a negative number. Text
// inside strings is left as it is.
func withoutNegativeZero(b []byte) []byte {
	out := b[:0:0]
	inString, escaped := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '-' && i+1 < len(b) && b[i+1] == '0' && (i+2 == len(b) || strings.IndexByte(",]}\n \t", b[i+2]) >= 0):
			continue // drop the sign of a bare -0
		}
		out = append(out, c)
	}
	return out
}

// isTerminal reports whether w is a terminal (progress bars are drawn only there).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// IsTerminalReader reports whether r is a terminal.
func IsTerminalReader(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// NewProgress returns a progress bar on w, hidden unless w is a terminal.
func NewProgress(w io.Writer, total int, what string) *progressbar.ProgressBar {
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetVisibility(isTerminal(w)),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString(what),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
}

// progress is a bar shown from its first report on: an engine or a measurement that
// reports nothing shows none. Its methods may be called from several goroutines.
type progress struct {
	w    io.Writer
	what string
	mu   sync.Mutex
	bar  *progressbar.ProgressBar
}

func LazyProgress(w io.Writer, what string) *progress { return &progress{w: w, what: what} }

func (p *progress) Set(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar == nil {
		p.bar = NewProgress(p.w, total, p.what)
	}
	_ = p.bar.Set(done)
}

// finish ends the bar, if one was shown (again: nothing).
func (p *progress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Finish()
		p.bar = nil
	}
}

// SignedFixed writes x with its sign and digits decimals, and a value that rounds to zero as
// +0.000…: a solver's −1e-17 is not a loss to print.
func SignedFixed(x float64, digits int) string {
	s := fmt.Sprintf("%+.*f", digits, x)
	if strings.Trim(s, "+-0.") == "" {
		return "+" + s[1:]
	}
	return s
}
