package cel

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Tracked program answers every evaluation with the value, error and
// actual cost of cel-go's own cost-tracked program, limit included.
func TestTrackedCostsAreCelGos(t *testing.T) {
	base, err := baseEnv()
	require.NoError(t, err)
	env, err := base.Extend(cel.Variable("x", cel.DynType))
	require.NoError(t, err)
	long := make([]any, 2000)
	for i := range long {
		long[i] = fmt.Sprint(i)
	}
	inputs := []map[string]any{
		{"name": "cm", "labels": map[string]any{"a": "b", "forbidden": "x"}, "list": []any{"a", "bb", "ccc"}, "n": int64(3)},
		{"name": strings.Repeat("n", 300), "labels": map[string]any{}, "list": long, "n": int64(-1)},
		{},
	}
	for _, expr := range []string{
		`x.name.size() < 64`,
		`!has(x.labels) || !('forbidden' in x.labels)`,
		`x.list.all(a, x.list.all(b, a.size() + b.size() > 0))`,
		`x.list.exists(a, a in ['a', 'b', 'c'])`,
		`x.list.map(a, a + a).filter(a, a.matches('^[a-c]+$')).size()`,
		`x.name.find('[0-9]+') == '' && x.name.matches('^n')`,
		`[1, 2, 3].map(i, i * x.n).sum() > 0`,
		`x.list.exists_one(a, a == 'a') || x.labels.all(k, v, k.size() + v.size() > 1)`,
		`quantity('1Gi').isGreaterThan(quantity('1Mi')) && isURL('https://x')`,
		`x.labels.all(k, k.size() < 10) ? 'short' : 'long'`,
		`x.n / 0 == 1`,
		`x.missing.field == 1`,
		`ip('10.0.0.1').family() == 4 && cidr('10.0.0.0/8').containsIP(ip('10.0.0.1'))`,
		`x.list.join(',').split(',').size() == x.list.size()`,
	} {
		ast, iss := env.Compile(expr)
		if iss != nil && iss.Err() != nil {
			t.Logf("%s: %v", expr, iss.Err())
			continue
		}
		want, err := env.Program(ast, ProgramOptions()...)
		require.NoError(t, err, expr)
		got, err := NewTracked(env, ast)
		require.NoError(t, err, expr)
		for i, in := range inputs {
			for range 2 { // an instance used again answers the same
				wv, details, werr := want.ContextEval(context.Background(), map[string]any{"x": in})
				gv, cost, gerr := got.ContextEval(context.Background(), map[string]any{"x": in})
				assert.Equal(t, fmt.Sprint(werr), fmt.Sprint(gerr), "%s, input %d", expr, i)
				assert.Equal(t, fmt.Sprint(wv), fmt.Sprint(gv), "%s, input %d", expr, i)
				require.NotNil(t, details, expr)
				assert.Equal(t, *details.ActualCost(), cost, "%s, input %d", expr, i)
			}
		}
	}
}
