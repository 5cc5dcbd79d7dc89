package apiserver

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// generateNameAttempts bounds retries when a generated name is taken.
const generateNameAttempts = 8

// writeOptions are the query options every write takes.
type writeOptions struct {
	dryRun          bool
	fieldValidation string // Ignore, Warn or Strict
}

// writeOptions parses dryRun and fieldValidation, which kube-apiserver
// validates as part of the verb's options object (CreateOptions,
// UpdateOptions, PatchOptions): a dryRun other than "All", or an unknown
// fieldValidation, is 422 Invalid.
func (q *request) writeOptions(optionsKind string) (writeOptions, error) {
	opts, errs := q.parseWriteOptions()
	if len(errs) > 0 {
		return opts, meta.Invalid(meta.GroupKind{Group: "meta.k8s.io", Kind: optionsKind}, "", errs)
	}
	q.wo = opts
	return opts, nil
}

// requestOptions reads and validates a write's options, its writer's
// included (q.mo), as kube's Validate{Create,Update,Patch}Options do: every
// problem at once, in kube's order (force, or a missing fieldManager for
// apply; the fieldManager; dryRun; fieldValidation).
func (q *request) requestOptions(optionsKind string, apply bool) (writeOptions, error) {
	mo, errs := q.managerOptions(apply)
	opts, werrs := q.parseWriteOptions()
	if errs = append(errs, werrs...); len(errs) > 0 {
		return opts, meta.Invalid(meta.GroupKind{Group: "meta.k8s.io", Kind: optionsKind}, "", errs)
	}
	q.mo, q.wo = mo, opts
	return opts, nil
}

func (q *request) parseWriteOptions() (writeOptions, meta.FieldErrors) {
	var opts writeOptions
	var errs meta.FieldErrors
	values := q.r.URL.Query()["dryRun"]
	for _, v := range values {
		if v != "All" {
			errs = append(errs, meta.FieldError{Type: meta.ErrorNotSupported, Field: "dryRun", Value: values, Detail: `supported values: "All"`})
			break
		}
	}
	opts.dryRun = len(values) > 0
	switch fv := q.r.URL.Query().Get("fieldValidation"); fv {
	case "", "Warn":
		opts.fieldValidation = "Warn" // kube warns when not told otherwise
	case "Ignore", "Strict":
		opts.fieldValidation = fv
	default:
		errs = append(errs, meta.FieldError{Type: meta.ErrorNotSupported, Field: "fieldValidation", Value: fv,
			Detail: `supported values: "", "Ignore", "Strict", "Warn"`})
	}
	return opts, errs
}

// checkFields applies field validation to the problems found in a request
// body (unknown and duplicate fields, in document order): Strict refuses the
// request, Warn sends one Warning header per problem, Ignore drops them.
// Patches fail as kube-apiserver fails them, with 422 on the patch.
func (q *request) checkFields(wo writeOptions, problems []string, patch string) error {
	if len(problems) == 0 || wo.fieldValidation == "Ignore" {
		return nil
	}
	if wo.fieldValidation == "Strict" {
		msg := "strict decoding error: " + strings.Join(problems, ", ")
		if patch != "" {
			return meta.Invalid(meta.GroupKind{}, "", meta.FieldErrors{{Type: meta.ErrorInvalid, Field: "patch", Value: patch, Detail: msg}})
		}
		return meta.BadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %s", q.res.Kind, q.res.Version, q.res.Kind, msg))
	}
	q.warnings = append(q.warnings, problems...)
	return nil
}

// decodeWrite reads what a create or update starts from: its options, who
// writes, and the body decoded, pruned and field-validated.
func (q *request) decodeWrite(optionsKind string) (writeOptions, meta.Object, error) {
	wo, err := q.requestOptions(optionsKind, false)
	if err != nil {
		return wo, nil, err
	}
	d, err := q.decodeBody()
	if err != nil {
		return wo, nil, err
	}
	if err := q.res.typedDecodeCheck(d.Object, optionsKind == "UpdateOptions"); err != nil {
		return wo, nil, err
	}
	if err := q.checkFields(wo, q.res.bodyProblems(d.Object, func() []byte { return q.body }, d.Duplicates), ""); err != nil {
		return wo, nil, err
	}
	return wo, d.Object, nil
}

