// Command gendocs writes the documentation site's generated reference pages from the code:
// docs/reference/cli/ (one page a kingoal command, from the cobra tree) and
// docs/reference/parquet.md (every Parquet schema, from package datasets) and
// docs/reference/json.md (every --json document, from the commands' types). Run it from the
// repository's root after changing a command, a flag or a row type:
//
//	go run ./frontend/docgen/gendocs
//
// Its test fails while the committed pages differ from what it would write.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/kingoal/kingoal/frontend/cli"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/frontend/docgen"
	"github.com/kingoal/kingoal/internal/safefile"
)

func main() {
	if err := write("."); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// write regenerates the reference under repo/docs/reference: the CLI pages into a fresh
// directory swapped in for the old one (a command removed loses its page), the schemas atomically.
func write(repo string) error {
	ref := filepath.Join(repo, "docs", "reference")
	if _, err := os.Stat(filepath.Join(ref, "python.md")); err != nil { // a hand-written page: this is the repository
		return fmt.Errorf("gendocs: run it from the repository's root (%s has no docs/reference/python.md)", repo)
	}
	fresh := filepath.Join(ref, "cli.new")
	if err := os.RemoveAll(fresh); err != nil {
		return fmt.Errorf("gendocs: %w", err)
	}
	if err := generate(fresh); err != nil {
		return err
	}
	for name, page := range pageWriters(repo) {
		if err := safefile.WriteAtomic(filepath.Join(ref, name), page); err != nil {
			return fmt.Errorf("gendocs: %w", err)
		}
	}
	old := filepath.Join(ref, "cli.old")
	if err := os.RemoveAll(old); err != nil {
		return fmt.Errorf("gendocs: %w", err)
	}
	cliDir := filepath.Join(ref, "cli")
	if err := os.Rename(cliDir, old); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("gendocs: %w", err)
	}
	if err := os.Rename(fresh, cliDir); err != nil {
		_ = os.Rename(old, cliDir) // the old pages back rather than none
		return fmt.Errorf("gendocs: %w", err)
	}
	return os.RemoveAll(old)
}

// pageWriters are the reference's single pages by file name: the Parquet schemas and the
// commands' JSON documents.
func pageWriters(repo string) map[string]func(io.Writer) error {
	return map[string]func(io.Writer) error{
		"parquet.md": func(w io.Writer) error { return docgen.Parquet(w, filepath.Join(repo, "datasets")) },
		"json.md": func(w io.Writer) error {
			var outputs []docgen.Output
			for _, o := range cli.JSONOutputs() {
				outputs = append(outputs, docgen.Output{Command: o.Command, Value: o.Value})
			}
			return docgen.JSON(w, outputs, repo)
		},
	}
}

// generate writes the CLI pages into dir, created.
func generate(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("gendocs: %w", err)
	}
	return docgen.CLI(cli.NewRootCmd(command.Streams{}), dir)
}
