package archtest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The checks, as functions of what they read, so that a mutation test can feed each one a
// breach and see it caught (mutation_test.go).

// pkgImports is a package's imports of the module's packages, and its tests'.
type pkgImports struct {
	path              string
	imports, testOnly []string
}

// importViolations: a package in no layer, or importing a package of its own layer or
// above; its tests may also import its own test helpers, the packages directly below it
// named for it with "test" (exploit/exploittest for exploit).
func importViolations(pkgs []pkgImports, layers [][]string) []string {
	layerOf := map[string]int{}
	for i, l := range layers {
		for _, p := range l {
			layerOf[p] = i
		}
	}
	var out []string
	for _, p := range pkgs {
		me, ok := layerOf[p.path]
		if !ok {
			out = append(out, fmt.Sprintf("%s is in no layer: place it in internal/archtest's layers", p.path))
			continue
		}
		for _, imp := range p.imports {
			if them, ok := layerOf[imp]; ok && them >= me {
				out = append(out, fmt.Sprintf("%s (layer %d) imports %s (layer %d): packages import only downward", p.path, me, imp, them))
			}
		}
		for _, imp := range p.testOnly {
			own := imp == p.path || imp == p.path+"/"+filepath.Base(p.path)+"test"
			if them, ok := layerOf[imp]; ok && them >= me && !own {
				out = append(out, fmt.Sprintf("%s's tests (layer %d) import %s (layer %d): tests import downward too, or their package's own test helpers", p.path, me, imp, them))
			}
		}
	}
	return out
}

// groundFolder holds the leaf helpers and topFolders the front ends and their mains: a package
// in groundFolder imports only from it, and only packages in topFolders import a front end.
const groundFolder = "internal"

var topFolders = []string{"frontend", "cmd"}

// folderViolations checks the layers at folder level: the top-level folders import each other
// (by code or tests) without a cycle, the ground folder imports nothing outside itself, and
// nothing outside the top folders imports a front end (issue 65: the CLI sat among the leaf
// helpers, so imports ran from internal/ up to train and web and back down).
func folderViolations(pkgs []pkgImports) []string {
	top := func(path string) string { return strings.Split(path, "/")[0] }
	edges := map[[2]string][]string{}
	var out []string
	for _, p := range pkgs {
		for _, imp := range slices.Concat(p.imports, p.testOnly) {
			from, to := top(p.path), top(imp)
			if from == to {
				continue
			}
			edges[[2]string{from, to}] = append(edges[[2]string{from, to}], p.path+" → "+imp)
			if from == groundFolder {
				out = append(out, fmt.Sprintf("%s imports %s: %s/ holds the leaf helpers, which import only each other", p.path, imp, groundFolder))
			}
			if slices.Contains(topFolders, to) && !slices.Contains(topFolders, from) {
				out = append(out, fmt.Sprintf("%s imports the front end %s: only front ends and mains (%s/) do", p.path, imp, strings.Join(topFolders, "/, ")))
			}
		}
	}
	for _, c := range fileCycles(edges) {
		out = append(out, fmt.Sprintf("the folders %s import each other in a cycle", strings.Join(c, " → ")))
	}
	return out
}

// behindDoorViolations returns each import, by code or tests, of a package in doors (a package
// → its front door's folder) from outside that folder.
func behindDoorViolations(pkgs []pkgImports, doors map[string]string) []string {
	var out []string
	for _, p := range pkgs {
		for _, imp := range slices.Compact(slices.Sorted(slices.Values(slices.Concat(p.imports, p.testOnly)))) {
			door, behind := doors[imp]
			if behind && p.path != door && !strings.HasPrefix(p.path, door+"/") {
				out = append(out, fmt.Sprintf("%s imports %s, which only %s/ may: go through package %s", p.path, imp, door, door))
			}
		}
	}
	return out
}

