package apiserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/kapi-dev/kapi/apiserver/policy"
	"github.com/kapi-dev/kapi/apiserver/requestinfo"
	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// deleteOptions is the part of metav1.DeleteOptions kapi acts on.
type deleteOptions struct {
	writeOptions
	preconditions      store.Preconditions
	gracePeriodSeconds *int64
	propagationPolicy  *string
	orphanDependents   *bool
	// collection marks the deletes of a deletecollection, whose admission
	// requests name no object (kube's attributes of the collection's
	// request; the old object has the name).
	collection bool
}

// deleteOptionsGroupKind names DeleteOptions in kube's Invalid errors.
var deleteOptionsGroupKind = meta.GroupKind{Group: "meta.k8s.io", Kind: "DeleteOptions"}

// deleteOptions reads DeleteOptions as kube-apiserver does: from the body
// when there is one, and then the query is not read at all; otherwise from
// the query, whose uid and resourceVersion are preconditions. Then it
// validates them (422).
//
// A body kube cannot decode (bad JSON, a field of the wrong type, another
// kind) is a 500 in kube-apiserver, an error it did not mean to send; kapi
// answers 400 BadRequest with kube's message
// (docs/kube-behaviour/08-fidelity.md, intended differences).
func (q *request) deleteOptions() (deleteOptions, error) {
	var opts deleteOptions
	body, err := q.readBody()
	if err != nil {
		return opts, err
	}
	var dryRun []string
	if len(body) > 0 {
		c, ok := q.s.codecs.ForContentType(q.r.Header.Get("Content-Type"))
		if !ok {
			return opts, meta.UnsupportedMediaType(q.r.Header.Get("Content-Type"), q.s.codecs.MediaTypes())
		}
		if dryRun, err = opts.decodeBody(c, body); err != nil {
			return opts, meta.BadRequest(err.Error())
		}
	} else {
		query := q.r.URL.Query()
		if v, ok := query["gracePeriodSeconds"]; ok && len(v) > 0 {
			n, err := strconv.ParseInt(v[0], 10, 64)
			if err != nil {
				return opts, meta.BadRequest(err.Error())
			}
			opts.gracePeriodSeconds = &n
		}
		if v, ok := query["orphanDependents"]; ok && len(v) > 0 {
			b := requestinfo.QueryBool(query, "orphanDependents")
			opts.orphanDependents = &b
		}
		if v, ok := query["propagationPolicy"]; ok && len(v) > 0 {
			opts.propagationPolicy = &v[0]
		}
		opts.preconditions.UID, opts.preconditions.ResourceVersion = query.Get("uid"), query.Get("resourceVersion")
		dryRun = query["dryRun"]
	}
	var errs meta.FieldErrors
	if opts.orphanDependents != nil && opts.propagationPolicy != nil {
		errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: "propagationPolicy", Value: *opts.propagationPolicy,
			Detail: "orphanDependents and deletionPropagation cannot be both set"})
	}
	if p := opts.propagationPolicy; p != nil && *p != propagationForeground && *p != propagationBackground && *p != propagationOrphan {
		errs = append(errs, meta.FieldError{Type: meta.ErrorNotSupported, Field: "propagationPolicy", Value: *p,
			Detail: `supported values: "Foreground", "Background", "Orphan", "nil"`})
	}
	for _, v := range dryRun {
		if v != "All" {
			errs = append(errs, meta.FieldError{Type: meta.ErrorNotSupported, Field: "dryRun", Value: dryRun,
				Detail: `supported values: "All"`})
			break
		}
	}
	if len(errs) > 0 {
		return opts, meta.Invalid(deleteOptionsGroupKind, "", errs)
	}
	opts.dryRun = len(dryRun) > 0
	q.wo = opts.writeOptions
	return opts, nil
}

// Deletion propagation policies.
const (
	propagationForeground = "Foreground"
	propagationBackground = "Background"
	propagationOrphan     = "Orphan"
)

