package builtin

import (
	"net/http"
	"net/url"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
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

// AfterWrite marks a local APIService (one without spec.service, served
// by the server itself) available, as kube-apiserver's availability
// controller does once it sees it: a status update of its own, after the
// write it follows, which is answered as it was stored. A status already
// Available with reason Local is left as it is.
func (apiServiceStrategy) AfterWrite(w *apiserver.Write, stored *store.Object) (*store.Object, error) {
	o := stored.Data()
	if _, remote := field(o, "spec", "service").(map[string]any); remote || o.DeletionTimestamp() != "" {
		return stored, nil
	}
	for _, c := range meta.AsList(field(o, "status", "conditions")) {
		if m := asMap(c); m["type"] == "Available" && m["status"] == "True" && m["reason"] == "Local" {
			return stored, nil
		}
	}
	next := o.DeepCopy()
	status := obj(next, "status")
	var conds []any
	for _, c := range meta.AsList(status["conditions"]) {
		if asMap(c)["type"] != "Available" {
			conds = append(conds, c)
		}
	}
	status["conditions"] = append(conds, map[string]any{"type": "Available", "status": "True",
		"lastTransitionTime": meta.FormatTime(w.Now), "reason": "Local", "message": "Local APIServices are always available"})
	// A concurrent write wins: its own AfterWrite marks it.
	_, _, _ = w.Do(http.MethodPut, "/apis/apiregistration.k8s.io/v1/apiservices/"+url.PathEscape(o.Name())+"/status", next)
	return stored, nil
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
			for _, c := range meta.AsList(field(o, "status", "conditions")) {
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
