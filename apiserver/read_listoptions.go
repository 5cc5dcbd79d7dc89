package apiserver

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/kapi-dev/kapi/apiserver/requestinfo"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/selectors"
	"github.com/kapi-dev/kapi/store"
)

// listOptions are the query parameters of list, watch and deletecollection,
// parsed and validated once.
type listOptions struct {
	// resourceVersion as sent ("" when unset) and parsed.
	resourceVersion string
	revision        int64
	match           string // "", "Exact" or "NotOlderThan"
	limit           int64
	continueToken   *continueToken

	labels selectors.LabelSelector
	fields selectors.FieldSelector

	watch             bool
	allowBookmarks    bool
	sendInitialEvents *bool
	timeoutSeconds    int64
	hasTimeoutSeconds bool
}

// listOptionsGroupKind is how kube-apiserver names list options in its
// Invalid errors: `ListOptions.meta.k8s.io "" is invalid: ...`.
var listOptionsGroupKind = meta.GroupKind{Group: "meta.k8s.io", Kind: "ListOptions"}

// listOptions parses and validates the request's list parameters the way
// kube-apiserver does: malformed values are 400 BadRequest, invalid
// combinations 422 Invalid with a cause on the offending parameter.
func (q *request) listOptions() (listOptions, error) {
	opts, err := q.handlerListOptions()
	if err != nil {
		return opts, err
	}
	return opts, q.storageListOptions(&opts)
}

// handlerListOptions parses and validates the list options as kube's list
// handler does, before storage reads the rest (storageListOptions).
func (q *request) handlerListOptions() (listOptions, error) {
	query := q.r.URL.Query()
	opts := listOptions{labels: selectors.EverythingLabels(), fields: selectors.EverythingFields()}
	var err error

	opts.watch = q.info.Verb == "watch"
	opts.allowBookmarks = requestinfo.QueryBool(query, "allowWatchBookmarks")
	if _, ok := query["sendInitialEvents"]; ok {
		v := requestinfo.QueryBool(query, "sendInitialEvents")
		opts.sendInitialEvents = &v
	}
	if v := query.Get("limit"); v != "" {
		if opts.limit, err = strconv.ParseInt(v, 10, 64); err != nil {
			return opts, meta.BadRequest(err.Error())
		}
		if opts.limit < 0 {
			opts.limit = 0
		}
	}
	if v := query.Get("timeoutSeconds"); v != "" {
		if opts.timeoutSeconds, err = strconv.ParseInt(v, 10, 64); err != nil {
			return opts, meta.BadRequest(err.Error())
		}
		opts.hasTimeoutSeconds = true
	}
	opts.resourceVersion = query.Get("resourceVersion")
	opts.match = query.Get("resourceVersionMatch")
	if q.s.kubeRelease.AtLeast(34) && requestinfo.QueryBool(query, "watch") && opts.sendInitialEvents == nil &&
		opts.match == "" && (opts.resourceVersion == "" || opts.resourceVersion == "0") {
		// With the WatchList feature on by default (kube 1.34 and later),
		// kube defaults a watch from "most recent" or "any" to a streaming
		// list: sendInitialEvents=true, resourceVersionMatch=NotOlderThan,
		// so that a watch asking for bookmarks gets the initial-events-end
		// one (docs/kube-behaviour/19-releases.md, "difftest at 1.37").
		initialEvents := true
		opts.sendInitialEvents, opts.match = &initialEvents, "NotOlderThan"
	}

	if v := query.Get("labelSelector"); v != "" {
		if opts.labels, err = selectors.ParseLabelSelector(v); err != nil {
			return opts, meta.BadRequest(err.Error())
		}
	}
	if v := query.Get("fieldSelector"); v != "" {
		if opts.fields, err = selectors.ParseFieldSelector(v); err != nil {
			return opts, meta.BadRequest(err.Error())
		}
	}
	if q.info.Name != "" { // a watch on one object: /watch/.../name or ?watch on an object URL
		name, err := selectors.ParseFieldSelector("metadata.name=" + selectors.EscapeFieldValue(q.info.Name))
		if err != nil {
			return opts, meta.BadRequest(err.Error())
		}
		if !opts.fields.Empty() {
			name, _ = selectors.ParseFieldSelector(name.String() + "," + opts.fields.String())
		}
		opts.fields = name
	}
	// kube validates the options before it converts the field selector's
	// labels for the kind, and reads the continue token and then the
	// resourceVersion in storage, after both.
	// kube validates by the watch parameter: a watch through the legacy
	// /watch/ path without it is validated as a list.
	if errs := validateListOptions(opts, query.Get("continue") != "", requestinfo.QueryBool(query, "watch")); len(errs) > 0 {
		return opts, meta.Invalid(listOptionsGroupKind, "", errs)
	}
	if err := q.validateFieldSelector(opts.fields); err != nil {
		return opts, err
	}
	return opts, nil
}

