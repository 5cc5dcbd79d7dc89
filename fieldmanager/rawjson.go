package fieldmanager

import "github.com/kapi-dev/kapi/meta"

// plain is o with each member a stored version keeps as the bytes a client
// sent (meta.RawJSON, a ControllerRevision's data) replaced by its decoded
// value, which is what structured-merge-diff and the comparison walk read:
// o itself when it has none, else a shallow copy.
func plain(o map[string]any) map[string]any {
	var out map[string]any
	for k, v := range o {
		r, ok := v.(meta.RawJSON)
		if !ok {
			continue
		}
		if out == nil {
			out = make(map[string]any, len(o))
			for k2, v2 := range o {
				out[k2] = v2
			}
		}
		out[k] = r.Value
	}
	if out == nil {
		return o
	}
	return out
}
