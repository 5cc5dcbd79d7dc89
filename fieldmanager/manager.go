package fieldmanager

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// Manager tracks field ownership (metadata.managedFields) for one kind and
// merges server-side apply requests into objects of that kind. It holds
// only its schema and configuration, so one Manager serves any number of
// goroutines.
type Manager struct {
	gvk          meta.GroupVersionKind
	typed        typed.ParseableType
	zero         map[string]any                 // fields of the kind's zero value (see zero.go)
	versions     map[string]bool                // apiVersions whose managedFields entries are kept
	typedOf      map[string]typed.ParseableType // by apiVersion: versions whose schema is their own (Config.VersionSchemas)
	reset        map[string]*fieldpath.Set      // by subresource: fields writes through it never own
	resetKeys    map[string][][]string          // reset as FieldsV1 key paths (create.go)
	emptyTVs     sync.Map                       // apiVersion → *typed.TypedValue of empty(apiVersion), read-only
	emptyObjects sync.Map                       // apiVersion → empty(apiVersion), read-only
}

// Config is everything New needs; its zero values mean kube's defaults.
type Config struct {
	// GVK is the kind, and the version an Options.APIVersion defaults to.
	GVK meta.GroupVersionKind

	// Schema is the kind's parsed schema: a CRD version's openAPIV3Schema
	// (schema.Parse), or a built-in kind's component
	// (schema.ParseComponents, whose references stay named types). A
	// schema whose metadata is not a component gets ObjectMeta's, as kube
	// gives custom resources. nil means no schema: every map is granular
	// and every list atomic (SMD's deduced type, what kube uses for kinds
	// without one). What New derives from it (the SMD type, the zero
	// value) is kept with the parsed schema (schema.Schema.Derived) and
	// shared by every Manager of it.
	Schema *schema.Schema

	// Versions names the other versions of the kind (in GVK's group)
	// whose managedFields entries are kept. All versions share Schema, as
	// with a CRD whose conversion strategy is None. Entries recorded at a
	// version the kind does not serve are dropped on the next write, as
	// kube-apiserver drops them.
	Versions []string

	// VersionSchemas are the schemas of the versions in Versions that do
	// not share Schema, by version name: a CRD whose versions convert
	// through a webhook (Options.Convert), whose fields may differ. A
	// version absent here shares Schema.
	VersionSchemas map[string]*schema.Schema

	// ResetFields lists, by subresource ("" for the main resource), the
	// fields a write through it never owns nor conflicts on: the fields
	// kube's REST strategy resets (GetResetFields), as dot-separated field
	// names. For a CRD with a status subresource kube-apiserver 1.33 uses
	//
	//	{"": {"status"}, "status": {"spec"}}
	//
	// (so a /status write that changes metadata owns it, although the
	// strategy then undoes the change); Deployments reset {"": {"status"},
	// "status": {"spec", "metadata.labels"}}.
	ResetFields map[string][]string
}

// New returns the Manager of one kind, converting its parsed schema (see
// Config.Schema) to structured-merge-diff's; nil schema means none. It
// fails when the schema cannot be converted: an unknown type, list type,
// map type or patch strategy, a list-type map without keys, an array
// without items (all of which schema.Parse already refuses in a CRD).
func New(gvk meta.GroupVersionKind, s *schema.Schema) (*Manager, error) {
	return NewWithConfig(Config{GVK: gvk, Schema: s})
}

// NewWithConfig is New with the less common settings.
func NewWithConfig(cfg Config) (*Manager, error) {
	d := fromSchema(cfg.Schema)
	if d.err != nil {
		return nil, d.err
	}
	m := &Manager{
		gvk:       cfg.GVK,
		typed:     d.typed,
		zero:      d.zero,
		versions:  map[string]bool{cfg.GVK.GroupVersion().String(): true},
		reset:     map[string]*fieldpath.Set{},
		resetKeys: map[string][][]string{},
	}
	for _, v := range cfg.Versions {
		m.versions[meta.GroupVersion{Group: cfg.GVK.Group, Version: v}.String()] = true
	}
	for v, vs := range cfg.VersionSchemas {
		vd := fromSchema(vs)
		if vd.err != nil {
			return nil, vd.err
		}
		if m.typedOf == nil {
			m.typedOf = map[string]typed.ParseableType{}
		}
		m.typedOf[meta.GroupVersion{Group: cfg.GVK.Group, Version: v}.String()] = vd.typed
	}
	for sub, paths := range cfg.ResetFields {
		set := fieldpath.NewSet()
		for _, p := range paths {
			var parts []any
			for _, name := range strings.Split(p, ".") {
				if name == "" {
					return nil, fmt.Errorf("fieldmanager: invalid reset field %q", p)
				}
				parts = append(parts, name)
			}
			path, err := fieldpath.MakePath(parts...)
			if err != nil {
				return nil, fmt.Errorf("fieldmanager: invalid reset field %q: %v", p, err)
			}
			set.Insert(path)
		}
		m.reset[sub] = set
		m.resetKeys[sub] = keyPaths(set)
	}
	return m, nil
}