// decodeBody reads a DeleteOptions body into opts and returns its dryRun,
// failing with the errors kube's decoder words.
func (opts *deleteOptions) decodeBody(c codec.Codec, body []byte) ([]string, error) {
	d, err := c.Decode(body)
	if codec.IsNull(err) {
		return nil, nil // kube decodes null as empty options
	}
	if err != nil {
		return nil, errors.New(serializerError(err))
	}
	o := d.Object
	if kind := o.Kind(); kind != "" && kind != "DeleteOptions" {
		version := o.APIVersion()
		if metaKinds[kind] && (version == "v1" || version == "meta.k8s.io/v1") {
			return nil, fmt.Errorf("converting (v1.%s) to (v1.DeleteOptions): unknown conversion", kind)
		}
		return nil, fmt.Errorf("no kind %q is registered for version %q in scheme %q", kind, version, "pkg/runtime/scheme.go:110")
	}
	var dryRun []string
	for _, f := range []struct {
		key, field, goType string
		set                func(v any) bool
	}{
		{"gracePeriodSeconds", "DeleteOptions.gracePeriodSeconds", "int64", func(v any) bool {
			n, ok := v.(int64)
			opts.gracePeriodSeconds = &n
			return ok
		}},
		{"orphanDependents", "DeleteOptions.orphanDependents", "bool", func(v any) bool {
			b, ok := v.(bool)
			opts.orphanDependents = &b
			return ok
		}},
		{"propagationPolicy", "DeleteOptions.propagationPolicy", "v1.DeletionPropagation", func(v any) bool {
			p, ok := v.(string)
			opts.propagationPolicy = &p
			return ok
		}},
		{"dryRun", "DeleteOptions.dryRun", "[]string", func(v any) bool {
			list, ok := v.([]any)
			for _, e := range list {
				s, isString := e.(string)
				ok = ok && isString
				dryRun = append(dryRun, s)
			}
			return ok
		}},
		{"preconditions", "DeleteOptions.preconditions", "v1.Preconditions", func(v any) bool {
			pre, ok := v.(map[string]any)
			return ok && preconditionString(pre, "uid", &opts.preconditions.UID) &&
				preconditionString(pre, "resourceVersion", &opts.preconditions.ResourceVersion)
		}},
	} {
		v, ok := o[f.key]
		if !ok || v == nil {
			continue
		}
		if !f.set(v) {
			field, goType := f.field, f.goType
			if pre, isMap := v.(map[string]any); isMap && f.key == "preconditions" {
				// The wrong value is inside the preconditions.
				for _, k := range []string{"uid", "resourceVersion"} {
					if _, isString := pre[k].(string); pre[k] != nil && !isString {
						v, field, goType = pre[k], "Preconditions.preconditions."+k, map[string]string{"uid": "types.UID"}[k]
						if goType == "" {
							goType = "string"
						}
						break
					}
				}
			}
			return nil, fmt.Errorf("json: cannot unmarshal %s into Go struct field %s of type %s", jsonKind(v), field, goType)
		}
	}
	return dryRun, nil
}

// preconditionString reads a precondition that must be a string or null.
func preconditionString(pre map[string]any, key string, into *string) bool {
	v, ok := pre[key]
	if !ok || v == nil {
		return true
	}
	*into, ok = v.(string)
	return ok
}

// metaKinds are the kinds of meta.k8s.io/v1 kube's DeleteOptions decoder
// knows, but cannot convert.
var metaKinds = map[string]bool{"Status": true, "ListOptions": true, "GetOptions": true, "CreateOptions": true,
	"UpdateOptions": true, "PatchOptions": true, "WatchEvent": true, "APIVersions": true, "APIGroupList": true,
	"APIGroup": true, "APIResourceList": true}

// delete answers DELETE on an object. An object with finalizers is only
// marked for deletion (deletionTimestamp set) and stays until an update
// removes the last finalizer.
func (q *request) delete() {
	opts, err := q.deleteOptions()
	if err != nil {
		q.fail(err)
		return
	}
	out, deleted, err := q.s.deleteObject(q.r, q.res, q.info.Namespace, q.info.Name, opts)
	if err != nil {
		q.fail(err)
		return
	}
	if deleted && !q.res.ReturnDeletedObject {
		q.s.writeValue(q.w, q.r, http.StatusOK, statusKind, meta.Success(q.gr(), q.info.Name, StoredUID(out)))
		return
	}
	if out, err = q.res.present(q.r.Context(), out); err != nil {
		q.fail(err)
		return
	}
	q.s.writeObject(q.w, q.r, http.StatusOK, q.res.GroupVersionKind(), out)
}

