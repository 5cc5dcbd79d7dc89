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
	column("Type", "string", "`type` indicates whether this priority level is subject to limitation on request execution.  A value of `\"Exempt\"` means that requests of this priority level are not subject to a limit (and thus are never queued) and do not detract from the capacity made available to other priority levels.  A value of `\"Limited\"` means that (a) requests of this priority level _are_ subject to limits and (b) some of the server's limited capacity is made available exclusively to this priority level. Required.", 0,
		func(o meta.Object, now time.Time) any { return str(o, "spec", "type") }),
	column("NominalConcurrencyShares", "string", "`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level. This is the number of execution seats available at this priority level. This is used both for requests dispatched from this priority level as well as requests dispatched from other priority levels borrowing seats from this level. The server's concurrency limit (ServerCL) is divided among the Limited priority levels in proportion to their NCS values:\n\nNominalCL(i)  = ceil( ServerCL * NCS(i) / sum_ncs ) sum_ncs = sum[priority level k] NCS(k)\n\nBigger numbers mean a larger nominal concurrency limit, at the expense of every other priority level.\n\nIf not specified, this field defaults to a value of 30.\n\nSetting this field to zero supports the construction of a \"jail\" for this priority level that is used to hold some request(s)", 0,
		func(o meta.Object, now time.Time) any { return limitedField(o, "nominalConcurrencyShares") }),
	column("Queues", "string", "`queues` is the number of queues for this priority level. The queues exist independently at each apiserver. The value must be positive.  Setting it to 1 effectively precludes shufflesharding and thus makes the distinguisher method of associated flow schemas irrelevant.  This field has a default value of 64.", 0,
		func(o meta.Object, now time.Time) any { return limitedField(o, "limitResponse", "queuing", "queues") }),
	column("HandSize", "string", "`handSize` is a small positive number that configures the shuffle sharding of requests into queues.  When enqueuing a request at this priority level the request's flow identifier (a string pair) is hashed and the hash value is used to shuffle the list of queues and deal a hand of the size specified here.  The request is put into one of the shortest queues in that hand. `handSize` must be no larger than `queues`, and should be significantly smaller (so that a few heavy flows do not saturate most of the queues).  See the user-facing documentation for more extensive guidance on setting this field.  This field has a default value of 8.", 0,
		func(o meta.Object, now time.Time) any { return limitedField(o, "limitResponse", "queuing", "handSize") }),
	column("QueueLengthLimit", "string", "`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time; excess requests are rejected.  This value must be positive.  If not specified, it will be defaulted to 50.", 0,
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
