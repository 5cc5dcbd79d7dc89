package apiserver

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver/webhook"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/store"
)

// crdResource is apiextensions.k8s.io/v1 CustomResourceDefinitions: every
// server serves them, so that `kubectl apply -f crd.yaml` makes new
// resource types available at once, as on a cluster.
var crdResource = Resource{
	Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition",
	Plural: "customresourcedefinitions", ShortNames: []string{"crd", "crds"}, Categories: []string{"api-extensions"},
	StatusSubresource: true, ReturnDeletedObject: true,
	PrinterColumns: []PrinterColumn{{Name: "Created At", Type: "date", Description: creationTimestampDescription,
		Cell: func(o meta.Object, _ time.Time) any { return o.CreationTimestamp() }}},
	Strategy: CRDStrategy{}, Scheme: "apiextensions-apiserver",
}

// CRDStrategy is what a CustomResourceDefinition does differently, as
// apiextensions-apiserver does it: a new CRD gets its conversion default
// and an initial status; it is validated for what the server serves from
// it; once stored it is established at once and its custom resources are
// served before the write is answered; a DELETE adds the cleanup
// finalizer, deletes every custom resource and then the CRD. A
// registration of apiextensions.k8s.io/v1 CRDs with a strategy of its own
// should embed it.
type CRDStrategy struct{ GenericStrategy }

// crdCleanupFinalizer holds a deleted CRD until its custom resources are gone.
const crdCleanupFinalizer = "customresourcecleanup.apiextensions.k8s.io"

// Default is apiextensions' defaulting of a CRD, on every write: the
// singular name (the kind lower-cased), the list kind (kind + "List") and
// spec.conversion's defaults when absent.
func (CRDStrategy) Default(obj meta.Object) {
	spec, _ := obj["spec"].(map[string]any)
	if spec == nil {
		return
	}
	if names, _ := spec["names"].(map[string]any); names != nil {
		kind, _ := names["kind"].(string)
		if s, _ := names["singular"].(string); s == "" {
			names["singular"] = strings.ToLower(kind)
		}
		if lk, _ := names["listKind"].(string); lk == "" && kind != "" {
			names["listKind"] = kind + "List"
		}
	}
	defaultConversion(spec)
	versions, _ := spec["versions"].([]any)
	for _, v := range versions {
		if vm, ok := v.(map[string]any); ok {
			sch, _ := meta.NestedField(vm, "schema", "openAPIV3Schema")
			dropUnknownSchemaKeys(sch, false)
		}
	}
}

// jsonSchemaPropsKeys are the fields of apiextensions/v1 JSONSchemaProps.
var jsonSchemaPropsKeys = map[string]bool{
	"id": true, "$schema": true, "$ref": true, "description": true, "type": true, "format": true, "title": true,
	"default": true, "maximum": true, "exclusiveMaximum": true, "minimum": true, "exclusiveMinimum": true,
	"maxLength": true, "minLength": true, "pattern": true, "maxItems": true, "minItems": true, "uniqueItems": true,
	"multipleOf": true, "enum": true, "maxProperties": true, "minProperties": true, "required": true, "items": true,
	"allOf": true, "oneOf": true, "anyOf": true, "not": true, "properties": true, "additionalProperties": true,
	"patternProperties": true, "dependencies": true, "additionalItems": true, "definitions": true,
	"externalDocs": true, "example": true, "nullable": true, "x-kubernetes-preserve-unknown-fields": true,
	"x-kubernetes-embedded-resource": true, "x-kubernetes-int-or-string": true, "x-kubernetes-list-map-keys": true,
	"x-kubernetes-list-type": true, "x-kubernetes-map-type": true, "x-kubernetes-validations": true,
}

