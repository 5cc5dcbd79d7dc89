package apiserver

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/metrics"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/store"
)

// Strategy is everything one kind does differently from the generic
// pipeline, as kube-apiserver's registry strategies are: how a new object
// and the next version of an object are prepared, how they are validated
// beyond their schema, what a DELETE does, what follows a stored write and
// which extra subresources the kind serves. A kind's strategy lives in a
// file of its own and embeds GenericStrategy, whose methods are the
// generic behaviour, overriding only what makes the kind special:
//
//	type leaseStrategy struct{ apiserver.GenericStrategy }
//
//	func (leaseStrategy) Validate(w *apiserver.Write, obj meta.Object) meta.FieldErrors {
//		if obj.Name() == "forbidden" {
//			return meta.FieldErrors{{Type: meta.ErrorForbidden, Field: "metadata.name"}}
//		}
//		return nil
//	}
//
//	apiserver.Resource{..., Kind: "Lease", Strategy: leaseStrategy{}}
//
// The generic pipeline calls the hooks in this order. A create: the
// system metadata a client sent cleared (uid, creationTimestamp,
// deletion marks), schema defaults, Default, managedFields, mutating
// admission, generic preparation (name from generateName, uid,
// creationTimestamp, generation, status dropped when the kind has a
// status subresource), PrepareForCreate, NameErrors, Validate, validating
// admission, store, AfterWrite. Default may see a new object without a
// name (a generateName); PrepareForCreate sees its final name. An update (PUT, patch
// or apply, on the object or a subresource): optimistic concurrency, the
// server-owned metadata kept, PrepareForUpdate (which decides what the
// endpoint may change), schema defaults, Default, managedFields, mutating
// admission, ValidateUpdate, validating admission, store, AfterWrite. A
// DELETE: PrepareForDelete decides between removal and marking.
//
// Hooks run inside the store's guaranteed update and may run more than once
// for one request (after a concurrent write): they must not have effects
// outside the objects they are given, except AfterWrite.
//
// A strategy may also implement optional capabilities, all declared in
// strategy_capabilities.go: Allocator (what its objects hold outside
// themselves, taken and given back with the write), GracefulDeleter (a
// grace period on DELETE), AdmissionValidator (an in-tree admission check
// against other objects) and Repairer (a repair pass over its records).
// What a kind only declares is a Resource field: GenericDelete,
// ConditionalUpdates, KeepsStatusOnCreate, ValidatesCompletely.
type Strategy interface {
	// Default sets the kind's defaults beyond its schema's, on every write,
	// as kube's defaulting functions do when a body is decoded.
	Default(obj meta.Object)

	// PrepareForCreate sets what the server owns on a new object, after
	// the generic preparation.
	PrepareForCreate(w *Write, obj meta.Object)

	// PrepareForUpdate turns the client's object into the next version of
	// old: generically, a write to the object keeps the stored status and
	// a write to /status keeps everything but the status and the metadata
	// (PrepareStatusUpdate). w.Subresource says which endpoint is written.
	PrepareForUpdate(w *Write, obj, old meta.Object) meta.Object

	// NameErrors checks a name of this kind; generically a DNS subdomain.
	NameErrors(name string) []string

	// Validate checks a new object beyond its schema and ObjectMeta.
	Validate(w *Write, obj meta.Object) meta.FieldErrors

	// ValidateUpdate checks the next version of old beyond its schema.
	ValidateUpdate(w *Write, obj, old meta.Object) meta.FieldErrors

	// PrepareForDelete is what a DELETE does to obj, a copy of the stored
	// object the strategy may change, which already carries the generic
	// marks (deletionTimestamp and deletionGracePeriodSeconds, unless it
	// was being deleted already). It returns whether the object is kept,
	// marked for deletion, instead of removed; an object with finalizers is
	// always kept. An error refuses the delete.
	PrepareForDelete(w *Write, obj meta.Object) (keep bool, err error)

	// Held reports whether something besides metadata.finalizers keeps
	// obj, being deleted, from being removed (a namespace's
	// spec.finalizers): an update that leaves an object being deleted
	// neither finalizers nor held removes it.
	Held(obj meta.Object) bool

	// AfterWrite runs after a write is stored (never on dry run), before
	// the answer, with the stored version; it returns the version to answer
	// with. It may write to the store.
	AfterWrite(w *Write, stored *store.Object) (*store.Object, error)

	// Subresources are the kind's subresources besides status and scale,
	// which Resource declares.
	Subresources() []Subresource
}

