package archtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/kingoal/kingoal"

// layers are the module's packages from the bottom up: a package imports only packages of
// lower layers. A new package must be placed here.
var layers = [][]string{
	{"internal/jsonfile", "internal/memo", "internal/safefile", "internal/shellquote", "internal/testtool", "internal/version",
		"solver/zerosum", "solver/internal/solvertest", "datasets/internal/columnar", "internal/archtest", "rank"},
	{"env"},
	{"env/envtest", "frame", "datasets", "solver/odds", "live"},
	{"internal/charts", "frontend/docgen", "solver/lineup", "solver/internal/framed"},
	{"solver/internal/induction"},
	{"solver/policy"},
	{"solver/game"},
	{"solver/dyngame"},
	{"solver"},
	{"agents", "solver/catalogue"},
	{"exploit", "match"},
	{"exploit/exploittest", "arena", "train"},
	{"analysis", "bench", "arena/arenatest"},
	{"frontend/web"},
	{"frontend/cli/command"},
	{"frontend/cli/solvecmd"},
	{"frontend/cli"},
	{"cmd/kingoal", "frontend/docgen/gendocs", "frontend/pylib", "frontend/web/e2e"},
}

// The limits of issue 40 (counted over non-test files): lines a package and a file, lines
// a function from its func keyword to its closing brace.
const (
	maxPackageLines  = 4000
	maxFileLines     = 400
	maxFunctionLines = 80
)

type listed struct {
	ImportPath   string
	Dir          string
	GoFiles      []string
	CgoFiles     []string
	Imports      []string
	TestImports  []string
	XTestImports []string
	Export       string
	Standard     bool
}

// list is `go list -export -deps ./...` from the module's root: every package of the
// module and what it imports, with the export data the type checker reads.
func list(t *testing.T) (ours []listed, export map[string]string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-e", "-export", "-deps", "-json=ImportPath,Dir,GoFiles,CgoFiles,Imports,TestImports,XTestImports,Export,Standard", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	export = map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		export[p.ImportPath] = p.Export
		if p.ImportPath == module || strings.HasPrefix(p.ImportPath, module+"/") {
			ours = append(ours, p)
		}
	}
	return ours, export
}

func rel(path string) string { return strings.TrimPrefix(strings.TrimPrefix(path, module), "/") }

// TestLayers: every package is in a layer and imports only packages of lower layers; its
// tests too, but that they may also import the package's own test helpers (P/ptest). The
// folders form layers too (folderViolations), and packages behind a front door are imported
// through it (behindDoors).
func TestLayers(t *testing.T) { report(t, layerBreaches(t)) }

func layerBreaches(t *testing.T) []string {
	ours, _ := list(t)
	var pkgs []pkgImports
	for _, p := range ours {
		pkgs = append(pkgs, pkgImports{rel(p.ImportPath), rels(p.Imports), rels(slices.Concat(p.TestImports, p.XTestImports))})
	}
	return slices.Concat(importViolations(pkgs, layers), behindDoorViolations(pkgs, behindDoors), folderViolations(pkgs))
}

// behindDoors are packages only their front door's folder imports (tests too): the game
// with a Dynamic side is reached through package solver (Solve, Load, the abilities), so
// nothing outside solver/ picks a kind of game by hand (issue 65: six places did).
var behindDoors = map[string]string{"solver/dyngame": "solver"}

// report fails t on every breach (issue 65's redesign removed the last known one, arena's
// five-file cycle: no breach is let pass).
func report(t *testing.T, breaches []string) {
	t.Helper()
	for _, b := range breaches {
		t.Error(b)
	}
}

// rels is the module's import paths among imports, relative to the module.
func rels(imports []string) []string {
	var out []string
	for _, imp := range imports {
		if strings.HasPrefix(imp, module+"/") {
			out = append(out, rel(imp))
		}
	}
	return out
}