// create answers POST on a collection.
func (q *request) create() {
	if q.info.Name != "" {
		q.fail(q.methodNotSupported(VerbCreate))
		return
	}
	wo, obj, err := q.decodeWrite("CreateOptions")
	if err != nil {
		q.fail(err)
		return
	}
	if err := q.checkNamespace(obj); err != nil {
		q.fail(err)
		return
	}
	if q.res.CreateOnly != nil {
		q.answerCreate(obj)
		return
	}
	ctx := q.r.Context()
	generated := obj.Name() == "" && obj.GenerateName() != ""
	for attempt := 0; ; attempt++ {
		next := obj
		if generated {
			next = obj.DeepCopy()
		}
		stored, err := q.createObject(ctx, next, wo)
		q.settleAllocation(err == nil)
		if errors.Is(err, store.ErrExists) && generated && attempt < generateNameAttempts {
			continue
		}
		if errors.Is(err, store.ErrExists) {
			err = q.alreadyExists(ctx, next)
		}
		if err != nil {
			q.fail(storeError(err, q.gr(), next.Name()))
			return
		}
		if stored, err = q.afterWrite(OperationCreate, stored, wo); err != nil {
			q.fail(err)
			return
		}
		compact(stored)
		q.flushWarnings()
		if stored, err = q.res.present(ctx, stored); err != nil {
			q.fail(err)
			return
		}
		q.s.writeObject(q.w, q.r, http.StatusCreated, q.res.GroupVersionKind(), stored)
		return
	}
}

// alreadyExists is kube's answer to a create whose name is taken: any
// object with a generateName, its name generated or not, asks to retry; an
// object being deleted is said to be.
func (q *request) alreadyExists(ctx context.Context, obj meta.Object) error {
	st := meta.AlreadyExists(q.gr(), obj.Name())
	if obj.GenerateName() != "" {
		st = meta.GenerateNameConflict(q.gr(), obj.Name())
	}
	if cur, err := q.s.store.Get(ctx, q.res.key(q.info.Namespace, obj.Name())); err == nil && cur.Data().DeletionTimestamp() != "" {
		st.Message = "object is being deleted: " + st.Message
	}
	return st
}

// createObject runs the create pipeline on obj and stores it, unless dry
// run, in which case the would-be object is returned unstored.
func (q *request) createObject(ctx context.Context, obj meta.Object, wo writeOptions) (*store.Object, error) {
	obj, err := q.admitCreate(ctx, obj, wo, false)
	if err != nil {
		return nil, err
	}
	key := q.res.key(q.info.Namespace, obj.Name())
	q.keepSentFields(obj, nil)
	if rv, err := strconv.ParseUint(obj.ResourceVersion(), 10, 64); err == nil && rv != 0 && !wo.dryRun {
		// kube's storage refuses a create that names a version, as its
		// internal error; a dry run does not reach it.
		return nil, &meta.Status{Kind: "Status", APIVersion: "v1", Status: "Failure", Code: http.StatusInternalServerError,
			Message: "resourceVersion should not be set on objects to be created"}
	}
	if wo.dryRun {
		if _, err := q.s.store.Get(ctx, key); err == nil {
			return nil, store.ErrExists
		}
		return store.NewObject(key, 0, obj), nil
	}
	obj, err = q.res.storageForm(ctx, obj)
	if err != nil {
		return nil, err
	}
	return q.s.store.Create(ctx, key, obj)
}

