package apiserver_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
)

// bulkCounter is a memory store that counts the objects deleted in bulk.
type bulkCounter struct {
	*memory.Store
	bulk atomic.Int64
}

func (s *bulkCounter) DeleteVersions(ctx context.Context, objs []*store.Object) ([]*store.Object, error) {
	out, err := s.Store.DeleteVersions(ctx, objs)
	for _, o := range out {
		if o != nil {
			s.bulk.Add(1)
		}
	}
	return out, err
}

// deleteSeen is a validating admission plugin that records the deletes it
// sees (and so turns the bulk path off).
type deleteSeen struct {
	mu    sync.Mutex
	names []string
}

func (d *deleteSeen) Validate(_ context.Context, req *apiserver.AdmissionRequest) error {
	if req.Operation == apiserver.OperationDelete {
		d.mu.Lock()
		d.names = append(d.names, req.OldObject.Name()) // a deletecollection's request names none
		d.mu.Unlock()
	}
	return nil
}

// bulkServer is a server of the built-in kinds on a counting store.
func bulkServer(t *testing.T, admission ...any) (*kubeServer, *apiserver.Server, *bulkCounter) {
	t.Helper()
	st := &bulkCounter{Store: memory.New(memory.Config{})}
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(), OpenAPIComponents: builtin.OpenAPIComponents(),
		Store: st, Admission: admission})
	require.NoError(t, err)
	return newKubeServerFor(t, srv), srv, st
}

// change is what the tests compare of a watch event.
type change struct {
	Type     store.EventType
	Name     string
	RV       string
	Deleting bool
}

// changes reads the events under prefix after rev, up to the store's
// revision now.
func changes(t *testing.T, st store.Store, prefix string, rev int64) []change {
	t.Helper()
	w, err := st.Watch(t.Context(), prefix, store.WatchOptions{Revision: rev})
	require.NoError(t, err)
	defer w.Stop()
	var out []change
	for w.Revision() < st.Revision() {
		evs, err := w.Next(t.Context())
		require.NoError(t, err)
		for _, ev := range evs {
			d := ev.Object.Data()
			out = append(out, change{ev.Type, d.Name(), d.ResourceVersion(), d.DeletionTimestamp() != ""})
		}
	}
	return out
}

// fillConfigMaps creates ConfigMaps n0..n(count-1) in default; those in
// held get a finalizer: the garbage collector's "orphan" for n4, another
// for the others.
func fillConfigMaps(ks *kubeServer, count int, held ...int) {
	for i := range count {
		fin := ""
		for _, h := range held {
			switch {
			case h == i && i == 4:
				fin = `,"finalizers":["orphan"]`
			case h == i:
				fin = `,"finalizers":["example.com/hold"]`
			}
		}
		ks.must(201, "POST", "/api/v1/namespaces/default/configmaps",
			fmt.Sprintf(`{"metadata":{"name":"n%d","labels":{"set":"a"}%s},"data":{"k":"v\"%d\\"}}`, i, fin, i))
	}
}

func TestDeleteCollectionInBulkLeavesWhatOneDeleteEachLeaves(t *testing.T) {
	const path = "/api/v1/namespaces/default/configmaps"
	tests := []struct {
		name  string
		query string
		// bulk is how many objects go in bulk.
		bulk int64
	}{
		{"no options: the objects without finalizers go in bulk, the orphan finalizer holds n4", "", 4},
		{"Background propagation goes in bulk too, and removes n4's orphan finalizer, which deletes it", "?propagationPolicy=Background", 4},
		{"Orphan propagation keeps every object, each marked", "?propagationPolicy=Orphan", 0},
		{"Foreground propagation keeps every object, each marked", "?propagationPolicy=Foreground", 0},
		{"a dry run deletes nothing", "?dryRun=All", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bulk, bulkSrv, bulkStore := bulkServer(t)
			seen := &deleteSeen{}
			each, eachSrv, _ := bulkServer(t, seen)
			fillConfigMaps(bulk, 6, 1, 4)
			fillConfigMaps(each, 6, 1, 4)
			start := bulkSrv.Store().Revision()
			require.Equal(t, start, eachSrv.Store().Revision())

			a := bulk.must(200, "DELETE", path+tt.query, "")
			b := each.must(200, "DELETE", path+tt.query, "")
			assert.Equal(t, tt.bulk, bulkStore.bulk.Load())
			assert.Equal(t, []string{"n0", "n1", "n2", "n3", "n4", "n5"}, seen.names, "admission saw every delete")
			assert.Equal(t, names(t, b.body), names(t, a.body), "the same list is answered")
			prefix := "/configmaps/default/"
			want := changes(t, eachSrv.Store(), prefix, start)
			assert.Equal(t, want, changes(t, bulkSrv.Store(), prefix, start))
			assert.Equal(t, states(each.must(200, "GET", path, "").body), states(bulk.must(200, "GET", path, "").body))
			if tt.query == "?propagationPolicy=Background" {
				bulk.must(404, "GET", path+"/n4", "")
			}
		})
	}
}

// states are the listed objects' names, resourceVersions, finalizers and
// deletionTimestamps.
func states(body any) []string {
	list, _ := body.(map[string]any)
	items, _ := list["items"].([]any)
	out := make([]string, len(items))
	for i, it := range items {
		o := meta.Object(it.(map[string]any))
		out[i] = fmt.Sprintf("%s %s %v %v", o.Name(), o.ResourceVersion(), o.Finalizers(), o.DeletionTimestamp() != "")
	}
	return out
}

