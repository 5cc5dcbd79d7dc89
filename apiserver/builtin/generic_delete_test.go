package builtin

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// deleteHooks are the methods by which a strategy's DELETE differs from
// the generic pipeline's: the Strategy hooks and the GracefulDeleter and
// Allocator capabilities.
var deleteHooks = []string{"PrepareForDelete", "Held", "GracePeriod", "Release"}

// TestGenericDeletersOverrideNoDeleteHook reads this package's strategies:
// one that declares GenericDelete must embed apiserver.GenericStrategy and
// override no delete hook, and one that could declare it does.
func TestGenericDeletersOverrideNoDeleteHook(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	methods := map[string]map[string]bool{}
	embedsGeneric := map[string]bool{}
	var strategies []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, e.Name(), nil, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) != 1 {
					continue
				}
				typ := d.Recv.List[0].Type
				if star, ok := typ.(*ast.StarExpr); ok {
					typ = star.X
				}
				if id, ok := typ.(*ast.Ident); ok {
					if methods[id.Name] == nil {
						methods[id.Name] = map[string]bool{}
					}
					methods[id.Name][d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok || !strings.HasSuffix(ts.Name.Name, "Strategy") {
						continue
					}
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					strategies = append(strategies, ts.Name.Name)
					for _, field := range st.Fields.List {
						if sel, ok := field.Type.(*ast.SelectorExpr); ok && len(field.Names) == 0 &&
							sel.Sel.Name == "GenericStrategy" {
							embedsGeneric[ts.Name.Name] = true
						}
					}
				}
			}
		}
	}
	require.NotEmpty(t, strategies)
	for _, name := range strategies {
		var overrides []string
		for _, h := range deleteHooks {
			if methods[name][h] {
				overrides = append(overrides, h)
			}
		}
		generic := embedsGeneric[name] && len(overrides) == 0
		if methods[name]["GenericDelete"] {
			assert.True(t, generic, "%s declares GenericDelete but embeds GenericStrategy: %v, overrides %v",
				name, embedsGeneric[name], overrides)
		} else {
			assert.False(t, generic, "%s deletes as the generic pipeline does: declare GenericDelete in generic_delete.go", name)
		}
	}
}
