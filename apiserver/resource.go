package apiserver

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/store"
)

// Verbs a resource type can support, as discovery lists them.
const (
	VerbCreate           = "create"
	VerbDelete           = "delete"
	VerbDeleteCollection = "deletecollection"
	VerbGet              = "get"
	VerbList             = "list"
	VerbPatch            = "patch"
	VerbUpdate           = "update"
	VerbWatch            = "watch"
)

// AllVerbs is the verb set of an ordinary resource type.
var AllVerbs = []string{VerbCreate, VerbDelete, VerbDeleteCollection, VerbGet, VerbList, VerbPatch, VerbUpdate, VerbWatch}

// Resource describes one resource type to serve in one group version.
// Its zero values mean the ordinary defaults, so a registration names only
// what makes the type special:
//
//	apiserver.Resource{Group: "apps", Version: "v1", Kind: "Deployment",
//		Plural: "deployments", Namespaced: true, ShortNames: []string{"deploy"},
//		Categories: []string{"all"}, StatusSubresource: true}
type Resource struct {
	// Group is "" for the core group (served under /api).
	Group, Version, Kind string
	// Plural is the resource name used in URLs ("deployments"). Singular
	// defaults to the lower-cased Kind; ListKind to Kind + "List".
	Plural, Singular, ListKind string
	ShortNames, Categories     []string
	// Namespaced objects live in a namespace; others are cluster-scoped.
	Namespaced bool
	// Verbs supported; nil means AllVerbs.
	Verbs []string
	// StatusSubresource serves /status: writes to the main resource keep
	// the stored .status and writes to /status change only .status.
	StatusSubresource bool
	// Scale serves /scale (autoscaling/v1 Scale) from these paths; nil
	// serves none.
	Scale *Scale
	// AllowCreateOnUpdate lets PUT create a missing object.
	AllowCreateOnUpdate bool
	// ReturnDeletedObject makes DELETE answer with the deleted object instead
	// of a Success Status, as kube-apiserver does for some types.
	ReturnDeletedObject bool
	// GenericDelete says that the kind's DELETE is the generic pipeline's
	// alone: its strategy overrides neither PrepareForDelete nor Held and is
	// neither a GracefulDeleter nor an Allocator. A deletecollection (and so
	// a namespace's teardown) then removes the objects that have no
	// finalizers and are not being deleted in bulk, without decoding them,
	// when no admission plugin sees deletes and the options ask for nothing
	// an object would have to be looked at for. A kind with the generic
	// strategy itself (a nil Strategy) is one without saying so.
	GenericDelete bool
	// ConditionalUpdates refuses a PUT without metadata.resourceVersion, as
	// custom resources do and kube's strategies that do not allow
	// unconditional updates (APIService, CSINode): 422
	// `metadata.resourceVersion: Invalid value: 0x0: must be specified for an
	// update`.
	ConditionalUpdates bool
	// KeepsStatusOnCreate keeps the status a create sends although the kind
	// has a status subresource, as kube's Node does (a kubelet registers its
	// node with its capacity, addresses and conditions); Strategy.Validate
	// sees it.
	KeepsStatusOnCreate bool
	// ValidatesCompletely says that Strategy.Validate and ValidateUpdate
	// report all that kube's validation of the kind does, fields its schema
	// requires included (kube has no schema check for built-in kinds): the
	// schema's own findings (required fields, enums) are then not reported
	// beside them. A value of the wrong type still refuses the body as a
	// decoding error.
	ValidatesCompletely bool
	// WithoutGeneration leaves metadata.generation unset, as kube-apiserver
	// does for types without a spec (ConfigMap, Secret, Namespace...).
	WithoutGeneration bool
	// AnnotationsBumpGeneration counts annotation changes as spec changes
	// for metadata.generation, as kube does for Deployments.
	AnnotationsBumpGeneration bool
	// Schema is the type's structural schema: unknown fields are pruned
	// (and reported by field validation), defaults applied and values
	// validated on every write, and server-side apply tracks fields by its
	// list and map types. Nil keeps everything as sent (and tracks fields
	// as kube does for kinds without a schema).
	Schema *schema.Schema
	// OpenAPIComponent names the type's schema in Config.OpenAPIComponents
	// for the OpenAPI documents (built-in kinds); without it, the documents
	// render Schema as kube renders a custom resource's.
	OpenAPIComponent string
	// Strategy is what the kind does differently from the generic pipeline
	// (preparation, validation, deletion, subresources); nil means
	// GenericStrategy.
	Strategy Strategy
	// PrinterColumns are the Table columns after Name (kubectl get); none
	// means kube's default "Created At" column.
	PrinterColumns []PrinterColumn
	// TableOrder, when set, orders the rows of a list's Table (each page
	// on its own), as some of kube's printers sort them; nil keeps the
	// list's order.
	TableOrder func(a, b meta.Object) int
	// SelectableFields lists the field selector paths the type supports
	// beyond metadata.name and metadata.namespace, such as "status.phase".
	SelectableFields []string
	// CreateOnly makes the type create-only, as kube's review kinds: a
	// create is decoded and answered by this function, nothing is stored
	// (Verbs should be just create).
	CreateOnly CreateOnlyFunc
	// IndexedFields are selectable fields the store keeps an index of,
	// when it can (store.Indexer): a list or watch whose field selector
	// requires one of them to equal a value then reads only the objects
	// with that value, as kube's watch cache reads pods by spec.nodeName.
	IndexedFields []string
	// FieldValues, when set, computes the values field selectors compare,
	// by SelectableFields name, for kinds whose field labels are not plain
	// paths (kube compares an unset boolean as "false", an Event's source
	// is its reporting controller when it names no component). Nil: each
	// selectable field is read at its path.
	FieldValues func(obj meta.Object) map[string]string
	// ResetFields lists, by subresource ("" for the main resource), the
	// fields a write through that endpoint does not own because the kind's
	// strategy resets them (kube's GetResetFields), as dot-separated paths.
	// Nil: status on the main resource and spec through /status, for a
	// kind with a status subresource.
	ResetFields map[string][]string
	// Deprecated is the warning kube-apiserver sends with every request to
	// a deprecated API ("v1 Endpoints is deprecated in v1.33+; use
	// discovery.k8s.io/v1 EndpointSlice"); empty for current APIs.
	Deprecated string
	// StoredVersion is the version kube-apiserver stores the kind at when
	// it is not the one served (CRDs: v1beta1); discovery's
	// storageVersionHash, an opaque fingerprint clients compare, is computed
	// from it as kube computes it. Empty: the served version.
	StoredVersion string
	// Ephemeral types are answered rather than stored (the review kinds,
	// bindings, component statuses): discovery gives them no
	// storageVersionHash, as kube gives none.
	Ephemeral bool
	// Storage, when set, makes the type a view of objects stored as
	// another kind, converted on every read and write, as kube-apiserver
	// serves autoscaling/v1 HorizontalPodAutoscalers from the v2 objects it
	// stores and events.k8s.io/v1 Events from core v1 Events. Nil: the
	// type's objects are stored as they are served.
	Storage *Storage
	// Scheme names the registry of Go types kube decodes the type's
	// request bodies with, when it is not kube-apiserver's own: the types
	// served by the servers kube-apiserver delegates to
	// (apiextensions-apiserver's CRDs, kube-aggregator's APIServices) know
	// only their own group's kinds. A body of a kind its scheme lacks is
	// refused in those words. Empty: kube-apiserver's scheme.
	Scheme string

	// customResource marks types served for a CustomResourceDefinition;
	// storageVersion is the apiVersion their objects are stored in.
	customResource bool
	storageVersion string
	// conversion converts custom resources between versions through the
	// CRD's conversion webhook (nil: only apiVersion differs).
	conversion *crdConversion
	// schemaRevision is the revision of the CRD that defined Schema: older
	// objects get its defaults when read, as kube defaults on decode.
	schemaRevision int64
	// otherVersions are a CRD version's other served versions, or those
	// of a built-in kind served over one storage and schema
	// (linkViewVersions), for server-side apply.
	otherVersions []string
	// prefix is the storage key prefix of its objects (keyPrefix).
	prefix       string
	fieldManager *fieldManagerSlot
	fieldsKey    *fieldsKey
}

