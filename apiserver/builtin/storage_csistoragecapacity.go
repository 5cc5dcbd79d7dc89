package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
)

// csiStorageCapacityResource is storage.k8s.io/v1 csistoragecapacities
// (kube prints them with the default "Created At" column).
func csiStorageCapacityResource() apiserver.Resource {
	return apiserver.Resource{Group: "storage.k8s.io", Version: "v1", Kind: "CSIStorageCapacity", Plural: "csistoragecapacities",
		Namespaced: true, WithoutGeneration: true}
}
