package cli

import (
	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/exploit"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/frontend/cli/solvecmd"
	"github.com/kingoal/kingoal/solver/catalogue"
)

// OutDir in a JSONOutput's Args stands for a fresh directory the command may write.
const OutDir = "{out}"

// JSONOutputs are the documents the commands print with --json, in the order of the
// reference page (docs/reference/json.md) that frontend/docgen writes from their types.
func JSONOutputs() []command.JSONOutput {
	small := []string{"--throws-per-half", "3", "--moves", "1", "--json"}
	with := func(args ...string) []string { return append(args, small...) }
	return append([]command.JSONOutput{
		{Command: "kingoal simulate", Args: []string{"simulate", "-n", "200", "--knockout", "--throws-per-half", "3", "--json"}, Value: simulateJSON{}},
		{Command: "kingoal eval SPEC", Args: with("eval", "heuristic", "--vs", "fixed:2-2-2-2-2;random", "-n", "50"), Value: exploit.EvaluationJSON{}},
		{Command: "kingoal arena, kingoal leaderboard RUN_DIR", Args: with("arena", "--agents", "random;heuristic", "--matches", "4", "--out", OutDir), Value: arena.LeaderboardJSON{}},
		{Command: "kingoal agents", Args: []string{"agents", "--json"}, Value: []agentJSON{}},
		{Command: "kingoal lineups", Args: []string{"lineups", "--json"}, Value: []lineupJSON{}},
	}, append(solvecmd.JSONOutputs(),
		// Two rows print every key a row declares (a Basic pair's right to substitute, a
		// Dynamic side's trigger); the other twelve took most of the test's time under -race.
		command.JSONOutput{Command: "kingoal solve catalogue", Args: with("solve", "catalogue", "--extra-throws", "2",
			"--only", "league-basic-basic,knockout-basic-dynamic-turnover", "--out", OutDir), Value: []catalogue.Row{}})...)
}