// Storage is how a type's objects are kept when they are stored as
// another kind (Resource.Storage): where, as what, and the conversions
// between the two. Writes run the whole pipeline (defaults, managedFields,
// admission, validation) at the type's own version and convert the result
// just before it is stored; reads convert what is stored, once per stored
// version. Field selectors see the converted object.
type Storage struct {
	// Resource is the group and plural the objects are stored under: the
	// same keys, lists and watches as the type registered with it.
	Resource meta.GroupResource
	// Kind is what the objects are stored as; discovery's
	// storageVersionHash is computed from it, as kube computes it.
	Kind meta.GroupVersionKind
	// ToStorage converts an object of the type to the stored kind, and
	// FromStorage a stored object to the type. Both return new objects
	// (their argument is shared and must not change) and keep metadata.
	ToStorage, FromStorage func(meta.Object) meta.Object
}

// storageAPIVersion is the apiVersion of stored objects of a type with
// Storage.
func (st *Storage) storageAPIVersion() string {
	return meta.GroupVersion{Group: st.Kind.Group, Version: st.Kind.Version}.String()
}

// linkViewVersions lets the versions of a kind that are one stored object
// with the same fields (a type with Storage in its own group, over the
// registration it is stored as and with the same schema, as the
// flowcontrol kinds' v1beta3 over v1) keep the managedFields entries
// recorded at each other's version, which kube converts rather than
// drops. Views with fields of their own (autoscaling/v1) or in another
// group (events.k8s.io) are left alone.
func linkViewVersions(rs []Resource) {
	for i := range rs {
		st := rs[i].Storage
		if st == nil || st.Kind.Group != rs[i].Group || rs[i].Schema == nil {
			continue
		}
		for j := range rs {
			r := &rs[j]
			if r.Storage == nil && r.GroupResource() == st.Resource && r.Version == st.Kind.Version && r.Schema == rs[i].Schema {
				rs[i].otherVersions = slices.Concat(rs[i].otherVersions, []string{r.Version})
				r.otherVersions = slices.Concat(r.otherVersions, []string{rs[i].Version})
			}
		}
	}
}