// admitCreate runs a new object through preparation, defaulting,
// admission and validation. byUpdate is a PUT or apply that creates:
// kube's update handler clears nothing before mutating admission, so
// those webhooks see a creationTimestamp the client sent (the storage
// overwrites it after them, as for every create).
func (q *request) admitCreate(ctx context.Context, obj meta.Object, wo writeOptions, byUpdate bool) (meta.Object, error) {
	strategy, w := q.res.strategy(), q.newWrite(OperationCreate, wo.dryRun)
	sentName := obj.Name() // before a generated one: admission sees what was sent
	if sentName == "" {
		sentName = obj.GenerateName()
	}
	sentTime := obj.Metadata()["creationTimestamp"]
	q.wipeForCreate(obj)
	keepTime := byUpdate && sentTime != nil
	if keepTime {
		obj.MetadataForWrite()["creationTimestamp"] = sentTime
	}
	schemaErrs := q.res.applyDefaults(obj)
	if err := q.res.typedDecodeError(schemaErrs); err != nil {
		return nil, err
	}
	obj = q.trackUpdate(nil, obj)
	if !q.res.customResource && !keepTime {
		// Mutating admission sees a typed object's zero time, as kube
		// serialises it; nobody's field, and prepareForCreate sets it.
		obj.MetadataForWrite()["creationTimestamp"] = nil
	}
	if q.res.Namespaced {
		// kube's NamespaceLifecycle is the first admission plugin.
		if err := q.s.checkNamespaceOpen(q.r, q.res, q.info.Namespace, sentName); err != nil {
			return nil, err
		}
	}
	return obj, q.admit(ctx, OperationCreate, obj, nil, wo, func() error {
		// As in kube, the system fields, the generated name, allocation and
		// the kind's preparation follow field tracking and mutating
		// admission: what they set is nobody's field, and mutating webhooks
		// see the object without them (validating ones with them).
		q.prepareForCreate(obj)
		if err := q.allocate(w, obj, nil); err != nil {
			return err
		}
		strategy.PrepareForCreate(w, obj)
		own := strategy.Validate(w, obj)
		errs := append(q.res.createMetaErrors(obj), q.res.schemaErrorsBeside(schemaErrs, own)...)
		errs = append(errs, own...)
		errs = q.validateCustomResource(obj, nil, errs)
		if len(errs) == 0 {
			errs = genericNameErrors(obj) // kube's registry checks, after the kind's
		}
		if len(errs) > 0 {
			return q.s.invalid(q.gk(), obj.Name(), errs)
		}
		return q.kindAdmission(w, obj, nil)
	})
}

// newWrite describes the request's write to strategy hooks.
func (q *request) newWrite(op Operation, dryRun bool) *Write {
	return &Write{Context: q.r.Context(), Operation: op, Subresource: q.info.Subresource,
		Namespace: q.info.Namespace, Name: q.info.Name, DryRun: dryRun, Now: q.s.now(), res: q.res, s: q.s}
}

// admit runs admission around the built-in validation for one write.
func (q *request) admit(ctx context.Context, op Operation, obj, old meta.Object, wo writeOptions, validate func() error) error {
	req := &AdmissionRequest{
		Operation: op, Resource: meta.GroupVersionResource{Group: q.res.Group, Version: q.res.Version, Resource: q.res.Plural},
		Kind: q.res.GroupVersionKind(), Subresource: q.info.Subresource, Namespace: q.info.Namespace,
		Name: obj.Name(), Object: obj, OldObject: old, DryRun: wo.dryRun, Options: q.admissionOptions(),
	}
	return q.s.runAdmission(ctx, req, q.res, validate)
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

// wipeForCreate clears the server-owned metadata a client sent with a
// new object, as kube's create handler does before field tracking and
// mutating admission: those see the object without a uid or creation time
// and, for a generateName, without a name.
func (q *request) wipeForCreate(obj meta.Object) {
	m := obj.MetadataForWrite()
	for _, f := range []string{"uid", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink"} {
		delete(m, f)
	}
	delete(m, "creationTimestamp")
}

// prepareForCreate sets the fields the server owns on a new object,
// generating its name from generateName when it has none. It runs after
// mutating admission, as kube's storage fills them in.
func (q *request) prepareForCreate(obj meta.Object) {
	m := obj.MetadataForWrite()
	if prefix := obj.GenerateName(); obj.Name() == "" && prefix != "" {
		if len(prefix) > maxGeneratedNamePrefix {
			prefix = prefix[:maxGeneratedNamePrefix]
		}
		m["name"] = prefix + randomSuffix()
	}
	m["uid"] = newUID()
	m["creationTimestamp"] = meta.FormatTime(q.s.now())
	if !q.res.WithoutGeneration {
		m["generation"] = int64(1)
	}
	// resourceVersion stays: a dry run shows the one sent, and a create
	// refuses it (createObject); the store sets its own.
	if _, sent := obj["status"].(map[string]any); q.res.StatusSubresource && !(q.res.KeepsStatusOnCreate && sent) {
		delete(obj, "status")
		// A built-in kind's strategy resets its status to the zero struct,
		// which reads back with its schema's defaults; a custom resource,
		// and any kind of one's own, is created without a status.
		if q.res.Schema != nil && q.res.builtin() {
			if st := q.res.Schema.Properties["status"]; st != nil {
				status := map[string]any{}
				st.Default(status)
				obj["status"] = status
			}
		}
	}
}

// checkName is kube's check of the name of an updated or patched object
// against the URL's.
func (q *request) checkName(obj meta.Object) error {
	if obj.Name() == "" {
		return meta.BadRequest(fmt.Sprintf("the name of the object (%s based on URL) was undeterminable: name must be provided",
			q.info.Name))
	}
	if obj.Name() != q.info.Name {
		return meta.BadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)",
			obj.Name(), q.info.Name))
	}
	return nil
}

