package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// What each endpoint of a CertificateSigningRequest may change, as kube's
// CSR strategies (pkg/registry/certificates/certificates/strategy.go): the
// object itself nothing of its spec or status, /status its status but the
// Approved and Denied conditions, /approval its conditions only (kubectl
// certificate approve). The kind's strategy calls these.

// prepareCSRUpdate is kube's PrepareForUpdate of the three strategies.
func prepareCSRUpdate(w *apiserver.Write, o, old meta.Object) meta.Object {
	switch w.Subresource {
	case "approval":
		conditions := meta.AsList(field(o, "status", "conditions"))
		populateConditionTimestamps(conditions, old, w)
		keepField(o, old, "spec")
		keepField(o, old, "status")
		status := obj(o, "status")
		if len(conditions) > 0 {
			status["conditions"] = conditions
		} else {
			delete(status, "conditions")
		}
	case "status":
		keepField(o, old, "spec")
		status := obj(o, "status")
		for _, typ := range []string{"Approved", "Denied"} {
			preserveConditions(status, old, typ)
		}
		populateConditionTimestamps(meta.AsList(status["conditions"]), old, w)
	default:
		keepField(o, old, "spec")
		keepField(o, old, "status")
	}
	return o
}

// keepField sets o[key] to a copy of old's (absent when old has none).
func keepField(o, old meta.Object, key string) {
	if v, ok := old[key]; ok {
		o[key] = meta.DeepCopyValue(v)
	} else {
		delete(o, key)
	}
}

// preserveConditions is kube's preserveConditionInstances: a status write
// keeps the stored conditions of typ when it has as many.
func preserveConditions(status map[string]any, old meta.Object, typ string) {
	next := meta.AsList(status["conditions"])
	olds := meta.AsList(field(old, "status", "conditions"))
	var ni, oi []int
	for i, c := range next {
		if asMap(c)["type"] == typ {
			ni = append(ni, i)
		}
	}
	for i, c := range olds {
		if asMap(c)["type"] == typ {
			oi = append(oi, i)
		}
	}
	if len(ni) != len(oi) {
		return
	}
	for k, i := range oi {
		next[ni[k]] = meta.DeepCopyValue(olds[i])
	}
}

// populateConditionTimestamps is kube's: conditions without times get now,
// a transition time kept from a stored condition of the same type and
// status.
func populateConditionTimestamps(conditions []any, old meta.Object, w *apiserver.Write) {
	now := meta.FormatTime(w.Now)
	for _, c := range conditions {
		cond := asMap(c)
		if cond == nil {
			continue
		}
		if s, _ := cond["lastUpdateTime"].(string); s == "" {
			cond["lastUpdateTime"] = now
		}
		if s, _ := cond["lastTransitionTime"].(string); s == "" {
			cond["lastTransitionTime"] = now
			for _, oc := range meta.AsList(field(old, "status", "conditions")) {
				prev := asMap(oc)
				if prev["type"] == cond["type"] && prev["status"] == cond["status"] {
					if t, _ := prev["lastTransitionTime"].(string); t != "" {
						cond["lastTransitionTime"] = t
						break
					}
				}
			}
		}
	}
}