// deleteObject deletes or marks for deletion one object. It reports
// whether the object is gone (true) or now waits for finalizers (false).
// The kind's strategy decides between the two (PrepareForDelete); an
// object with finalizers is always kept.
func (s *Server) deleteObject(r *http.Request, res *Resource, ns, name string, opts deleteOptions) (*store.Object, bool, error) {
	key := res.key(ns, name)
	gr := res.GroupResource()
	strategy := res.strategy()
	w := &Write{Context: r.Context(), Operation: OperationDelete, Namespace: ns, Name: name, DryRun: opts.dryRun,
		Now: s.now(), GracePeriodSeconds: opts.gracePeriodSeconds, res: res, s: s}
	pre := opts.preconditions
	for {
		cur, err := s.store.Get(r.Context(), key)
		if err != nil {
			return nil, false, storeError(err, gr, name)
		}
		if err := pre.Check(cur); err != nil {
			return nil, false, deletePreconditionError(err, res, name)
		}
		var marked meta.Object
		var keep, storeFirst bool
		if !removedAtOnce(res, cur, opts) { // otherwise nothing is marked: the object goes
			if marked, keep, storeFirst, err = s.markedForDeletion(w, cur.Data(), opts); err != nil {
				return nil, false, err
			}
		}
		// The object as the request's version reads it: a custom
		// resource's conversion webhook fails the delete, as in kube.
		view, err := res.present(r.Context(), cur)
		if err != nil {
			return nil, false, err
		}
		if err := s.admitDelete(r, res, view, opts); err != nil {
			return nil, false, err
		}
		if opts.dryRun {
			if keep || storeFirst {
				return store.NewObject(key, cur.Revision(), marked), !keep, nil
			}
			return cur, true, nil
		}
		if storeFirst {
			// A graceful kind's marked version is stored, then removed.
			out, err := s.markDeleting(r, res, key, cur, marked, opts)
			if errors.Is(err, errRetry) {
				continue
			}
			if err != nil {
				return nil, false, err
			}
			cur = out
			if pre.ResourceVersion != "" {
				pre.ResourceVersion = out.Data().ResourceVersion() // the precondition held on what was marked
			}
		}
		if keep {
			out, err := s.markDeleting(r, res, key, cur, marked, opts)
			if errors.Is(err, errRetry) {
				continue
			}
			if err != nil {
				return nil, false, err
			}
			if out, err = strategy.AfterWrite(w, out); err != nil {
				return nil, false, err
			}
			return out, false, nil
		}
		out, err := s.store.Delete(r.Context(), key, pre, func(o *store.Object) error {
			if o != cur {
				return errRetry // gained finalizers or changed: decide again
			}
			return nil
		})
		if errors.Is(err, errRetry) {
			continue
		}
		var pe *store.PreconditionError
		if errors.As(err, &pe) {
			return nil, false, deletePreconditionError(err, res, name)
		}
		if err != nil {
			return nil, false, storeError(err, gr, name)
		}
		s.release(w, res, out.Data())
		return out, true, nil
	}
}

var errRetry = errors.New("object changed; retry")

// deletePreconditionError words a failed delete precondition as
// kube-apiserver does (naming the Kind, not the resource).
func deletePreconditionError(err error, res *Resource, name string) error {
	var pe *store.PreconditionError
	if !errors.As(err, &pe) {
		return err
	}
	why := fmt.Sprintf("the UID in the precondition (%s) does not match the UID in record (%s). "+
		"The object might have been deleted and then recreated", pe.Want, pe.Got)
	if pe.Field == "ResourceVersion" {
		why = fmt.Sprintf("the ResourceVersion in the precondition (%s) does not match the ResourceVersion in record (%s). "+
			"The object might have been modified", pe.Want, pe.Got)
	}
	st := meta.Conflict(meta.GroupResource{Group: res.Group, Resource: res.Kind}, name, why)
	return st
}

// held reports whether an object being deleted must stay: it has
// finalizers, or its strategy holds it.
func (r *Resource) held(obj meta.Object) bool {
	return len(obj.Finalizers()) > 0 || r.strategy().Held(obj)
}

