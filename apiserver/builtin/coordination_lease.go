package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// leaseResource is coordination.k8s.io/v1 leases.
func leaseResource() apiserver.Resource {
	return apiserver.Resource{Group: "coordination.k8s.io", Version: "v1", Kind: "Lease", Plural: "leases", Namespaced: true,
		PrinterColumns: leaseColumns, WithoutGeneration: true, AllowCreateOnUpdate: true, GenericDelete: true, Strategy: leaseStrategy{}}
}

var leaseColumns = []apiserver.PrinterColumn{
	column("Holder", "string", propertyDoc("io.k8s.api.coordination.v1.LeaseSpec", "holderIdentity"), 0,
		func(o meta.Object, _ time.Time) any { return str(o, "spec", "holderIdentity") }),
	apiserver.AgeColumn(),
}
