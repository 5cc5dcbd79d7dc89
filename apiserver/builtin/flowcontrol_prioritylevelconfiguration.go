package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/flowcontrol"
	"github.com/kapi-dev/kapi/meta"
)

// priorityLevelConfigurationResource is flowcontrol.apiserver.k8s.io/v1
// prioritylevelconfigurations, the API Priority and Fairness levels
// (package flowcontrol enforces them when apiserver.Config.FlowControl is
// set).
func priorityLevelConfigurationResource() apiserver.Resource {
	return apiserver.Resource{Group: flowcontrol.Group, Version: "v1", Kind: "PriorityLevelConfiguration",
		Plural: "prioritylevelconfigurations", StatusSubresource: true, PrinterColumns: priorityLevelColumns,
		GenericDelete: true, Strategy: priorityLevelStrategy{},
		ResetFields: map[string][]string{"": {"status"}, "status": {"metadata", "spec"}}}
}

// priorityLevelStrategy is what a PriorityLevelConfiguration does
// differently: kube's defaults and validation (package flowcontrol's, in
// either served version), an empty status on create, and a /status write
// that changes the status only.
type priorityLevelStrategy struct{ apiserver.GenericStrategy }

// Default mirrors the flowcontrol defaults of the object's version: 30
// nominal shares (v1: when unset; v1beta3: when 0 without the
// zero-shares annotation) and none lendable for a limited level (0 for an
// exempt one), 64 queues of 50 requests dealt in hands of 8.
func (priorityLevelStrategy) Default(o meta.Object) { flowcontrol.DefaultPriorityLevel(o) }

// Validate is kube's ValidatePriorityLevelConfiguration, with its
// messages (the mandatory levels' fixed specs included), of the object as
// stored: kube validates its internal form, which a v1beta3 request
// reaches without the zero-shares annotation (forbidden in v1).
func (priorityLevelStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	return flowcontrol.ValidatePriorityLevel(flowcontrol.ConvertToV1(o))
}

// ValidateUpdate validates the whole level, or through /status only its
// status, as kube's status strategy does.
func (priorityLevelStrategy) ValidateUpdate(w *apiserver.Write, o, _ meta.Object) meta.FieldErrors {
	if w.Subresource == "status" {
		return flowcontrol.ValidatePriorityLevelStatus(o)
	}
	return flowcontrol.ValidatePriorityLevel(flowcontrol.ConvertToV1(o))
}

// PrepareForCreate starts a priority level with an empty status.
func (priorityLevelStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	o["status"] = map[string]any{}
}

// limitedField is a field of a limited level's settings, "<none>" when
// the level (or its queuing) does not have one.
func limitedField(o meta.Object, path ...string) any {
	if _, ok := field(o, "spec", "limited").(map[string]any); !ok {
		return "<none>"
	}
	v := field(o, append([]string{"spec", "limited"}, path...)...)
	if v == nil {
		if len(path) > 1 {
			return "<none>"
		}
		return int64(0)
	}
	return v
}

var priorityLevelColumns = []apiserver.PrinterColumn{
	column("Type", "string", propertyDoc("io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationSpec", "type"), 0,
		func(o meta.Object, now time.Time) any { return str(o, "spec", "type") }),
	column("NominalConcurrencyShares", "string", propertyDoc("io.k8s.api.flowcontrol.v1.LimitedPriorityLevelConfiguration", "nominalConcurrencyShares"), 0,
		func(o meta.Object, now time.Time) any { return limitedField(o, "nominalConcurrencyShares") }),
	column("Queues", "string", propertyDoc("io.k8s.api.flowcontrol.v1.QueuingConfiguration", "queues"), 0,
		func(o meta.Object, now time.Time) any { return limitedField(o, "limitResponse", "queuing", "queues") }),
	column("HandSize", "string", propertyDoc("io.k8s.api.flowcontrol.v1.QueuingConfiguration", "handSize"), 0,
		func(o meta.Object, now time.Time) any { return limitedField(o, "limitResponse", "queuing", "handSize") }),
	column("QueueLengthLimit", "string", propertyDoc("io.k8s.api.flowcontrol.v1.QueuingConfiguration", "queueLengthLimit"), 0,
		func(o meta.Object, now time.Time) any {
			return limitedField(o, "limitResponse", "queuing", "queueLengthLimit")
		}),
	apiserver.AgeColumn(),
}

// PrepareForUpdate: a write to /status keeps the stored metadata, as
// kube's status strategy does, and the stored spec.
func (priorityLevelStrategy) PrepareForUpdate(w *apiserver.Write, o, old meta.Object) meta.Object {
	o = apiserver.PrepareStatusUpdate(w, o, old)
	if w.Subresource == "status" {
		keepStatusOnlyMetadata(o, old)
	}
	return o
}
