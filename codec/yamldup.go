package codec

import (
	"errors"
	"fmt"

	yamlv2 "go.yaml.in/yaml/v2"
)

// yamlDuplicates lists the dotted paths of mapping keys given more than
// once in a YAML document. It is only called once a strict conversion has
// failed, so the common case pays nothing.
func yamlDuplicates(data []byte) []Field {
	var doc yamlv2.MapSlice
	if err := yamlv2.Unmarshal(data, &doc); err != nil {
		return nil
	}
	var out []Field
	walkYAMLDuplicates(doc, nil, &out)
	return out
}

func walkYAMLDuplicates(v any, path []pathElem, out *[]Field) {
	switch v := v.(type) {
	case yamlv2.MapSlice:
		seen := make(map[string]bool, len(v))
		for _, item := range v {
			key := fmt.Sprint(item.Key)
			p := append(path[:len(path):len(path)], pathElem{key: key})
			if seen[key] {
				*out = append(*out, Field{Path: joinPath(p), Offset: -1})
			}
			seen[key] = true
			walkYAMLDuplicates(item.Value, p, out)
		}
	case []any:
		for i, e := range v {
			walkYAMLDuplicates(e, append(path[:len(path):len(path)], pathElem{index: i, isIndex: true}), out)
		}
	}
}

// YAMLStrictErrors returns what strict YAML decoding finds wrong in data,
// one message per problem as go-yaml words them ("line 5: key \"kind\"
// already set in map"), and the error kube answers for them under
// fieldValidation=Strict (both nil when data decodes strictly). kube
// checks a server-side apply body so, after applying it.
func YAMLStrictErrors(data []byte) ([]string, error) {
	var m map[string]any
	err := yamlv2.UnmarshalStrict(data, &m)
	if err == nil {
		return nil, nil
	}
	var typeErr *yamlv2.TypeError
	if errors.As(err, &typeErr) {
		return typeErr.Errors, fmt.Errorf("error converting YAML to JSON: %w", err)
	}
	return []string{err.Error()}, fmt.Errorf("error converting YAML to JSON: %w", err)
}
