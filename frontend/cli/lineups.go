package cli

import (
	"strconv"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/cli/command"
)

type lineupsOptions struct{ json bool }

func newLineupsCmd(io command.Streams) *cobra.Command {
	var o lineupsOptions
	cmd := &cobra.Command{
		Use:   "lineups [--json]",
		Short: "List the 121 legal line-ups with their stable index (0..120)",
		Args:  command.ArgsBetween(0, 0, "no arguments"),
		RunE:  func(*cobra.Command, []string) error { return runLineups(io, o) },
	}
	command.JSONFlag(cmd.Flags(), &o.json, `the list ([{"index":0,"lineup":"1-1-1-2-5"},…])`)
	return cmd
}

func runLineups(io command.Streams, o lineupsOptions) error {
	all := env.AllLineups()
	if o.json {
		rows := make([]lineupJSON, len(all))
		for i, l := range all {
			rows[i] = lineupJSON{i, l.String()}
		}
		return command.WriteJSON(io.Out, rows)
	}
	t := command.NewTable(io.Out, 1, "index", "lineup", "def", "2", "mid", "4", "att")
	for i, l := range all {
		c := l.Counts()
		row := []string{strconv.Itoa(i), l.String()}
		for _, n := range c {
			row = append(row, strconv.Itoa(n))
		}
		if err := t.Append(row); err != nil {
			return err
		}
	}
	return t.Render()
}

// lineupJSON is a legal line-up, one element of the list lineups --json prints in index order.
type lineupJSON struct {
	Index  int    `json:"index"`  // the action that chooses it, 0..120 (env.LineupAt)
	Lineup string `json:"lineup"` // counters by sector, defence to attack: "1-2-3-3-1"
}