// storageListOptions reads what kube's storage reads of the list options,
// after the handler's checks (a deletecollection's DeleteOptions too): the
// continue token, whether a resourceVersion comes with it, then the
// resourceVersion.
func (q *request) storageListOptions(opts *listOptions) error {
	query := q.r.URL.Query()
	var err error
	if v := query.Get("continue"); v != "" {
		if opts.continueToken, err = decodeContinueToken(v); err != nil {
			return meta.BadRequest(fmt.Sprintf("invalid continue token: %v", err))
		}
	}
	if opts.continueToken != nil && opts.resourceVersion != "" && opts.resourceVersion != "0" {
		return meta.BadRequest("specifying resource version is not allowed when using continue")
	}
	if opts.resourceVersion != "" {
		rv, err := parseResourceVersion(opts.resourceVersion)
		if err != nil {
			if opts.watch {
				return err // kube answers a watch with 500, as a get
			}
			return meta.BadRequest("invalid resource version: " + err.Error())
		}
		opts.revision = rv
	}
	return nil
}

// validateListOptions applies kube-apiserver's rules on combinations of
// list and watch parameters.
func validateListOptions(opts listOptions, hasContinue, watch bool) meta.FieldErrors {
	var errs meta.FieldErrors
	forbidden := func(field, detail string) {
		errs = append(errs, meta.FieldError{Type: meta.ErrorForbidden, Field: field, Detail: detail})
	}
	notSupported := func(field, value string, supported ...string) {
		quoted := make([]string, len(supported))
		for i, s := range supported {
			quoted[i] = strconv.Quote(s)
		}
		errs = append(errs, meta.FieldError{Type: meta.ErrorNotSupported, Field: field, Value: value,
			Detail: "supported values: " + strings.Join(quoted, ", ")})
	}
	match := opts.match
	if watch {
		if opts.sendInitialEvents != nil && match != "NotOlderThan" {
			forbidden("resourceVersionMatch", "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan")
		}
		if match != "" {
			if opts.sendInitialEvents == nil {
				forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided")
			}
			if match != "NotOlderThan" {
				notSupported("resourceVersionMatch", match, "NotOlderThan")
			}
			if hasContinue {
				forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden when continue is provided")
			}
		}
		return errs
	}
	if match != "" {
		if opts.resourceVersion == "" {
			forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden unless resourceVersion is provided")
		}
		if hasContinue {
			forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden when continue is provided")
		}
		if match != "Exact" && match != "NotOlderThan" {
			notSupported("resourceVersionMatch", match, "Exact", "NotOlderThan", "")
		}
		if match == "Exact" && opts.resourceVersion == "0" {
			forbidden("resourceVersionMatch", `resourceVersionMatch "exact" is forbidden for resourceVersion "0"`)
		}
	}
	if opts.sendInitialEvents != nil {
		forbidden("sendInitialEvents", "sendInitialEvents is forbidden for list")
	}
	return errs
}

