package depversions

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// repoRoot is the repository's root directory, two levels above this package.
const repoRoot = "../.."

// selector is the module whose build list is the versions that run together.
const selector = "examples"

// minimumsModules are the modules allowed to require lower versions than the selector selects, and which of their
// requirements may be lower (see the package documentation for why).
var minimumsModules = map[string]func(t *testing.T, dir string) map[string]bool{
	".":        func(*testing.T, string) map[string]bool { return nil }, // nil: every requirement
	"kapitest": reachableFromKubernetesOrTheLibrary,
}

func TestEveryModuleRequiresTheVersionsExamplesSelects(t *testing.T) {
	selected := buildList(t, filepath.Join(repoRoot, selector))
	modules := moduleDirs(t)
	if len(modules) < 5 {
		t.Fatalf("found %d modules under %s (%v), want at least the library, examples, kapitest, store/etcd and hack", len(modules), repoRoot, modules)
	}
	for _, dir := range modules {
		t.Run(dir, func(t *testing.T) {
			var mayBeLower map[string]bool
			allowLower, hasMinimums := minimumsModules[dir]
			if hasMinimums {
				mayBeLower = allowLower(t, filepath.Join(repoRoot, dir))
			}
			for _, req := range requirements(t, filepath.Join(repoRoot, dir, "go.mod")) {
				want, ok := selected[req.Path]
				if !ok || req.Version == want || strings.HasPrefix(req.Path, "github.com/kapi-dev/kapi") {
					continue
				}
				if hasMinimums && (mayBeLower == nil || mayBeLower[req.Path]) {
					continue
				}
				t.Errorf("%s/go.mod requires %s %s, but %s selects %s: run `go get %s@%s` in %s",
					dir, req.Path, req.Version, selector, want, req.Path, want, dir)
			}
		})
	}
}

type requirement struct{ Path, Version string }

// requirements reads a go.mod's require directives with the go command's own parser.
func requirements(t *testing.T, gomod string) []requirement {
	t.Helper()
	var parsed struct{ Require []requirement }
	if err := json.Unmarshal(run(t, filepath.Dir(gomod), "go", "mod", "edit", "-json"), &parsed); err != nil {
		t.Fatalf("%s: %v", gomod, err)
	}
	return parsed.Require
}

// buildList is the version of every module the module in dir selects.
func buildList(t *testing.T, dir string) map[string]string {
	t.Helper()
	selected := map[string]string{}
	for _, line := range strings.Split(string(run(t, dir, "go", "list", "-m", "-f", "{{.Path}} {{.Version}}", "all")), "\n") {
		if path, version, ok := strings.Cut(line, " "); ok {
			selected[path] = version
		}
	}
	return selected
}

// reachableFromKubernetesOrTheLibrary is every module the module in dir reaches, in its module graph, from a k8s.io
// module, from controller-runtime, or from the library (whose requirements may be lower too, and which kapitest
// requires).
func reachableFromKubernetesOrTheLibrary(t *testing.T, dir string) map[string]bool {
	t.Helper()
	edges := map[string][]string{} // path@version → paths@versions it requires
	for _, line := range strings.Split(string(run(t, dir, "go", "mod", "graph")), "\n") {
		if from, to, ok := strings.Cut(line, " "); ok {
			edges[from] = append(edges[from], to)
		}
	}
	var queue []string
	for from := range edges {
		if isKubernetes(modulePath(from)) || modulePath(from) == "github.com/kapi-dev/kapi" {
			queue = append(queue, from)
		}
	}
	seen, reached := map[string]bool{}, map[string]bool{}
	for len(queue) > 0 {
		node := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if seen[node] {
			continue
		}
		seen[node] = true
		reached[modulePath(node)] = true
		queue = append(queue, edges[node]...)
	}
	return reached
}

func isKubernetes(path string) bool {
	return strings.HasPrefix(path, "k8s.io/") || path == "sigs.k8s.io/controller-runtime"
}

func modulePath(node string) string {
	path, _, _ := strings.Cut(node, "@")
	return path
}

// moduleDirs is every directory below the repository's root (itself as ".") that holds a go.mod, outside testdata.
func moduleDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != repoRoot && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "go.mod" {
			rel, err := filepath.Rel(repoRoot, filepath.Dir(path))
			if err != nil {
				return err
			}
			dirs = append(dirs, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(dirs)
	return dirs
}

func run(t *testing.T, dir string, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off") // each module's own go.mod, never a workspace's
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s in %s: %v\n%s", name, strings.Join(args, " "), dir, err, stderr.String())
	}
	return out
}