// storageForm converts an object a write produced to what is stored: the
// object itself unless the type has Storage or a conversion webhook.
func (r *Resource) storageForm(ctx context.Context, obj meta.Object) (meta.Object, error) {
	if r.conversion != nil {
		return r.conversion.toStorage(ctx, r, obj)
	}
	if r.Storage == nil || obj.APIVersion() != r.APIVersion() {
		return obj, nil
	}
	return r.Storage.ToStorage(obj), nil
}

// viewKey keys the converted view of a stored object, per type.
type viewKey struct{ id string }

var viewKeys sync.Map // id -> *viewKey

// fromStorage returns a stored object converted to the type, computed
// once per stored version and shared by every reader (with its encodings).
// Objects already at the type's version (a dry run's) pass as they are.
func (r *Resource) fromStorage(obj *store.Object) *store.Object {
	if obj.Data().APIVersion() != r.Storage.storageAPIVersion() {
		return obj
	}
	id := r.GroupResource().String() + "/" + r.Version
	k, _ := viewKeys.LoadOrStore(id, &viewKey{id: id})
	v, _ := obj.Derived(k, func(data meta.Object) (any, error) {
		return store.NewObject(obj.Key(), obj.Revision(), r.Storage.FromStorage(data)), nil
	})
	return v.(*store.Object)
}

// toStorage converts an object written at the request's version to the
// version it is stored in (custom resources with several versions and
// conversion None only differ in apiVersion; those with a conversion
// webhook are converted by storageForm, as the write is stored).
func (r *Resource) toStorage(obj meta.Object) {
	if r.storageVersion != "" && r.conversion == nil && obj.APIVersion() != r.storageVersion {
		obj["apiVersion"] = r.storageVersion
	}
}

// present returns a stored object as served at this resource's version,
// with the defaults of a schema newer than the object applied. Only a
// custom resource's conversion webhook fails (ctx bounds its call).
func (r *Resource) present(ctx context.Context, obj *store.Object) (*store.Object, error) {
	if obj != nil && r.Storage != nil {
		return r.fromStorage(obj), nil
	}
	if obj == nil || !r.customResource {
		return obj, nil
	}
	if r.conversion != nil && obj.Data().APIVersion() != r.APIVersion() {
		// Defaulted at its own version before it is converted (view), as
		// kube decodes it; not after.
		return r.conversion.view(ctx, r, obj)
	}
	if r.storageVersion == r.APIVersion() && obj.Revision() >= r.schemaRevision {
		return obj, nil // stored as served (writes convert to the storage version): no need to decode it
	}
	data := obj.Data()
	if r.Schema != nil && obj.Revision() < r.schemaRevision {
		defaulted := data.DeepCopy()
		r.Schema.Default(defaulted)
		if !meta.EqualValues(map[string]any(defaulted), map[string]any(data)) {
			data = defaulted
		}
	}
	if data.APIVersion() != r.APIVersion() {
		if sameMapObj(data, obj.Data()) {
			data = maps.Clone(data)
		}
		data["apiVersion"] = r.APIVersion()
	}
	if sameMapObj(data, obj.Data()) {
		return obj, nil
	}
	return store.NewObject(obj.Key(), obj.Revision(), data), nil
}