// GenericStrategy is the generic behaviour of every Strategy hook; kinds
// embed it and override what they do differently.
type GenericStrategy struct{}

// Default sets nothing.
func (GenericStrategy) Default(meta.Object) {}

// PrepareForCreate changes nothing beyond the generic preparation.
func (GenericStrategy) PrepareForCreate(*Write, meta.Object) {}

// PrepareForUpdate applies the generic split between an object and its
// status subresource (PrepareStatusUpdate).
func (GenericStrategy) PrepareForUpdate(w *Write, obj, old meta.Object) meta.Object {
	return PrepareStatusUpdate(w, obj, old)
}

// NameErrors requires a DNS subdomain (RFC 1123), as most kinds do.
func (GenericStrategy) NameErrors(name string) []string { return schema.DNS1123Subdomain(name) }

// Validate finds nothing beyond the schema and ObjectMeta.
func (GenericStrategy) Validate(*Write, meta.Object) meta.FieldErrors { return nil }

// ValidateUpdate finds nothing beyond the schema and ObjectMeta.
func (GenericStrategy) ValidateUpdate(*Write, meta.Object, meta.Object) meta.FieldErrors { return nil }

// PrepareForDelete keeps the object only while it has finalizers.
func (GenericStrategy) PrepareForDelete(*Write, meta.Object) (bool, error) { return false, nil }

// Held is false: only finalizers hold an object.
func (GenericStrategy) Held(meta.Object) bool { return false }

// AfterWrite answers with the stored version.
func (GenericStrategy) AfterWrite(_ *Write, stored *store.Object) (*store.Object, error) {
	return stored, nil
}

// Subresources are none beyond status and scale.
func (GenericStrategy) Subresources() []Subresource { return nil }

// PrepareStatusUpdate is the generic split between a kind's object and its
// status subresource, as most of kube's strategies do it: a write to the
// object keeps the stored status; a write to /status keeps every top-level
// field of the stored object except status and metadata (so labels and
// annotations sent through /status are kept, as kube keeps them for
// built-in kinds). Kinds without a status subresource are written whole.
func PrepareStatusUpdate(w *Write, obj, old meta.Object) meta.Object {
	if !w.res.StatusSubresource {
		return obj
	}
	if w.Subresource != "status" {
		keepField(obj, old, "status")
		return obj
	}
	for k := range obj {
		if k != "metadata" && k != "status" {
			if _, ok := old[k]; !ok {
				delete(obj, k)
			}
		}
	}
	for k := range old {
		if k != "metadata" && k != "status" {
			keepField(obj, old, k)
		}
	}
	return obj
}

// keepField sets obj[key] to a copy of old's (absent when old has none).
func keepField(obj, old meta.Object, key string) {
	if v, ok := old[key]; ok {
		obj[key] = meta.DeepCopyValue(v)
	} else {
		delete(obj, key)
	}
}

// Write is what a strategy hook knows of the write it takes part in.
type Write struct {
	// Context is the request's; it carries the user (authn.UserFrom).
	Context context.Context
	// Operation is CREATE, UPDATE or DELETE.
	Operation Operation
	// Subresource is the endpoint written: "" for the object itself.
	Subresource string
	// Namespace and Name of the object (Name may be empty on a create
	// that generates it).
	Namespace, Name string
	// DryRun is true when nothing will be stored.
	DryRun bool
	// Now is the server's clock.
	Now time.Time
	// GracePeriodSeconds is a DELETE's, when it sets one.
	GracePeriodSeconds *int64

	res *Resource
	s   *Server
}

// User is the requester, when an authenticator named one.
func (w *Write) User() *authn.User {
	u, _ := authn.UserFrom(w.Context)
	return u
}