// parseResourceVersion reads a resourceVersion parameter. Its error is the
// 500 kube-apiserver answers gets and watches with; lists wrap it in a 400.
func parseResourceVersion(v string) (int64, error) {
	rv, err := strconv.ParseUint(v, 10, 63)
	if err != nil {
		return 0, &meta.Status{Kind: "Status", APIVersion: "v1", Status: "Failure", Code: 500,
			Message: fmt.Sprintf("resourceVersion: Invalid value: %q: %v", v, err)}
	}
	return int64(rv), nil
}

// validateFieldSelector accepts the fields the type declares selectable.
func (q *request) validateFieldSelector(fs selectors.FieldSelector) error {
	if fs.Empty() {
		return nil
	}
	if len(q.res.SelectableFields) == 0 {
		if err := fs.ValidateMetadataOnly(); err != nil {
			return meta.BadRequest(err.Error())
		}
		return nil
	}
	if err := fs.Validate(q.res.selectable); err != nil {
		return meta.BadRequest(err.Error())
	}
	return nil
}

// selectable reports whether a field selector may name field.
func (r *Resource) selectable(field string) bool {
	if field == "metadata.name" || field == "metadata.namespace" {
		return true
	}
	for _, f := range r.SelectableFields {
		if f == field {
			return true
		}
	}
	return false
}

// filter returns the store filter for the selectors, nil when they select
// everything (so lists can report remainingItemCount).
func (opts listOptions) filter(res *Resource) func(*store.Object) bool {
	if opts.labels.Empty() && opts.fields.Empty() {
		return nil
	}
	return func(o *store.Object) bool { return opts.matches(res, o) }
}

// index returns the store index a list with these selectors can read
// through (ListOptions.Index), if any: the first indexed field the field
// selector requires to equal a value.
func (opts listOptions) index(res *Resource) (name, value string) {
	for _, f := range res.IndexedFields {
		if v, ok := opts.fields.RequiresExactMatch(f); ok {
			return indexName(res, f), v
		}
	}
	return "", ""
}

// indexName names the store index of one field of a resource.
func indexName(res *Resource, field string) string {
	return res.GroupResource().String() + " " + field
}

// addIndexes asks the store, when it keeps indexes, for one per indexed
// field of the static resources, filing each object of the resource under
// the value its field selectors compare.
func (s *Server) addIndexes() {
	ix, ok := s.store.(store.Indexer)
	if !ok {
		return
	}
	for i := range s.staticResources {
		r := &s.staticResources[i]
		prefix := r.keyPrefix()
		for _, f := range r.IndexedFields {
			// A name already added (another version of the resource, another
			// server on the same store) files the same values.
			_ = ix.AddIndex(indexName(r, f), func(o *store.Object) (string, bool) {
				if !strings.HasPrefix(o.Key(), prefix) {
					return "", false
				}
				v, _ := r.fieldsOf(o).Lookup(f)
				return v, true
			})
		}
	}
}

// matches reports whether a stored object satisfies the selectors.
func (opts listOptions) matches(res *Resource, o *store.Object) bool {
	if res.conversion != nil && o.Data().APIVersion() != res.APIVersion() {
		return opts.matchesConverted(res, o)
	}
	if !opts.labels.Empty() && !opts.labels.Matches(o.Labels()) {
		return false
	}
	return opts.fields.Empty() || opts.fields.Matches(res.fieldsOf(o))
}

// selectsConverted reports whether the selectors read converted objects
// (matchesConverted) at res's version: a label selector, or a field
// selector naming a selectable field, at a version a conversion webhook
// serves.
func (opts listOptions) selectsConverted(res *Resource) bool {
	if res.conversion == nil || res.storageVersion == res.APIVersion() {
		return false
	}
	if !opts.labels.Empty() {
		return true
	}
	for _, r := range opts.fields.Requirements() {
		if r.Field != "metadata.name" && r.Field != "metadata.namespace" {
			return len(res.SelectableFields) > 0
		}
	}
	return false
}

