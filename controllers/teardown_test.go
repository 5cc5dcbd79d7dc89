package controllers_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/controllers"
	"github.com/kapi-dev/kapi/meta"
)

// teardownConfigMaps spans more than one chunk of the store's bulk delete.
const teardownConfigMaps = 600

// fillDoomed makes the namespace "doomed": ConfigMaps c000.., one of them
// held by a finalizer, Secrets, and Widgets (custom resources), one held.
func fillDoomed(e *env) {
	e.t.Helper()
	e.must(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCRD)
	e.must(201, "POST", "/api/v1/namespaces", `{"metadata":{"name":"doomed"}}`)
	for i := range teardownConfigMaps {
		fin := ""
		if i == 300 {
			fin = `,"finalizers":["example.com/hold"]`
		}
		e.must(201, "POST", "/api/v1/namespaces/doomed/configmaps",
			fmt.Sprintf(`{"metadata":{"name":"c%03d","labels":{"i":"%d"}%s},"data":{"k":"v%d"}}`, i, i, fin, i))
	}
	for i := range 20 {
		e.must(201, "POST", "/api/v1/namespaces/doomed/secrets", fmt.Sprintf(`{"metadata":{"name":"s%02d"}}`, i))
	}
	for _, w := range []string{`"name":"w1"`, `"name":"w2","finalizers":["example.com/hold"]`, `"name":"w3"`} {
		e.must(201, "POST", "/apis/example.com/v1/namespaces/doomed/widgets", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{`+w+`}}`)
	}
	e.idle()
}

func TestNamespaceTeardownDeletesInBulkWithKubesEventsAndFinalizersHolding(t *testing.T) {
	e := newEnv(t, controllers.Options{})
	fillDoomed(e)
	hs := httptest.NewServer(e.srv)
	t.Cleanup(hs.Close)
	list := e.must(200, "GET", "/api/v1/namespaces/doomed/configmaps", "")
	from := nested(list, "metadata", "resourceVersion").(string)
	resp, err := http.Get(hs.URL + "/api/v1/namespaces/doomed/configmaps?watch=1&resourceVersion=" + from)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	rec := e.record()

	e.must(200, "DELETE", "/api/v1/namespaces/doomed", "")
	e.idle()

	t.Run("every ConfigMap has its event, in list order: DELETED, or MODIFIED for the held one", func(t *testing.T) {
		var want []string
		for i := range teardownConfigMaps {
			if i == 300 {
				want = append(want, "MODIFIED c300 finalizers=[example.com/hold] dt=true owners=[]")
				continue
			}
			want = append(want, fmt.Sprintf("DELETED c%03d finalizers=[] dt=false owners=[]", i))
		}
		want = append(want, "DELETED kube-root-ca.crt finalizers=[] dt=false owners=[]")
		var got []string
		for rec.w.Revision() < e.srv.Store().Revision() {
			got = rec.take("/configmaps/doomed/")
		}
		assert.Equal(t, want, got)
	})

	t.Run("an HTTP watcher gets each DELETED object's last state at its deletion revision", func(t *testing.T) {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		last := int64(0)
		for i := range teardownConfigMaps {
			require.True(t, sc.Scan(), "event %d: %v", i, sc.Err())
			var ev struct {
				Type   string
				Object meta.Object
			}
			require.NoError(t, json.Unmarshal(sc.Bytes(), &ev))
			rv, err := strconv.ParseInt(ev.Object.ResourceVersion(), 10, 64)
			require.NoError(t, err)
			assert.Greater(t, rv, last, "resourceVersions grow")
			last = rv
			name := fmt.Sprintf("c%03d", i)
			assert.Equal(t, name, ev.Object.Name())
			if i == 300 {
				assert.Equal(t, "MODIFIED", ev.Type)
				continue
			}
			assert.Equal(t, "DELETED", ev.Type)
			assert.Equal(t, map[string]any{"k": fmt.Sprintf("v%d", i)}, ev.Object["data"], "the last state")
			assert.Equal(t, map[string]string{"i": strconv.Itoa(i)}, ev.Object.Labels())
		}
	})

	t.Run("the finalizers hold the namespace, Terminating, and report what remains", func(t *testing.T) {
		ns := e.must(200, "GET", "/api/v1/namespaces/doomed", "")
		assert.Equal(t, "Terminating", nested(ns, "status", "phase"))
		var msgs []string
		for _, c := range nested(ns, "status", "conditions").([]any) {
			m := c.(map[string]any)
			if m["status"] == "True" {
				msgs = append(msgs, m["message"].(string))
			}
		}
		assert.Equal(t, []string{
			"Some resources are remaining: configmaps. has 1 resource instances, widgets.example.com has 1 resource instances",
			"Some content in the namespace has finalizers remaining: example.com/hold in 2 resource instances",
		}, msgs)
		left := e.must(200, "GET", "/api/v1/namespaces/doomed/configmaps", "")
		assert.Len(t, left["items"], 1)
		assert.Empty(t, e.must(200, "GET", "/api/v1/namespaces/doomed/secrets", "")["items"])
	})

	t.Run("once the finalizers go, the namespace and all its objects are gone", func(t *testing.T) {
		for _, p := range []string{"/api/v1/namespaces/doomed/configmaps/c300", "/apis/example.com/v1/namespaces/doomed/widgets/w2"} {
			code, out := e.do("PATCH", p, "application/merge-patch+json", `{"metadata":{"finalizers":null}}`)
			require.Equal(t, 200, code, "%v", out)
		}
		e.idle()
		assert.False(t, e.exists("/api/v1/namespaces/doomed"))
		for _, p := range []string{"/api/v1/configmaps", "/api/v1/secrets", "/apis/example.com/v1/widgets", "/api/v1/serviceaccounts"} {
			all := e.must(200, "GET", p, "")
			for _, it := range asList(all["items"]) {
				assert.NotEqual(t, "doomed", meta.Object(it.(map[string]any)).Namespace(), "%s: %v", p, it)
			}
		}
	})
}

func TestGarbageCollectionFollowsABulkDeleteCollection(t *testing.T) {
	e := newEnv(t, controllers.Options{})
	var uids []string
	for i := range 300 {
		o := e.must(201, "POST", "/api/v1/namespaces/default/configmaps", fmt.Sprintf(`{"metadata":{"name":"owner%03d","labels":{"role":"owner"}}}`, i))
		uids = append(uids, nested(o, "metadata", "uid").(string))
	}
	for i, uid := range uids {
		if i%3 != 0 {
			continue
		}
		e.must(201, "POST", "/api/v1/namespaces/default/secrets", fmt.Sprintf(
			`{"metadata":{"name":"dep%03d","ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"owner%03d","uid":%q}]}}`, i, i, uid))
	}
	e.must(201, "POST", "/api/v1/namespaces/default/secrets", `{"metadata":{"name":"free"}}`)
	e.idle()

	e.must(200, "DELETE", "/api/v1/namespaces/default/configmaps?labelSelector=role%3Downer", "")
	e.idle()
	left := e.must(200, "GET", "/api/v1/namespaces/default/secrets", "")
	var names []string
	for _, it := range asList(left["items"]) {
		names = append(names, meta.Object(it.(map[string]any)).Name())
	}
	assert.False(t, slices.ContainsFunc(names, func(n string) bool { return n != "free" && n[:3] == "dep" }),
		"every dependent is collected: %v", names)
	assert.Contains(t, names, "free")
}
