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
		Namespaced: true, StatusSubresource: true, WithoutGeneration: true, PrinterColumns: resourceClaimColumns}
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
