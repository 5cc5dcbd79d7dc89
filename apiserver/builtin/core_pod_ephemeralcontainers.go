package builtin

import (
	"fmt"
	"reflect"

	"github.com/kapi-dev/kapi/meta"
)

// prepareEphemeralContainersUpdate is kube's ephemeral containers
// strategy: a write to pods/ephemeralcontainers changes nothing but
// spec.ephemeralContainers (defaulted as containers are).
func prepareEphemeralContainersUpdate(o, old meta.Object) meta.Object {
	next := old.DeepCopy()
	list := meta.AsList(field(o, "spec", "ephemeralContainers"))
	for _, c := range list {
		if m, ok := c.(map[string]any); ok {
			defaultContainer(m)
		}
	}
	if len(list) > 0 {
		obj(next, "spec")["ephemeralContainers"] = list
	} else {
		delete(obj(next, "spec"), "ephemeralContainers")
	}
	next.SetMetadataField("resourceVersion", o.ResourceVersion())
	return next
}

// validateEphemeralContainersUpdate: ephemeral containers are only added,
// with names no other container of the pod has.
func validateEphemeralContainersUpdate(o, old meta.Object) meta.FieldErrors {
	var errs meta.FieldErrors
	byName := map[string]map[string]any{}
	for _, c := range meta.AsList(field(o, "spec", "ephemeralContainers")) {
		m := asMap(c)
		n, _ := m["name"].(string)
		byName[n] = m
	}
	for _, c := range meta.AsList(field(old, "spec", "ephemeralContainers")) {
		m := asMap(c)
		n, _ := m["name"].(string)
		cur, ok := byName[n]
		switch {
		case !ok:
			errs = append(errs, meta.FieldError{Type: meta.ErrorForbidden, Field: "spec.ephemeralContainers",
				Detail: fmt.Sprintf("existing ephemeral containers %q may not be removed\n", n)})
		case !reflect.DeepEqual(cur, m):
			errs = append(errs, meta.FieldError{Type: meta.ErrorForbidden, Field: "spec.ephemeralContainers",
				Detail: fmt.Sprintf("existing ephemeral containers %q may not be changed", n)})
		}
	}
	seen := map[string]bool{}
	for _, key := range []string{"initContainers", "containers"} {
		for _, c := range meta.AsList(field(o, "spec", key)) {
			n, _ := asMap(c)["name"].(string)
			seen[n] = true
		}
	}
	for i, c := range meta.AsList(field(o, "spec", "ephemeralContainers")) {
		m := asMap(c)
		n, _ := m["name"].(string)
		path := fmt.Sprintf("spec.ephemeralContainers[%d]", i)
		switch {
		case n == "":
			errs = append(errs, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".name"})
		case seen[n]:
			errs = append(errs, meta.FieldError{Type: meta.ErrorDuplicate, Field: path + ".name", Value: n})
		}
		seen[n] = true
		if s, _ := m["image"].(string); s == "" {
			errs = append(errs, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".image"})
		}
	}
	return errs
}
