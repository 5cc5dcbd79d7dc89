package builtin

import (
	"github.com/kapi-dev/kapi/meta"
)

// prepareResizeUpdate is kube's pod resize strategy: a write to
// pods/resize changes the containers' resources and resize policies only.
func prepareResizeUpdate(o, old meta.Object) meta.Object {
	next := old.DeepCopy()
	for _, key := range []string{"containers", "initContainers"} {
		news := meta.AsList(field(o, "spec", key))
		for i, c := range meta.AsList(field(next, "spec", key)) {
			if i >= len(news) {
				break
			}
			cur, nc := asMap(c), asMap(news[i])
			if cur["name"] != nc["name"] {
				continue
			}
			for _, f := range []string{"resources", "resizePolicy"} {
				setOrDelete(cur, f, meta.DeepCopyValue(nc[f]))
			}
		}
	}
	next.SetMetadataField("resourceVersion", o.ResourceVersion())
	return next
}
