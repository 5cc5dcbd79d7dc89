package apiserver

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// deleteOptions is the part of metav1.DeleteOptions kapi acts on.
type deleteOptions struct {
	writeOptions
	preconditions      store.Preconditions
	gracePeriodSeconds *int64
	propagationPolicy  string
}

// deleteOptions reads DeleteOptions from the body (if any) and the query,
// the query winning as in kube-apiserver.
func (q *request) deleteOptions() (deleteOptions, error) {
	var opts deleteOptions
	wo, err := q.writeOptions("DeleteOptions")
	if err != nil {
		return opts, err
	}
	opts.writeOptions = wo
	body, err := q.readBody()
	if err != nil {
		return opts, err
	}
	if len(body) > 0 {
		c, ok := q.s.codecs.ForContentType(q.r.Header.Get("Content-Type"))
		if !ok {
			return opts, meta.UnsupportedMediaType(q.r.Header.Get("Content-Type"), q.s.codecs.MediaTypes())
		}
		d, err := c.Decode(body)
		if err != nil {
			return opts, meta.BadRequest(err.Error())
		}
		o := d.Object
		if pre, ok := o["preconditions"].(map[string]any); ok {
			opts.preconditions.UID, _ = pre["uid"].(string)
			opts.preconditions.ResourceVersion, _ = pre["resourceVersion"].(string)
		}
		if n, ok := meta.AsInt64(o["gracePeriodSeconds"]); ok {
			opts.gracePeriodSeconds = &n
		}
		opts.propagationPolicy, _ = o["propagationPolicy"].(string)
		if dry, ok := o["dryRun"].([]any); ok && len(dry) > 0 {
			values := make([]string, len(dry))
			for i, v := range dry {
				values[i], _ = v.(string)
				if values[i] != "All" {
					return opts, meta.Invalid(meta.GroupKind{Group: "meta.k8s.io", Kind: "DeleteOptions"}, "", meta.FieldErrors{{
						Type: meta.ErrorNotSupported, Field: "dryRun", Value: values, Detail: `supported values: "All"`,
					}})
				}
			}
			opts.dryRun = true
		}
	}
	query := q.r.URL.Query()
	if v := query.Get("gracePeriodSeconds"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return opts, meta.BadRequest("invalid gracePeriodSeconds: " + v)
		}
		opts.gracePeriodSeconds = &n
	}
	if v := query.Get("propagationPolicy"); v != "" {
		opts.propagationPolicy = v
	}
	return opts, nil
}

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
		q.s.writeValue(q.w, q.r, http.StatusOK, statusKind, meta.Success(q.gr(), q.info.Name, out.Data().UID()))
		return
	}
	q.s.writeObject(q.w, q.r, http.StatusOK, q.res.GroupVersionKind(), q.res.present(out))
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
	for {
		cur, err := s.store.Get(r.Context(), key)
		if err != nil {
			return nil, false, storeError(err, gr, name)
		}
		if err := opts.preconditions.Check(cur); err != nil {
			return nil, false, deletePreconditionError(err, res, name)
		}
		marked, keep, err := s.markedForDeletion(w, cur.Data(), opts)
		if err != nil {
			return nil, false, err
		}
		if err := s.admitDelete(r, res, cur, opts); err != nil {
			return nil, false, err
		}
		if opts.dryRun {
			if keep {
				return store.NewObject(key, cur.Revision(), marked), false, nil
			}
			return cur, true, nil
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
		out, err := s.store.Delete(r.Context(), key, opts.preconditions, func(o *store.Object) error {
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

// markedForDeletion returns what a DELETE makes of obj if it is kept: a
// copy carrying deletionTimestamp and deletionGracePeriodSeconds (once),
// as the kind's strategy prepares it, and whether it is kept.
func (s *Server) markedForDeletion(w *Write, obj meta.Object, opts deleteOptions) (meta.Object, bool, error) {
	next := obj.DeepCopy()
	if obj.DeletionTimestamp() == "" {
		next.SetMetadataField("deletionTimestamp", meta.FormatTime(w.Now))
		grace := int64(0)
		if opts.gracePeriodSeconds != nil {
			grace = *opts.gracePeriodSeconds
		}
		next.SetMetadataField("deletionGracePeriodSeconds", grace)
	}
	keep, err := w.res.strategy().PrepareForDelete(w, next)
	if err != nil {
		return nil, false, err
	}
	return next, keep || w.res.held(next), nil
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

// admitDelete lets the admission plugins see and deny a delete.
func (s *Server) admitDelete(r *http.Request, res *Resource, cur *store.Object, opts deleteOptions) error {
	if len(s.admission) == 0 {
		return nil
	}
	req := &AdmissionRequest{
		Operation: OperationDelete, Resource: meta.GroupVersionResource{Group: res.Group, Version: res.Version, Resource: res.Plural},
		Kind: res.GroupVersionKind(), Namespace: cur.Data().Namespace(), Name: cur.Data().Name(),
		OldObject: cur.Data(), DryRun: opts.dryRun,
	}
	return s.runAdmission(r.Context(), req, res, nil)
}

// deleteCollection answers DELETE on a collection: every object the list
// options select is deleted as by DELETE, and the list of them is returned.
func (q *request) deleteCollection() {
	lo, err := q.listOptions()
	if err != nil {
		q.fail(err)
		return
	}
	do, err := q.deleteOptions()
	if err != nil {
		q.fail(err)
		return
	}
	lo.limit, lo.continueToken = 0, nil
	page, err := q.readPage(lo)
	if err != nil {
		q.fail(err)
		return
	}
	var done []*store.Object
	for _, it := range page.items {
		out, _, err := q.s.deleteObject(q.r, q.res, it.Data().Namespace(), it.Data().Name(), do)
		if meta.IsNotFound(err) {
			continue
		}
		if err != nil {
			q.fail(err)
			return
		}
		done = append(done, out)
	}
	result := listPage{items: done, revision: q.s.store.Revision()}
	result.meta.ResourceVersion = strconv.FormatInt(result.revision, 10)
	c, err := q.s.negotiate(q.r, q.res.GroupVersionKind())
	if err != nil {
		q.fail(err)
		return
	}
	body, err := q.encodeList(c, result)
	if err != nil {
		q.fail(meta.Internal(err))
		return
	}
	writeList(q.w, q.r, c, body)
}
