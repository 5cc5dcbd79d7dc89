package meta

import "strings"

// GroupVersion names an API group version; the core group is "".
type GroupVersion struct {
	Group, Version string
}

// String returns the apiVersion form: "v1" for core, "apps/v1" otherwise.
func (gv GroupVersion) String() string {
	if gv.Group == "" {
		return gv.Version
	}
	return gv.Group + "/" + gv.Version
}

// ParseGroupVersion splits an apiVersion such as "apps/v1" or "v1".
func ParseGroupVersion(apiVersion string) GroupVersion {
	if i := strings.IndexByte(apiVersion, '/'); i >= 0 {
		return GroupVersion{Group: apiVersion[:i], Version: apiVersion[i+1:]}
	}
	return GroupVersion{Version: apiVersion}
}

// GroupVersionKind names a kind in one version of a group.
type GroupVersionKind struct {
	Group, Version, Kind string
}

// GroupVersion drops the kind.
func (gvk GroupVersionKind) GroupVersion() GroupVersion {
	return GroupVersion{Group: gvk.Group, Version: gvk.Version}
}

// GroupKind drops the version.
func (gvk GroupVersionKind) GroupKind() GroupKind {
	return GroupKind{Group: gvk.Group, Kind: gvk.Kind}
}

// GroupKind names a kind across versions.
type GroupKind struct {
	Group, Kind string
}

// String returns "Kind" for core and "Kind.group" otherwise, the form
// kube-apiserver uses in messages such as `Deployment.apps "x" is invalid`.
func (gk GroupKind) String() string {
	if gk.Group == "" {
		return gk.Kind
	}
	return gk.Kind + "." + gk.Group
}

// GroupResource names a resource (lower-case plural) across versions.
type GroupResource struct {
	Group, Resource string
}

// String returns "resource" for core and "resource.group" otherwise, the form
// kube-apiserver uses in messages such as `deployments.apps "x" not found`.
func (gr GroupResource) String() string {
	if gr.Group == "" {
		return gr.Resource
	}
	return gr.Resource + "." + gr.Group
}

// GroupVersionResource names a resource in one version of a group.
type GroupVersionResource struct {
	Group, Version, Resource string
}

// GroupResource drops the version.
func (gvr GroupVersionResource) GroupResource() GroupResource {
	return GroupResource{Group: gvr.Group, Resource: gvr.Resource}
}
