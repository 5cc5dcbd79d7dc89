package meta

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestJSONAccessorsReadWhatIsThereAndNothingElse(t *testing.T) {
	list := []any{"a", 1, map[string]any{"k": "v"}, "b"}
	tests := []struct {
		name      string
		got, want any
	}{
		{"a list is a list", AsList(list), list},
		{"a map is not a list", AsList(map[string]any{}), []any(nil)},
		{"a string is a string", AsString("s"), "s"},
		{"a number is not a string", AsString(1), ""},
		{"a list's strings are its strings", AsStrings(list), []string{"a", "b"}},
		{"a list without strings has none", AsStrings([]any{1}), []string(nil)},
		{"nothing has no strings", AsStrings(nil), []string(nil)},
		{"a list's objects are its objects", AsMaps(list), []map[string]any{{"k": "v"}}},
		{"a string has no objects", AsMaps("x"), []map[string]any(nil)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assert.Equal(t, tt.want, tt.got) })
	}
}