// markedForDeletion returns what a DELETE makes of obj, as kube's
// registry decides: a marked copy, whether it is kept, and whether the
// marked copy is stored before the object is removed (a graceful kind's,
// as kube's pods: watchers see it MODIFIED, then DELETED).
//
// First the deletion's propagation policy sets the garbage collector's
// finalizers (propagationFinalizers). A kind without a grace period (not a
// GracefulDeleter) is then marked once as kube marks an object whose
// deletion waits: deletionTimestamp now, deletionGracePeriodSeconds 0
// whatever the options say, generation + 1 when it has one. A graceful
// kind follows kube's BeforeDelete: the first DELETE sets deletionTimestamp
// now + the period the strategy gives (negative periods count as 1) and
// bumps a set generation; a later one may only shorten the period (never
// moving deletionTimestamp into the past); one that does not is answered
// with the object unchanged. The kind's strategy then prepares the copy;
// an object left with finalizers, or held by its strategy, is kept.
func (s *Server) markedForDeletion(w *Write, obj meta.Object, opts deleteOptions) (meta.Object, bool, bool, error) {
	next := obj.DeepCopy()
	if finalizers, changed := propagationFinalizers(obj, opts); changed {
		if len(finalizers) == 0 {
			next.SetMetadataField("finalizers", nil)
		} else {
			next.SetMetadataField("finalizers", toAny(finalizers))
		}
	}
	graceful, isGraceful := strategyAs[GracefulDeleter](w.res.strategy())
	storeFirst := false
	switch {
	case !isGraceful:
		if obj.DeletionTimestamp() == "" {
			next.SetMetadataField("deletionTimestamp", meta.FormatTime(w.Now))
			next.SetMetadataField("deletionGracePeriodSeconds", int64(0))
			if g := obj.Generation(); g > 0 {
				next.SetMetadataField("generation", g+1)
			}
		}
	case obj.DeletionTimestamp() == "":
		period := graceful.GracePeriod(w, obj, opts.gracePeriodSeconds)
		if period < 0 {
			period = 1
		}
		next.SetMetadataField("deletionTimestamp", meta.FormatTime(w.Now.Add(time.Duration(period)*time.Second)))
		next.SetMetadataField("deletionGracePeriodSeconds", period)
		if g := obj.Generation(); g > 0 {
			next.SetMetadataField("generation", g+1)
		}
		storeFirst = period == 0
	default:
		cur, _ := meta.AsInt64(obj.Metadata()["deletionGracePeriodSeconds"])
		if cur <= 0 {
			break // pending with no grace left: removed at once, as kube recovers a half-done deletion
		}
		period := int64(0)
		if opts.gracePeriodSeconds == nil {
			return next, true, false, nil // pending: nothing changes
		}
		if period = *opts.gracePeriodSeconds; period < 0 {
			period = 1
		}
		if period >= cur {
			return next, true, false, nil // only a shorter period is taken
		}
		ts, err := time.Parse(time.RFC3339, obj.DeletionTimestamp())
		if err != nil {
			return nil, false, false, meta.Internal(err)
		}
		ts = ts.Add(time.Duration(period-cur) * time.Second)
		if ts.Before(w.Now) {
			ts = w.Now
			if period != 0 {
				period = 1
			}
		}
		next.SetMetadataField("deletionTimestamp", meta.FormatTime(ts))
		next.SetMetadataField("deletionGracePeriodSeconds", period)
		storeFirst = period == 0
	}
	keep, err := w.res.strategy().PrepareForDelete(w, next)
	if err != nil {
		return nil, false, false, err
	}
	if isGraceful {
		if p, _ := meta.AsInt64(next.Metadata()["deletionGracePeriodSeconds"]); p > 0 {
			keep = true
		}
	}
	keep = keep || w.res.held(next)
	return next, keep, storeFirst && !keep, nil
}

// Garbage-collection finalizers a deletion's propagation policy sets.
const (
	finalizerOrphan     = "orphan"
	finalizerForeground = "foregroundDeletion"
)

// propagationFinalizers is what kube's registry does with a delete's
// propagation policy before it decides anything else: orphanDependents or
// propagationPolicy Orphan adds the "orphan" finalizer, Foreground adds
// "foregroundDeletion", Background removes both; without either option the
// object's own GC finalizers stay. It returns the object's finalizers so
// changed, and whether they changed (compared as sets, as kube does).
// kapi has no garbage collector yet to remove them: like a kube-apiserver
// without kube-controller-manager, such an object stays until a client
// removes the finalizer.
func propagationFinalizers(obj meta.Object, opts deleteOptions) ([]string, bool) {
	old := obj.Finalizers()
	var orphan, foreground bool
	switch {
	case opts.orphanDependents != nil:
		orphan = *opts.orphanDependents
	case opts.propagationPolicy != nil:
		orphan, foreground = *opts.propagationPolicy == propagationOrphan, *opts.propagationPolicy == propagationForeground
	default:
		return old, false
	}
	next := make([]string, 0, len(old)+1)
	for _, f := range old {
		if f != finalizerOrphan && f != finalizerForeground {
			next = append(next, f)
		}
	}
	if orphan {
		next = append(next, finalizerOrphan)
	}
	if foreground {
		next = append(next, finalizerForeground)
	}
	if sameSet(old, next) {
		return old, false
	}
	return next, true
}

