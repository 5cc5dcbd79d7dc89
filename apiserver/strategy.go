package apiserver

import (
	"context"
	"time"

	"github.com/kapi-dev/kapi/apiserver/authn"
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
// The generic pipeline calls the hooks in this order. A create: generic
// preparation (name from generateName, uid, creationTimestamp, generation,
// status dropped when the kind has a status subresource), PrepareForCreate,
// schema defaults, Default, managedFields, mutating admission, NameErrors,
// Validate, validating admission, store, AfterWrite. An update (PUT, patch
// or apply, on the object or a subresource): optimistic concurrency, the
// server-owned metadata kept, PrepareForUpdate (which decides what the
// endpoint may change), schema defaults, Default, managedFields, mutating
// admission, ValidateUpdate, validating admission, store, AfterWrite. A
// DELETE: PrepareForDelete decides between removal and marking.
//
// Hooks run inside the store's guaranteed update and may run more than once
// for one request (after a concurrent write): they must not have effects
// outside the objects they are given, except AfterWrite.
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

// Subresource is one subresource a kind serves under /{name}/{name}
// besides status and scale.
type Subresource struct {
	// Name is the path segment ("finalize", "binding").
	Name string
	// Verbs are the verbs served (update, patch, get, create).
	Verbs []string
	// Kind is what the subresource is read and written as; zero means the
	// kind itself. An update of a subresource whose Kind is the kind's own
	// runs the update pipeline, and the strategy's PrepareForUpdate, with
	// Write.Subresource set to Name, deciding what it may change.
	Kind meta.GroupVersionKind
}

// strategy is the resource's strategy, generic when it sets none.
func (r *Resource) strategy() Strategy {
	if r.Strategy != nil {
		return r.Strategy
	}
	return GenericStrategy{}
}
