package builtin

import "github.com/kapi-dev/kapi/apiserver"

// priorityLevelConfigurationV1beta3Resource is
// flowcontrol.apiserver.k8s.io/v1beta3 prioritylevelconfigurations, which
// kube 1.33 no longer serves (WithFlowControlV1beta3 adds it): the stored
// v1 objects seen through the older version, whose nominal shares cannot
// be unset (0 means the default 30 unless the
// flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares annotation
// keeps it; the annotation is never stored, and a level stored with 0
// shares is read with it).
func priorityLevelConfigurationV1beta3Resource() apiserver.Resource {
	r := priorityLevelConfigurationResource()
	r.Version = "v1beta3"
	r.Storage = flowControlV1Storage(r)
	return r
}
