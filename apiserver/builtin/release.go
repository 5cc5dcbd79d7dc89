package builtin

import (
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// What the built-in kinds do differently in each release kapi serves:
// the kinds a release adds, the schemas registrations adapt, and the
// printer columns that changed. Each release's published schemas come
// from the embedded data (schemas.go); its encoding differences from
// encoding.go.

// adaptedSchemas are the kinds whose registration serves an adapted copy
// of the published schema, built from the release's own.
var adaptedSchemas = map[meta.GroupVersionKind]func(apiserver.Release) *schema.Schema{
	{Group: "apps", Version: "v1", Kind: "ControllerRevision"}:  controllerRevisionSchema,
	{Version: "v1", Kind: "Namespace"}:                          namespaceSchema,
	{Version: "v1", Kind: "Node"}:                               nodeSchema,
	{Group: "node.k8s.io", Version: "v1", Kind: "RuntimeClass"}: runtimeClassSchema,
}

// releaseKinds are the kinds a release serves by default that 1.33 does
// not, with the first minor release kapi serves them in.
var releaseKinds = []struct {
	since    int
	resource func() apiserver.Resource
}{
	{34, deviceClassResource},
	{34, resourceClaimResource},
	{34, resourceClaimTemplateResource},
	{34, resourceSliceResource},
	{34, volumeAttributesClassResource},
	{36, mutatingAdmissionPolicyResource},
	{36, mutatingAdmissionPolicyBindingResource},
	{37, storageVersionMigrationResource},
	{37, clusterTrustBundleResource},
	{37, podCertificateRequestResource},
	{37, deviceTaintRuleResource},
}

// groupOrder is kube's order of the API groups in discovery, the groups
// added since 1.33 included.
var groupOrder = []string{"", "apiregistration.k8s.io", "apps", "events.k8s.io", "authentication.k8s.io",
	"authorization.k8s.io", "autoscaling", "batch", "certificates.k8s.io", "networking.k8s.io", "policy",
	"rbac.authorization.k8s.io", "storage.k8s.io", "admissionregistration.k8s.io", "apiextensions.k8s.io",
	"scheduling.k8s.io", "coordination.k8s.io", "node.k8s.io", "discovery.k8s.io", "resource.k8s.io",
	"flowcontrol.apiserver.k8s.io", "storagemigration.k8s.io"}

// withReleaseKinds adds to rs (1.33's kinds in kube's discovery order)
// the kinds release r adds, each among its group's kinds in kube's order
// (by resource name within a group version), its group where kube lists
// it.
func withReleaseKinds(r apiserver.Release, rs []apiserver.Resource) []apiserver.Resource {
	for _, k := range releaseKinds {
		if !r.AtLeast(k.since) {
			continue
		}
		add := k.resource()
		at := insertionPoint(rs, add)
		rs = slices.Insert(rs, at, add)
	}
	return rs
}

// insertionPoint is where add goes in rs: before the first registration
// of its group version whose resource sorts after it, else after the last
// of its group, else before the first group kube lists after its own.
func insertionPoint(rs []apiserver.Resource, add apiserver.Resource) int {
	last := -1
	for i, r := range rs {
		if r.Group != add.Group {
			continue
		}
		if r.Version == add.Version && r.Plural > add.Plural {
			return i
		}
		last = i
	}
	if last >= 0 {
		return last + 1
	}
	rank := func(g string) int { return slices.Index(groupOrder, g) }
	for i, r := range rs {
		if rank(r.Group) > rank(add.Group) {
			return i
		}
	}
	return len(rs)
}

// withReleaseChanges adjusts a registration to what release r does
// differently from 1.33.
func withReleaseChanges(r apiserver.Release, res *apiserver.Resource) {
	if v, ok := storedVersions[r][res.Group+"/"+res.Plural]; ok {
		res.StoredVersion = v
	}
	if res.CreateOnly != nil && r.AtLeast(34) && (res.Group == authorizationGroup || res.Group == authenticationGroup) {
		res.CreateOnly = withoutNullCreationTimestamp(res.CreateOnly)
	}
	switch res.GroupVersionKind() {
	case meta.GroupVersionKind{Version: "v1", Kind: "Pod"}:
		res.Strategy = podStrategy{release: r}
	case meta.GroupVersionKind{Version: "v1", Kind: "Service"}:
		if s, ok := res.Strategy.(serviceStrategy); ok {
			s.release = r
			res.Strategy = s
		}
	case meta.GroupVersionKind{Group: "apps", Version: "v1", Kind: "StatefulSet"}:
		res.Strategy = statefulSetStrategy{release: r}
	case meta.GroupVersionKind{Version: "v1", Kind: "ReplicationController"}:
		res.Strategy = replicationControllerStrategy{release: r}
	case meta.GroupVersionKind{Group: "storage.k8s.io", Version: "v1", Kind: "CSIDriver"}:
		res.Strategy = csiDriverStrategy{release: r}
	case meta.GroupVersionKind{Group: "autoscaling", Version: "v2", Kind: "HorizontalPodAutoscaler"},
		meta.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "HorizontalPodAutoscaler"}:
		if r.AtLeast(37) { // kube 1.37.2 gives HorizontalPodAutoscalers a metadata.generation
			res.WithoutGeneration = false
		}
	case meta.GroupVersionKind{Group: "storage.k8s.io", Version: "v1", Kind: "CSINode"}:
		if r.AtLeast(37) { // 1.37 gave CSINode a status (its drivers' allocatable counts)
			res.StatusSubresource = true
			res.ResetFields = map[string][]string{"": {"status"}, "status": {"metadata", "spec"}}
		}
	case meta.GroupVersionKind{Group: "networking.k8s.io", Version: "v1", Kind: "IngressClass"}:
		if r.AtLeast(36) { // recorded from kube-apiserver 1.36.3 and 1.37.2 (1.35.4 prints the name alone)
			res.PrinterColumns = ingressClassColumns136
		}
	case meta.GroupVersionKind{Version: "v1", Kind: "ServiceAccount"}:
		if r.AtLeast(35) { // kube 1.35 dropped the Secrets column
			res.PrinterColumns = []apiserver.PrinterColumn{apiserver.AgeColumn()}
		}
	case meta.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}:
		if r.AtLeast(37) { // 1.37's apiextensions-apiserver prints CRDs with columns of its own
			res.PrinterColumns = crdColumns
		}
	}
}

