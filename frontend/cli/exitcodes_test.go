package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/frontend/cli/command"
)

// TestExitCodesOfEveryCommand holds every command to kingoal help exit-codes (issue 64):
// an input that is missing exits 1, a bad value 2 — given as an argument or a flag alike
// (leaderboard /nonexistent exited 1 while serve --runs /nonexistent exited 2; analyse
// --match 99 exited 1 while --match -1 exited 2) — always in one line that starts with the
// command (analyse and leaderboard said "arena: "). Every command of the tree has a case.
func TestExitCodesOfEveryCommand(t *testing.T) {
	dir := t.TempDir()
	runDir := filepath.Join(dir, "run")
	mustRun(t, "arena", "--agents", "random;heuristic", "--matches", "1", "--throws-per-half", "3", "--no-exploitability", "--out", runDir)
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	cases := []struct {
		code int
		args []string
	}{
		{1, []string{"agents", "--zoo", missing}},
		{2, []string{"agents", "--zoo", ""}},
		{1, []string{"analyse", missing, "--match", "1"}},
		{2, []string{"analyse", runDir, "--match", "99"}},
		{2, []string{"analyse", runDir, "--match", "-1"}},
		{2, []string{"arena", "--matches", "0"}},
		{1, []string{"arena", "--agents", "random;table:file=" + missing, "--out", filepath.Join(dir, "a")}},
		{2, []string{"bench", "--suite", "nope"}},
		{2, []string{"bench", "--force", "--report-only", "--out", filepath.Join(dir, "b")}},
		{1, []string{"bench", "--report-only", "--out", filepath.Join(dir, "b")}},
		{1, []string{"datasets", "export", missing}},
		{2, []string{"datasets", "export", file, "--format", "xml"}},
		{2, []string{"datasets", "generate", "--agents", "random"}},
		{1, []string{"datasets", "inspect", missing}},
		{2, []string{"datasets", "inspect"}},
		{1, []string{"eval", "table:file=" + missing}},
		{2, []string{"eval", "nobody"}},
		{2, []string{"help", "nosuch"}},
		{2, []string{"help", "exit-codes", "x"}},
		{1, []string{"leaderboard", missing}},
		{2, []string{"leaderboard", runDir, "--markdown", "--json"}},
		{2, []string{"lineups", "x"}},
		{2, []string{"play", "--vs", "nobody"}},
		{2, []string{"rules", "--moves", "-1"}},
		{1, []string{"serve", "--runs", missing}},
		{2, []string{"serve", "--runs", file}},
		{1, []string{"serve", "--table", missing}},
		{2, []string{"serve", "--table", file}},
		{2, []string{"simulate", "-n", "0"}},
		{2, []string{"solve", "catalogue", "--only", "nope"}},
		{2, []string{"solve", "counter", "1-1-1"}},
		{2, []string{"solve", "equilibrium", "--payoff", "nope"}},
		{1, []string{"solve", "game", "--in", missing}},
		{1, []string{"solve", "game", "--in", file}}, // a corrupt input file
		{2, []string{"solve", "game", "--moves", "9"}},
		{2, []string{"solve", "matrix", "--throws-per-half", "0"}},
		{2, []string{"solve", "odds", "1-1-1", "2-2-2-2-2"}},
		{2, []string{"solve", "policy", "1-1-1"}},
		{2, []string{"train", "qlearning", "--resume", "--out", filepath.Join(missing, "q.json")}},
		{2, []string{"train", "nope"}},
		{1, []string{"watch", "random", "table:file=" + missing}},
		{2, []string{"watch", "random"}},
	}
	covered := map[string]bool{}
	for _, c := range cases {
		code, out, stderr := run(t, c.args...)
		path := commandPath(c.args)
		covered[path] = true
		want := "kingoal: " + path + ": "
		if path == "help" {
			want = "kingoal: help " // "help nosuch: no such command or topic"
		}
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != c.code || out != "" || len(lines) != 1 || !strings.HasPrefix(stderr, want) {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and one line starting %q", c.args, code, stderr, c.code, want)
		}
	}
	// Every command: an unknown flag is a usage error, and a case above holds it to the rest.
	walk(NewRootCmd(command.Streams{}), func(c *cobra.Command) {
		path := strings.TrimPrefix(c.CommandPath(), "kingoal ")
		if c.HasSubCommands() || !c.Runnable() || c == c.Root() {
			return
		}
		if !covered[path] && !strings.HasPrefix(path, "completion ") {
			t.Errorf("kingoal %s has no case in TestExitCodesOfEveryCommand", path)
		}
		args := append(strings.Fields(path), "--no-such-flag") // cobra's completion commands included
		if code, _, stderr := run(t, args...); code != command.ExitUsage || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 in one line", args, code, stderr)
		}
	})
}

// commandPath is the command args run ("solve game"), without its arguments and flags.
func commandPath(args []string) string {
	cmd, _, err := NewRootCmd(command.Streams{}).Find(args)
	if err != nil || cmd == cmd.Root() { // help is added when the tree runs
		return args[0]
	}
	return strings.TrimPrefix(cmd.CommandPath(), "kingoal ")
}

func walk(c *cobra.Command, visit func(*cobra.Command)) {
	visit(c)
	for _, sub := range c.Commands() {
		walk(sub, visit)
	}
}