// GVK returns the kind the Manager was made for.
func (m *Manager) GVK() meta.GroupVersionKind { return m.gvk }

// Options describe one write.
type Options struct {
	// Manager is the field manager: the fieldManager query parameter, or
	// for non-apply writes without one ManagerFromUserAgent. Empty means
	// "unknown", as in kube.
	Manager string

	// Subresource is the subresource written through ("status"), empty for
	// the main resource. Its writes get their own managedFields entries,
	// ignore the managedFields of the request, and never own nor conflict
	// on the subresource's Config.ResetFields.
	Subresource string

	// APIVersion is the apiVersion of the endpoint ("apps/v1"), by default
	// the Manager's. An applied object must be of this version.
	APIVersion string

	// Force makes an apply take the fields it conflicts on from their
	// managers instead of failing (the force query parameter).
	Force bool

	// Now is the time recorded in the entries this write changes;
	// time.Now() when zero. Only seconds are kept.
	Now time.Time

	// Convert, when set, converts an object of the kind to another of its
	// versions, as a CRD's conversion webhook does: managers recorded at
	// another version than the write's are compared at theirs, as
	// kube-apiserver compares them. Nil: the versions differ only in
	// apiVersion. Its error fails an apply with a 500 ("failed to convert
	// new object: ..."), and leaves a non-apply write without
	// managedFields, as kube's.
	Convert Converter
}

// Converter converts obj (an object of the kind, at the version its
// apiVersion names) to apiVersion. obj must not be modified.
type Converter func(obj map[string]any, apiVersion string) (map[string]any, error)

// call holds one write's settings, defaults filled in.
type call struct {
	Options
	gv      fieldpath.APIVersion
	updater *merge.Updater
}

