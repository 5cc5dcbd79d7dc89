package builtin

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/kapi-dev/kapi/apiserver"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// deleteHooks are the methods by which a strategy's DELETE differs from
// the generic pipeline's: the Strategy hooks and the GracefulDeleter and
// Allocator capabilities.
var deleteHooks = []string{"PrepareForDelete", "Held", "GracePeriod", "Release"}

// TestGenericDeletesOverrideNoDeleteHook reads this package's strategies: a
// kind whose Resource says GenericDelete has a strategy that embeds
// apiserver.GenericStrategy and overrides no delete hook (nor does any
// strategy wrapping it), and a kind whose strategy could say it does.
func TestGenericDeletesOverrideNoDeleteHook(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	methods := map[string]map[string]bool{}
	embedsGeneric := map[string]bool{}
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
					if !ok {
						continue
					}
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
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
	rs := Resources()
	require.NotEmpty(t, rs)
	for _, r := range rs {
		if r.Strategy == nil {
			continue // the generic strategy, generic without saying so
		}
		var overrides []string
		s, name := r.Strategy, ""
		for s != nil {
			name = reflect.TypeOf(s).Name()
			for _, h := range deleteHooks {
				if methods[name][h] {
					overrides = append(overrides, name+"."+h)
				}
			}
			u, ok := s.(interface{ Unwrap() apiserver.Strategy })
			if !ok {
				break
			}
			s = u.Unwrap()
		}
		generic := embedsGeneric[name] && len(overrides) == 0
		if r.GenericDelete {
			assert.True(t, generic, "%s says GenericDelete but %s embeds GenericStrategy: %v, overrides %v",
				r.Kind, name, embedsGeneric[name], overrides)
		} else {
			assert.False(t, generic, "%s deletes as the generic pipeline does: set GenericDelete in its Resource", r.Kind)
		}
	}
}
