package apiserver

import (
	"context"
	"net/http"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// CreateOnlyFunc answers a create whose object is never stored, as kube's
// review kinds (SubjectAccessReview, TokenReview…) are answered: obj is the
// decoded body with the managedFields of its writer, namespace is the
// URL's. Its error is sent as the response's Status.
type CreateOnlyFunc func(ctx context.Context, namespace string, obj meta.Object) (meta.Object, error)

// answerCreate answers a create of a create-only type: the body, with the
// managedFields its writer would own (as kube's create handler records
// them), goes to the type's CreateOnly; its answer is sent with 201.
func (q *request) answerCreate(obj meta.Object) {
	obj = q.trackUpdate(nil, obj)
	ctx := context.WithValue(q.r.Context(), writeKey{}, q.newWrite(OperationCreate, q.wo.dryRun))
	out, err := q.res.CreateOnly(ctx, q.info.Namespace, obj)
	if err != nil {
		q.fail(err)
		return
	}
	q.flushWarnings()
	gvk := gvkOf(out) // a review echoes its kind; a core Binding answers a Status
	if gvk.Kind == "" {
		gvk = q.res.GroupVersionKind()
	}
	q.s.writeObject(q.w, q.r, http.StatusCreated, gvk, store.NewObject("", 0, out))
}

type writeKey struct{}

// WriteFrom returns the create a CreateOnlyFunc answers, from its context:
// its namespace, dry run and user, and the server's other objects (a core
// Binding binds a pod).
func WriteFrom(ctx context.Context) (*Write, bool) {
	w, ok := ctx.Value(writeKey{}).(*Write)
	return w, ok
}
