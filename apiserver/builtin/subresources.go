package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// The subresources kube-apiserver 1.33 declares besides status, as
// discovery lists them: names, verbs and the kinds they answer with.

var (
	verbsCreate    = []string{"create"}
	verbsCreateGet = []string{"create", "get"}
	verbsGet       = []string{"get"}
	verbsReadWrite = []string{"get", "patch", "update"}
	verbsProxy     = []string{"create", "delete", "get", "patch", "update"}
)

// coreKind is a core v1 kind as a subresource answers with it: discovery
// shows no group or version for the resource's own group version.
func coreKind(kind string) meta.GroupVersionKind { return meta.GroupVersionKind{Kind: kind} }

// proxySubresource is /proxy of nodes, pods and services.
func proxySubresource(optionsKind string) apiserver.Subresource {
	return apiserver.Subresource{Name: "proxy", Verbs: verbsProxy, Kind: coreKind(optionsKind)}
}
