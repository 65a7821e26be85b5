package solvecmd

import "github.com/kingoal/kingoal/frontend/cli/command"

// JSONOutputs are the documents the solve commands print with --json.
func JSONOutputs() []command.JSONOutput {
	small := []string{"--throws-per-half", "3", "--moves", "1", "--json"}
	with := func(args ...string) []string { return append(args, small...) }
	return []command.JSONOutput{
		{Command: "kingoal solve odds", Args: []string{"solve", "odds", "--throws-per-half", "3", "--knockout", "--json"}, Value: oddsJSON{}},
		{Command: "kingoal solve equilibrium", Args: with("solve", "equilibrium"), Value: equilibriumJSON{}},
		{Command: "kingoal solve counter LINEUP", Args: with("solve", "counter", "2-2-2-2-2"), Value: []replyJSON{}},
		{Command: "kingoal solve policy", Args: with("solve", "policy"), Value: policyJSON{}},
		{Command: "kingoal solve game", Args: with("solve", "game"), Value: GameReport{}},
		{Command: "kingoal solve game --home-mode dynamic (a Dynamic side)", Args: with("solve", "game", "--home-mode", "dynamic"), Value: dynamicGameReport{}},
	}
}
