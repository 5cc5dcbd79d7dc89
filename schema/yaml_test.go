package schema

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/meta"
)

const widgetYAML = `
type: object
properties:
  spec:
    type: object
    required: [size]
    properties:
      size: {type: integer, minimum: 1, maximum: 10}
      color:
        type: string
        enum: [red, blue]
        default: red
      ratio: {type: number, default: 0.5}
      replicas: {type: integer, default: 3}
`

const widgetJSON = `{"type":"object","properties":{"spec":{"type":"object","required":["size"],"properties":{
"size":{"type":"integer","minimum":1,"maximum":10},"color":{"type":"string","enum":["red","blue"],"default":"red"},
"ratio":{"type":"number","default":0.5},"replicas":{"type":"integer","default":3}}}}}`

func TestParseYAML(t *testing.T) {
	t.Run("a YAML schema is the schema its JSON form is", func(t *testing.T) {
		fromYAML, err := ParseYAML([]byte(widgetYAML))
		require.NoError(t, err)
		fromJSON, err := Parse(decode(t, widgetJSON))
		require.NoError(t, err)
		assert.Equal(t, fromJSON.ToOpenAPI(), fromYAML.ToOpenAPI())
	})
	t.Run("JSON text is YAML too", func(t *testing.T) {
		s, err := ParseYAML([]byte(widgetJSON))
		require.NoError(t, err)
		assert.Equal(t, MustParseYAML([]byte(widgetYAML)).ToOpenAPI(), s.ToOpenAPI())
	})
	t.Run("defaults are decoded as objects are: integers as int64, other numbers as float64", func(t *testing.T) {
		obj := map[string]any{"spec": map[string]any{"size": int64(2)}}
		MustParseYAML([]byte(widgetYAML)).Default(obj)
		assert.Equal(t, map[string]any{"spec": map[string]any{"size": int64(2), "color": "red", "ratio": 0.5, "replicas": int64(3)}}, obj)
	})
	t.Run("values are validated against the YAML schema's bounds and enums", func(t *testing.T) {
		errs := MustParseYAML([]byte(widgetYAML)).Validate(map[string]any{"spec": map[string]any{"size": int64(11), "color": "green"}})
		assert.Equal(t, []string{
			`spec.color: Unsupported value: "green": supported values: "red", "blue"`,
			`spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10`,
		}, messages(errs))
	})
	t.Run("a YAML schema is checked as Parse checks a CRD's", func(t *testing.T) {
		_, err := ParseYAML([]byte("type: object\nproperties:\n  spec:\n    properties:\n      a: {type: string}\n"))
		var fe meta.FieldErrors
		require.True(t, errors.As(err, &fe), "%T: %v", err, err)
		assert.Equal(t, []string{"properties[spec].type: Required value: must not be empty for specified object fields"}, messages(fe))
	})
	t.Run("text that is not YAML is an error naming its line", func(t *testing.T) {
		_, err := ParseYAML([]byte("type: object\nproperties: [unclosed\n"))
		require.Error(t, err)
		assert.Contains(t, err.Error(), "schema: the document is not YAML")
		assert.Contains(t, err.Error(), "line")
	})
	t.Run("MustParseYAML panics on a schema Parse refuses", func(t *testing.T) {
		assert.Panics(t, func() { MustParseYAML([]byte("type: object\nproperties: {spec: {properties: {a: {type: string}}}}\n")) })
	})
}
