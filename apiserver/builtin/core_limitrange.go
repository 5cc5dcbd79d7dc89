package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// limitRangeResource is core/v1 limitranges (kube prints them with the
// default "Created At" column).
func limitRangeResource() apiserver.Resource {
	return apiserver.Resource{Version: "v1", Kind: "LimitRange", Plural: "limitranges", Namespaced: true,
		ShortNames: []string{"limits"}, WithoutGeneration: true, GenericDelete: true, Strategy: limitRangeStrategy{}}
}

// limitRangeStrategy is what a LimitRange does differently.
type limitRangeStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_LimitRangeItem: a Container limit defaults
// its default limit to max, and its default request to the default limit,
// else to min.
func (limitRangeStrategy) Default(o meta.Object) {
	for _, l := range meta.AsList(field(o, "spec", "limits")) {
		item, _ := l.(map[string]any)
		if item["type"] != "Container" {
			continue
		}
		def, req := obj(item, "default"), obj(item, "defaultRequest")
		for _, from := range []struct {
			src, dst map[string]any
		}{{asMap(item["max"]), def}, {def, req}, {asMap(item["min"]), req}} {
			for k, v := range from.src {
				setDefault(from.dst, k, v)
			}
		}
		dropEmptyMaps(item, "default", "defaultRequest") // omitempty
	}
}

// dropEmptyMaps removes the named fields holding empty maps, as omitempty
// drops them.
func dropEmptyMaps(m map[string]any, fields ...string) {
	for _, f := range fields {
		if v, ok := m[f].(map[string]any); ok && len(v) == 0 {
			delete(m, f)
		}
	}
}
