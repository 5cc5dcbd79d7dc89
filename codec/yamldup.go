package codec

import (
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
