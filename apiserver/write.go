package apiserver

import (
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"reflect"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// generateNameAttempts bounds retries when a generated name is taken.
const generateNameAttempts = 8

// create answers POST on a collection.
func (q *request) create() {
	if q.info.Name != "" {
		q.fail(q.methodNotSupported(VerbCreate))
		return
	}
	d, err := q.decodeBody()
	if err != nil {
		q.fail(err)
		return
	}
	obj := d.Object
	if err := q.checkNamespace(obj); err != nil {
		q.fail(err)
		return
	}
	q.prepareForCreate(obj)
	generated := obj.Name() == "" && obj.GenerateName() != ""
	if errs := validateObjectMeta(obj, q.res, q.info.Namespace); len(errs) > 0 {
		q.fail(meta.Invalid(q.gk(), obj.Name(), errs))
		return
	}
	if q.res.Namespaced {
		if err := q.s.checkNamespaceOpen(q.r, q.info.Namespace); err != nil {
			q.fail(err)
			return
		}
	}
	for attempt := 0; ; attempt++ {
		if generated {
			obj.SetMetadataField("name", obj.GenerateName()+randomSuffix())
		}
		stored, err := q.s.store.Create(q.r.Context(), q.res.key(q.info.Namespace, obj.Name()), obj)
		if errors.Is(err, store.ErrExists) && generated && attempt < generateNameAttempts {
			continue
		}
		if err != nil {
			q.fail(storeError(err, q.gr(), obj.Name()))
			return
		}
		q.s.writeObject(q.w, q.r, http.StatusCreated, stored)
		return
	}
}

// checkNamespace reconciles the body's namespace with the URL's: empty
// takes the URL's, a different one is refused, cluster-scoped objects have
// none.
func (q *request) checkNamespace(obj meta.Object) error {
	if !q.res.Namespaced {
		obj.SetMetadataField("namespace", nil)
		return nil
	}
	switch ns := obj.Namespace(); {
	case ns == "":
		obj.SetMetadataField("namespace", q.info.Namespace)
	case ns != q.info.Namespace:
		return meta.BadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	return nil
}

// prepareForCreate sets the fields the server owns on a new object.
func (q *request) prepareForCreate(obj meta.Object) {
	m := obj.MetadataForWrite()
	m["uid"] = newUID()
	m["creationTimestamp"] = meta.FormatTime(q.s.now())
	if !q.res.WithoutGeneration {
		m["generation"] = int64(1)
	}
	for _, f := range []string{"resourceVersion", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink"} {
		delete(m, f)
	}
	if q.res.StatusSubresource {
		delete(obj, "status")
	}
	if q.res == q.s.registry.Load().namespaces() {
		prepareNamespace(obj)
	}
}

// update answers PUT on an object or its status.
func (q *request) update() {
	d, err := q.decodeBody()
	if err != nil {
		q.fail(err)
		return
	}
	obj := d.Object
	if obj.Name() == "" {
		q.fail(meta.BadRequest(fmt.Sprintf("the name of the object (%s based on URL) was undeterminable: name must be provided",
			q.info.Name)))
		return
	}
	if obj.Name() != q.info.Name {
		q.fail(meta.BadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)",
			obj.Name(), q.info.Name)))
		return
	}
	if err := q.checkNamespace(obj); err != nil {
		q.fail(err)
		return
	}
	created := false
	key := q.res.key(q.info.Namespace, q.info.Name)
	opts := store.UpdateOptions{AllowCreate: q.res.AllowCreateOnUpdate && q.info.Subresource == ""}
	stored, err := q.s.store.Update(q.r.Context(), key, opts, func(cur *store.Object) (meta.Object, error) {
		next := obj.DeepCopy() // tryUpdate may run again: never change obj itself
		if cur == nil {
			created = true
			q.prepareForCreate(next)
			if errs := validateObjectMeta(next, q.res, q.info.Namespace); len(errs) > 0 {
				return nil, meta.Invalid(q.gk(), next.Name(), errs)
			}
			return next, nil
		}
		created = false
		return q.prepareForUpdate(next, cur.Data())
	})
	if err != nil {
		q.fail(storeError(err, q.gr(), q.info.Name))
		return
	}
	if deleted, err := q.s.finishDeletion(q.r, q.res, stored); err != nil {
		q.fail(err)
		return
	} else if deleted != nil {
		stored = deleted
	}
	code := http.StatusOK
	if created {
		code = http.StatusCreated
	}
	q.s.writeObject(q.w, q.r, code, stored)
}

