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
	out, err := q.res.CreateOnly(q.r.Context(), q.info.Namespace, obj)
	if err != nil {
		q.fail(err)
		return
	}
	q.flushWarnings()
	q.s.writeObject(q.w, q.r, http.StatusCreated, q.res.GroupVersionKind(), store.NewObject("", 0, out))
}
