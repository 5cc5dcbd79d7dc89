package builtin

import (
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// resourceClaimResource is resource.k8s.io/v1 resourceclaims (since 1.34).
func resourceClaimResource() apiserver.Resource {
	return apiserver.Resource{ReturnDeletedObject: true, Group: "resource.k8s.io", Version: "v1", Kind: "ResourceClaim", Plural: "resourceclaims",
		Namespaced: true, StatusSubresource: true, WithoutGeneration: true, PrinterColumns: resourceClaimColumns,
		GenericDelete: true, Strategy: resourceClaimStrategy{}}
}

// resourceClaimStrategy is what a ResourceClaim does differently.
type resourceClaimStrategy struct{ apiserver.GenericStrategy }

// Default mirrors the defaults of a claim's device requests.
func (resourceClaimStrategy) Default(o meta.Object) {
	if spec, ok := o["spec"].(map[string]any); ok {
		defaultDeviceClaim(spec)
	}
}

// defaultDeviceClaim mirrors SetDefaults_ExactDeviceRequest and
// SetDefaults_DeviceSubRequest on the requests of a ResourceClaimSpec: a
// request for an exact count of devices, by default one.
func defaultDeviceClaim(spec map[string]any) {
	devices, _ := spec["devices"].(map[string]any)
	for _, r := range meta.AsList(devices["requests"]) {
		req := asMap(r)
		if exactly, ok := req["exactly"].(map[string]any); ok {
			defaultDeviceCount(exactly)
		}
		for _, sub := range meta.AsList(req["firstAvailable"]) {
			if sub, ok := sub.(map[string]any); ok {
				defaultDeviceCount(sub)
			}
		}
	}
}

// defaultDeviceCount: allocationMode ExactCount, and then a count of one
// when it is unset or zero.
func defaultDeviceCount(req map[string]any) {
	if mode, _ := req["allocationMode"].(string); mode == "" {
		req["allocationMode"] = "ExactCount"
	}
	if req["allocationMode"] != "ExactCount" {
		return
	}
	if n, ok := meta.AsInt64(req["count"]); !ok || n == 0 {
		req["count"] = int64(1)
	}
}

var resourceClaimColumns = []apiserver.PrinterColumn{
	column("State", "string", "A summary of the current state (allocated, pending, reserved, etc.).", 0,
		func(o meta.Object, now time.Time) any { return resourceClaimState(o) }),
	apiserver.AgeColumn(),
}

// resourceClaimState is kube's summary of a claim: deleted, pending
// (nothing allocated), allocated, reserved (allocated and in use).
func resourceClaimState(o meta.Object) string {
	var states []string
	deleted := o.DeletionTimestamp() != ""
	if deleted {
		states = append(states, "deleted")
	}
	if field(o, "status", "allocation") == nil {
		if !deleted {
			states = append(states, "pending")
		}
	} else {
		states = append(states, "allocated")
		if count(field(o, "status", "reservedFor")) > 0 {
			states = append(states, "reserved")
		}
	}
	return strings.Join(states, ",")
}
