package cli

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestEveryFlagNamedExists reads every string literal of the packages the CLI runs (errors,
// help texts, hints) and requires each --flag it names to be a flag of some kingoal command:
// an error that suggests a flag that does not exist (--half-throws for --throws-per-half)
// sends the user nowhere.
func TestEveryFlagNamedExists(t *testing.T) {
	known := map[string]bool{"help": true, "version": true}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		add := func(f *pflag.Flag) { known[f.Name] = true }
		c.Flags().VisitAll(add)
		c.PersistentFlags().VisitAll(add)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	var out bytes.Buffer
	walk(newRootCmd(command.Streams{In: strings.NewReader(""), Out: &out, ErrOut: &out}))
	flag := regexp.MustCompile(`(^|[\s("'\x60\[|])--([a-z][a-z0-9-]*[a-z0-9])`)
	var unknown []string
	for _, dir := range []string{".", "../../agents", "../../arena", "../../env", "../../solver", "../../datasets"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				lit, isLit := n.(*ast.BasicLit)
				if !isLit || lit.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					return true
				}
				for _, m := range flag.FindAllStringSubmatch(s, -1) {
					if !known[m[2]] {
						unknown = append(unknown, filepath.Base(path)+": --"+m[2])
					}
				}
				return true
			})
		}
	}
	sort.Strings(unknown)
	if len(unknown) > 0 {
		t.Errorf("texts name flags no kingoal command has:\n%s", strings.Join(unknown, "\n"))
	}
}
