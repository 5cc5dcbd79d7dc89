package builtin

import (
	"fmt"

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
		conditions := asList(field(o, "status", "conditions"))
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
		populateConditionTimestamps(asList(status["conditions"]), old, w)
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
	next := asList(status["conditions"])
	olds := asList(field(old, "status", "conditions"))
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
			for _, oc := range asList(field(old, "status", "conditions")) {
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

// validateCSRConditions is kube's validateConditions: Approved and Denied
// exclusive and True, Failed True, each type once.
func validateCSRConditions(o meta.Object) meta.FieldErrors {
	var e fieldErrs
	seen := map[string]bool{}
	approved, denied := false, false
	for i, c := range asList(field(o, "status", "conditions")) {
		cond := asMap(c)
		p := fmt.Sprintf("status.conditions[%d]", i)
		typ, _ := cond["type"].(string)
		if typ == "" {
			e.required(p + ".type")
		}
		status, _ := cond["status"].(string)
		switch typ {
		case "Approved":
			approved = true
			if denied {
				e.invalid(p+".type", typ, "Approved and Denied conditions are mutually exclusive")
			}
			if status != "True" {
				e.notSupported(p+".status", status, "True")
			}
		case "Denied":
			denied = true
			if approved {
				e.invalid(p+".type", typ, "Approved and Denied conditions are mutually exclusive")
			}
			if status != "True" {
				e.notSupported(p+".status", status, "True")
			}
		case "Failed":
			if status != "True" {
				e.notSupported(p+".status", status, "True")
			}
		default:
			e.enumOrNotSupported(p+".status", status, "False", "True", "Unknown")
		}
		if seen[typ] {
			e.duplicate(p+".type", typ)
		}
		seen[typ] = true
	}
	return e.list
}

// validateCSRUpdate: an update keeps the Approved and Denied conditions it
// had, and its conditions valid.
func validateCSRUpdate(o, old meta.Object) meta.FieldErrors {
	var e fieldErrs
	count := func(x meta.Object, typ string) int {
		n := 0
		for _, c := range asList(field(x, "status", "conditions")) {
			if asMap(c)["type"] == typ {
				n++
			}
		}
		return n
	}
	for _, typ := range []string{"Approved", "Denied"} {
		if count(o, typ) < count(old, typ) {
			e.forbidden("status.conditions", fmt.Sprintf("updates may not remove a condition of type %q", typ))
		}
	}
	return append(validateCSRConditions(o), e.list...)
}

// enumOrNotSupported is enum for a value that must be set.
func (e *fieldErrs) enumOrNotSupported(path, v string, supported ...string) {
	if v == "" {
		e.required(path)
		return
	}
	e.enum(path, v, supported...)
}