func names(t *testing.T, body any) []string {
	t.Helper()
	list, _ := body.(map[string]any)
	items, _ := list["items"].([]any)
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = meta.Object(it.(map[string]any)).Name()
	}
	return out
}

func TestDeleteCollectionInBulkRemovesTheObjectsWithoutFinalizersInListOrder(t *testing.T) {
	ks, srv, st := bulkServer(t)
	fillConfigMaps(ks, 5, 2)
	start := srv.Store().Revision()
	ks.must(200, "DELETE", "/api/v1/namespaces/default/configmaps?labelSelector=set%3Da", "")
	assert.Equal(t, int64(4), st.bulk.Load())
	got := changes(t, srv.Store(), "/configmaps/default/", start)
	require.Len(t, got, 5)
	for i, c := range got {
		want := change{store.Deleted, fmt.Sprintf("n%d", i), fmt.Sprint(start + int64(i) + 1), false}
		if i == 2 {
			want = change{store.Modified, "n2", fmt.Sprint(start + 3), true}
		}
		assert.Equal(t, want, c, "event %d", i)
	}
	ks.must(200, "GET", "/api/v1/namespaces/default/configmaps/n2", "")
	ks.must(404, "GET", "/api/v1/namespaces/default/configmaps/n3", "")
}

func TestDeleteCollectionOfAGracefulKindIsNotInBulk(t *testing.T) {
	ks, _, st := bulkServer(t)
	for _, n := range []string{"p1", "p2"} {
		ks.must(201, "POST", "/api/v1/namespaces/default/pods", `{"metadata":{"name":"`+n+`"},"spec":{"nodeName":"node1","containers":[{"name":"c","image":"i"}]}}`)
	}
	ks.must(200, "DELETE", "/api/v1/namespaces/default/pods", "")
	assert.Zero(t, st.bulk.Load())
	kubeSays(t, ks.do("GET", "/api/v1/namespaces/default/pods/p1", ""), 200, map[string]string{
		"metadata.deletionGracePeriodSeconds": "30"})
}

// discarder is an in-process client's writer that drops successful
// answers' bodies.
type discarder struct {
	*httptest.ResponseRecorder
}

func (discarder) DiscardsBody() bool { return true }

func TestALoopbackClientThatDiscardsBodiesGetsNoListFromADeleteCollection(t *testing.T) {
	ks, srv, st := bulkServer(t)
	fillConfigMaps(ks, 3)
	w := discarder{httptest.NewRecorder()}
	req := httptest.NewRequest(http.MethodDelete, "/api/v1/namespaces/default/configmaps", nil)
	srv.Loopback().ServeHTTP(w, req)
	assert.Equal(t, http.StatusOK, w.Code)
	assert.Empty(t, w.Body.Bytes())
	assert.Equal(t, "application/json", w.Header().Get("Content-Type"))
	assert.Equal(t, int64(3), st.bulk.Load())
	kubeSays(t, ks.do("GET", "/api/v1/namespaces/default/configmaps", ""), 200, map[string]string{"items": "[]"})

	t.Run("its errors still have their bodies", func(t *testing.T) {
		w := discarder{httptest.NewRecorder()}
		srv.Loopback().ServeHTTP(w, httptest.NewRequest(http.MethodDelete, "/api/v1/namespaces/default/configmaps?propagationPolicy=Nope", nil))
		assert.Equal(t, http.StatusUnprocessableEntity, w.Code)
		assert.True(t, strings.Contains(w.Body.String(), `"reason":"Invalid"`), w.Body.String())
	})
	t.Run("a client that reads bodies gets the list", func(t *testing.T) {
		fillConfigMaps(ks, 1)
		w := httptest.NewRecorder()
		srv.Loopback().ServeHTTP(w, httptest.NewRequest(http.MethodDelete, "/api/v1/namespaces/default/configmaps", nil))
		assert.Equal(t, http.StatusOK, w.Code)
		assert.Contains(t, w.Body.String(), `"kind":"ConfigMapList"`)
	})
}

// TestBulkDeletesWhileNoPolicyOrWebhookIsStored: a server that enforces
// ValidatingAdmissionPolicies and calls webhooks (as the example server
// does) deletes in bulk while none is stored, and object by object, each
// admitted, once a policy is bound.
func TestBulkDeletesWhileNoPolicyOrWebhookIsStored(t *testing.T) {
	st := &bulkCounter{Store: memory.New(memory.Config{})}
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(), OpenAPIComponents: builtin.OpenAPIComponents(),
		Store: st, ValidatingAdmissionPolicy: true, Webhooks: &apiserver.WebhookOptions{}})
	require.NoError(t, err)
	ks := newKubeServerFor(t, srv)
	const path = "/api/v1/namespaces/default/configmaps"

	fillConfigMaps(ks, 3)
	ks.must(200, "DELETE", path, "")
	assert.EqualValues(t, 3, st.bulk.Load(), "nothing stored to admit deletes: the bulk path")

	ks.must(201, "POST", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies",
		`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"allow"},"spec":{"failurePolicy":"Fail",
"matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["DELETE"],"resources":["configmaps"]}]},
"validations":[{"expression":"true"}]}}`)
	ks.must(201, "POST", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings",
		`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding","metadata":{"name":"allow"},"spec":{"policyName":"allow","validationActions":["Deny"]}}`)
	fillConfigMaps(ks, 3)
	ks.must(200, "DELETE", path, "")
	assert.EqualValues(t, 3, st.bulk.Load(), "a bound policy sees each delete: none went in bulk")
	list := ks.must(200, "GET", path, "")
	assert.Empty(t, list.body.(map[string]any)["items"], "all deleted, one by one")
}
