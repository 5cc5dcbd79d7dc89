package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/flowcontrol"
	"github.com/kapi-dev/kapi/meta"
)

// flowSchemaResource is flowcontrol.apiserver.k8s.io/v1 flowschemas, the
// API Priority and Fairness configuration that classifies requests
// (package flowcontrol enforces it when apiserver.Config.FlowControl is
// set): its Tables list schemas in matching order, as kubectl shows them.
func flowSchemaResource() apiserver.Resource {
	return apiserver.Resource{Group: flowcontrol.Group, Version: "v1", Kind: "FlowSchema", Plural: "flowschemas",
		StatusSubresource: true, PrinterColumns: flowSchemaColumns, TableOrder: flowcontrol.CompareFlowSchemas,
		GenericDelete: true, Strategy: flowSchemaStrategy{},
		ResetFields: map[string][]string{"": {"status"}, "status": {"metadata", "spec"}}}
}

// flowSchemaStrategy is what a FlowSchema does differently: kube's
// defaults and validation (package flowcontrol's, in either served
// version), an empty status on create, and a /status write that changes
// the status only.
type flowSchemaStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_FlowSchemaSpec: precedence 1000.
func (flowSchemaStrategy) Default(o meta.Object) { flowcontrol.DefaultFlowSchema(o) }

// Validate is kube's ValidateFlowSchema, with its messages.
func (flowSchemaStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	return flowcontrol.ValidateFlowSchema(o)
}

// ValidateUpdate validates the whole schema, or through /status only its
// status, as kube's status strategy does.
func (flowSchemaStrategy) ValidateUpdate(w *apiserver.Write, o, _ meta.Object) meta.FieldErrors {
	if w.Subresource == "status" {
		return flowcontrol.ValidateFlowSchemaStatus(o)
	}
	return flowcontrol.ValidateFlowSchema(o)
}

// PrepareForCreate starts a flow schema with an empty status.
func (flowSchemaStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	o["status"] = map[string]any{}
}

var flowSchemaColumns = []apiserver.PrinterColumn{
	column("PriorityLevel", "string", propertyDoc("io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationReference", "name"), 0,
		func(o meta.Object, now time.Time) any { return str(o, "spec", "priorityLevelConfiguration", "name") }),
	column("MatchingPrecedence", "string", propertyDoc("io.k8s.api.flowcontrol.v1.FlowSchemaSpec", "matchingPrecedence"), 0,
		func(o meta.Object, now time.Time) any { return integer(o, "spec", "matchingPrecedence") }),
	column("DistinguisherMethod", "string", propertyDoc("io.k8s.api.flowcontrol.v1.FlowSchemaSpec", "distinguisherMethod"), 0,
		func(o meta.Object, now time.Time) any {
			return stringOr(field(o, "spec", "distinguisherMethod", "type"), "<none>")
		}),
	apiserver.AgeColumn(),
	column("MissingPL", "string", "references a broken or non-existent PriorityLevelConfiguration", 0,
		func(o meta.Object, now time.Time) any {
			for _, c := range meta.AsList(field(o, "status", "conditions")) {
				if m, _ := c.(map[string]any); m["type"] == flowcontrol.FlowSchemaConditionDangling {
					return stringOr(m["status"], "")
				}
			}
			return "?"
		}),
}

// PrepareForUpdate: a write to /status keeps the stored metadata, as
// kube's status strategy does, and the stored spec.
func (flowSchemaStrategy) PrepareForUpdate(w *apiserver.Write, o, old meta.Object) meta.Object {
	o = apiserver.PrepareStatusUpdate(w, o, old)
	if w.Subresource == "status" {
		keepStatusOnlyMetadata(o, old)
	}
	return o
}
