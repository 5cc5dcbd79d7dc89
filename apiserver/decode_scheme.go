package apiserver

import (
	"fmt"
	"slices"
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

// kindInScheme finds the kind gv and kind name among the types of a
// scheme (Resource.Scheme); false when kube's decoder would find none.
func (reg *registry) kindInScheme(scheme string, gv meta.GroupVersion, kind string) (schemeKind, bool) {
	if slices.Contains(unversionedKinds, kind) {
		return schemeKind{goType: "v1." + kind}, true
	}
	servesGV := gv == meta.GroupVersion{Version: "v1"} // every scheme registers metav1's kinds in core v1
	for _, r := range reg.static {
		if r.Scheme != scheme || r.Group != gv.Group || r.Version != gv.Version {
			continue
		}
		servesGV = true
		if r.Kind == kind || r.ListKind == kind {
			return schemeKind{res: r, list: r.ListKind == kind, goType: gv.Version + "." + kind}, true
		}
	}
	if servesGV && slices.Contains(optionKinds, kind) {
		return schemeKind{goType: "v1." + kind}, true
	}
	if kind == "List" && gv == (meta.GroupVersion{Version: "v1"}) && scheme == "" {
		return schemeKind{goType: "v1.List"}, true // core v1 registers the generic list
	}
	return schemeKind{}, false
}

// decodeTarget is what kube's decoder reads a request body into: a kind,
// the internal Go type it converts to ("core.ConfigMap"), and the scheme
// that knows the kinds.
type decodeTarget struct {
	gvk      meta.GroupVersionKind
	internal string
	scheme   string
	// versioned says kube's scheme may have the kind in versions kapi
	// does not serve: a served type's kind, not a subresource's.
	versioned bool
	// accepted are the apiVersions of the kind taken besides gvk's (a
	// subresource's older versions, as policy/v1beta1 Evictions).
	accepted []string
}

// decodeTarget is the type's: the kind it is stored as names the
// internal type (an events.k8s.io Event is a core.Event).
func (r *Resource) decodeTarget() decodeTarget {
	group, kind := r.Group, r.Kind
	if r.Storage != nil {
		group, kind = r.Storage.Kind.Group, r.Storage.Kind.Kind
	}
	return decodeTarget{gvk: r.GroupVersionKind(), internal: internalPackage(group) + "." + kind, scheme: r.Scheme, versioned: true}
}

// subresourceTarget is a subresource's kind (an autoscaling/v1 Scale), of
// the scheme of the type it belongs to, also taken in the apiVersions
// accepted.
func (r *Resource) subresourceTarget(kind meta.GroupVersionKind, accepted []string) decodeTarget {
	return decodeTarget{gvk: kind, internal: internalPackage(kind.Group) + "." + kind.Kind, scheme: r.Scheme, accepted: accepted}
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
// kind whose apiVersion or kind is not the target's: the kind is unknown
// to the scheme, or the object, read as the kind it names, cannot be
// converted. convertible reports a kind kube converts to the target
// (another version of the kind), and then refuses for its version, as
// the caller does.
func (q *request) otherKindError(to decodeTarget, obj meta.Object, apiVersion, kind string) (cause string, convertible bool) {
	gv := meta.ParseGroupVersion(apiVersion)
	k, ok := q.s.registry.Load().kindInScheme(to.scheme, gv, kind)
	switch {
	case !ok && to.versioned && kind == to.gvk.Kind && gv.Group == to.gvk.Group && gv.Group != "":
		// kube's scheme keeps its groups' earlier versions (apps/v1beta1),
		// which kapi does not serve: the target's kind in another version
		// of its group is taken for one of them (the core group has only
		// v1).
		return "", true
	case !ok:
		return fmt.Sprintf("no kind %q is registered for version %q in scheme %q", kind, apiVersion, schemeName), false
	case k.res != nil && !k.list && k.res.decodeTarget().internal == to.internal:
		return "", true
	case k.res != nil && !k.list:
		// Read as the kind it names first: that kind's decoding errors.
		if cause := k.res.typedDecodeFailure(obj, true); cause != "" {
			return cause, false
		}
	}
	return fmt.Sprintf("converting (%s) to (%s): unknown conversion", k.goType, to.internal), false
}

// checkKindOf fills a missing apiVersion and kind of a body of a built-in
// kind with the target's and refuses another kind, as kube's decoder and
// then its handler (the version of a kind it converted) do. patched, when
// set, is the document of a patch whose result obj is: kube refuses it as
// an invalid patch.
func (q *request) checkKindOf(to decodeTarget, obj meta.Object, patched func() []byte) error {
	apiVersion, kind := obj.APIVersion(), obj.Kind()
	want := to.gvk.GroupVersion().String()
	if apiVersion == "" {
		apiVersion = want
		obj["apiVersion"] = apiVersion
	}
	if kind == "" {
		kind = to.gvk.Kind
		obj["kind"] = kind
	}
	if (apiVersion == want || slices.Contains(to.accepted, apiVersion)) && kind == to.gvk.Kind {
		return nil
	}
	cause, convertible := q.otherKindError(to, obj, apiVersion, kind)
	switch {
	case !convertible && patched != nil:
		return meta.Invalid(meta.GroupKind{}, "", meta.FieldErrors{{
			Type: meta.ErrorInvalid, Field: "patch", Value: string(patched()), Detail: cause}})
	case !convertible:
		return meta.BadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %s",
			kind, meta.ParseGroupVersion(apiVersion).Version, to.gvk.Kind, cause))
	case apiVersion != want:
		return meta.BadRequest(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%s)",
			apiVersion, want))
	}
	return meta.BadRequest(fmt.Sprintf("the kind in the data (%s) does not match the expected kind (%s)", kind, to.gvk.Kind))
}