// dropUnknownSchemaKeys drops what is not a JSONSchemaProps field from the
// schemas under items, additionalProperties, additionalItems and
// dependencies: their Go types (JSONSchemaPropsOrArray, OrBool,
// OrStringArray) decode a schema leniently, so kube drops unknown keys
// there without a warning, where the kind's published schema, untyped,
// keeps them. Elsewhere (inOr false) the schema has pruned or reported
// them already.
func dropUnknownSchemaKeys(v any, inOr bool) {
	s, ok := v.(map[string]any)
	if !ok {
		return
	}
	if inOr {
		for k := range s {
			if !jsonSchemaPropsKeys[k] {
				delete(s, k)
			}
		}
	}
	for _, k := range []string{"properties", "patternProperties", "definitions"} {
		if m, ok := s[k].(map[string]any); ok {
			for _, e := range m {
				dropUnknownSchemaKeys(e, inOr)
			}
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		l, _ := s[k].([]any)
		for _, e := range l {
			dropUnknownSchemaKeys(e, inOr)
		}
	}
	dropUnknownSchemaKeys(s["not"], inOr)
	for _, k := range []string{"items", "additionalItems"} {
		if l, ok := s[k].([]any); ok {
			for _, e := range l {
				dropUnknownSchemaKeys(e, true)
			}
		} else {
			dropUnknownSchemaKeys(s[k], true)
		}
	}
	dropUnknownSchemaKeys(s["additionalProperties"], true)
	if m, ok := s["dependencies"].(map[string]any); ok {
		for _, e := range m {
			dropUnknownSchemaKeys(e, true)
		}
	}
}

// PrepareForCreate sets a new CRD's initial status.
func (CRDStrategy) PrepareForCreate(_ *Write, obj meta.Object) { prepareCRD(obj) }

// defaultConversion sets spec.conversion's defaults: strategy None when
// it has none, a webhook service's port 443.
func defaultConversion(spec map[string]any) {
	conv, ok := spec["conversion"].(map[string]any)
	if !ok {
		if _, set := spec["conversion"]; !set {
			spec["conversion"] = map[string]any{"strategy": "None"}
		}
		return
	}
	if svc, ok := meta.NestedField(conv, "webhook", "clientConfig", "service"); ok {
		if m, ok := svc.(map[string]any); ok && m["port"] == nil {
			m["port"] = int64(443)
		}
	}
}

// Validate checks a new CRD. The schemas it parses to check them serve the
// CRD once it is stored, unless it is a dry run.
func (CRDStrategy) Validate(w *Write, obj meta.Object) meta.FieldErrors {
	errs, parsed := validateCRD(obj, nil)
	if len(errs) == 0 && !w.DryRun {
		if spec, err := readCRD(obj, parsed); err == nil {
			w.s.crdSpecs.Store(obj.Name(), &servedCRD{uid: obj.UID(), generation: obj.Generation(), spec: spec})
		}
	}
	return errs
}

// ValidateUpdate checks a CRD's spec update; its status is the server's.
func (CRDStrategy) ValidateUpdate(w *Write, obj, old meta.Object) meta.FieldErrors {
	if w.Subresource != "" {
		return nil
	}
	errs, _ := validateCRD(obj, old)
	return errs
}

// PrepareForDelete marks the CRD Terminating with the cleanup finalizer:
// it is always kept until AfterWrite has deleted its custom resources.
func (CRDStrategy) PrepareForDelete(_ *Write, obj meta.Object) (bool, error) {
	markCRDTerminating(obj)
	return true, nil
}

// AfterWrite establishes a written CRD and serves its types before the
// write is answered, or, for a CRD marked for deletion, deletes its custom
// resources and then the CRD.
func (CRDStrategy) AfterWrite(w *Write, stored *store.Object) (*store.Object, error) {
	s, ctx := w.s, w.Context
	if stored.Data().DeletionTimestamp() != "" {
		return stored, s.cleanupCRD(ctx, stored)
	}
	if err := s.establishCRD(ctx, stored.Key()); err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	if err := s.refreshCRD(ctx, stored.Data().Name()); err != nil {
		return nil, err
	}
	if latest, err := s.store.Get(ctx, stored.Key()); err == nil {
		return latest, nil
	}
	return stored, nil
}

// crdVersion is what the server reads from one entry of spec.versions.
type crdVersion struct {
	name             string
	served, storage  bool
	schema           *schema.Schema
	status           bool
	scale            *Scale
	columns          []PrinterColumn
	selectableFields []string
}

// crdSpec is a CRD's spec as the server uses it.
type crdSpec struct {
	group                            string
	plural, singular, kind, listKind string
	shortNames, categories           []string
	namespaced                       bool
	versions                         []crdVersion
	// conversion is the conversion webhook (nil: strategy None).
	conversion *crdConversion
}

func str(m map[string]any, k string) string { s, _ := m[k].(string); return s }

// readCRD reads a validated CRD; parsed holds the schemas of the versions
// already parsed, by index in spec.versions (nil: none).
func readCRD(obj meta.Object, parsed map[int]*schema.Schema) (crdSpec, error) {
	spec, _ := obj["spec"].(map[string]any)
	names, _ := spec["names"].(map[string]any)
	c := crdSpec{
		group: str(spec, "group"), plural: str(names, "plural"), singular: str(names, "singular"),
		kind: str(names, "kind"), listKind: str(names, "listKind"),
		shortNames: meta.AsStrings(names["shortNames"]), categories: meta.AsStrings(names["categories"]),
		namespaced: str(spec, "scope") == "Namespaced",
	}
	if c.singular == "" {
		c.singular = strings.ToLower(c.kind)
	}
	if c.listKind == "" {
		c.listKind = c.kind + "List"
	}
	c.conversion = readConversion(spec, c.group, c.kind)
	versions, _ := spec["versions"].([]any)
	for i, v := range versions {
		vm, _ := v.(map[string]any)
		cv := crdVersion{name: str(vm, "name")}
		cv.served, _ = vm["served"].(bool)
		cv.storage, _ = vm["storage"].(bool)
		if sch, ok := meta.NestedField(vm, "schema", "openAPIV3Schema"); ok {
			cv.schema = parsed[i]
			if cv.schema == nil {
				s, _, err := schema.ParseWithOptions(sch, schema.ParseOptions{Validated: true})
				if err != nil {
					return c, err
				}
				cv.schema = s
			}
		}
		_, cv.status = meta.NestedField(vm, "subresources", "status")
		if sc, ok := meta.NestedField(vm, "subresources", "scale"); ok {
			m, _ := sc.(map[string]any)
			cv.scale = &Scale{SpecReplicasPath: str(m, "specReplicasPath"), StatusReplicasPath: str(m, "statusReplicasPath"),
				LabelSelectorPath: str(m, "labelSelectorPath")}
		}
		for _, col := range meta.AsMaps(vm["additionalPrinterColumns"]) {
			p := PrinterColumn{Name: str(col, "name"), Type: str(col, "type"), Format: str(col, "format"),
				Description: str(col, "description"), JSONPath: str(col, "jsonPath")}
			if p.Description == "" {
				p.Description = "Custom resource definition column (in JSONPath format): " + p.JSONPath
			}
			if n, ok := meta.AsInt64(col["priority"]); ok {
				p.Priority = int32(n)
			}
			cv.columns = append(cv.columns, p)
		}
		for _, f := range meta.AsMaps(vm["selectableFields"]) {
			cv.selectableFields = append(cv.selectableFields, strings.TrimPrefix(str(f, "jsonPath"), "."))
		}
		c.versions = append(c.versions, cv)
		if c.conversion != nil && cv.schema != nil {
			c.conversion.schemas[c.group+"/"+cv.name] = cv.schema
		}
	}
	return c, nil
}

// storageVersion is the apiVersion custom resources are stored in.
func (c crdSpec) storageVersion() string {
	for _, v := range c.versions {
		if v.storage {
			return c.group + "/" + v.name
		}
	}
	return ""
}

// resources are the registrations that serve a CRD's custom resources: one
// per served version, sharing storage.
func (c crdSpec) resources(schemaRevision int64) []Resource {
	var out []Resource
	for _, v := range c.versions {
		if !v.served {
			continue
		}
		r := Resource{
			Group: c.group, Version: v.name, Kind: c.kind, Plural: c.plural, Singular: c.singular,
			ListKind: c.listKind, ShortNames: c.shortNames, Categories: c.categories, Namespaced: c.namespaced,
			StatusSubresource: v.status, Schema: v.schema, PrinterColumns: v.columns,
			SelectableFields: v.selectableFields, customResource: true, storageVersion: c.storageVersion(),
			Scale: v.scale, schemaRevision: schemaRevision, conversion: c.conversion,
			GenericDelete: true, Strategy: customResourceStrategy{},
		}
		for _, other := range c.versions {
			if other.served && other.name != v.name {
				r.otherVersions = append(r.otherVersions, other.name)
			}
		}
		if len(r.PrinterColumns) == 0 {
			r.PrinterColumns = []PrinterColumn{{Name: "Age", Type: "date", JSONPath: ".metadata.creationTimestamp",
				Description: "Custom resource definition column (in JSONPath format): .metadata.creationTimestamp"}}
		}
		out = append(out, r)
	}
	return out
}

// servedCRD is what the server derives from one stored version of a CRD:
// its spec read (schemas parsed), whether it is established or being
// deleted, and the defaulted registrations of its served versions. It is
// computed once per stored version (store.Object.Derived), and a version
// that changes only the status or metadata (same uid and generation)
// takes its predecessor's spec and registrations, so a CRD write, a
// registry rebuild or a server start never parses an unchanged CRD again,
// and a custom resource type keeps its field manager across rebuilds.
type servedCRD struct {
	uid         string
	generation  int64
	established bool
	deleting    bool
	spec        crdSpec
	// resources registers the served versions. unreadable marks a CRD
	// that serves nothing (a schema this server cannot read, names that do
	// not default: validated when written, so only CRDs written by another
	// server); its resources are nil.
	resources  []Resource
	unreadable bool
}

// servedCRDKey derives a servedCRD per webhook configuration: servers on
// one store (kapitest's clones of one template, servers over one etcd
// cache) share a stored CRD's registrations when none calls webhooks; a
// server that calls them gets its own, whose conversion calls through its
// clients.
type servedCRDKey struct{ calls *webhook.Dispatcher }

// crdSpecKey derives a stored CRD version's parsed spec, shared by every
// server on the store: parsing the schemas is most of what serving a CRD
// costs.
type crdSpecKey struct{}

type parsedCRD struct {
	spec crdSpec
	err  error
}

// servedCRDOf returns what obj, a stored version of a CRD, serves. Two
// first callers may both compute it; the first stored is kept.
func (s *Server) servedCRDOf(obj *store.Object) *servedCRD {
	key := servedCRDKey{s.webhookCalls}
	if v, err := obj.Derived(key, func(meta.Object) (any, error) { return nil, errNotCached }); err == nil {
		return v.(*servedCRD)
	}
	d := obj.Data()
	sc := &servedCRD{uid: d.UID(), generation: d.Generation(), established: crdEstablished(d),
		deleting: d.DeletionTimestamp() != ""}
	p, _ := s.crdSpecs.Load(d.Name())
	if prev, _ := p.(*servedCRD); prev != nil && prev.uid == sc.uid && prev.generation == sc.generation {
		sc.spec, sc.resources, sc.unreadable = prev.spec, prev.resources, prev.unreadable
	} else if parsed := parseStoredCRD(obj); parsed.err == nil {
		sc.spec = parsed.spec
	} else {
		sc.unreadable = true
	}
	if !sc.unreadable && sc.resources == nil {
		if sc.spec.conversion != nil && s.webhookCalls != nil {
			sc.spec.conversion = sc.spec.conversion.withClients(s.webhookCalls.Clients)
		}
		sc.resources = sc.spec.resources(obj.Revision())
		for i := range sc.resources {
			var err error
			if sc.resources[i], err = sc.resources[i].withDefaults(); err != nil {
				sc.resources, sc.unreadable = nil, true
				break
			}
		}
	}
	v, _ := obj.Derived(key, func(meta.Object) (any, error) { return sc, nil })
	s.crdSpecs.Store(d.Name(), v)
	return v.(*servedCRD)
}

// parseStoredCRD reads the spec of a stored CRD version once for every
// server on the store.
func parseStoredCRD(obj *store.Object) parsedCRD {
	v, _ := obj.Derived(crdSpecKey{}, func(d meta.Object) (any, error) {
		spec, err := readCRD(d, nil)
		return parsedCRD{spec, err}, nil
	})
	return v.(parsedCRD)
}

// loadRegistry builds the registry from the configured types and every
// established CRD in the store, and publishes it (at start, and when
// FollowCRDs starts over); it returns the revision of the CRDs it read.
func (s *Server) loadRegistry(ctx context.Context) (int64, error) {
	notify := func() {}
	defer func() { notify() }() // after the unlock below
	s.registryMu.Lock()
	defer s.registryMu.Unlock()
	static := make([]*Resource, len(s.staticResources))
	for i := range s.staticResources {
		static[i] = &s.staticResources[i]
	}
	var crds []crdTypes
	rev := s.store.Revision()
	if s.crds != nil {
		page, err := s.store.List(ctx, s.crds.collectionPrefix(""), store.ListOptions{})
		if err != nil {
			return 0, err
		}
		rev = page.Revision
		for _, it := range page.Items {
			// The name is the key's last part: a stored version's data may
			// be compacted, and decoding it only for its name would undo
			// what servedCRDOf caches.
			name := it.Key()[strings.LastIndexByte(it.Key(), '/')+1:]
			if c := s.servedCRDOf(it).types(name); c.resources != nil {
				crds = append(crds, c)
			}
		}
	}
	reg, err := newRegistry(static, crds)
	if err != nil {
		return 0, err
	}
	notify = s.publishRegistry(ctx, reg)
	return rev, nil
}

// refreshCRD publishes a registry in which the CRD name serves what its
// stored version serves (nothing once it is gone, being deleted or not
// established). Writes of CRDs call it before answering, so a new type is
// served by the time its CRD's create returns.
func (s *Server) refreshCRD(ctx context.Context, name string) error {
	notify := func() {}
	defer func() { notify() }() // after the unlock below
	s.registryMu.Lock()
	defer s.registryMu.Unlock()
	var c crdTypes
	obj, err := s.store.Get(ctx, s.crds.key("", name))
	switch {
	case err == nil:
		c = s.servedCRDOf(obj).types(name)
	case !errors.Is(err, store.ErrNotFound):
		return err
	}
	notify = s.publishRegistry(ctx, s.registry.Load().withCRD(name, c.resources))
	return nil
}

// publishRegistry makes reg the served registry; registryMu is held. It
// returns what to run once registryMu is released: the hooks of
// OnCRDGroupVersionsChange, when the group versions CRDs serve changed.
func (s *Server) publishRegistry(ctx context.Context, reg *registry) func() {
	old := s.registry.Swap(reg)
	if old == nil || len(s.crdGroupVersionHooks) == 0 || slices.Equal(old.crdGroupVersions(), reg.crdGroupVersions()) {
		return func() {}
	}
	hooks := slices.Clone(s.crdGroupVersionHooks)
	return func() {
		ctx := context.WithoutCancel(ctx)
		for _, f := range hooks {
			f(ctx)
		}
	}
}

// OnCRDGroupVersionsChange has f called whenever the group versions that
// custom resources are served in change (a CRD written through this
// server, or through another one when the server follows CRDs), after the
// change is served. f reads the current ones with CRDGroupVersions: calls
// may overlap, so it reconciles with what is served when it runs (kube's
// CRD registration controller keeps an APIService per group version so).
// Register hooks at start, in a PostStartHook.
func (s *Server) OnCRDGroupVersionsChange(f func(ctx context.Context)) {
	s.registryMu.Lock()
	defer s.registryMu.Unlock()
	s.crdGroupVersionHooks = append(s.crdGroupVersionHooks, f)
}

// CRDGroupVersions are the group versions custom resources are served in
// now, sorted.
func (s *Server) CRDGroupVersions() []meta.GroupVersion {
	return s.registry.Load().crdGroupVersions()
}

// types are the registrations a CRD version serves: none unless it is
// established and not being deleted.
func (sc *servedCRD) types(name string) crdTypes {
	c := crdTypes{name: name}
	if sc.deleting || !sc.established || sc.unreadable {
		return c
	}
	for i := range sc.resources {
		c.resources = append(c.resources, &sc.resources[i])
	}
	return c
}

func crdEstablished(obj meta.Object) bool {
	conds, _ := meta.NestedField(obj, "status", "conditions")
	for _, c := range meta.AsMaps(conds) {
		if str(c, "type") == "Established" && str(c, "status") == "True" {
			return true
		}
	}
	return false
}

// prepareCRD sets a new CRD's initial status.
func prepareCRD(obj meta.Object) {
	spec, _ := obj["spec"].(map[string]any)
	if spec == nil {
		return
	}
	var stored []any
	versions, _ := spec["versions"].([]any)
	for _, v := range meta.AsMaps(versions) {
		if st, _ := v["storage"].(bool); st {
			stored = []any{str(v, "name")}
		}
	}
	obj["status"] = map[string]any{
		"conditions": nil, "acceptedNames": map[string]any{"plural": "", "kind": ""}, "storedVersions": stored,
	}
}

// establishCRD accepts a new or changed CRD's names and marks it
// Established, as kube-apiserver's controllers do right after a write,
// unless its names conflict with another type's.
func (s *Server) establishCRD(ctx context.Context, key string) error {
	_, err := s.store.Update(ctx, key, store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
		obj := cur.Data()
		if obj.DeletionTimestamp() != "" {
			return nil, store.ErrNoChange
		}
		sc := s.servedCRDOf(cur)
		if sc.resources == nil {
			return nil, store.ErrNoChange
		}
		c := sc.spec
		// Only the status changes: the new version shares the rest, which
		// stored versions never change, and owns its metadata, which the
		// store stamps.
		next := maps.Clone(obj)
		next["metadata"] = maps.Clone(obj.Metadata())
		status, _ := meta.DeepCopyValue(obj["status"]).(map[string]any)
		if status == nil {
			status = map[string]any{}
		}
		next["status"] = status
		now := meta.FormatTime(s.now())
		conflict := s.crdNameConflict(obj.Name(), c)
		names, _ := meta.NestedField(obj, "spec", "names")
		accepted := meta.DeepCopyValue(names).(map[string]any)
		if accepted["singular"] == nil {
			accepted["singular"] = c.singular
		}
		if accepted["listKind"] == nil {
			accepted["listKind"] = c.listKind
		}
		conds := []any{
			condition("NamesAccepted", "True", "NoConflicts", "no conflicts found", now, status),
			condition("Established", "True", "InitialNamesAccepted", "the initial names have been accepted", now, status),
		}
		if conflict != "" {
			conds = []any{
				condition("NamesAccepted", "False", "PluralConflict", conflict, now, status),
				condition("Established", "False", "NotAccepted", "not all names are accepted", now, status),
			}
		} else {
			status["acceptedNames"] = accepted
		}
		status["conditions"] = conds
		stored := meta.AsStrings(status["storedVersions"])
		if sv := strings.TrimPrefix(c.storageVersion(), c.group+"/"); sv != "" && !containsString(stored, sv) {
			stored = append(stored, sv)
		}
		status["storedVersions"] = toAny(stored)
		if meta.EqualValues(map[string]any(next), map[string]any(obj)) {
			return nil, store.ErrNoChange
		}
		return next, nil
	})
	return err
}

