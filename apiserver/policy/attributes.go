package policy

import (
	"context"

	"github.com/kapi-dev/kapi/meta"
)

// Attributes are what admission knows of one request, as kube's
// admission.Attributes: the operation, the kind and resource written, the
// object and the stored object, the user.
type Attributes struct {
	// Operation is CREATE, UPDATE, DELETE or CONNECT.
	Operation   string
	Kind        meta.GroupVersionKind
	Resource    meta.GroupVersionResource
	Subresource string
	Namespace   string
	Name        string
	// Object is the object to be stored (nil for DELETE); OldObject the
	// stored one (nil for CREATE). Never change them.
	Object, OldObject map[string]any
	User              User
	DryRun            bool
	// Options are the request's options object (CreateOptions,
	// UpdateOptions, DeleteOptions, PatchOptions), JSON-shaped.
	Options map[string]any
}

// User is who sends the request.
type User struct {
	Username string
	UID      string
	Groups   []string
	Extra    map[string][]string
}

// ResourceKind is a resource with the kind it serves.
type ResourceKind struct {
	Resource   meta.GroupVersionResource
	Kind       meta.GroupVersionKind
	Namespaced bool
}

// Host is what admission reads from the server it runs in: namespaces,
// parameter objects, and which resources serve the same objects.
type Host interface {
	// Namespace reads a namespace; nil (and no error) when it does not
	// exist.
	Namespace(ctx context.Context, name string) (map[string]any, error)
	// ResourceForKind finds the resource that serves a kind (a
	// paramKind's apiVersion and kind).
	ResourceForKind(apiVersion, kind string) (ResourceKind, bool)
	// Get reads one object; nil (and no error) when it does not exist.
	Get(ctx context.Context, r ResourceKind, namespace, name string) (map[string]any, error)
	// List reads the objects of a resource in a namespace ("" for all or
	// for a cluster-scoped resource) whose labels match.
	List(ctx context.Context, r ResourceKind, namespace string, labels LabelSelector) ([]map[string]any, error)
	// Equivalents are the resources (in other versions, or other groups)
	// that serve the same objects as r, r included, for matchPolicy
	// Equivalent.
	Equivalents(r meta.GroupVersionResource) []ResourceKind
	// Convert turns obj into the given apiVersion of its kind (the version
	// an Equivalent match names).
	Convert(ctx context.Context, obj map[string]any, apiVersion string) (map[string]any, error)
}