// prepareForUpdate turns the client's object into the next stored version
// of old: optimistic concurrency, immutable and server-owned metadata kept,
// the status or main part kept depending on the endpoint, generation bumped
// when the spec changed. It returns old itself when nothing changes.
func (q *request) prepareForUpdate(next, old meta.Object) (meta.Object, error) {
	if rv := next.ResourceVersion(); rv != "" && rv != old.ResourceVersion() {
		return nil, meta.ConflictModified(q.gr(), q.info.Name)
	}
	if uid := next.UID(); uid == "" {
		next.SetMetadataField("uid", old.UID())
	} else if uid != old.UID() { // kube uses a sent uid as a precondition
		return nil, &store.PreconditionError{Field: "UID", Want: uid, Got: old.UID()}
	}
	var errs meta.FieldErrors
	m := next.MetadataForWrite()
	for _, f := range []string{"creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "generation"} {
		if v, ok := old.Metadata()[f]; ok {
			m[f] = v
		} else {
			delete(m, f)
		}
	}
	delete(m, "selfLink")
	if old.DeletionTimestamp() != "" {
		if added := newFinalizers(old.Finalizers(), next.Finalizers()); len(added) > 0 {
			errs = append(errs, meta.FieldError{Type: meta.ErrorForbidden, Field: "metadata.finalizers",
				Detail: fmt.Sprintf("no new finalizers can be added if the object is being deleted, found new finalizers %q", added)})
		}
	}
	errs = append(errs, validateObjectMeta(next, q.res, q.info.Namespace)...)
	if len(errs) > 0 {
		return nil, meta.Invalid(q.gk(), q.info.Name, errs)
	}
	if q.res.StatusSubresource {
		if q.info.Subresource == "status" {
			status, hasStatus := next["status"]
			kept := meta.Object{}
			for k, v := range old {
				if k != "status" {
					kept[k] = v
				}
			}
			next = kept.DeepCopy()
			if hasStatus {
				next["status"] = status
			}
		} else if status, ok := old["status"]; ok {
			next["status"] = meta.DeepCopyValue(status)
		} else {
			delete(next, "status")
		}
	}
	next.SetMetadataField("resourceVersion", old.ResourceVersion())
	if reflect.DeepEqual(map[string]any(next), map[string]any(old)) {
		return old, nil
	}
	if !q.res.WithoutGeneration && specChanged(old, next) {
		next.SetMetadataField("generation", old.Generation()+1)
	}
	return next, nil
}

// specChanged reports whether anything besides metadata and status differs.
func specChanged(old, next meta.Object) bool {
	for k, v := range next {
		if k == "metadata" || k == "status" {
			continue
		}
		if ov, ok := old[k]; !ok || !reflect.DeepEqual(ov, v) {
			return true
		}
	}
	for k := range old {
		if _, ok := next[k]; !ok && k != "metadata" && k != "status" {
			return true
		}
	}
	return false
}

func newFinalizers(old, next []string) []string {
	have := map[string]bool{}
	for _, f := range old {
		have[f] = true
	}
	var added []string
	for _, f := range next {
		if !have[f] {
			added = append(added, f)
		}
	}
	return added
}

// randomSuffix is the 5-character suffix kube appends to generateName,
// drawn from its alphabet without vowels or confusable characters.
func randomSuffix() string {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	var b [5]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b[:])
}
