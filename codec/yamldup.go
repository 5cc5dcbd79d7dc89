package codec

import (
	"fmt"

	yamlv2 "go.yaml.in/yaml/v2"
)

// yamlDuplicates lists the dotted paths of mapping keys given more than
// once in a YAML document. It is only called once a strict conversion has
// failed, so the common case pays nothing.
func yamlDuplicates(data []byte) []string {
	var doc yamlv2.MapSlice
	if err := yamlv2.Unmarshal(data, &doc); err != nil {
		return nil
	}
	var out []string
	walkYAMLDuplicates(doc, nil, &out)
	return out
}

func walkYAMLDuplicates(v any, path []string, out *[]string) {
	switch v := v.(type) {
	case yamlv2.MapSlice:
		seen := make(map[string]bool, len(v))
		for _, item := range v {
			key := fmt.Sprint(item.Key)
			p := append(path[:len(path):len(path)], key)
			if seen[key] {
				*out = append(*out, joinPath(p))
			}
			seen[key] = true
			walkYAMLDuplicates(item.Value, p, out)
		}
	case []any:
		for _, e := range v {
			walkYAMLDuplicates(e, path, out)
		}
	}
}