// update answers PUT on an object or its status.
func (q *request) update() {
	wo, obj, err := q.decodeWrite("UpdateOptions")
	if err != nil {
		q.fail(err)
		return
	}
	if err := q.checkName(obj); err != nil {
		q.fail(err)
		return
	}
	if err := q.checkNamespace(obj); err != nil {
		q.fail(err)
		return
	}
	allowCreate := q.res.AllowCreateOnUpdate && q.info.Subresource == ""
	uid := obj.UID()
	// kube 1.37 asks storage to report a missing object before the
	// preconditions when the update cannot create it (404); kube 1.33's
	// storage checks the body's uid first, a missing object included (409).
	notFoundFirst := !allowCreate && q.s.kubeRelease.AtLeast(37)
	q.respondUpdate(q.updateObject(wo, allowCreate, func(cur *store.Object) (meta.Object, error) {
		if cur == nil && notFoundFirst {
			return nil, store.ErrNotFound
		}
		if uid != "" && (cur == nil || cur.Data().UID() != uid) {
			return nil, q.uidPreconditionFailed(cur, uid)
		}
		return obj.DeepCopy(), nil // the update may be retried: never change obj itself
	}))
}

// respondUpdate writes the outcome of updateObject.
func (q *request) respondUpdate(stored *store.Object, created bool, err error) {
	if err != nil {
		q.fail(storeError(err, q.gr(), q.info.Name))
		return
	}
	op, code := OperationUpdate, http.StatusOK
	if created {
		op, code = OperationCreate, http.StatusCreated
	}
	if stored, err = q.afterWrite(op, stored, q.wo); err != nil {
		q.fail(err)
		return
	}
	compact(stored)
	q.flushWarnings()
	if stored, err = q.res.present(q.r.Context(), stored); err != nil {
		q.fail(err)
		return
	}
	q.s.writeObject(q.w, q.r, code, q.res.GroupVersionKind(), stored)
}

// storageForm is what an update stores: a dry run is not converted by a
// custom resource's conversion webhook (kube's dry run never encodes for
// storage).
func (q *request) storageForm(ctx context.Context, obj meta.Object, wo writeOptions) (meta.Object, error) {
	if wo.dryRun && q.res.conversion != nil {
		return obj, nil
	}
	return q.res.storageForm(ctx, obj)
}

// afterWrite runs the strategy's AfterWrite on a stored write (a CRD's
// types are served before its create is answered, for one).
func (q *request) afterWrite(op Operation, stored *store.Object, wo writeOptions) (*store.Object, error) {
	if wo.dryRun {
		return stored, nil
	}
	return q.res.strategy().AfterWrite(q.newWrite(op, false), stored)
}

// updateObject runs the update pipeline: next computes the client's
// intended object from the current one (a PUT body, a patch applied), and
// the result goes through prepareForUpdate and admission, all retried on
// a concurrent write. With dry run nothing is stored. An update that
// removes the last finalizer of an object being deleted deletes it.
func (q *request) updateObject(wo writeOptions, allowCreate bool, next func(cur *store.Object) (meta.Object, error)) (*store.Object, bool, error) {
	ctx := q.r.Context()
	key := q.res.key(q.info.Namespace, q.info.Name)
	created := false
	tryUpdate := func(cur *store.Object) (meta.Object, error) {
		obj, err := next(cur)
		if err != nil {
			return nil, err
		}
		if cur == nil && !allowCreate {
			return nil, store.ErrNotFound
		}
		if cur == nil {
			created = true
			obj, err := q.admitCreate(ctx, obj, wo, true)
			if err != nil {
				return nil, err
			}
			q.keepSentFields(obj, nil)
			return q.storageForm(ctx, obj, wo)
		}
		created = false
		view, err := q.res.present(ctx, cur)
		if err != nil {
			return nil, err
		}
		old := view.Data()
		next, err := q.prepareForUpdate(ctx, obj, old, wo)
		if err != nil {
			return nil, err
		}
		if old.DeletionTimestamp() != "" && !q.res.held(next) {
			return nil, &lastFinalizerRemoved{current: cur, next: next}
		}
		q.keepSentFields(next, cur)
		return q.storageForm(ctx, next, wo)
	}
	for {
		if wo.dryRun {
			defer q.settleAllocation(false)
			return q.dryRunUpdate(key, tryUpdate, &created)
		}
		// The store calls tryUpdate for a missing object too: preconditions are
		// checked before NotFound, which tryUpdate answers.
		stored, err := q.s.store.Update(ctx, key, store.UpdateOptions{AllowCreate: true}, tryUpdate)
		var last *lastFinalizerRemoved
		q.settleAllocation(err == nil)
		if errors.As(err, &last) {
			// kube deletes the object instead of storing the finalizer-free
			// version, and answers with that version.
			pre := store.Preconditions{ResourceVersion: last.current.Data().ResourceVersion()}
			if _, err := q.s.store.Delete(ctx, key, pre, nil); err != nil {
				var pe *store.PreconditionError
				if errors.As(err, &pe) {
					continue // changed meanwhile: decide again
				}
				return nil, false, err
			}
			q.s.release(q.newWrite(OperationDelete, false), q.res, last.current.Data())
			return store.NewObject(key, last.current.Revision(), last.next), false, nil
		}
		return stored, created, err
	}
}

