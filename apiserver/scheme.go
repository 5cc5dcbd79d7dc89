package apiserver

import (
	"fmt"
	"strings"

	"github.com/kapi-dev/kapi/meta"
)

// A request body of a built-in kind that names another kind than its
// endpoint's is refused by kube-apiserver's decoder, not by a check of its
// own: the decoder reads the body as the kind it names, when the scheme
// (the registry of Go types the serving API server is built with) has
// one, and then fails to convert it to the endpoint's internal type. The
// answers below word each step as kube's scheme does; kapi's scheme is
// made of the types it serves.

// schemeName is how kube's schemes name themselves in their errors.
const schemeName = "pkg/runtime/scheme.go:110"

// unversionedKinds are registered in every group and version of every
// scheme (metav1's unversioned types), as Go types of package v1.
var unversionedKinds = []string{"Status", "APIVersions", "APIGroupList", "APIGroup", "APIResourceList"}

// optionKinds are registered in each group version of a scheme
// (metav1.AddToGroupVersion), as Go types of package v1.
var optionKinds = []string{"WatchEvent", "ListOptions", "GetOptions", "DeleteOptions", "CreateOptions", "UpdateOptions", "PatchOptions"}

// schemeKind is a kind a scheme decodes: one of a served type, its list,
// or a kind of metav1.
type schemeKind struct {
	res  *Resource // nil for metav1's kinds
	list bool
	// goType is the versioned Go type, as kube's conversion errors name
	// it ("v1.Secret").
	goType string
}

// kindInScheme finds the kind gv and kind name among the types of the
// scheme that decodes bodies for the type into; false when kube's
// decoder would find none.
func (reg *registry) kindInScheme(into *Resource, gv meta.GroupVersion, kind string) (schemeKind, bool) {
	for _, k := range unversionedKinds {
		if k == kind {
			return schemeKind{goType: "v1." + kind}, true
		}
	}
	servesGV := gv == meta.GroupVersion{Version: "v1"} // every scheme registers metav1's kinds in core v1
	for _, r := range reg.static {
		if r.Scheme != into.Scheme || r.Group != gv.Group || r.Version != gv.Version {
			continue
		}
		servesGV = true
		if r.Kind == kind || r.ListKind == kind {
			return schemeKind{res: r, list: r.ListKind == kind, goType: gv.Version + "." + kind}, true
		}
	}
	if servesGV {
		for _, k := range optionKinds {
			if k == kind {
				return schemeKind{goType: "v1." + kind}, true
			}
		}
	}
	if kind == "List" && gv == (meta.GroupVersion{Version: "v1"}) && into.Scheme == "" {
		return schemeKind{goType: "v1.List"}, true // core v1 registers the generic list
	}
	return schemeKind{}, false
}

// internalType names the Go type kube-apiserver converts the type's
// bodies to ("core.ConfigMap"): the kind it is stored as, in the internal
// package of its group.
func (r *Resource) internalType() string {
	group, kind := r.Group, r.Kind
	if r.Storage != nil {
		group, kind = r.Storage.Kind.Group, r.Storage.Kind.Kind
	}
	return internalPackage(group) + "." + kind
}

// internalPackage is the name of the Go package of a built-in group's
// internal types: the group's first label, core for the core group.
func internalPackage(group string) string {
	switch group {
	case "":
		return "core"
	case "internal.apiserver.k8s.io":
		return "apiserverinternal"
	}
	name, _, _ := strings.Cut(group, ".")
	return name
}

// otherKindError is kube's decoding error for an object of a built-in
// kind whose apiVersion or kind is not the type's: the kind is unknown to
// the scheme, or the object, read as the kind it names, cannot be
// converted. convertible reports a kind kube converts to the type (another
// served version of the kind), which kapi does not: the caller refuses it
// in its own words.
func (q *request) otherKindError(obj meta.Object, apiVersion, kind string) (cause string, convertible bool) {
	gv := meta.ParseGroupVersion(apiVersion)
	k, ok := q.s.registry.Load().kindInScheme(q.res, gv, kind)
	switch {
	case !ok && kind == q.res.Kind && gv.Group == q.res.Group && gv.Group != "":
		// kube's scheme keeps its groups' earlier versions (apps/v1beta1),
		// which kapi does not serve: the type's kind in another version of
		// its group is taken for one of them (the core group has only v1).
		return "", true
	case !ok:
		return fmt.Sprintf("no kind %q is registered for version %q in scheme %q", kind, apiVersion, schemeName), false
	case k.res != nil && !k.list && k.res.internalType() == q.res.internalType():
		return "", true
	case k.res != nil && !k.list:
		// Read as the kind it names first: that kind's decoding errors.
		if cause := k.res.typedDecodeFailure(obj, true); cause != "" {
			return cause, false
		}
	}
	return fmt.Sprintf("converting (%s) to (%s): unknown conversion", k.goType, q.res.internalType()), false
}