// Release is the kube release the server answers as (Config.Release;
// DefaultRelease outside a server): what a strategy's validation follows
// where kube's changed between releases.
func (w *Write) Release() Release {
	if w == nil || w.s == nil {
		return DefaultRelease
	}
	return w.s.kubeRelease
}

// Metrics is the server's metrics registry (Server.Metrics), where a
// strategy registers the families of its own work once per server (a
// repair's counts, as kube-apiserver's repair loops count theirs).
func (w *Write) Metrics() *metrics.Registry { return w.s.metrics.registry }

// Subresource is one subresource a kind serves under /{name}/{name}
// besides status and scale.
type Subresource struct {
	// Name is the path segment ("finalize", "binding").
	Name string
	// Verbs are the verbs served (update, patch, get, create).
	Verbs []string
	// Kind is what the subresource is read and written as; zero means the
	// kind itself.
	Kind meta.GroupVersionKind
	// Serve answers the subresource itself, for one that is not a view of
	// the object (a pod's binding or eviction, a ServiceAccount's token);
	// its answer is sent with code, encoded as the client asks. Without
	// Serve, the subresource is the object itself: a get reads it, and an
	// update or patch runs the update pipeline with Write.Subresource set
	// to Name, the strategy's PrepareForUpdate deciding what may change.
	Serve func(c *SubresourceCall) (code int, out meta.Object, err error)
	// Connect marks a subresource answered from its request's query and
	// headers, as kube's connect subresources (log, exec, attach,
	// portforward, proxy, whose path may go on): Serve gets no decoded
	// body and reads SubresourceCall.Request.
	Connect bool
	// AcceptedVersions are other versions of Kind a request body may come
	// in (kube takes policy/v1beta1 Evictions besides policy/v1).
	AcceptedVersions []string
}

// SubresourceCall is one request to a subresource that serves itself.
type SubresourceCall struct {
	*Write
	// Verb is the request's: get, create, update, patch or delete.
	Verb string
	// Query is the request's query.
	Query url.Values
	// Body is the request body decoded as the subresource's kind (its
	// apiVersion and kind checked and defaulted); nil when there is none.
	Body meta.Object
	// Request is the HTTP request, for a Connect subresource's headers
	// and path.
	Request *http.Request
}

// Do sends one request to the server itself, through its whole pipeline
// as the server (Server.Do): a PodDisruptionBudget's status written as
// kube's eviction writes it, say. Its context outlives the client's.
func (w *Write) Do(method, path string, body any) (int, []byte, error) {
	return w.s.Do(context.WithoutCancel(w.Context), method, path, body)
}

// Object reads the object whose subresource is called.
func (c *SubresourceCall) Object() (*store.Object, error) {
	return c.Get(c.res.GroupResource(), c.Namespace, c.Name)
}

// UpdateObject changes the object whose subresource is called, as a
// guaranteed update of what is stored (retried on a concurrent write; fn
// must not have side effects), without the update pipeline: as kube's
// binding does. Nothing is stored on dry run; the changed object is
// returned.
func (c *SubresourceCall) UpdateObject(fn func(cur meta.Object) (meta.Object, error)) (*store.Object, error) {
	return c.Update(c.res.GroupResource(), c.Namespace, c.Name, fn)
}

// DeleteObject deletes the object whose subresource is called through the
// delete pipeline (its strategy, finalizers, preconditions), as an
// eviction does. It reports whether the object is gone or kept.
func (c *SubresourceCall) DeleteObject(gracePeriodSeconds *int64, pre store.Preconditions) (*store.Object, bool, error) {
	r := (&http.Request{}).WithContext(c.Context)
	return c.s.deleteObject(r, c.res, c.Namespace, c.Name, deleteOptions{
		writeOptions: writeOptions{dryRun: c.DryRun}, preconditions: pre, gracePeriodSeconds: gracePeriodSeconds})
}

// Get reads another object a hook needs (a PodDisruptionBudget for an
// eviction, say), by its group, resource, namespace ("" for
// cluster-scoped kinds) and name: 404 when it or its kind is not served.
func (w *Write) Get(gr meta.GroupResource, namespace, name string) (*store.Object, error) {
	res, err := w.s.served(gr)
	if err != nil {
		return nil, err
	}
	obj, err := w.s.store.Get(w.Context, res.key(namespace, name))
	if err != nil {
		return nil, storeError(err, gr, name)
	}
	return obj, nil
}

