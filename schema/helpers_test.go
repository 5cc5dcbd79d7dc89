package schema

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/meta"
)

// decode reads JSON as kapi's codec does: integers int64, other numbers
// float64.
func decode(t testing.TB, src string) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(src)))
	dec.UseNumber()
	var v any
	require.NoError(t, dec.Decode(&v), src)
	return normalizeJSON(v)
}

func object(t testing.TB, src string) map[string]any {
	t.Helper()
	return decode(t, src).(map[string]any)
}

func mustSchema(t testing.TB, src string) *Schema {
	t.Helper()
	s, err := Parse(decode(t, src))
	require.NoError(t, err, src)
	return s
}

func messages(errs meta.FieldErrors) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Error()
	}
	return out
}

func toJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