// withDefaults fills in o's defaults: the Manager's apiVersion, now, and
// whole seconds.
func (m *Manager) withDefaults(o Options) Options {
	if o.APIVersion == "" {
		o.APIVersion = m.gvk.GroupVersion().String()
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	o.Now = o.Now.UTC().Truncate(time.Second)
	return o
}

func (m *Manager) newCall(o Options, fields fieldpath.ManagedFields) *call {
	o = m.withDefaults(o)
	c := &call{Options: o, gv: fieldpath.APIVersion(o.APIVersion)}
	b := merge.UpdaterBuilder{Converter: versionConverter{m: m, current: o.APIVersion, convert: o.Convert}}
	if set := m.reset[o.Subresource]; set != nil {
		// kube filters the request's version; every version shares the
		// schema here, so every version is filtered alike.
		f := fieldpath.NewExcludeSetFilter(set)
		b.IgnoreFilter = map[fieldpath.APIVersion]fieldpath.Filter{c.gv: f}
		for _, vs := range fields {
			b.IgnoreFilter[vs.APIVersion()] = f
		}
	}
	c.updater = b.BuildUpdater()
	return c
}

// identity is the writer's identity for an entry of operation ("unknown"
// manager when none is given, as kube).
func (o Options) identity(operation string) identity {
	id := identity{Manager: o.Manager, Operation: operation, APIVersion: o.APIVersion, Subresource: o.Subresource}
	if id.Manager == "" {
		id.Manager = "unknown"
	}
	return id
}

// Update records a non-apply write (create, update, patch) the way
// kube-apiserver does: it returns obj with metadata.managedFields
// maintained. live is the stored object, nil for a create.
//
// The request's managedFields are taken as the new tracked state when they
// decode (a client may edit them; `[]` or `[{}]` clears them); otherwise,
// and always for subresources, live's are. An object whose managedFields
// are empty is only tracked from its creation: updating an object that has
// none adds none. The manager then owns every field the write added or
// changed; other managers lose the fields that changed or went away.
// Identity and metadata fields (apiVersion, kind, metadata.name,
// namespace, uid, resourceVersion, generation, creationTimestamp,
// managedFields, selfLink) are never owned; entries left empty are
// dropped; past 10 Update entries the oldest merge into "ancient-changes".
//
// Update never fails: if the objects do not fit the schema the result has
// no managedFields, as kube-apiserver 1.33 does. Call it with the object
// about to be stored: after unknown fields are pruned and defaults set,
// before admission. live and obj are not modified; the result shares all
// but its metadata with obj.
func (m *Manager) Update(live, obj meta.Object, o Options) (result meta.Object) {
	defer func() {
		if r := recover(); r != nil {
			recovered(r)
			result = withManagedFields(obj, nil)
		}
	}()

	// 1. Choose the tracked state: the request's, or the live object's.
	reqMF, reqHas := obj.Metadata()["managedFields"]
	var mf managed
	switch {
	case o.Subresource != "":
		mf = decodeOrEmpty(live)
	case isReset(reqMF, reqHas):
		mf = newManaged()
	default:
		var err error
		if mf, err = decodeManaged(reqMF); err != nil || len(mf.fields) == 0 {
			mf = decodeOrEmpty(live)
		}
	}
	out := withManagedFields(obj, nil)

	// 2. Objects without managedFields are tracked from creation only.
	create := live == nil || live.UID() == ""
	if len(mf.fields) == 0 && !create {
		return out
	}
	if live == nil && len(mf.fields) == 0 {
		if entries, ok := m.createFast(o, out); ok {
			return withManagedFieldsInPlace(out, entries)
		}
	}
	c := m.newCall(o, mf.fields)

	// 3. Compute the new ownership: the walk of compare.go, or SMD's
	// where that walk is not sure.
	fields, ok := m.updateFast(c, live, out, mf.fields)
	if !ok {
		var err error
		if fields, err = m.updateSMD(c, live, out, mf.fields); err != nil {
			return out
		}
	}
	mf = m.record(c, fields, mf, c.identity(OperationUpdate))

	// 4. Encode, into out's metadata, which is out's own.
	entries, err := encodeManaged(mf)
	if err != nil {
		return out
	}
	return withManagedFieldsInPlace(out, entries)
}

// emptyTyped is the typed value of empty(apiVersion), what a create is
// compared against: made once per version, and only read afterwards.
func (m *Manager) emptyTyped(apiVersion string) (*typed.TypedValue, error) {
	if tv, ok := m.emptyTVs.Load(apiVersion); ok {
		return tv.(*typed.TypedValue), nil
	}
	tv, err := m.typed.FromUnstructured(map[string]any(m.emptyObject(apiVersion)), typed.AllowDuplicates)
	if err != nil {
		return nil, err
	}
	m.emptyTVs.Store(apiVersion, tv)
	return tv, nil
}

// emptyObject is empty(apiVersion) made once per version: never modify it.
func (m *Manager) emptyObject(apiVersion string) meta.Object {
	if o, ok := m.emptyObjects.Load(apiVersion); ok {
		return o.(meta.Object)
	}
	o := m.empty(apiVersion)
	m.emptyObjects.Store(apiVersion, o)
	return o
}

// updateSMD is what updateFast computes, by structured-merge-diff: both
// objects validated into typed values (live nil: the empty object), then
// Updater.Update under currentOperation.
func (m *Manager) updateSMD(c *call, live, obj meta.Object, fields fieldpath.ManagedFields) (fieldpath.ManagedFields, error) {
	var liveTV *typed.TypedValue
	var err error
	if live == nil {
		liveTV, err = m.emptyTyped(c.APIVersion)
	} else {
		liveTV, err = m.typed.FromUnstructured(plain(live), typed.AllowDuplicates)
	}
	if err != nil {
		return nil, err
	}
	newTV, err := m.typed.FromUnstructured(plain(obj), typed.AllowDuplicates)
	if err != nil {
		return nil, err
	}
	_, out, err := c.updater.Update(liveTV, newTV, c.gv, fields.Copy(), currentOperation)
	return out, err
}

// track is a non-apply write by id from liveTV to newTV: SMD's
// Updater.Update under a temporary manager, then record
// (apimachinery's managedFieldsUpdater, stripMetaManager).
func (m *Manager) track(c *call, liveTV, newTV *typed.TypedValue, mf managed, id identity) (managed, error) {
	_, fields, err := c.updater.Update(liveTV, newTV, c.gv, mf.fields.Copy(), currentOperation)
	if err != nil {
		return managed{}, err
	}
	return m.record(c, fields, mf, id), nil
}

// currentOperation is the temporary manager a non-apply write's fields
// are first given to.
const currentOperation = "current-operation"

// record moves currentOperation's fields in fields (minus the metadata
// nobody owns) to id's entry, stamped with the time when there are any;
// then the Update entries are capped.
func (m *Manager) record(c *call, fields fieldpath.ManagedFields, mf managed, id identity) managed {
	const self = currentOperation
	times := maps.Clone(mf.times)
	stripMeta(fields, self)
	if vs, ok := fields[self]; ok {
		delete(fields, self)
		key := id.String()
		if prev, ok := fields[key]; ok {
			fields[key] = fieldpath.NewVersionedSet(vs.Set().Union(prev.Set()), vs.APIVersion(), vs.Applied())
		} else {
			fields[key] = vs
		}
		times[key] = c.Now
	}
	out := managed{fields: fields, times: times}
	capUpdateManagers(out)
	return out
}

// Apply merges a server-side apply request into live (nil when the object
// does not exist yet) and returns the result with metadata.managedFields
// maintained, as kube-apiserver does:
//
//   - the applier's entry (one per manager and subresource, whatever the
//     version) owns exactly the fields of applied;
//   - fields it applied before and omits now are removed, unless another
//     manager owns them;
//   - a field owned by another manager whose value the apply changes is a
//     conflict: Apply fails with a 409 *meta.Status listing them, unless
//     o.Force, which takes the fields over; applying the value a field
//     already has shares its ownership instead;
//   - an existing object without managedFields first gets an Update entry
//     "before-first-apply" owning everything it has;
//   - for the manager "kubectl", fields client-side `kubectl apply`
//     managed (per the last-applied-configuration annotation) are taken
//     over without conflict, and that annotation is kept up to date.
//
// Errors are *meta.Status: 400 for an applied object of another kind or
// version ("invalid object type: ...") or one that sets
// metadata.managedFields, 409 for conflicts, 500 (kube's messages) for an
// applied object that does not fit the schema ("failed to create typed
// patch object ...: .spec.x: field not declared in schema") and for live
// managedFields that do not decode.
//
// applied must not have been pruned or defaulted; the result should then
// be, like any write. An apply that creates a built-in object starts, as
// kube's does, from the kind's Go zero value, so the result also carries
// its always-serialized fields (metadata.creationTimestamp: null,
// status: {}, ...). live and applied are not modified and the result
// shares nothing with them.
func (m *Manager) Apply(live, applied meta.Object, o Options) (result meta.Object, err error) {
	defer func() {
		if r := recover(); r != nil {
			recovered(r)
			result, err = nil, internalError("fieldmanager: internal error: %v", r)
		}
	}()

	// 1. The tracked state is the live object's.
	var mf managed
	if live != nil {
		if mf, err = decodeManaged(live.Metadata()["managedFields"]); err != nil {
			return nil, internalError("failed to decode managed fields: %v", err)
		}
	} else {
		mf = newManaged()
	}
	c := m.newCall(o, mf.fields)
	if live == nil {
		live = m.empty(c.APIVersion)
	}

	// 2. The applied object must be of the endpoint's kind and version.
	want := gvkOf(meta.Object{"apiVersion": c.APIVersion, "kind": m.gvk.Kind})
	if got := gvkOf(applied); got != want {
		return nil, meta.BadRequest(fmt.Sprintf("invalid object type: %s", gvkString(got)))
	}

	// 3. Merge; for kubectl, retry with force when every conflict is on a
	// field client-side apply owned.
	out, mf2, err := m.apply(c, live, applied, mf, c.Force)
	var conflicts merge.Conflicts
	if errors.As(err, &conflicts) && c.Manager == kubectlManager {
		if allowed, aerr := m.allowedConflicts(live, c.APIVersion); aerr == nil {
			if rest := conflictsOutside(conflicts, allowed); len(rest) > 0 {
				err = rest
			} else {
				out, mf2, err = m.apply(c, live, applied, mf, true)
			}
		}
	}
	if errors.As(err, &conflicts) {
		return nil, conflictStatus(conflicts)
	}
	if err != nil {
		return nil, err
	}

	// 4. Keep kubectl's last-applied annotation in step, then encode.
	if c.Manager == kubectlManager {
		updateLastApplied(out, applied)
	}
	entries, err := encodeManaged(mf2)
	if err != nil {
		return nil, internalError("failed to encode managed fields: %v", err)
	}
	return withManagedFieldsInPlace(out, entries), nil
}

// apply is one attempt at an apply: the before-first-apply entry for an
// untracked object, SMD's Updater.Apply, the metadata nobody owns removed
// from the applier's entry, its time stamped when the object changed. The
// result is a new object the caller owns.
func (m *Manager) apply(c *call, live, applied meta.Object, mf managed, force bool) (meta.Object, managed, error) {
	liveTV, err := m.typed.FromUnstructured(plain(live), typed.AllowDuplicates)
	if len(mf.fields) == 0 {
		// Give what the object already has to "before-first-apply", an
		// Update from an empty object to live.
		if err != nil {
			return nil, managed{}, internalError("failed to create manager for existing fields: failed to convert new object (%s) to smd typed: %v", objectGVKNN(live), err)
		}
		emptyTV, eerr := m.typed.FromUnstructured(map[string]any(m.empty(c.APIVersion)), typed.AllowDuplicates)
		if eerr != nil {
			return nil, managed{}, internalError("failed to create manager for existing fields: failed to convert live object (%s) to smd typed: %v", objectGVKNN(live), eerr)
		}
		before := identity{Manager: "before-first-apply", Operation: OperationUpdate, APIVersion: c.APIVersion, Subresource: c.Subresource}
		if mf, err = m.track(c, emptyTV, liveTV, mf, before); err != nil {
			return nil, managed{}, internalError("failed to create manager for existing fields: failed to update ManagedFields (%s): %v", objectGVKNN(live), err)
		}
	}
	if setsManagedFields(applied) {
		return nil, managed{}, meta.BadRequest("metadata.managedFields must be nil")
	}
	appliedTV, aerr := m.typed.FromUnstructured(map[string]any(applied))
	if aerr != nil {
		return nil, managed{}, internalError("failed to create typed patch object (%s): %v", objectGVKNN(applied), aerr)
	}
	if err != nil {
		return nil, managed{}, internalError("failed to create typed live object (%s): %v", objectGVKNN(live), err)
	}
	key := c.identity(OperationApply).String()
	newTV, fields, err := c.updater.Apply(liveTV, appliedTV, c.gv, mf.fields.Copy(), key, force)
	if err != nil {
		var conflicts merge.Conflicts
		if errors.As(err, &conflicts) {
			return nil, managed{}, conflicts
		}
		return nil, managed{}, internalError("%v", err)
	}
	times := maps.Clone(mf.times)
	stripMeta(fields, key)
	var out meta.Object
	if newTV == nil {
		// Nothing changed: the live object, and no new time.
		out = live.DeepCopy()
	} else {
		u, ok := newTV.AsValue().Unstructured().(map[string]any)
		if !ok {
			return nil, managed{}, internalError("failed to convert new typed object (%s) to object", objectGVKNN(applied))
		}
		out = meta.Object(u).DeepCopy()
		times[key] = c.Now
	}
	return out, managed{fields: fields, times: times}, nil
}

// panicHook, when set by a test, learns of every panic Update and Apply
// recover from; the fuzz tests fail on any.
var panicHook func(any)

// recovered reports a panic recovered from: none is expected, the
// recovery is a last line of defence that keeps a request from crashing
// the server.
func recovered(r any) {
	if panicHook != nil {
		panicHook(r)
	}
}

// stripSet is the metadata no manager may own (apimachinery's
// stripMetaManager).
var stripSet = fieldpath.NewSet(
	fieldpath.MakePathOrDie("apiVersion"),
	fieldpath.MakePathOrDie("kind"),
	fieldpath.MakePathOrDie("metadata"),
	fieldpath.MakePathOrDie("metadata", "name"),
	fieldpath.MakePathOrDie("metadata", "namespace"),
	fieldpath.MakePathOrDie("metadata", "creationTimestamp"),
	fieldpath.MakePathOrDie("metadata", "selfLink"),
	fieldpath.MakePathOrDie("metadata", "uid"),
	fieldpath.MakePathOrDie("metadata", "clusterName"),
	fieldpath.MakePathOrDie("metadata", "generation"),
	fieldpath.MakePathOrDie("metadata", "managedFields"),
	fieldpath.MakePathOrDie("metadata", "resourceVersion"),
)

// stripMeta removes stripSet from one manager's entry, and the entry when
// nothing is left.
func stripMeta(fields fieldpath.ManagedFields, key string) {
	vs, ok := fields[key]
	if !ok {
		return
	}
	set := vs.Set().Difference(stripSet)
	if set.Empty() {
		delete(fields, key)
		return
	}
	fields[key] = fieldpath.NewVersionedSet(set, vs.APIVersion(), vs.Applied())
}

// withManagedFields returns a copy of obj (sharing all but metadata) whose
// metadata.managedFields are entries, or absent when entries is nil.
func withManagedFields(obj meta.Object, entries []any) meta.Object {
	out := maps.Clone(obj)
	if out == nil {
		out = meta.Object{}
	}
	md := maps.Clone(obj.Metadata())
	if md == nil {
		if entries == nil {
			return out
		}
		md = map[string]any{}
	}
	if entries == nil {
		delete(md, "managedFields")
	} else {
		md["managedFields"] = entries
	}
	out["metadata"] = md
	return out
}

// withManagedFieldsInPlace sets (or removes) obj's managedFields; obj must
// be owned by the caller.
func withManagedFieldsInPlace(obj meta.Object, entries []any) meta.Object {
	if entries == nil {
		if md := obj.Metadata(); md != nil {
			delete(md, "managedFields")
		}
		return obj
	}
	obj.MetadataForWrite()["managedFields"] = entries
	return obj
}

// versionConverter is SMD's version converter. Without Options.Convert
// every version of the kind shares one schema, so conversion is the
// identity; with it, objects are converted by it and read with the
// target version's schema. Versions the kind does not serve are
// "missing", which makes SMD drop the entries recorded at them.
type versionConverter struct {
	m       *Manager
	current string
	convert Converter
}

var errMissingVersion = errors.New("fieldmanager: no such version of the kind")

func (c versionConverter) Convert(tv *typed.TypedValue, version fieldpath.APIVersion) (*typed.TypedValue, error) {
	v := string(version)
	if strings.Count(v, "/") > 1 {
		return tv, fmt.Errorf("unexpected GroupVersion string: %v", v)
	}
	if v != c.current && !c.m.versions[v] {
		return tv, errMissingVersion
	}
	if c.convert == nil {
		return tv, nil
	}
	obj, ok := tv.AsValue().Unstructured().(map[string]any)
	if from, _ := obj["apiVersion"].(string); !ok || from == "" || from == v {
		return tv, nil
	}
	out, err := c.convert(obj, v)
	if err != nil {
		return nil, err
	}
	t, ok := c.m.typedOf[v]
	if !ok {
		t = c.m.typed
	}
	return t.FromUnstructured(out, typed.AllowDuplicates)
}

func (versionConverter) IsMissingVersionError(err error) bool { return err == errMissingVersion }

// internalError is the 500 kube-apiserver sends for an error that is not
// a Status: no reason, the error's text as message.
func internalError(format string, args ...any) *meta.Status {
	return &meta.Status{
		Kind: "Status", APIVersion: "v1", Status: "Failure",
		Code: http.StatusInternalServerError, Message: fmt.Sprintf(format, args...),
	}
}

// gvkOf is kube's FromAPIVersionAndKind: an apiVersion with more than one
// slash does not parse and leaves group and version empty.
func gvkOf(obj meta.Object) meta.GroupVersionKind {
	av := obj.APIVersion()
	if strings.Count(av, "/") > 1 {
		return meta.GroupVersionKind{Kind: obj.Kind()}
	}
	gv := meta.ParseGroupVersion(av)
	return meta.GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: obj.Kind()}
}

// gvkString is schema.GroupVersionKind's String: "apps/v1, Kind=Deployment",
// "/v1, Kind=ConfigMap".
func gvkString(gvk meta.GroupVersionKind) string {
	return gvk.Group + "/" + gvk.Version + ", Kind=" + gvk.Kind
}

// objectGVKNN names an object in kube's internal errors:
// "namespace/name; group/version, Kind=Kind".
func objectGVKNN(obj meta.Object) string {
	return fmt.Sprintf("%s/%s; %s", obj.Namespace(), obj.Name(), gvkString(gvkOf(obj)))
}
