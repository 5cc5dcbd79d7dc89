package builtin

import (
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// controllerRevisionResource is apps/v1 controllerrevisions.
func controllerRevisionResource() apiserver.Resource {
	return apiserver.Resource{Group: "apps", Version: "v1", Kind: "ControllerRevision", Plural: "controllerrevisions",
		Namespaced: true, WithoutGeneration: true, PrinterColumns: controllerRevisionColumns, AsSent: []string{"data"},
		GenericDelete: true, Strategy: controllerRevisionStrategy{}}
}

var controllerRevisionColumns = []apiserver.PrinterColumn{
	column("Controller", "string", "Controller of the object", 0, func(o meta.Object, _ time.Time) any {
		for _, r := range meta.AsList(field(o, "metadata", "ownerReferences")) {
			ref, _ := r.(map[string]any)
			if ref["controller"] != true {
				continue
			}
			apiVersion, _ := ref["apiVersion"].(string)
			kind, _ := ref["kind"].(string)
			name, _ := ref["name"].(string)
			group := ""
			if i := strings.Index(apiVersion, "/"); i >= 0 {
				group = apiVersion[:i]
			}
			if kind == "" && group == "" {
				return name
			}
			gk := kind
			if group != "" {
				gk += "." + group
			}
			return strings.ToLower(gk) + "/" + name
		}
		return "<none>"
	}),
	column("Revision", "string", sinceRelease(36, "revision indicates the revision of the state represented by Data.",
		propertyDoc("io.k8s.api.apps.v1.ControllerRevision", "revision")), 0,
		func(o meta.Object, _ time.Time) any { return integer(o, "revision") }),
	apiserver.AgeColumn(),
}