func sameMapObj(a, b meta.Object) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// GroupVersionKind of the type.
func (r *Resource) GroupVersionKind() meta.GroupVersionKind {
	return meta.GroupVersionKind{Group: r.Group, Version: r.Version, Kind: r.Kind}
}

// GroupResource of the type.
func (r *Resource) GroupResource() meta.GroupResource {
	return meta.GroupResource{Group: r.Group, Resource: r.Plural}
}

// APIVersion is the apiVersion its objects carry.
func (r *Resource) APIVersion() string {
	return meta.GroupVersion{Group: r.Group, Version: r.Version}.String()
}

// Supports reports whether the type serves verb.
func (r *Resource) Supports(verb string) bool { return slices.Contains(r.Verbs, verb) }

// withDefaults validates r and fills its defaults.
func (r Resource) withDefaults() (Resource, error) {
	if r.fieldManager != nil {
		return r, nil // already done (registries are rebuilt from defaulted types)
	}
	if r.Version == "" || r.Kind == "" || r.Plural == "" {
		return r, fmt.Errorf("apiserver: resource %+v needs Version, Kind and Plural", r)
	}
	if strings.ContainsAny(r.Plural, "/.") || r.Plural != strings.ToLower(r.Plural) {
		return r, fmt.Errorf("apiserver: resource plural %q must be lower case without '/' or '.'", r.Plural)
	}
	if r.Singular == "" {
		r.Singular = strings.ToLower(r.Kind)
	}
	if r.ListKind == "" {
		r.ListKind = r.Kind + "List"
	}
	if r.Verbs == nil {
		r.Verbs = AllVerbs
	}
	if !slices.IsSorted(r.Verbs) {
		r.Verbs = slices.Sorted(slices.Values(r.Verbs))
	}
	for _, f := range r.IndexedFields {
		if !slices.Contains(r.SelectableFields, f) {
			return r, fmt.Errorf("apiserver: resource %s indexes %q, which is not one of its SelectableFields", r.Plural, f)
		}
	}
	r.prefix = ""
	r.prefix = r.keyPrefix()
	r.fieldManager = &fieldManagerSlot{}
	r.fieldsKey = internFieldsKey(&r)
	// Columns read through a jsonPath get their own copy to hold it
	// compiled; columns with a Cell of their own are shared as they are.
	if slices.ContainsFunc(r.PrinterColumns, func(c PrinterColumn) bool { return c.Cell == nil && c.JSONPath != "" }) {
		r.PrinterColumns = slices.Clone(r.PrinterColumns)
	}
	for i := range r.PrinterColumns {
		c := &r.PrinterColumns[i]
		if c.Cell == nil && c.JSONPath != "" {
			p, err := parseJSONPath(c.JSONPath)
			if err != nil {
				return r, fmt.Errorf("apiserver: resource %s printer column %q: %w", r.Plural, c.Name, err)
			}
			c.path = p
		}
	}
	return r, nil
}

// storageVersionHash is discovery's opaque fingerprint of the stored kind,
// computed as kube-apiserver does so that clients comparing it see the same
// value for the same kind.
func (r *Resource) storageVersionHash() string {
	gvk := r.GroupVersionKind()
	switch {
	case r.Storage != nil:
		gvk = r.Storage.Kind
	case r.StoredVersion != "":
		gvk.Version = r.StoredVersion
	}
	sum := sha256.Sum256([]byte(gvk.Group + "/" + gvk.Version + "/" + gvk.Kind))
	return base64.StdEncoding.EncodeToString(sum[:8])
}

// keyPrefix is the storage key prefix of all objects of the type: the
// group-qualified plural is unique and contains no '/'.
func (r *Resource) keyPrefix() string {
	if r.prefix != "" {
		return r.prefix
	}
	if r.Storage != nil {
		return "/" + r.Storage.Resource.String() + "/"
	}
	return "/" + r.GroupResource().String() + "/"
}

// key is the storage key of one object; ns is "" for cluster-scoped types.
func (r *Resource) key(ns, name string) string {
	if r.Namespaced {
		return r.keyPrefix() + ns + "/" + name
	}
	return r.keyPrefix() + name
}

// collectionPrefix is the key prefix of a list: one namespace, or all.
func (r *Resource) collectionPrefix(ns string) string {
	if r.Namespaced && ns != "" {
		return r.keyPrefix() + ns + "/"
	}
	return r.keyPrefix()
}
