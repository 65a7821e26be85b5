package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/internal/cli/command"
)

type agentsOptions struct{ json bool }

func newAgentsCmd(io command.Streams) *cobra.Command {
	var o agentsOptions
	cmd := &cobra.Command{
		Use:   "agents [--json]",
		Short: "List the agents, their parameters and defaults (specs like fixed:1-2-3-3-1 or optimal:objective=points)",
		Args:  command.ArgsBetween(0, 0, "no arguments"),
		RunE:  func(*cobra.Command, []string) error { return runAgents(io, o) },
	}
	command.JSONFlag(cmd.Flags(), &o.json, "the list")
	return cmd
}

type paramJSON struct {
	Name    string `json:"name"`
	Default string `json:"default"`
	Doc     string `json:"doc"`
}

type agentJSON struct {
	Name   string      `json:"name"`
	Doc    string      `json:"doc"`
	Params []paramJSON `json:"params"`
}

func runAgents(io command.Streams, o agentsOptions) error {
	kinds := agents.Kinds()
	if o.json {
		out := make([]agentJSON, len(kinds))
		for i, k := range kinds {
			out[i] = agentJSON{k.Name, k.Doc, []paramJSON{}}
			for _, p := range k.Params {
				out[i].Params = append(out[i].Params, paramJSON{p.Name, p.Default, p.Doc})
			}
		}
		return command.WriteJSON(io.Out, out)
	}
	// A list, not a table: the docs are sentences, and a table of them was 700 columns wide.
	// Each agent, its sentence wrapped at 100 columns, then each parameter with its default
	// and what it means.
	var b strings.Builder
	for i, k := range kinds {
		if i > 0 {
			b.WriteString("\n")
		}
		writeWrapped(&b, k.Name, k.Doc, 14, agentsWidth)
		for _, p := range k.Params {
			def := p.Default
			if def == "" {
				def = "(none)"
			}
			writeWrapped(&b, "  "+p.Name+"="+def, p.Doc, 30, agentsWidth)
		}
	}
	writeWrapped(&b, "", "A spec is name, name:value (the first parameter) or name:key=value,key=value; add #label "+
		"to tell two of one spec apart (random#2).", 0, agentsWidth)
	_, err := io.Out.Write([]byte(b.String()))
	return err
}

// agentsWidth is the width kingoal agents keeps to.
const agentsWidth = 100

// writeWrapped writes label in a column of indent characters (on a line of its own if it is
// longer: an empty label with no indent is a blank line), then text wrapped at width, every
// line after the first indented as far.
func writeWrapped(b *strings.Builder, label, text string, indent, width int) {
	pad := strings.Repeat(" ", indent)
	line := label
	if len([]rune(label)) >= indent-1 {
		b.WriteString(label + "\n")
		line = pad
	} else {
		line += pad[len([]rune(label)):]
	}
	start := len([]rune(line))
	for _, word := range strings.Fields(text) {
		if n := len([]rune(line)); n > start && n+1+len([]rune(word)) > width {
			b.WriteString(strings.TrimRight(line, " ") + "\n")
			line, start = pad, indent
		}
		if len([]rune(line)) > start {
			line += " "
		}
		line += word
	}
	b.WriteString(strings.TrimRight(line, " ") + "\n")
}
