package cli

import (
	"cmp"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/frontend/cli/command"
	"github.com/kingoal/kingoal/internal/safefile"
)

func newDatasetsCmd(streams command.Streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "datasets",
		Short: "Inspect, export and generate datasets (Parquet)",
	}
	cmd.AddCommand(newInspectCmd(streams), newExportCmd(streams), GenerateCommand(streams, nil))
	return command.Group(cmd)
}

type inspectOptions struct{ rows int }

func newInspectCmd(streams command.Streams) *cobra.Command {
	var o inspectOptions
	cmd := &cobra.Command{
		Use:   "inspect PATH [--rows N]",
		Short: "Print a Parquet file's schema tag, columns, row count and first rows",
		Args:  command.ArgsBetween(1, 1, "one PATH"),
		RunE:  func(_ *cobra.Command, args []string) error { return runInspect(streams, o, args[0]) },
	}
	cmd.Flags().IntVar(&o.rows, "rows", 5, "how many rows to show")
	return cmd
}

func runInspect(streams command.Streams, o inspectOptions, path string) error {
	if o.rows < 0 {
		return command.Usagef("--rows %d: want 0 or more", o.rows)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return listParquet(streams, path)
	}
	var first [][]string
	// Every row is read, not only the ones shown: "fine" means every page decoded and
	// passed its checksum.
	info, err := datasets.ScanRecords(path, func(_ datasets.FileInfo, row []datasets.Value) error {
		if len(first) >= o.rows {
			return nil
		}
		cells := make([]string, len(row))
		for i, v := range row {
			cells[i] = inspectCell(v)
		}
		first = append(first, cells)
		return nil
	})
	if err != nil {
		return err
	}
	schema := info.Schema
	if schema == "" {
		schema = "(none: not written by kingoal)"
	}
	fmt.Fprintf(streams.Out, "%s\nschema: %s\nrows: %d\n\n", path, schema, info.Rows)
	t := command.NewTable(streams.Out, 2, "column", "type")
	var rows [][]string
	for i, c := range info.Columns {
		rows = append(rows, []string{c, info.Types[i]})
	}
	if err := command.AppendRows(t, rows); err != nil {
		return err
	}
	if len(first) == 0 {
		return nil
	}
	fmt.Fprintf(streams.Out, "\nfirst %d rows:\n", len(first))
	return command.AppendRows(command.NewTable(streams.Out, len(info.Columns), info.Columns...), first)
}

type exportOptions struct {
	format, out string
	force       bool
}

func newExportCmd(streams command.Streams) *cobra.Command {
	var o exportOptions
	cmd := &cobra.Command{
		Use:   "export PATH --format csv|jsonl [--out FILE]",
		Short: "Convert a Parquet file to CSV or JSON Lines (stdout, or FILE written atomically)",
		Long: `Export writes every row of PATH as CSV (a header row, then one line per row; nulls are
empty) or JSON Lines (one object per row; NaN becomes null). It is the fallback for tools
without a Parquet reader, such as Python without pyarrow.`,
		Args: command.ArgsBetween(1, 1, "one PATH"),
		RunE: func(cmd *cobra.Command, args []string) error { return runExport(cmd.Context(), streams, o, args[0]) },
	}
	command.EnumFlag(cmd.Flags(), &o.format, "format", "the output format", "csv", "jsonl")
	cmd.Flags().StringVar(&o.out, "out", "", "output file (default: standard output)")
	cmd.Flags().BoolVar(&o.force, "force", false, "replace --out if it exists")
	return cmd
}

func runExport(ctx context.Context, s command.Streams, o exportOptions, path string) error {
	if o.format != "csv" && o.format != "jsonl" {
		return command.Usagef("--format %q: want csv or jsonl", o.format)
	}
	release, err := command.ClaimOutputs(map[string]string{"--out": o.out}, o.force)
	if err != nil {
		return err
	}
	defer release()
	write := func(w io.Writer) error { return exportRecords(ctx, w, path, o.format) }
	if o.out == "" {
		return write(s.Out)
	}
	return safefile.WriteAtomic(o.out, write)
}

// exportRecords writes every row of path to w; Ctrl-C (ctx) stops it between rows, and the
// atomic writer then leaves nothing behind.
func exportRecords(ctx context.Context, w io.Writer, path, format string) error {
	cw := csv.NewWriter(w)
	header := false
	var line strings.Builder
	rows := 0
	_, err := datasets.ScanRecords(path, func(info datasets.FileInfo, row []datasets.Value) error {
		if rows++; rows%1024 == 0 && ctx.Err() != nil {
			return fmt.Errorf("datasets export: interrupted after %d rows; nothing was written: %w", rows, ctx.Err())
		}
		if format == "csv" {
			if !header {
				header = true
				if err := cw.Write(info.Columns); err != nil {
					return err
				}
			}
			cells := make([]string, len(row))
			for i, v := range row {
				cells[i] = datasets.FormatCell(v)
			}
			return cw.Write(cells)
		}
		line.Reset()
		line.WriteByte('{')
		for i, v := range row {
			if i > 0 {
				line.WriteByte(',')
			}
			k, _ := json.Marshal(info.Columns[i])
			line.Write(k)
			line.WriteByte(':')
			line.Write(datasets.JSONCell(v))
		}
		line.WriteString("}\n")
		_, err := io.WriteString(w, line.String())
		return err
	})
	if err != nil {
		return err
	}
	if format == "csv" && !header { // an empty file still gets its header
		info, err := datasets.ScanRecords(path, nil)
		if err != nil {
			return err
		}
		if err := cw.Write(info.Columns); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// inspectCell is a cell as inspect shows it: a long list shortened to its first values and
// its length, so that a row of decisions (36 observations, 121 mask flags) stays readable.
func inspectCell(v datasets.Value) string {
	const shown = 6
	l, isList := v.([]datasets.Value)
	if !isList || len(l) <= shown {
		return datasets.FormatCell(v)
	}
	head := strings.TrimSuffix(datasets.FormatCell(l[:shown]), "]")
	return fmt.Sprintf("%s, … %d values]", head, len(l))
}

// maxListed bounds the files inspect lists in a directory.
const maxListed = 200

// listParquet answers inspect on a directory (a run, a dataset): its Parquet files, each
// with its schema and rows, to inspect one by one.
func listParquet(streams command.Streams, dir string) error {
	var rows [][]string
	errEnough := errors.New("enough")
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(d.Name(), ".parquet") || strings.HasPrefix(d.Name(), ".") {
			return err
		}
		if len(rows) == maxListed {
			rows = append(rows, []string{"…", "more files: name a subdirectory", ""})
			return errEnough
		}
		rel, _ := filepath.Rel(dir, path)
		info, err := datasets.ScanRecords(path, nil)
		if err != nil {
			rows = append(rows, []string{rel, "unreadable (inspect it for why)", ""})
			return nil
		}
		rows = append(rows, []string{rel, cmp.Or(info.Schema, "(none)"), strconv.FormatInt(info.Rows, 10)})
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		return fmt.Errorf("datasets: %w", err)
	}
	if len(rows) == 0 {
		return fmt.Errorf("datasets: %s is a directory with no Parquet file in it", dir)
	}
	fmt.Fprintf(streams.Out, "%s: a directory; its Parquet files (kingoal datasets inspect FILE shows one):\n\n", dir)
	return command.AppendRows(command.NewTable(streams.Out, 2, "file", "schema", "rows"), rows)
}