// storedVersions are, per release, the kinds kube stores at another
// version than 1.33 does (the version discovery's storageVersionHash is
// of; "" for the served one): a kind is stored at its previous version
// for a release after it graduates, so that a rollback can read it.
var storedVersions = map[apiserver.Release]map[string]string{
	apiserver.Release135: {
		"networking.k8s.io/ipaddresses": "", "networking.k8s.io/servicecidrs": "",
		"storage.k8s.io/volumeattributesclasses": "v1beta1",
	},
	apiserver.Release136: {
		"networking.k8s.io/ipaddresses": "", "networking.k8s.io/servicecidrs": "",
		"admissionregistration.k8s.io/mutatingadmissionpolicies":       "v1beta1",
		"admissionregistration.k8s.io/mutatingadmissionpolicybindings": "v1beta1",
	},
	apiserver.Release137: {
		"networking.k8s.io/ipaddresses": "", "networking.k8s.io/servicecidrs": "",
		"certificates.k8s.io/clustertrustbundles":          "v1beta1",
		"certificates.k8s.io/podcertificaterequests":       "v1beta1",
		"resource.k8s.io/devicetaintrules":                 "v1beta2",
		"storagemigration.k8s.io/storageversionmigrations": "v1beta1",
	},
}

// crdColumns are the columns kube 1.37's apiextensions-apiserver prints
// CustomResourceDefinitions with.
var crdColumns = []apiserver.PrinterColumn{
	column("Scope", "string", "Cluster/Namespaced", 0, func(o meta.Object, now time.Time) any { return str(o, "spec", "scope") }),
	column("Versions", "string", "Served versions", 0, func(o meta.Object, now time.Time) any {
		vs, _ := field(o, "spec", "versions").([]any)
		var served []string
		for _, v := range vs {
			vm, _ := v.(map[string]any)
			if vm["served"] != true {
				continue
			}
			label := stringOr(vm["name"], "")
			if vm["storage"] == true {
				label += "(storage)"
			}
			served = append(served, label)
		}
		sort.Strings(served)
		return strings.Join(served, ",")
	}),
	column("Created At", "date", apiserver.AgeColumn().Description, 0, func(o meta.Object, now time.Time) any {
		t, err := time.Parse(time.RFC3339, o.CreationTimestamp())
		if err != nil {
			return o.CreationTimestamp()
		}
		return t.UTC().Format(time.RFC3339)
	}),
	column("Group", "string", "API group", 1, func(o meta.Object, now time.Time) any { return str(o, "spec", "group") }),
	column("Kind", "string", "CustomResource kind", 1, func(o meta.Object, now time.Time) any { return str(o, "spec", "names", "kind") }),
	column("ShortNames", "string", "Short names", 1, func(o meta.Object, now time.Time) any {
		var names []string
		sn, _ := field(o, "spec", "names", "shortNames").([]any)
		for _, n := range sn {
			names = append(names, stringOr(n, ""))
		}
		return strings.Join(names, ",")
	}),
	column("Established", "boolean", "Established status", 1, func(o meta.Object, now time.Time) any {
		conds, _ := field(o, "status", "conditions").([]any)
		for _, c := range conds {
			cm, _ := c.(map[string]any)
			if cm["type"] == "Established" && cm["status"] == "True" {
				return true
			}
		}
		return false
	}),
}