// TestSizes: no package over maxPackageLines, no file over maxFileLines, no function over
// maxFunctionLines (non-test files).
func TestSizes(t *testing.T) {
	ours, _ := list(t)
	for _, p := range ours {
		total := 0
		fset := token.NewFileSet()
		for _, name := range slices.Concat(p.GoFiles, p.CgoFiles) {
			path := filepath.Join(p.Dir, name)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			n := bytes.Count(src, []byte("\n"))
			total += n
			if n > maxFileLines {
				t.Errorf("%s/%s: %d lines, more than %d", rel(p.ImportPath), name, n, maxFileLines)
			}
			f, err := parser.ParseFile(fset, path, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					if lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; lines > maxFunctionLines {
						t.Errorf("%s/%s: %s has %d lines, more than %d", rel(p.ImportPath), name, fd.Name.Name, lines, maxFunctionLines)
					}
				}
			}
		}
		if total > maxPackageLines {
			t.Errorf("%s: %d lines in its non-test files, more than %d", rel(p.ImportPath), total, maxPackageLines)
		}
	}
}

// TestFilesFormLayers: inside a package the files form layers too — no cycle of files, of
// any length, each calling a function or method the next declares (non-test files); and in
// the command packages no command file calls another's (shared pieces live in command/).
func TestFilesFormLayers(t *testing.T) { report(t, fileBreaches(t)) }

func fileBreaches(t *testing.T) []string {
	ours, export := list(t)
	var breaches []string
	for _, p := range ours {
		calls, err := fileCalls(p, export)
		if err != nil {
			t.Fatalf("%s: %v", rel(p.ImportPath), err)
		}
		for _, c := range fileCycles(calls) {
			breaches = append(breaches, fmt.Sprintf("%s: its files call into each other in a cycle: %s", rel(p.ImportPath), strings.Join(c, " → ")))
		}
		if slices.Contains(commandPackages, rel(p.ImportPath)) {
			for _, v := range crossCommandCalls(calls) {
				breaches = append(breaches, fmt.Sprintf("%s: %s", rel(p.ImportPath), v))
			}
		}
	}
	return breaches
}

// fileCalls type-checks p from source (its imports from their export data) and returns
// which of its files use a function or method declared in which other.
func fileCalls(p listed, export map[string]string) (map[[2]string][]string, error) {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range slices.Concat(p.GoFiles, p.CgoFiles) {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, 0)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := export[path]
		if !ok || file == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	// With cgo's names faked (FakeImportC) their values have no type; other errors are real.
	conf := types.Config{Importer: imp, FakeImportC: true, Error: func(error) {}}
	pkg, err := conf.Check(p.ImportPath, fset, files, info)
	if err != nil && len(p.CgoFiles) == 0 {
		return nil, err
	}
	calls := map[[2]string][]string{} // (from, to) → the functions called
	for id, obj := range info.Uses {
		if _, isFunc := obj.(*types.Func); !isFunc || obj.Pkg() != pkg {
			continue
		}
		from, to := filepath.Base(fset.Position(id.Pos()).Filename), filepath.Base(fset.Position(obj.Pos()).Filename)
		if from != to && !slices.Contains(calls[[2]string{from, to}], obj.Name()) {
			calls[[2]string{from, to}] = append(calls[[2]string{from, to}], obj.Name())
		}
	}
	return calls, nil
}

// groundFloor are the packages whose dependencies must not include the Parquet stack: file
// safety (atomic writes, locks) is internal/safefile's, not the Parquet package's, so the
// solvers, the agents and the exploitability measure link no Parquet library (issue 65: each
// linked 31 parquet-go packages through one datasets.WriteAtomic call).
var groundFloor = []string{"./solver/...", "./agents/...", "./exploit/..."}

// TestSolversLinkNoParquet: `go list -deps` of the ground floor names neither parquet-go nor
// package datasets.
func TestSolversLinkNoParquet(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", append([]string{"list", "-deps", "-test=false"}, groundFloor...)...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if bad := parquetDeps(strings.Fields(string(out))); len(bad) > 0 {
		t.Errorf("%s link %s: write files through internal/safefile", strings.Join(groundFloor, " "), strings.Join(bad, ", "))
	}
}

// parquetDeps picks the Parquet stack out of a dependency list.
func parquetDeps(deps []string) []string {
	var bad []string
	for _, d := range deps {
		if strings.Contains(d, "parquet-go") || d == module+"/datasets" {
			bad = append(bad, d)
		}
	}
	return bad
}
