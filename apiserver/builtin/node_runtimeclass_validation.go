package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// runtimeClassStrategy is what a RuntimeClass does differently: kube's
// ValidateRuntimeClass (a DNS-label handler that never changes, its
// overhead and scheduling).
type runtimeClassStrategy struct{ apiserver.GenericStrategy }

// Validate is kube's ValidateRuntimeClass.
func (runtimeClassStrategy) Validate(w *apiserver.Write, o meta.Object) meta.FieldErrors {
	e := fieldErrs{release: w.Release()}
	handler, _ := o["handler"].(string)
	if handler == "" && e.release.AtLeast(36) { // 1.36: Required, not the DNS label's message
		e.declarativeRequired("handler")
	} else {
		e.invalidAll("handler", handler, schema.DNS1123Label(handler))
	}
	if overhead, ok := o["overhead"].(map[string]any); ok {
		e.resourceLimits("overhead.limits", asMap(overhead["podFixed"]))
	}
	if sched, ok := o["scheduling"].(map[string]any); ok {
		if sel, ok := sched["nodeSelector"].(map[string]any); ok {
			e.labels("scheduling.nodeSelector", sel)
		}
		// kube before 1.35 names the list twice in these paths.
		path := "scheduling.tolerations.tolerations"
		if e.release.AtLeast(35) {
			path = "scheduling.tolerations"
		}
		e.tolerations(path, meta.AsList(sched["tolerations"]))
	}
	return e.all()
}

// ValidateUpdate validates the new version, then keeps the handler.
func (s runtimeClassStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	e := fieldErrs{list: s.Validate(w, o), release: w.Release()}
	e.declarativeImmutable("handler", o["handler"], old["handler"], o["handler"])
	return e.all()
}

// runtimeClassSchema is RuntimeClass's published schema without the enums
// of its tolerations' operator and effect: kube's validation reports those
// at paths of its own (scheduling.tolerations.tolerations[i]), which the
// schema's errors about the same values would not be dropped for. The
// shared schema is left as is: the nodes on the way are copied.
func runtimeClassSchema(r apiserver.Release) *schema.Schema {
	s := SchemaFor(r, meta.GroupVersionKind{Group: "node.k8s.io", Version: "v1", Kind: "RuntimeClass"})
	if s == nil {
		return nil
	}
	withProperty := func(s *schema.Schema, name string, change func(*schema.Schema) *schema.Schema) *schema.Schema {
		p, ok := s.Properties[name]
		if !ok || p == nil {
			return s
		}
		c := *s
		c.Properties = make(map[string]*schema.Schema, len(s.Properties))
		for k, v := range s.Properties {
			c.Properties[k] = v
		}
		c.Properties[name] = change(p)
		return &c
	}
	noEnum := func(s *schema.Schema) *schema.Schema { c := *s; c.Enum = nil; return &c }
	return withProperty(s, "scheduling", func(sched *schema.Schema) *schema.Schema {
		return withProperty(sched, "tolerations", func(list *schema.Schema) *schema.Schema {
			if list.Items == nil {
				return list
			}
			c := *list
			items := withProperty(withProperty(list.Items, "operator", noEnum), "effect", noEnum)
			c.Items = items
			return &c
		})
	})
}
