package builtin

import (
	_ "embed"
	"fmt"
	"maps"
	"reflect"
	"sync"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/flowcontrol"
	"github.com/kapi-dev/kapi/apiserver/openapi"
	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// The API Priority and Fairness kinds, flowcontrol.apiserver.k8s.io/v1
// FlowSchema and PriorityLevelConfiguration, registered here until the
// built-in registrations cover every group: their schemas, strategies
// (package flowcontrol's defaults and validation) and printer columns.

// flowControlSchemasJSON holds kube-apiserver 1.33's OpenAPI v3 component
// schemas of the two kinds, their lists and what they reference (except
// the apimachinery types), extracted from
// shared/kube-openapi/v3/apis_flowcontrol.apiserver.k8s.io_v1.json by
// following $refs from io.k8s.api.flowcontrol.v1.{FlowSchema,
// PriorityLevelConfiguration}{,List} (data, not code).
//
//go:embed flowcontrol_schemas.json
var flowControlSchemasJSON []byte

type flowControlCatalog struct {
	raw    map[string]any // these components only
	parsed map[string]*schema.Schema
}

var loadFlowControl = sync.OnceValue(func() *flowControlCatalog {
	v, err := codec.DecodeJSONValue(flowControlSchemasJSON)
	doc, _ := v.(map[string]any)
	if err != nil || doc == nil {
		panic(fmt.Sprintf("builtin: embedded flowcontrol_schemas.json: %v", err))
	}
	own, _ := doc["schemas"].(map[string]any)
	all := openapi.MetaComponents()
	maps.Copy(all, own)
	parsed, err := schema.ParseComponents(all)
	if err != nil {
		panic("builtin: embedded flowcontrol schemas: " + err.Error())
	}
	return &flowControlCatalog{raw: own, parsed: parsed}
})

// FlowControlResources returns the registrations of
// flowcontrol.apiserver.k8s.io/v1 FlowSchema and PriorityLevelConfiguration
// as kube-apiserver 1.33 serves them: cluster-scoped, with a status
// subresource, kube's defaults, validation and printer columns (flow
// schemas listed in matching order, as kubectl shows them). With v1beta3,
// also the v1beta3 version the seed documents (which kube 1.33 no longer
// serves), over the same v1 storage. Pass FlowControlOpenAPIComponents for
// the OpenAPI documents.
func FlowControlResources(v1beta3 bool) []apiserver.Resource {
	c := loadFlowControl()
	var rs []apiserver.Resource
	for _, version := range []string{"v1", "v1beta3"} {
		if version == "v1beta3" && !v1beta3 {
			break
		}
		conv := &apiserver.Conversion{Versions: []string{"v1beta3"}}
		if version == "v1beta3" {
			conv = &apiserver.Conversion{ToStorage: flowcontrol.StoreAsV1, FromStorage: flowcontrol.ServeAsV1beta3, Versions: []string{"v1"}}
		}
		if !v1beta3 {
			conv = nil
		}
		rs = append(rs,
			apiserver.Resource{Group: flowcontrol.Group, Version: version, Kind: "FlowSchema", Plural: "flowschemas", StatusSubresource: true,
				Strategy:         flowSchemaStrategy{},
				PrinterColumns:   flowSchemaColumns,
				TableOrder:       flowcontrol.CompareFlowSchemas,
				Conversion:       conv,
				Schema:           c.parsed["io.k8s.api.flowcontrol.v1.FlowSchema"],
				OpenAPIComponent: "io.k8s.api.flowcontrol.v1.FlowSchema"},
			apiserver.Resource{Group: flowcontrol.Group, Version: version, Kind: "PriorityLevelConfiguration", Plural: "prioritylevelconfigurations", StatusSubresource: true,
				Strategy:         priorityLevelStrategy{},
				PrinterColumns:   priorityLevelColumns,
				Conversion:       conv,
				Schema:           c.parsed["io.k8s.api.flowcontrol.v1.PriorityLevelConfiguration"],
				OpenAPIComponent: "io.k8s.api.flowcontrol.v1.PriorityLevelConfiguration"})
	}
	return rs
}

// FlowControlOpenAPIComponents returns base (OpenAPIComponents() when nil)
// with the flowcontrol kinds' components added, as a new map; for the
// built-in components the map is built once and shared (never change it).
func FlowControlOpenAPIComponents(base map[string]any) map[string]any {
	if base == nil || sameMap(base, OpenAPIComponents()) {
		return builtinWithFlowControl()
	}
	return withFlowControl(base)
}

var builtinWithFlowControl = sync.OnceValue(func() map[string]any { return withFlowControl(OpenAPIComponents()) })

func withFlowControl(base map[string]any) map[string]any {
	out := maps.Clone(base)
	maps.Copy(out, loadFlowControl().raw)
	return out
}

func sameMap(a, b map[string]any) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// flowControlStrategy is what both kinds do as kube's flowcontrol
// strategies: a write to /status changes the status only (kube keeps the
// stored metadata too, unlike most kinds), and only the status is then
// validated.
type flowControlStrategy struct{ apiserver.GenericStrategy }

func (flowControlStrategy) PrepareForUpdate(w *apiserver.Write, obj, old meta.Object) meta.Object {
	obj = apiserver.PrepareStatusUpdate(w, obj, old)
	if w.Subresource == "status" {
		// The stored metadata, but the managedFields tracked for this write.
		md, _ := meta.DeepCopyValue(old["metadata"]).(map[string]any)
		if md == nil {
			md = map[string]any{}
		}
		if mf, ok := obj.Metadata()["managedFields"]; ok {
			md["managedFields"] = mf
		} else {
			delete(md, "managedFields")
		}
		obj["metadata"] = md
	}
	return obj
}

// flowSchemaStrategy is flowcontrol.apiserver.k8s.io/v1 flowschemas.
type flowSchemaStrategy struct{ flowControlStrategy }

func (flowSchemaStrategy) Default(obj meta.Object) { flowcontrol.DefaultFlowSchema(obj) }

func (flowSchemaStrategy) Validate(w *apiserver.Write, obj meta.Object) meta.FieldErrors {
	return flowcontrol.ValidateFlowSchema(obj)
}

func (flowSchemaStrategy) ValidateUpdate(w *apiserver.Write, obj, _ meta.Object) meta.FieldErrors {
	if w.Subresource == "status" {
		return flowcontrol.ValidateFlowSchemaStatus(obj)
	}
	return flowcontrol.ValidateFlowSchema(obj)
}

// priorityLevelStrategy is flowcontrol.apiserver.k8s.io/v1
// prioritylevelconfigurations.
type priorityLevelStrategy struct{ flowControlStrategy }

func (priorityLevelStrategy) Default(obj meta.Object) { flowcontrol.DefaultPriorityLevel(obj) }

func (priorityLevelStrategy) Validate(w *apiserver.Write, obj meta.Object) meta.FieldErrors {
	return flowcontrol.ValidatePriorityLevel(obj)
}

func (priorityLevelStrategy) ValidateUpdate(w *apiserver.Write, obj, _ meta.Object) meta.FieldErrors {
	if w.Subresource == "status" {
		return flowcontrol.ValidatePriorityLevelStatus(obj)
	}
	return flowcontrol.ValidatePriorityLevel(obj)
}

var flowSchemaColumns = []apiserver.PrinterColumn{
	column("PriorityLevel", "string", "`name` is the name of the priority level configuration being referenced Required.", 0,
		func(o meta.Object, _ time.Time) any { return str(o, "spec", "priorityLevelConfiguration", "name") }),
	column("MatchingPrecedence", "string", "`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default.", 0,
		func(o meta.Object, _ time.Time) any { return integer(o, "spec", "matchingPrecedence") }),
	column("DistinguisherMethod", "string", "`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string.", 0,
		func(o meta.Object, _ time.Time) any {
			if m := str(o, "spec", "distinguisherMethod", "type"); m != "" {
				return m
			}
			return "<none>"
		}),
	apiserver.AgeColumn(),
	column("MissingPL", "string", "references a broken or non-existent PriorityLevelConfiguration", 0,
		func(o meta.Object, _ time.Time) any {
			for _, c := range asList(field(o, "status", "conditions")) {
				if cm, ok := c.(map[string]any); ok && cm["type"] == flowcontrol.FlowSchemaConditionDangling {
					s, _ := cm["status"].(string)
					return s
				}
			}
			return "?"
		}),
}

var priorityLevelColumns = []apiserver.PrinterColumn{
	column("Type", "string", "`type` indicates whether this priority level is subject to limitation on request execution.  A value of `\"Exempt\"` means that requests of this priority level are not subject to a limit (and thus are never queued) and do not detract from the capacity made available to other priority levels.  A value of `\"Limited\"` means that (a) requests of this priority level _are_ subject to limits and (b) some of the server's limited capacity is made available exclusively to this priority level. Required.", 0,
		func(o meta.Object, _ time.Time) any { return str(o, "spec", "type") }),
	column("NominalConcurrencyShares", "string", "`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level. This is the number of execution seats available at this priority level. This is used both for requests dispatched from this priority level as well as requests dispatched from other priority levels borrowing seats from this level. The server's concurrency limit (ServerCL) is divided among the Limited priority levels in proportion to their NCS values:\n\nNominalCL(i)  = ceil( ServerCL * NCS(i) / sum_ncs ) sum_ncs = sum[priority level k] NCS(k)\n\nBigger numbers mean a larger nominal concurrency limit, at the expense of every other priority level.\n\nIf not specified, this field defaults to a value of 30.\n\nSetting this field to zero supports the construction of a \"jail\" for this priority level that is used to hold some request(s)", 0,
		func(o meta.Object, _ time.Time) any { return limitedInt(o, "nominalConcurrencyShares") }),
	column("Queues", "string", "`queues` is the number of queues for this priority level. The queues exist independently at each apiserver. The value must be positive.  Setting it to 1 effectively precludes shufflesharding and thus makes the distinguisher method of associated flow schemas irrelevant.  This field has a default value of 64.", 0,
		func(o meta.Object, _ time.Time) any { return limitedInt(o, "limitResponse", "queuing", "queues") }),
	column("HandSize", "string", "`handSize` is a small positive number that configures the shuffle sharding of requests into queues.  When enqueuing a request at this priority level the request's flow identifier (a string pair) is hashed and the hash value is used to shuffle the list of queues and deal a hand of the size specified here.  The request is put into one of the shortest queues in that hand. `handSize` must be no larger than `queues`, and should be significantly smaller (so that a few heavy flows do not saturate most of the queues).  See the user-facing documentation for more extensive guidance on setting this field.  This field has a default value of 8.", 0,
		func(o meta.Object, _ time.Time) any { return limitedInt(o, "limitResponse", "queuing", "handSize") }),
	column("QueueLengthLimit", "string", "`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time; excess requests are rejected.  This value must be positive.  If not specified, it will be defaulted to 50.", 0,
		func(o meta.Object, _ time.Time) any {
			return limitedInt(o, "limitResponse", "queuing", "queueLengthLimit")
		}),
	apiserver.AgeColumn(),
}

// limitedInt is a field of spec.limited as kube's printer shows it: the
// number, or <none> when the level (or its queuing) has none.
func limitedInt(o meta.Object, path ...string) any {
	v, ok := meta.NestedField(o, append([]string{"spec", "limited"}, path...)...)
	if !ok || v == nil {
		return "<none>"
	}
	if n, ok := meta.AsInt64(v); ok {
		return n
	}
	return "<none>"
}