func sameSet(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			return false
		}
	}
	return true
}

// markDeleting stores the marked version of an object that a DELETE keeps
// (nothing when it is unchanged: already terminating).
func (s *Server) markDeleting(r *http.Request, res *Resource, key string, cur *store.Object, marked meta.Object, opts deleteOptions) (*store.Object, error) {
	out, err := s.store.Update(r.Context(), key, store.UpdateOptions{Preconditions: opts.preconditions},
		func(o *store.Object) (meta.Object, error) {
			if o != cur {
				return nil, errRetry
			}
			if meta.EqualValues(map[string]any(marked), map[string]any(o.Data())) {
				return nil, store.ErrNoChange
			}
			return marked, nil
		})
	if err != nil && !errors.Is(err, errRetry) {
		return nil, storeError(err, res.GroupResource(), cur.Data().Name())
	}
	return out, err
}

// admissionSeesDeletes reports whether any admission is to see a delete:
// an admission plugin, a ValidatingAdmissionPolicy with a binding, or an
// admission webhook is configured. A deletecollection's bulk path
// (deletesInBulk) is off then, so every source of admission is consulted
// here; servers that only enable policies and webhooks, with none stored,
// keep it.
func (s *Server) admissionSeesDeletes(ctx context.Context) bool {
	if len(s.admission) > 0 {
		return true
	}
	if s.policies != nil {
		if v, err := s.policies.current(ctx); err != nil || !v.(*policy.Set).Empty() {
			return true
		}
	}
	if s.webhooks != nil {
		if v, err := s.webhooks.current(ctx); err != nil || !v.(*webhookSet).empty() {
			return true
		}
	}
	return false
}

// admitDelete lets the admission plugins see and deny a delete.
func (s *Server) admitDelete(r *http.Request, res *Resource, cur *store.Object, opts deleteOptions) error {
	if !s.admissionSeesDeletes(r.Context()) {
		return nil
	}
	name := cur.Data().Name()
	if opts.collection {
		name = ""
	}
	req := &AdmissionRequest{
		Operation: OperationDelete, Resource: meta.GroupVersionResource{Group: res.Group, Version: res.Version, Resource: res.Plural},
		Kind: res.GroupVersionKind(), Namespace: cur.Data().Namespace(), Name: name,
		OldObject: cur.Data(), DryRun: opts.dryRun,
	}
	return s.runAdmission(r.Context(), req, res, nil)
}

// deleteCollection answers DELETE on a collection: every object the list
// options select is deleted as by DELETE, and the list of them is returned
// as it was listed, before the deletions (kube's answer: no
// deletionTimestamp, the listed resourceVersions). With a limit only the
// first page is deleted, and the answer is that page, with its continue.
func (q *request) deleteCollection() {
	lo, err := q.handlerListOptions()
	if err != nil {
		q.fail(err)
		return
	}
	do, err := q.deleteOptions()
	if err != nil {
		q.fail(err)
		return
	}
	if err := q.storageListOptions(&lo); err != nil {
		q.fail(err)
		return
	}
	if lo.limit == 0 {
		lo.continueToken = nil
	}
	page, err := q.readPage(lo)
	if err != nil {
		q.fail(err)
		return
	}
	if err := q.s.deleteListed(q.r, q.res, page.items, do); err != nil {
		q.fail(err)
		return
	}
	c, err := q.s.negotiate(q.r, q.res.GroupVersionKind())
	if err != nil {
		q.fail(err)
		return
	}
	if discardsBody(q.r) {
		setCommonHeaders(q.w, c.MediaType())
		q.w.WriteHeader(http.StatusOK)
		return
	}
	body, err := q.encodeList(c, page)
	if err != nil {
		q.fail(meta.Internal(err))
		return
	}
	writeList(q.w, q.r, c, body)
}
