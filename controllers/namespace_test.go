package controllers_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/kapi-dev/kapi/controllers"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const widgetCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"widgets.example.com"},
"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"widgets","singular":"widget","kind":"Widget"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`

func TestNamespaceControllerDeletesEveryObjectThenTheNamespace(t *testing.T) {
	e := newEnv(t, controllers.Options{})
	e.must(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCRD)
	e.must(201, "POST", "/api/v1/namespaces", `{"metadata":{"name":"doomed"}}`)
	for i := range 3 {
		e.must(201, "POST", "/api/v1/namespaces/doomed/configmaps", fmt.Sprintf(`{"metadata":{"name":"c%d"}}`, i))
	}
	e.must(201, "POST", "/api/v1/namespaces/doomed/secrets", `{"metadata":{"name":"s"}}`)
	e.must(201, "POST", "/apis/example.com/v1/namespaces/doomed/widgets", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"}}`)
	e.idle()

	e.must(200, "DELETE", "/api/v1/namespaces/doomed", "")
	e.idle()
	assert.False(t, e.exists("/api/v1/namespaces/doomed"), "the namespace is gone")
	for _, p := range []string{"configmaps/c0", "configmaps/kube-root-ca.crt", "secrets/s", "serviceaccounts/default"} {
		assert.False(t, e.exists("/api/v1/namespaces/doomed/"+p), p)
	}
	assert.False(t, e.exists("/apis/example.com/v1/namespaces/doomed/widgets/w"), "custom resources too")

	// A namespace of the same name starts empty.
	e.must(201, "POST", "/api/v1/namespaces", `{"metadata":{"name":"doomed"}}`)
	e.idle()
	list := e.must(200, "GET", "/api/v1/namespaces/doomed/configmaps", "")
	items, _ := list["items"].([]any)
	require.Len(t, items, 1, "only the new kube-root-ca.crt")
}

func TestNamespaceControllerWaitsForAFinalizerAndReportsIt(t *testing.T) {
	e := newEnv(t, controllers.Options{})
	e.must(201, "POST", "/api/v1/namespaces", `{"metadata":{"name":"held"}}`)
	e.must(201, "POST", "/api/v1/namespaces/held/configmaps", `{"metadata":{"name":"h","finalizers":["example.com/hold"]}}`)
	e.idle()
	e.must(200, "DELETE", "/api/v1/namespaces/held", "")
	e.idle()

	ns := e.must(200, "GET", "/api/v1/namespaces/held", "")
	assert.Equal(t, "Terminating", nested(ns, "status", "phase"))
	conds := map[string]map[string]any{}
	for _, c := range nested(ns, "status", "conditions").([]any) {
		m := c.(map[string]any)
		conds[m["type"].(string)] = m
	}
	assert.Equal(t, "True", conds["NamespaceContentRemaining"]["status"])
	assert.Equal(t, "Some resources are remaining: configmaps. has 1 resource instances", conds["NamespaceContentRemaining"]["message"])
	assert.Equal(t, "SomeFinalizersRemain", conds["NamespaceFinalizersRemaining"]["reason"])
	assert.Equal(t, "Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances",
		conds["NamespaceFinalizersRemaining"]["message"])
	assert.Equal(t, "False", conds["NamespaceDeletionDiscoveryFailure"]["status"])
	kcm := managedBy(ns, "kube-controller-manager")
	require.NotNil(t, kcm, "the conditions are kube-controller-manager's")
	assert.Equal(t, "status", kcm["subresource"])

	code, st := e.do("POST", "/api/v1/namespaces/held/configmaps", "", `{"metadata":{"name":"late"}}`)
	assert.Equal(t, 403, code)
	assert.Equal(t, `configmaps "late" is forbidden: unable to create new content in namespace held because it is being terminated`, st["message"])

	code, _ = e.do("PATCH", "/api/v1/namespaces/held/configmaps/h", "application/merge-patch+json", `{"metadata":{"finalizers":null}}`)
	require.Equal(t, 200, code)
	e.idle()
	assert.False(t, e.exists("/api/v1/namespaces/held"), "gone once the finalizer is removed")
}

// An empty namespace goes as in kube: Terminating, then its conditions all
// "ok", then deleted (docs/kube-behaviour/09-controllers.md).
func TestNamespaceControllerDeletesAnEmptyNamespaceAsKubeDoes(t *testing.T) {
	e := newEnv(t, controllers.Options{Controllers: []string{"namespace"}})
	e.must(201, "POST", "/api/v1/namespaces", `{"metadata":{"name":"emp1"}}`)
	e.idle()
	w, err := e.srv.Store().Watch(e.ctx, "/namespaces/", store.WatchOptions{})
	require.NoError(t, err)
	defer w.Stop()
	e.must(200, "DELETE", "/api/v1/namespaces/emp1", "")
	e.idle()
	ctx, cancel := context.WithCancel(e.ctx)
	cancel()
	evs, _ := w.Next(ctx)
	var got []string
	for _, ev := range evs {
		d := ev.Object.Data()
		phase, _ := meta.NestedField(d, "status", "phase")
		conds, _ := meta.NestedField(d, "status", "conditions")
		var cs []string
		for _, c := range asList(conds) {
			m := c.(map[string]any)
			cs = append(cs, fmt.Sprintf("%v=%v/%v", m["type"], m["status"], m["reason"]))
		}
		got = append(got, fmt.Sprintf("%s %v %v", ev.Type, phase, cs))
	}
	ok := "[NamespaceDeletionDiscoveryFailure=False/ResourcesDiscovered NamespaceDeletionGroupVersionParsingFailure=False/ParsedGroupVersions " +
		"NamespaceDeletionContentFailure=False/ContentDeleted NamespaceContentRemaining=False/ContentRemoved " +
		"NamespaceFinalizersRemaining=False/ContentHasNoFinalizers]"
	assert.Equal(t, []string{"MODIFIED Terminating []", "MODIFIED Terminating " + ok, "DELETED Terminating " + ok}, got)
}

func asList(v any) []any { l, _ := v.([]any); return l }