// List reads the objects of a kind in a namespace ("" for all).
func (w *Write) List(gr meta.GroupResource, namespace string) ([]*store.Object, error) {
	res, err := w.s.served(gr)
	if err != nil {
		return nil, err
	}
	page, err := w.s.store.List(w.Context, res.collectionPrefix(namespace), store.ListOptions{})
	if err != nil {
		return nil, storeError(err, gr, "")
	}
	return page.Items, nil
}

// Update changes another object as a guaranteed update of what is stored
// (a PodDisruptionBudget's status after an eviction, say), without the
// update pipeline; fn may run more than once. Nothing is stored on dry
// run; the changed object is returned.
func (w *Write) Update(gr meta.GroupResource, namespace, name string, fn func(cur meta.Object) (meta.Object, error)) (*store.Object, error) {
	res, err := w.s.served(gr)
	if err != nil {
		return nil, err
	}
	key := res.key(namespace, name)
	if w.DryRun {
		cur, err := w.s.store.Get(w.Context, key)
		if err != nil {
			return nil, storeError(err, gr, name)
		}
		next, err := fn(cur.Data().DeepCopy())
		if err != nil {
			return nil, err
		}
		return store.NewObject(key, cur.Revision(), next), nil
	}
	out, err := w.s.store.Update(w.Context, key, store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
		return fn(cur.Data().DeepCopy())
	})
	if err != nil {
		return nil, storeError(err, gr, name)
	}
	return out, nil
}

// UpdateRecord changes a record a strategy keeps in the server's store
// that is no object of a served kind, as kube keeps the node ports of
// Services in a RangeAllocation under /ranges/servicenodeports: one record
// shared by every server on the store, changed by compare and swap.
//
// It is a guaranteed update: fn gets a copy of the stored record (nil when
// there is none, which fn's result then creates) and returns the next one,
// or store.ErrNoChange to leave a stored record as it is. fn runs again on
// the newer record whenever a concurrent write (of this server or another
// sharing the store) lands first, so only what its last run decides may
// be kept. key is a store key outside every served kind's (those start
// with "/<resource>/" or "/<resource>.<group>/"); store/etcd keeps
// "/ranges/..." at kube's "<prefix>/ranges/...". The write completes even
// when the client went away, so that what a hook gives back is given back.
// On dry run fn runs on the stored record and nothing is stored: the
// record fn returned is answered (the stored one on store.ErrNoChange).
func (w *Write) UpdateRecord(key string, fn func(cur meta.Object) (meta.Object, error)) (*store.Object, error) {
	ctx := context.WithoutCancel(w.Context)
	if w.DryRun {
		cur, err := w.s.store.Get(ctx, key)
		var data meta.Object
		switch {
		case err == nil:
			data = cur.Data().DeepCopy()
		case errors.Is(err, store.ErrNotFound):
			cur = nil
		default:
			return nil, err
		}
		next, err := fn(data)
		if errors.Is(err, store.ErrNoChange) && cur != nil {
			return cur, nil
		}
		if err != nil {
			return nil, err
		}
		rev := int64(0)
		if cur != nil {
			rev = cur.Revision()
		}
		return store.NewObject(key, rev, next), nil
	}
	return w.s.store.Update(ctx, key, store.UpdateOptions{AllowCreate: true}, func(cur *store.Object) (meta.Object, error) {
		if cur == nil {
			return fn(nil)
		}
		return fn(cur.Data().DeepCopy())
	})
}

// served finds a served kind by group and resource, in any version.
func (s *Server) served(gr meta.GroupResource) (*Resource, error) {
	for _, res := range s.registry.Load().byGVR {
		if res.GroupResource() == gr {
			return res, nil
		}
	}
	return nil, meta.NotFound(gr, "")
}

// strategy is the resource's strategy, generic when it sets none.
func (r *Resource) strategy() Strategy {
	if r.Strategy != nil {
		return r.Strategy
	}
	return GenericStrategy{}
}
