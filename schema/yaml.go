package schema

import (
	"bytes"
	"encoding/json"
	"fmt"

	"sigs.k8s.io/yaml"
)

// ParseYAML is [Parse] for a schema written as text, in YAML or JSON, as an
// openAPIV3Schema stands in a CRD manifest:
//
//	s, err := schema.ParseYAML([]byte(`
//	type: object
//	properties:
//	  spec:
//	    type: object
//	    properties:
//	      replicas: {type: integer, minimum: 0}
//	`))
//
// A document that is not YAML is an error naming the line; the schema is
// then checked as [Parse] checks it.
func ParseYAML(doc []byte) (*Schema, error) {
	v, err := decodeYAML(doc)
	if err != nil {
		return nil, err
	}
	return Parse(v)
}

// MustParseYAML is [ParseYAML] for schemas known to be valid; it panics on
// error.
func MustParseYAML(doc []byte) *Schema {
	s, err := ParseYAML(doc)
	if err != nil {
		panic(err)
	}
	return s
}

// decodeYAML decodes a YAML or JSON document into kapi's object model (the
// one objects are decoded into): maps, []any, string, bool, int64 for the
// integers that fit it, float64 for other numbers, nil.
func decodeYAML(doc []byte) (any, error) {
	data, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return nil, fmt.Errorf("schema: the document is not YAML: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	return objectModel(v), nil
}

func objectModel(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = objectModel(e)
		}
	case []any:
		for i, e := range v {
			v[i] = objectModel(e)
		}
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		f, _ := v.Float64() // YAMLToJSON wrote it: a valid JSON number
		return f
	}
	return v
}