// condition builds a CRD condition, keeping its lastTransitionTime when
// the status does not change.
func condition(typ, status, reason, message, now string, oldStatus map[string]any) map[string]any {
	ts := now
	for _, c := range meta.AsMaps(oldStatus["conditions"]) {
		if str(c, "type") == typ && str(c, "status") == status {
			ts = str(c, "lastTransitionTime")
		}
	}
	return map[string]any{"type": typ, "status": status, "lastTransitionTime": ts, "reason": reason, "message": message}
}

// crdNameConflict reports another CRD or configured type that already
// serves the CRD's group and plural.
func (s *Server) crdNameConflict(name string, c crdSpec) string {
	owner, taken := s.registry.Load().owner[meta.GroupResource{Group: c.group, Resource: c.plural}]
	if taken && owner != name {
		return fmt.Sprintf("%q is already in use", c.plural)
	}
	return ""
}

// cleanupCRD finishes the deletion of a CRD: its types stop being served,
// every custom resource is deleted (watchers see DELETED events), then the
// cleanup finalizer is removed, which deletes the CRD.
func (s *Server) cleanupCRD(ctx context.Context, crd *store.Object) error {
	if err := s.refreshCRD(ctx, crd.Data().Name()); err != nil {
		return err
	}
	if c := s.servedCRDOf(crd).spec; c.plural != "" {
		prefix := "/" + meta.GroupResource{Group: c.group, Resource: c.plural}.String() + "/"
		page, err := s.store.List(ctx, prefix, store.ListOptions{})
		if err != nil {
			return err
		}
		for _, it := range page.Items {
			if _, err := s.store.Delete(ctx, it.Key(), store.Preconditions{}, nil); err != nil && !errors.Is(err, store.ErrNotFound) {
				return err
			}
		}
	}
	_, err := s.store.Update(ctx, crd.Key(), store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
		next := cur.Data().DeepCopy()
		var kept []any
		for _, f := range cur.Data().Finalizers() {
			if f != crdCleanupFinalizer {
				kept = append(kept, f)
			}
		}
		next.SetMetadataField("finalizers", kept)
		return next, nil
	})
	if err != nil {
		return err
	}
	if cur, err := s.store.Get(ctx, crd.Key()); err == nil && len(cur.Data().Finalizers()) == 0 {
		_, err = s.store.Delete(ctx, crd.Key(), store.Preconditions{ResourceVersion: cur.Data().ResourceVersion()}, nil)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		s.crdSpecs.Delete(crd.Data().Name())
	}
	return nil
}

