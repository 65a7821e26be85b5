package cli

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kingoal/kingoal/frontend/cli/command"
)

// otherTools are flags the pages name that belong to other programs (pip, venv, MkDocs,
// Beam), not to kingoal.
var otherTools = []string{"--no-build-isolation", "--system-site-packages", "--no-deps", "--strict", "--runner", "--subproc", "--log-level", "--extra-index-url"}

// TestEveryFlagThePagesNameExists: a flag written in code on a documentation page, the
// README or a web page's template is a flag of some kingoal command (the replay page and two
// guides named --every-throw, which no command has: issue 56); and no flag shows a negative
// default (analyse --match showed "default -1", its "not given").
func TestEveryFlagThePagesNameExists(t *testing.T) {
	known := map[string]bool{"--help": true}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, fs := range []*pflag.FlagSet{c.Flags(), c.PersistentFlags()} {
			fs.VisitAll(func(f *pflag.Flag) {
				known["--"+f.Name] = true
				if strings.HasPrefix(f.DefValue, "-") { // a sentinel ("not given") shown to the user as a default
					t.Errorf("%s --%s shows (default %s)", c.CommandPath(), f.Name, f.DefValue)
				}
			})
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(command.Streams{In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard}))
	// A span of code that starts with a flag (`--sampler throws`), and every kingoal command
	// line (up to a pipe, ; or &&) in code.
	span := regexp.MustCompile("(?:`|<code>)(--[a-z][a-z0-9-]+)")
	line := regexp.MustCompile(`(?:^|[\s(` + "`" + `$])kingoal ([a-z][^|;&\n` + "`" + `<]*)`)
	flag := regexp.MustCompile(`(?:^|\s)(--[a-z][a-z0-9-]+)`)
	var pages []string
	for _, pattern := range []string{"../../README.md", "../../docs/*.md", "../../docs/*/*.md", "../web/templates/*.html"} {
		found, _ := filepath.Glob(pattern)
		pages = append(pages, found...)
	}
	if len(pages) < 10 {
		t.Fatalf("found %d pages: the paths are wrong", len(pages))
	}
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		var named [][2]string // flag, context
		for _, m := range span.FindAllStringSubmatch(string(b), -1) {
			named = append(named, [2]string{m[1], m[0]})
		}
		for _, m := range line.FindAllStringSubmatch(string(b), -1) {
			for _, f := range flag.FindAllStringSubmatch(m[1], -1) {
				named = append(named, [2]string{f[1], m[0]})
			}
		}
		for _, n := range named {
			if !known[n[0]] && !slices.Contains(otherTools, n[0]) {
				t.Errorf("%s names %s, a flag no kingoal command has (in %.80q)", page, n[0], n[1])
			}
		}
	}
}