// matchesConverted reports whether an object stored at another version
// of a custom resource with a conversion webhook satisfies the selectors
// at res's version, as kube's watch cache of that version, which holds
// every object converted, filters them. A conversion webhook may change
// labels, so a label selector reads the converted object (converted once
// per stored version, cached with it); so does a field selector naming a
// selectable field, whose path is the version's own. Name and namespace
// are the same at every version (kube refuses a conversion that changes
// them): a selector of them alone converts nothing.
func (opts listOptions) matchesConverted(res *Resource, o *store.Object) bool {
	if !opts.labels.Empty() {
		view, err := res.conversion.view(context.Background(), res, o)
		if err != nil {
			return true // a failed conversion fails the read or watch that presents it
		}
		if !opts.labels.Matches(view.Labels()) {
			return false
		}
	}
	if opts.fields.Empty() {
		return true
	}
	for _, r := range opts.fields.Requirements() {
		if r.Field != "metadata.name" && r.Field != "metadata.namespace" {
			return opts.fields.Matches(res.fieldsOf(o))
		}
	}
	ns, name := res.objectOfKey(o.Key())
	return opts.fields.Matches(selectors.FieldSet{"metadata.name": name, "metadata.namespace": ns})
}

// fieldsKey caches an object version's selectable field values, per
// group, resource, version and set of selectable fields (versions of a
// custom resource may declare different ones). Keys are interned, so the
// cache survives registry rebuilds, and they are pointers, so using one as
// a key allocates nothing.
type fieldsKey struct{ id string }

// fieldsKeyID identifies a fieldsKey without building a string: the
// selectable fields are joined only for the few kinds that have any.
type fieldsKeyID struct {
	gr      meta.GroupResource
	version string
	fields  string
}

var (
	fieldsKeysMu sync.Mutex
	fieldsKeys   = map[fieldsKeyID]*fieldsKey{}
)

func internFieldsKey(r *Resource) *fieldsKey {
	id := fieldsKeyID{gr: r.GroupResource(), version: r.Version}
	if len(r.SelectableFields) > 0 {
		id.fields = strings.Join(r.SelectableFields, ",")
	}
	fieldsKeysMu.Lock()
	defer fieldsKeysMu.Unlock()
	k, ok := fieldsKeys[id]
	if !ok {
		k = &fieldsKey{id: id.gr.String() + "/" + id.version + "/" + id.fields}
		fieldsKeys[id] = k
	}
	return k
}

// fieldsOf returns the values of the fields selectors may name, computed
// once per stored version (like kube's watch cache keeps them beside each
// object), so that filtering never decodes an object twice.
func (r *Resource) fieldsOf(o *store.Object) selectors.FieldSet {
	if r.Storage != nil {
		o = r.fromStorage(o) // selectors name the type's fields, not the stored kind's
	}
	if r.conversion != nil && len(r.SelectableFields) > 0 && o.Data().APIVersion() != r.APIVersion() {
		// A version's selectable fields are its own: read them converted
		// (a failed conversion fails the read or watch that presents it).
		if c, err := r.conversion.view(context.Background(), r, o); err == nil {
			o = c
		}
	}
	v, _ := o.Derived(r.fieldsKey, func(obj meta.Object) (any, error) {
		f := selectors.FieldSet{"metadata.name": obj.Name(), "metadata.namespace": obj.Namespace()}
		if r.FieldValues != nil {
			for k, v := range r.FieldValues(obj) {
				f[k] = v
			}
			return f, nil
		}
		for _, path := range r.SelectableFields {
			if v, ok := fieldValue(obj, path); ok {
				f[path] = v
			}
		}
		return f, nil
	})
	return v.(selectors.FieldSet)
}

// fieldValue reads a dotted path as a field selector compares it.
func fieldValue(obj meta.Object, field string) (string, bool) {
	var cur any = map[string]any(obj)
	for field != "" {
		part, rest, _ := strings.Cut(field, ".")
		m, ok := cur.(map[string]any)
		if !ok {
			return "", false
		}
		if cur, ok = m[part]; !ok {
			return "", false
		}
		field = rest
	}
	switch v := cur.(type) {
	case string:
		return v, true
	case bool:
		return strconv.FormatBool(v), true
	case int64:
		return strconv.FormatInt(v, 10), true
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), true
	}
	return "", false
}