// fileCycles returns the cycles of the file graph calls (from, to): its strongly connected
// components of more than one file, each in order from its first file (Tarjan's algorithm).
func fileCycles[V any](calls map[[2]string]V) [][]string {
	next := map[string][]string{}
	var files []string
	for pair := range calls {
		next[pair[0]] = append(next[pair[0]], pair[1])
		files = append(files, pair[0], pair[1])
	}
	slices.Sort(files)
	files = slices.Compact(files)
	for f := range next {
		slices.Sort(next[f])
	}
	index, low, onStack := map[string]int{}, map[string]int{}, map[string]bool{}
	var stack []string
	var out [][]string
	var visit func(f string)
	visit = func(f string) {
		index[f], low[f] = len(index), len(index)
		stack, onStack[f] = append(stack, f), true
		for _, g := range next[f] {
			if _, seen := index[g]; !seen {
				visit(g)
				low[f] = min(low[f], low[g])
			} else if onStack[g] {
				low[f] = min(low[f], index[g])
			}
		}
		if low[f] == index[f] {
			var comp []string
			for {
				g := stack[len(stack)-1]
				stack, onStack[g] = stack[:len(stack)-1], false
				comp = append(comp, g)
				if g == f {
					break
				}
			}
			if len(comp) > 1 {
				slices.Sort(comp)
				out = append(out, comp)
			}
		}
	}
	for _, f := range files {
		if _, seen := index[f]; !seen {
			visit(f)
		}
	}
	return out
}

// commandPackages are the packages of the command line: one file a command.
var commandPackages = []string{"frontend/cli", "frontend/cli/solvecmd"}

// treeFiles build the command tree: they call every command's constructor.
var treeFiles = []string{"root.go", "command.go", "doc.go"}

// crossCommandCalls: a command file that calls a function another command file declares
// ("No command file calls another": what two commands share lives in command/). A file
// X_part.go is part of command X.go; calls to constructors (new…Cmd, …Command: a group
// command registering its subcommands) and from the tree files are allowed.
func crossCommandCalls(calls map[[2]string][]string) []string {
	stem := func(f string) string {
		f = strings.TrimSuffix(f, ".go")
		if i := strings.Index(f, "_"); i > 0 {
			return f[:i]
		}
		return f
	}
	constructor := func(name string) bool {
		return strings.HasPrefix(name, "new") && strings.HasSuffix(name, "Cmd") || strings.HasSuffix(name, "Command")
	}
	var out []string
	for pair, names := range calls {
		from, to := pair[0], pair[1]
		if slices.Contains(treeFiles, from) || stem(from) == stem(to) {
			continue
		}
		for _, n := range names {
			if !constructor(n) {
				out = append(out, fmt.Sprintf("%s calls %s of %s: a command file calls no other (move it to command/)", from, n, to))
			}
		}
	}
	slices.Sort(out)
	return out
}

// pythonLayers are the Python package's modules (python/kingoal) from the bottom up, as the
// Go packages': a module imports only modules of lower layers.
var pythonLayers = [][]string{
	{"_release", "_version", "_native"},
	{"data", "solve", "vector", "exploit", "rank"},
	{"game", "state", "compete", "bench"},
	{"gym"},
	{"openspiel", "pz", "offline"},
	{"__init__"},
}

// pythonImport is a relative import: from .X import …, or from . import X.
var pythonImport = regexp.MustCompile(`(?m)^\s*from \.(\w+) import|^\s*from \. import (\w+)`)

// pythonImports reads each module of dir and the package's modules it imports.
func pythonImports(dir string) (map[string][]string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.py"))
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		mod := strings.TrimSuffix(filepath.Base(p), ".py")
		out[mod] = []string{}
		for _, m := range pythonImport.FindAllStringSubmatch(string(src), -1) {
			out[mod] = append(out[mod], m[1]+m[2])
		}
	}
	return out, nil
}

// pythonViolations is importViolations for the Python package.
func pythonViolations(imports map[string][]string, layers [][]string) []string {
	var pkgs []pkgImports
	for mod, imps := range imports {
		pkgs = append(pkgs, pkgImports{path: mod, imports: imps})
	}
	slices.SortFunc(pkgs, func(a, b pkgImports) int { return strings.Compare(a.path, b.path) })
	return importViolations(pkgs, layers)
}

// TestPythonLayers: the Python package's modules form layers (pythonLayers).
func TestPythonLayers(t *testing.T) {
	imports, err := pythonImports(filepath.Join("..", "..", "python", "kingoal"))
	if err != nil || len(imports) < 10 {
		t.Fatalf("python/kingoal: %d modules, %v", len(imports), err)
	}
	for _, v := range pythonViolations(imports, pythonLayers) {
		t.Error("python/kingoal: " + v)
	}
}
