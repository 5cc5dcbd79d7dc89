package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/flowcontrol"
	"github.com/kapi-dev/kapi/meta"
)

// flowSchemaV1beta3Resource is flowcontrol.apiserver.k8s.io/v1beta3
// flowschemas, which kube 1.33 no longer serves (WithFlowControlV1beta3
// adds it): the stored v1 objects seen through the older version, which
// differs from v1 in its apiVersion only.
func flowSchemaV1beta3Resource() apiserver.Resource {
	r := flowSchemaResource()
	r.Version = "v1beta3"
	r.Storage = flowControlV1Storage(r)
	return r
}

// flowControlV1Storage stores a v1beta3 flowcontrol kind as its v1
// objects, converted as kube converts them (flowcontrol.ConvertToV1 and
// ConvertFromV1: a PriorityLevelConfiguration's zero nominal shares are
// kept through the v1beta3-preserve-zero-concurrency-shares annotation).
func flowControlV1Storage(r apiserver.Resource) *apiserver.Storage {
	return &apiserver.Storage{Resource: r.GroupResource(),
		Kind:      meta.GroupVersionKind{Group: flowcontrol.Group, Version: "v1", Kind: r.Kind},
		ToStorage: flowcontrol.ConvertToV1, FromStorage: flowcontrol.ServeAsV1beta3}
}