// uidPreconditionFailed is kube's answer to an update whose body's uid is
// not the stored object's (or there is none): its storage's precondition
// error, as a Conflict (whose ResourceVersion is always 0: the error names
// no revision).
func (q *request) uidPreconditionFailed(cur *store.Object, uid string) error {
	storedUID := ""
	if cur != nil {
		storedUID = cur.Data().UID()
	}
	gr := q.res.GroupResource()
	if q.res.Storage != nil {
		gr = q.res.Storage.Resource
	}
	key := store.KubeKey(gr.Group, gr.Resource, q.info.Namespace, q.info.Name)
	return meta.Conflict(q.gr(), q.info.Name, fmt.Sprintf("StorageError: invalid object, Code: 4, Key: %s, ResourceVersion: 0, "+
		"AdditionalErrorMsg: Precondition failed: UID in precondition: %s, UID in object meta: %s", key, uid, storedUID))
}

// lastFinalizerRemoved stops an update that leaves an object being
// deleted without finalizers: the object is deleted instead.
type lastFinalizerRemoved struct {
	current *store.Object
	next    meta.Object
}

func (*lastFinalizerRemoved) Error() string { return "last finalizer removed" }

// dryRunUpdate runs an update's pipeline against the current object and
// answers what would be stored, storing nothing.
func (q *request) dryRunUpdate(key string, tryUpdate store.UpdateFunc, created *bool) (*store.Object, bool, error) {
	cur, err := q.s.store.Get(q.r.Context(), key)
	if errors.Is(err, store.ErrNotFound) {
		cur, err = nil, nil
	}
	if err != nil {
		return nil, false, err
	}
	obj, err := tryUpdate(cur)
	var last *lastFinalizerRemoved
	if errors.As(err, &last) {
		return store.NewObject(key, cur.Revision(), last.next), false, nil
	}
	if errors.Is(err, store.ErrNoChange) && cur != nil {
		return cur, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	var rev int64
	if cur != nil {
		rev = cur.Revision()
	}
	return store.NewObject(key, rev, obj), *created, nil
}

// prepareForUpdate turns the client's object into the next stored version
// of old: optimistic concurrency, immutable and server-owned metadata kept,
// the status or main part kept depending on the endpoint, admission, and
// generation bumped when the spec changed. It returns old itself when
// nothing changes.
func (q *request) prepareForUpdate(ctx context.Context, next, old meta.Object, wo writeOptions) (meta.Object, error) {
	rv := next.ResourceVersion()
	if rv != "" {
		// kube's storage reads the version as a number; one it cannot read
		// fails the update as its internal error.
		sent, err := strconv.ParseUint(rv, 10, 64)
		if err != nil {
			return nil, &meta.Status{Kind: "Status", APIVersion: "v1", Status: "Failure", Code: http.StatusInternalServerError,
				Message: err.Error()}
		}
		if cur, _ := strconv.ParseUint(old.ResourceVersion(), 10, 64); sent != cur {
			return nil, meta.ConflictModified(q.gr(), q.info.Name)
		}
	}
	if rv == "" && q.r.Method == http.MethodPut && (q.res.customResource || q.res.ConditionalUpdates) {
		// Custom resources, and the kinds whose strategy says so, do not
		// allow unconditional updates.
		return nil, q.s.invalid(meta.GroupKind{Group: q.res.Group, Kind: q.res.Plural}, q.info.Name, meta.FieldErrors{{
			Type: meta.ErrorInvalid, Field: "metadata.resourceVersion", Value: zeroUint{}, Detail: "must be specified for an update"}})
	}
	if uid := next.UID(); uid == "" {
		next.SetMetadataField("uid", old.UID())
	} else if uid != old.UID() { // kube uses a sent uid as a precondition
		return nil, &store.PreconditionError{Field: "UID", Want: uid, Got: old.UID()}
	}
	m := next.MetadataForWrite()
	for _, f := range []string{"creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "generation"} {
		if v, ok := old.Metadata()[f]; ok {
			m[f] = v
		} else {
			delete(m, f)
		}
	}
	delete(m, "selfLink")
	strategy, w := q.res.strategy(), q.newWrite(OperationUpdate, wo.dryRun)
	next = strategy.PrepareForUpdate(w, next, old)
	schemaErrs := q.res.applyDefaults(next)
	if err := q.res.typedDecodeError(schemaErrs); err != nil {
		return nil, err
	}
	next = q.trackUpdate(old, next)
	validate := func() error {
		if err := q.allocate(w, next, old); err != nil {
			return err
		}
		errs := q.res.updateMetaErrors(next, old)
		own := strategy.ValidateUpdate(w, next, old)
		errs = append(append(errs, q.res.schemaErrorsBeside(schemaErrs, own)...), own...)
		if errs = q.validateCustomResource(next, old, errs); len(errs) > 0 {
			return q.s.invalid(q.gk(), q.info.Name, errs)
		}
		return q.kindAdmission(w, next, old)
	}
	if err := q.admit(ctx, OperationUpdate, next, old, wo, validate); err != nil {
		return nil, err
	}
	next.SetMetadataField("resourceVersion", old.ResourceVersion())
	if meta.EqualValues(map[string]any(next), map[string]any(old)) {
		return nil, store.ErrNoChange
	}
	annotationsChanged := q.res.AnnotationsBumpGeneration &&
		!meta.EqualValues(old.Metadata()["annotations"], next.Metadata()["annotations"])
	if !q.res.WithoutGeneration && (specChanged(old, next) || annotationsChanged) {
		next.SetMetadataField("generation", old.Generation()+1)
	}
	return next, nil
}

// zeroUint prints as kube prints an unset uint64 resourceVersion: 0x0 in
// Go syntax, 0 in JSON.
type zeroUint struct{}

func (zeroUint) String() string { return "0x0" }

// FormatValue: Go's %#v prints a uint64 in hex; JSON, 0.
func (z zeroUint) FormatValue(s meta.ValueStyle) string {
	if s == meta.JSONValues {
		return "0"
	}
	return z.String()
}

// specChanged reports whether anything besides metadata and status differs.
func specChanged(old, next meta.Object) bool {
	for k, v := range next {
		if k == "metadata" || k == "status" {
			continue
		}
		if ov, ok := old[k]; !ok || !meta.EqualValues(ov, v) {
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

// maxGeneratedNamePrefix is how much of a generateName kube keeps, so that
// a generated name fits a DNS label (58 + 5 = 63).
const maxGeneratedNamePrefix = 58

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

// invalid is the 422 of an object's validation errors as the server's
// release reports them: their values printed in its style
// (Release.ValueStyle), apimachinery's shared messages in its words
// (Release.reworded); from 1.37 each cause once (withoutRepeatedCauses).
func (s *Server) invalid(gk meta.GroupKind, name string, errs meta.FieldErrors) *meta.Status {
	errs = s.kubeRelease.reworded(errs)
	if s.kubeRelease.AtLeast(37) {
		errs = withoutRepeatedCauses(errs)
	}
	return meta.Invalid(gk, name, errs.InStyle(s.kubeRelease.ValueStyle()))
}

// withoutRepeatedCauses keeps the first of the field errors that read the
// same (field, and the cause's message). kube 1.33 reports a problem once
// per pass that checks it (an update's ObjectMeta up to four times, an
// HPA metric's unknown type twice); kube 1.37.2 reports each once, in the
// order of their first report (docs/kube-behaviour/19-releases.md,
// "difftest at 1.37", and the validation replay at 1.37).
func withoutRepeatedCauses(errs meta.FieldErrors) meta.FieldErrors {
	type cause struct {
		typ         meta.ErrorType
		field, body string
	}
	seen := make(map[cause]bool, len(errs))
	out := errs[:0:0]
	for _, e := range errs {
		c := cause{e.Type, e.Field, e.Body()}
		if !seen[c] {
			seen[c] = true
			out = append(out, e)
		}
	}
	return out
}
