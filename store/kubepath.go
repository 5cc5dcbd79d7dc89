package store

import (
	"strings"

	"github.com/kapi-dev/kapi/meta"
)

// kube-apiserver keeps an object at "<prefix>/<path>/[<namespace>/]<name>"
// (prefix /registry unless set), where <path> is the plural alone for the
// core resources and for the built-in ones of the named groups
// (deployments under /registry/deployments), a path of its own for a few
// (services under /registry/services/specs, nodes under /registry/minions),
// and "<group>/<plural>" for apiextensions' and apiregistration's own kinds
// and every custom resource. store/etcd keeps its objects at these keys;
// the API server names them in some errors, as kube does.

// kubeOwnPaths are the built-in resources kube keeps under a path other
// than their plural (the storage prefixes of kube's pkg/registry). No path
// is a segment-wise prefix of another.
var kubeOwnPaths = map[meta.GroupResource]string{
	{Resource: "services"}:                              "services/specs",
	{Resource: "endpoints"}:                             "services/endpoints",
	{Resource: "nodes"}:                                 "minions",
	{Resource: "replicationcontrollers"}:                "controllers",
	{Group: "networking.k8s.io", Resource: "ingresses"}: "ingress",
}

// kubeBuiltinGroups maps the plural of each built-in resource of a named
// group to its group: kube keeps them under the plural alone.
var kubeBuiltinGroups = map[string]string{
	"deployments": "apps", "replicasets": "apps", "statefulsets": "apps", "daemonsets": "apps", "controllerrevisions": "apps",
	"jobs": "batch", "cronjobs": "batch",
	"horizontalpodautoscalers": "autoscaling",
	"poddisruptionbudgets":     "policy",
	"networkpolicies":          "networking.k8s.io", "ingressclasses": "networking.k8s.io",
	"ipaddresses": "networking.k8s.io", "servicecidrs": "networking.k8s.io",
	"roles": "rbac.authorization.k8s.io", "rolebindings": "rbac.authorization.k8s.io",
	"clusterroles": "rbac.authorization.k8s.io", "clusterrolebindings": "rbac.authorization.k8s.io",
	"storageclasses": "storage.k8s.io", "volumeattachments": "storage.k8s.io", "csidrivers": "storage.k8s.io",
	"csinodes": "storage.k8s.io", "csistoragecapacities": "storage.k8s.io", "volumeattributesclasses": "storage.k8s.io",
	"priorityclasses": "scheduling.k8s.io",
	"leases":          "coordination.k8s.io", "leasecandidates": "coordination.k8s.io",
	"endpointslices":             "discovery.k8s.io",
	"runtimeclasses":             "node.k8s.io",
	"certificatesigningrequests": "certificates.k8s.io", "clustertrustbundles": "certificates.k8s.io",
	"podcertificaterequests":          "certificates.k8s.io",
	"validatingwebhookconfigurations": "admissionregistration.k8s.io", "mutatingwebhookconfigurations": "admissionregistration.k8s.io",
	"validatingadmissionpolicies": "admissionregistration.k8s.io", "validatingadmissionpolicybindings": "admissionregistration.k8s.io",
	"mutatingadmissionpolicies": "admissionregistration.k8s.io", "mutatingadmissionpolicybindings": "admissionregistration.k8s.io",
	"flowschemas": "flowcontrol.apiserver.k8s.io", "prioritylevelconfigurations": "flowcontrol.apiserver.k8s.io",
	"deviceclasses": "resource.k8s.io", "resourceclaims": "resource.k8s.io", "resourceclaimtemplates": "resource.k8s.io",
	"resourceslices": "resource.k8s.io", "devicetaintrules": "resource.k8s.io",
	"storageversionmigrations": "storagemigration.k8s.io",
	"storageversions":          "internal.apiserver.k8s.io",
}

// KubeStoragePath is where kube-apiserver keeps the objects of a resource
// under its etcd prefix: "deployments", "services/specs",
// "apiextensions.k8s.io/customresourcedefinitions", "example.com/widgets".
// events.k8s.io's events are the core ones, kept with them.
func KubeStoragePath(group, plural string) string {
	if group == "events.k8s.io" && plural == "events" {
		group = ""
	}
	if p, ok := kubeOwnPaths[meta.GroupResource{Group: group, Resource: plural}]; ok {
		return p
	}
	if group == "" || kubeBuiltinGroups[plural] == group {
		return plural
	}
	return group + "/" + plural
}

// KubeKey is the etcd key kube-apiserver, at its default prefix
// "/registry", keeps an object under, as its storage errors name it:
// "/registry/services/specs/default/web", "/registry/namespaces/team-a".
func KubeKey(group, plural, namespace, name string) string {
	key := "/registry/" + KubeStoragePath(group, plural) + "/"
	if namespace != "" {
		key += namespace + "/"
	}
	return key + name
}

// KubeStoredResource is KubeStoragePath the other way: the resource whose
// objects kube keeps at the start of path (a key under the prefix, without
// it: "services/specs/ns/s"), and the rest of path after it ("/ns/s").
// A first segment kube does not know is a core resource's plural, one with
// a dot a group whose next segment is the plural; false when that plural
// is missing.
func KubeStoredResource(path string) (gr meta.GroupResource, rest string, ok bool) {
	for gr, p := range kubeOwnPaths {
		if after, ok := strings.CutPrefix(path, p); ok && (after == "" || after[0] == '/') {
			return gr, after, true
		}
	}
	first, rest := cutSegment(path)
	if group, ok := kubeBuiltinGroups[first]; ok {
		return meta.GroupResource{Group: group, Resource: first}, rest, true
	}
	if !strings.Contains(first, ".") {
		return meta.GroupResource{Resource: first}, rest, true
	}
	plural, rest := cutSegment(strings.TrimPrefix(rest, "/"))
	return meta.GroupResource{Group: first, Resource: plural}, rest, plural != ""
}

// cutSegment splits a path at its first slash, which rest keeps.
func cutSegment(path string) (first, rest string) {
	if i := strings.IndexByte(path, '/'); i >= 0 {
		return path[:i], path[i:]
	}
	return path, ""
}
