package etcd

import (
	"strings"
)

// DefaultPrefix is kube-apiserver's default -etcd-prefix.
const DefaultPrefix = "/registry"

// layout maps kapi's storage keys to kube-apiserver's etcd keys and back.
//
// kapi keys are "/<resource>[.<group>]/<namespace>/<name>" (the first
// segment is the group-qualified plural, apiserver.Resource.key). Kube
// keeps the objects of a built-in resource under
// "<prefix>/<resource>/..." whatever its group (deployments under
// /registry/deployments), a few under a path of their own (services under
// /registry/services/specs, nodes under /registry/minions), and custom
// resources, like apiextensions' and apiregistration's own, under
// "<prefix>/<group>/<resource>/...". Everything after the first segment is
// the same in both. A first segment kube does not know (as in tests) maps
// as a core resource of that name, unchanged.
//
// The mapping is a bijection on the keys kapi writes: a custom resource's
// group always contains a dot (kube requires it), a built-in's path never
// does, and the table below lists each built-in path once.
type layout struct {
	prefix string // the etcd prefix, without a trailing slash
}

// builtinPaths maps kapi's first segment of a built-in resource to kube's
// path under the prefix when it is not the plural alone (rest/storage of
// each registry in kube's pkg/registry).
var builtinPaths = map[string]string{
	"services":                    "services/specs",
	"endpoints":                   "services/endpoints",
	"nodes":                       "minions",
	"replicationcontrollers":      "controllers",
	"ingresses.networking.k8s.io": "ingress",
}

// builtinGroups are the groups of kube's built-in resources, stored under
// the plural alone. events.k8s.io is left out: kube stores its events with
// the core ones, which kapi serves as a resource of their own.
var builtinGroups = map[string]bool{
	"apps": true, "batch": true, "autoscaling": true, "policy": true,
	"networking.k8s.io": true, "rbac.authorization.k8s.io": true, "storage.k8s.io": true,
	"scheduling.k8s.io": true, "coordination.k8s.io": true, "discovery.k8s.io": true,
	"node.k8s.io": true, "certificates.k8s.io": true, "admissionregistration.k8s.io": true,
	"flowcontrol.apiserver.k8s.io": true, "resource.k8s.io": true,
	"storagemigration.k8s.io": true, "internal.apiserver.k8s.io": true,
}

// builtinResources maps the plural of a built-in resource of a named
// group to its group, for the way back from etcd.
var builtinResources = map[string]string{
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
	"validatingwebhookconfigurations": "admissionregistration.k8s.io", "mutatingwebhookconfigurations": "admissionregistration.k8s.io",
	"validatingadmissionpolicies": "admissionregistration.k8s.io", "validatingadmissionpolicybindings": "admissionregistration.k8s.io",
	"mutatingadmissionpolicies": "admissionregistration.k8s.io", "mutatingadmissionpolicybindings": "admissionregistration.k8s.io",
	"flowschemas": "flowcontrol.apiserver.k8s.io", "prioritylevelconfigurations": "flowcontrol.apiserver.k8s.io",
	"deviceclasses": "resource.k8s.io", "resourceclaims": "resource.k8s.io", "resourceclaimtemplates": "resource.k8s.io",
	"resourceslices": "resource.k8s.io", "devicetaintrules": "resource.k8s.io",
	"storageversionmigrations": "storagemigration.k8s.io",
	"storageversions":          "internal.apiserver.k8s.io",
}

// reversePaths is builtinPaths the other way, longest path first.
var reversePaths = func() map[string]string {
	m := map[string]string{}
	for k, v := range builtinPaths {
		m[v] = k
	}
	return m
}()

func newLayout(prefix string) layout {
	return layout{prefix: strings.TrimSuffix(prefix, "/")}
}

// root is the etcd prefix every key of this layout lies under.
func (l layout) root() string { return l.prefix + "/" }

// etcdKey returns the etcd key of a kapi key (or of a key prefix made of
// whole segments).
func (l layout) etcdKey(key string) string {
	if !strings.HasPrefix(key, "/") {
		return l.prefix + "/" + key
	}
	first, rest := key[1:], ""
	if i := strings.IndexByte(first, '/'); i >= 0 {
		first, rest = first[:i], first[i:]
	}
	return l.prefix + "/" + pathOf(first) + rest
}

// pathOf is kube's path under the prefix for kapi's first key segment.
func pathOf(first string) string {
	if p, ok := builtinPaths[first]; ok {
		return p
	}
	resource, group, dotted := strings.Cut(first, ".")
	switch {
	case !dotted:
		return first
	case builtinGroups[group] && builtinResources[resource] == group:
		return resource
	default:
		return group + "/" + resource
	}
}

// key returns the kapi key of an etcd key, or false when the key is not
// one kapi would write there: outside the prefix, or a key whose kapi key
// maps to another etcd key (such as "<prefix>/services/x", which is
// neither a service nor an endpoint), so that no two etcd keys ever map to
// one kapi key.
func (l layout) key(etcdKey string) (string, bool) {
	k, ok := l.mapKey(etcdKey)
	if !ok || l.etcdKey(k) != etcdKey {
		return "", false
	}
	return k, true
}

func (l layout) mapKey(etcdKey string) (string, bool) {
	rest, ok := strings.CutPrefix(etcdKey, l.prefix+"/")
	if !ok {
		return "", false
	}
	for path, first := range reversePaths {
		if after, ok := strings.CutPrefix(rest, path); ok && (after == "" || after[0] == '/') {
			return "/" + first + after, true
		}
	}
	first, after := rest, ""
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		first, after = rest[:i], rest[i:]
	}
	if group, ok := builtinResources[first]; ok {
		return "/" + first + "." + group + after, true
	}
	if strings.Contains(first, ".") {
		// <group>/<resource>/...: a custom resource.
		resource, tail := after, ""
		if len(resource) > 0 {
			resource = resource[1:]
		}
		if i := strings.IndexByte(resource, '/'); i >= 0 {
			resource, tail = resource[:i], resource[i:]
		}
		if resource == "" {
			return "", false
		}
		return "/" + resource + "." + first + tail, true
	}
	return "/" + rest, true
}
