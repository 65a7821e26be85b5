package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/agents"
	"github.com/kingoal/kingoal/bench"
	"github.com/kingoal/kingoal/frontend/cli/command"
)

type agentsOptions struct {
	json bool
	zoo  string
}

func newAgentsCmd(io command.Streams) *cobra.Command {
	var o agentsOptions
	cmd := &cobra.Command{
		Use:   "agents [--json] [--zoo DIR]",
		Short: "List the agents, their parameters and defaults (specs like fixed:1-2-3-3-1 or optimal:objective=points); --zoo: the model zoo's policies",
		Long: `Agents lists the registry's agents, their parameters and defaults.

With --zoo DIR it lists the model zoo in DIR instead (kingoal bench --out B writes one into
B/zoo): every learner's final policy, a policy table with its card — learner, rules, budget,
seed, exact exploitability, scores against reference agents — and the spec that plays it
(table:file=…, under the card's rules). Where a table would not fit (a Python learner's
softmax at the default rules), kingoal.bench keeps its network instead: network:file=….
A card whose policy file is missing or is not the one it describes (size or SHA-256) is
refused.`,
		Example: `  kingoal agents
  kingoal bench --suite tiny --out b && kingoal agents --zoo b/zoo`,
		Args: command.ArgsBetween(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("zoo") {
				if o.zoo == "" {
					return command.Usagef("--zoo: name a directory (kingoal bench --out B writes one into B/zoo)")
				}
				return runZoo(io, o)
			}
			return runAgents(io, o)
		},
	}
	command.JSONFlag(cmd.Flags(), &o.json, "the list")
	cmd.Flags().StringVar(&o.zoo, "zoo", "", "list the model zoo in this directory (its *.card.json) instead")
	return cmd
}

// paramJSON is one parameter of an agent's spec.
type paramJSON struct {
	Name    string `json:"name"`    // the parameter
	Default string `json:"default"` // its default, as a spec would write it
	Doc     string `json:"doc"`     // what it changes
}

// agentJSON is one agent kind of the registry (agents --json prints them all, in order).
type agentJSON struct {
	Name   string      `json:"name"`   // the spec's name (random, heuristic, mcts, …)
	Doc    string      `json:"doc"`    // what it plays, in a sentence
	Params []paramJSON `json:"params"` // its parameters (name=value after the colon of a spec)
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

// runZoo lists the zoo's cards: a row a policy, best first under each rules.
func runZoo(io command.Streams, o agentsOptions) error {
	cards, err := bench.ReadZoo(o.zoo)
	if err != nil {
		return err
	}
	if o.json {
		return command.WriteJSON(io.Out, cards)
	}
	head := []string{"policy", "rules", "exploitability (score)"}
	for _, opp := range bench.ZooOpponents {
		head = append(head, "v "+opp)
	}
	t := command.NewTable(io.Out, 0, append(head, "spec")...)
	var rows [][]string
	for _, c := range cards {
		row := []string{c.Name, c.Rules, fmt.Sprintf("%.6f", c.Exploitability)}
		for _, s := range c.Scores {
			row = append(row, fmt.Sprintf("%.3f ± %.3f", s.Score, s.CI))
		}
		rows = append(rows, append(row, c.Spec(o.zoo)))
	}
	return command.AppendRows(t, rows)
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
