package builtin

import (
	"fmt"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// NameErrors: an APIService's name is a path segment (Validate requires
// it to be version.group).
func (apiServiceStrategy) NameErrors(name string) []string {
	return schema.PathSegmentName(name, false)
}

// Validate is kube-aggregator's ValidateAPIService, in its order.
func (apiServiceStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	var e fieldErrs
	spec := asMap(o["spec"])
	group, _ := spec["group"].(string)
	version, _ := spec["version"].(string)
	if name := o.Name(); name != "" && len(schema.PathSegmentName(name, false)) == 0 && name != version+"."+group {
		e.invalid("metadata.name", name, fmt.Sprintf("must be `spec.version+\".\"+spec.group`: %q", version+"."+group))
	}
	if group == "" && version != "v1" {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: "spec.group",
			Detail: "only v1 may have an empty group and it better be legacy kube"})
	}
	if group != "" {
		e.invalidAll("spec.group", group, schema.DNS1123Subdomain(group))
	}
	e.invalidAll("spec.version", version, schema.DNS1035Label(version))
	if n, _ := meta.AsInt64(spec["groupPriorityMinimum"]); n <= 0 || n > 20000 {
		e.invalid("spec.groupPriorityMinimum", n, "must be positive and less than 20000")
	}
	if n, _ := meta.AsInt64(spec["versionPriority"]); n <= 0 || n > 1000 {
		e.invalid("spec.versionPriority", n, "must be positive and less than 1000")
	}
	caBundle := decodedBytes(spec["caBundle"])
	insecure := spec["insecureSkipTLSVerify"] == true
	svc, hasService := spec["service"].(map[string]any)
	if !hasService {
		if len(caBundle) != 0 {
			e.invalid("spec.caBundle", fmt.Sprintf("%d bytes", len(caBundle)), "local APIServices may not have a caBundle")
		}
		if insecure {
			e.invalid("spec.insecureSkipTLSVerify", true, "local APIServices may not have insecureSkipTLSVerify")
		}
		return e.list
	}
	if ns, _ := svc["namespace"].(string); ns == "" {
		e.required("spec.service.namespace")
	}
	if name, _ := svc["name"].(string); name == "" {
		e.required("spec.service.name")
	}
	if insecure && len(caBundle) > 0 {
		e.invalid("spec.insecureSkipTLSVerify", true, "may not be true if caBundle is present")
	}
	return e.list
}

// ValidateUpdate validates the next version as on create; a write to
// /status checks the conditions' statuses.
func (s apiServiceStrategy) ValidateUpdate(w *apiserver.Write, o, _ meta.Object) meta.FieldErrors {
	if w.Subresource == "status" {
		var e fieldErrs
		for i, c := range meta.AsList(field(o, "status", "conditions")) {
			status, _ := asMap(c)["status"].(string)
			if status != "True" && status != "False" && status != "Unknown" {
				e.notSupported(fmt.Sprintf("status.conditions[%d].status", i), status, "True", "False", "Unknown")
			}
		}
		return e.list
	}
	return s.Validate(w, o)
}
