package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// apiServiceResource is apiregistration.k8s.io/v1 apiservices: the served
// group versions of the aggregation layer. kube refuses an update without a
// resourceVersion (ConditionalUpdates).
func apiServiceResource() apiserver.Resource {
	return apiserver.Resource{Group: "apiregistration.k8s.io", Version: "v1", Kind: "APIService", Plural: "apiservices",
		Categories: []string{"api-extensions"}, StatusSubresource: true, WithoutGeneration: true,
		PrinterColumns: apiServiceColumns, GenericDelete: true, ConditionalUpdates: true, Strategy: apiServiceStrategy{}, Scheme: "kube-aggregator"}
}

// apiServiceStrategy is what an APIService does differently.
type apiServiceStrategy struct{ apiserver.GenericStrategy }

// Default gives a referenced service kube's port 443.
func (apiServiceStrategy) Default(o meta.Object) {
	if svc, ok := field(o, "spec", "service").(map[string]any); ok {
		setDefault(svc, "port", int64(443))
	}
}

// PrepareForCreate starts an APIService with an empty status.
func (apiServiceStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	o["status"] = map[string]any{}
}

var apiServiceColumns = []apiserver.PrinterColumn{
	column("Service", "string", "The reference to the service that hosts this API endpoint.", 0,
		func(o meta.Object, now time.Time) any {
			if svc, ok := field(o, "spec", "service").(map[string]any); ok {
				return stringOr(svc["namespace"], "") + "/" + stringOr(svc["name"], "")
			}
			return "Local"
		}),
	column("Available", "string", "Whether this service is available.", 0,
		func(o meta.Object, now time.Time) any {
			for _, c := range asList(field(o, "status", "conditions")) {
				m, _ := c.(map[string]any)
				if m["type"] == "Available" {
					status := stringOr(m["status"], "")
					if status != "True" {
						if r := stringOr(m["reason"], ""); r != "" {
							return status + " (" + r + ")"
						}
					}
					return status
				}
			}
			return "Unknown"
		}),
	apiserver.AgeColumn(),
}
