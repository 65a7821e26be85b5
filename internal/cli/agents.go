package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/agents"
)

type agentsOptions struct{ json bool }

func newAgentsCmd(io Streams) *cobra.Command {
	var o agentsOptions
	cmd := &cobra.Command{
		Use:   "agents [--json]",
		Short: "List the agents, their parameters and defaults (specs like fixed:1-2-3-3-1 or optimal:objective=points)",
		Args:  argsBetween(0, 0, "no arguments"),
		RunE:  func(*cobra.Command, []string) error { return runAgents(io, o) },
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print the list as JSON")
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

func runAgents(io Streams, o agentsOptions) error {
	kinds := agents.Kinds()
	if o.json {
		out := make([]agentJSON, len(kinds))
		for i, k := range kinds {
			out[i] = agentJSON{k.Name, k.Doc, []paramJSON{}}
			for _, p := range k.Params {
				out[i].Params = append(out[i].Params, paramJSON{p.Name, p.Default, p.Doc})
			}
		}
		return writeJSON(io.Out, out)
	}
	t := newTable(io.Out, 3, "agent", "parameters (default)", "what it does")
	var rows [][]string
	for _, k := range kinds {
		var ps []string
		for _, p := range k.Params {
			ps = append(ps, p.Name+"="+p.Default)
		}
		rows = append(rows, []string{k.Name, strings.Join(ps, ", "), k.Doc})
	}
	return appendRows(t, rows)
}