// markCRDTerminating is what a DELETE does to a CRD: deletionTimestamp, the
// cleanup finalizer and a Terminating condition.
func markCRDTerminating(obj meta.Object) {
	fins := obj.Finalizers()
	if !containsString(fins, crdCleanupFinalizer) {
		obj.SetMetadataField("finalizers", toAny(append(fins, crdCleanupFinalizer)))
	}
	status, _ := obj["status"].(map[string]any)
	if status == nil {
		status = map[string]any{}
		obj["status"] = status
	}
	conds := meta.AsMaps(status["conditions"])
	var out []any
	for _, c := range conds {
		if str(c, "type") != "Terminating" {
			out = append(out, c)
		}
	}
	out = append(out, map[string]any{"type": "Terminating", "status": "True",
		"lastTransitionTime": obj.DeletionTimestamp(), "reason": "InstanceDeletionPending",
		"message": "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon"})
	status["conditions"] = out
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func toAny(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}

var (
	groupHasDot = regexp.MustCompile(`\.`)
)

// validateCRD checks a CRD as kube-apiserver does for what kapi serves from
// it: names, group, scope, versions and their schemas and columns.
func validateCRD(obj, old meta.Object) (meta.FieldErrors, map[int]*schema.Schema) {
	var errs meta.FieldErrors
	parsed := map[int]*schema.Schema{}
	add := func(t meta.ErrorType, field string, value any, detail string) {
		errs = append(errs, meta.FieldError{Type: t, Field: field, Value: value, Detail: detail})
	}
	spec, _ := obj["spec"].(map[string]any)
	names, _ := spec["names"].(map[string]any)
	group, plural := str(spec, "group"), str(names, "plural")
	if want := plural + "." + group; obj.Name() != want {
		add(meta.ErrorInvalid, "metadata.name", obj.Name(), `must be spec.names.plural+"."+spec.group`)
	}
	switch {
	case group == "":
		add(meta.ErrorRequired, "spec.group", nil, "")
	default:
		for _, m := range schema.DNS1123Subdomain(group) {
			add(meta.ErrorInvalid, "spec.group", group, m)
		}
		if !groupHasDot.MatchString(group) {
			add(meta.ErrorInvalid, "spec.group", group, "should be a domain with at least one dot")
		}
	}
	switch scope := str(spec, "scope"); scope {
	case "Namespaced", "Cluster":
	case "":
		add(meta.ErrorRequired, "spec.scope", nil, "")
	default:
		add(meta.ErrorNotSupported, "spec.scope", scope, `supported values: "Cluster", "Namespaced"`)
	}
	versions, _ := spec["versions"].([]any)
	if len(versions) == 0 {
		add(meta.ErrorInvalid, "spec.versions", []any{}, "must have exactly one version marked as storage version")
	}
	storage, seen := 0, map[string]bool{}
	hoisted := schemasHoisted(versions)
	for i, v := range versions {
		vm, _ := v.(map[string]any)
		base := fmt.Sprintf("spec.versions[%d]", i)
		schemaPath := base + ".schema.openAPIV3Schema"
		if hoisted {
			// kube validates the internal form of a CRD, in which a
			// schema every version shares is spec.validation's.
			schemaPath = "spec.validation.openAPIV3Schema"
		}
		name := str(vm, "name")
		if name == "" {
			add(meta.ErrorRequired, base+".name", nil, "")
		} else {
			for _, m := range schema.DNS1123Label(name) {
				add(meta.ErrorInvalid, base+".name", name, m)
			}
			if seen[name] {
				add(meta.ErrorDuplicate, base+".name", name, "")
			}
			seen[name] = true
		}
		if st, _ := vm["storage"].(bool); st {
			storage++
		}
		sch, ok := meta.NestedField(vm, "schema", "openAPIV3Schema")
		if !ok {
			add(meta.ErrorRequired, base+".schema.openAPIV3Schema", nil, "schemas are required")
		} else {
			_, hasStatus := meta.NestedField(vm, "subresources", "status")
			s, _, err := schema.ParseWithOptions(sch, schema.ParseOptions{
				FieldPath: schemaPath, StatusSubresource: hasStatus})
			parsed[i] = s
			var fe meta.FieldErrors
			var de *schema.DecodeError
			switch {
			case errors.As(err, &fe):
				errs = append(errs, fe...)
			case errors.As(err, &de):
				add(meta.ErrorInvalid, schemaPath, meta.NoValue, de.Error())
			case err != nil:
				add(meta.ErrorInvalid, schemaPath, meta.NoValue, err.Error())
			default:
				if !hoisted || i == 0 {
					errs = append(errs, compileRules(s, schemaPath, vm, old)...)
				}
			}
		}
		for j, col := range meta.AsMaps(vm["additionalPrinterColumns"]) {
			path := fmt.Sprintf("%s.additionalPrinterColumns[%d]", base, j)
			if str(col, "name") == "" {
				add(meta.ErrorRequired, path+".name", nil, "")
			}
			switch t := str(col, "type"); t {
			case "integer", "number", "string", "boolean", "date":
			default:
				add(meta.ErrorNotSupported, path+".type", t, `supported values: "boolean", "date", "integer", "number", "string"`)
			}
			if _, err := parseJSONPath(str(col, "jsonPath")); err != nil {
				add(meta.ErrorInvalid, path+".jsonPath", str(col, "jsonPath"), "must be a simple json path starting with .")
			}
		}
	}
	if len(versions) > 0 && storage != 1 {
		add(meta.ErrorInvalid, "spec.versions", meta.NoValue, "must have exactly one version marked as storage version")
	}
	// Names as kube validates them: DNS-1035 labels, kind and listKind
	// lower-cased first (so "fooxxs5ja" and a lower-case listKind pass).
	for _, f := range []string{"plural", "singular", "kind", "listKind"} { // after defaulting
		if str(names, f) == "" {
			add(meta.ErrorRequired, "spec.names."+f, nil, "")
		}
	}
	for _, f := range []string{"plural", "singular", "kind", "listKind"} {
		v := str(names, f)
		check := v
		if f == "kind" || f == "listKind" {
			check = strings.ToLower(v)
		}
		if msgs := schema.DNS1035Label(check); v != "" && len(msgs) > 0 {
			detail := strings.Join(msgs, ",")
			if f == "kind" || f == "listKind" {
				detail = "may have mixed case, but should otherwise match: " + detail
			}
			add(meta.ErrorInvalid, "spec.names."+f, v, detail)
		}
	}
	for i, v := range meta.AsStrings(names["shortNames"]) {
		if msgs := schema.DNS1035Label(v); len(msgs) > 0 {
			add(meta.ErrorInvalid, fmt.Sprintf("spec.names.shortNames[%d]", i), v, strings.Join(msgs, ","))
		}
	}
	if k, lk := str(names, "kind"), str(names, "listKind"); k != "" && k == lk {
		add(meta.ErrorInvalid, "spec.names.listKind", lk, "kind and listKind may not be the same")
	}
	for i, v := range meta.AsStrings(names["categories"]) {
		if msgs := schema.DNS1035Label(v); len(msgs) > 0 {
			add(meta.ErrorInvalid, fmt.Sprintf("spec.names.categories[%d]", i), v, strings.Join(msgs, ","))
		}
	}
	var oldSpec map[string]any
	if old != nil {
		oldSpec, _ = old["spec"].(map[string]any)
	}
	errs = append(errs, validateConversion(spec, oldSpec)...)
	if old != nil {
		if og := str(oldSpec, "group"); og != group {
			add(meta.ErrorInvalid, "spec.group", group, "field is immutable")
		}
		if os := str(oldSpec, "scope"); os != str(spec, "scope") {
			add(meta.ErrorInvalid, "spec.scope", str(spec, "scope"), "field is immutable")
		}
	}
	return errs, parsed
}
