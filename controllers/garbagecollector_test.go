package controllers_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kapi-dev/kapi/controllers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// owner is an ownerReferences entry.
type owner struct {
	apiVersion, kind, name, uid string
	block                       bool
}

func (o owner) json() string {
	return fmt.Sprintf(`{"apiVersion":%q,"kind":%q,"name":%q,"uid":%q,"blockOwnerDeletion":%t}`, o.apiVersion, o.kind, o.name, o.uid, o.block)
}

func refsJSON(owners []owner) string {
	parts := make([]string, len(owners))
	for i, o := range owners {
		parts[i] = o.json()
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// configMap creates a ConfigMap with owners and returns it as an owner.
func (e *env) configMap(ns, name string, owners ...owner) owner {
	e.t.Helper()
	body := fmt.Sprintf(`{"metadata":{"name":%q,"ownerReferences":%s}}`, name, refsJSON(owners))
	out := e.must(201, "POST", "/api/v1/namespaces/"+ns+"/configmaps", body)
	return owner{"v1", "ConfigMap", name, nested(out, "metadata", "uid").(string), true}
}

func (e *env) cmPath(ns, name string) string {
	return "/api/v1/namespaces/" + ns + "/configmaps/" + name
}

// The events each propagation policy leads to are kube's (recorded with
// kube-apiserver and kube-controller-manager 1.33 in
// docs/kube-behaviour/09-controllers.md), dependents in name order: kube
// deletes them from parallel workers, in no set order.
func TestGarbageCollectorDeletesDependentsOfADeletedOwner(t *testing.T) {
	for _, tc := range []struct {
		policy string
		events []string
	}{
		{"", []string{
			"DELETED owner finalizers=[] dt=false owners=[]",
			"DELETED d1 finalizers=[] dt=false owners=[owner:true]",
			"DELETED d2 finalizers=[] dt=false owners=[owner:true]",
			"DELETED nb finalizers=[] dt=false owners=[owner:false]",
		}},
		{"Background", []string{
			"DELETED owner finalizers=[] dt=false owners=[]",
			"DELETED d1 finalizers=[] dt=false owners=[owner:true]",
			"DELETED d2 finalizers=[] dt=false owners=[owner:true]",
			"DELETED nb finalizers=[] dt=false owners=[owner:false]",
		}},
		{"Foreground", []string{
			"MODIFIED owner finalizers=[foregroundDeletion] dt=true owners=[]",
			"DELETED d1 finalizers=[] dt=false owners=[owner:true]",
			"DELETED d2 finalizers=[] dt=false owners=[owner:true]",
			"DELETED nb finalizers=[] dt=false owners=[owner:false]",
			"DELETED owner finalizers=[foregroundDeletion] dt=true owners=[]",
		}},
	} {
		t.Run("propagation "+tc.policy, func(t *testing.T) {
			e := newEnv(t, controllers.Options{})
			o := e.configMap("default", "owner")
			e.configMap("default", "d1", o)
			e.configMap("default", "d2", o)
			nb := o
			nb.block = false
			e.configMap("default", "nb", nb)
			e.configMap("default", "other") // no owner: stays
			e.idle()
			rec := e.record()
			body := ""
			if tc.policy != "" {
				body = fmt.Sprintf(`{"propagationPolicy":%q}`, tc.policy)
			}
			e.must(200, "DELETE", e.cmPath("default", "owner"), body)
			e.idle()
			assert.Equal(t, tc.events, rec.take("/configmaps/default/"))
			assert.True(t, e.exists(e.cmPath("default", "other")))
		})
	}
}

func TestGarbageCollectorForegroundWaitsForBlockingDependents(t *testing.T) {
	e := newEnv(t, controllers.Options{})
	o := e.configMap("default", "owner")
	body := fmt.Sprintf(`{"metadata":{"name":"held","finalizers":["example.com/hold"],"ownerReferences":[%s]}}`, o.json())
	e.must(201, "POST", "/api/v1/namespaces/default/configmaps", body)
	e.idle()
	marked := e.must(200, "DELETE", e.cmPath("default", "owner"), `{"propagationPolicy":"Foreground"}`)
	assert.NotNil(t, nested(marked, "metadata", "deletionTimestamp"))
	assert.Equal(t, []any{"foregroundDeletion"}, nested(marked, "metadata", "finalizers"))
	e.idle()
	own := e.must(200, "GET", e.cmPath("default", "owner"), "")
	assert.Equal(t, []any{"foregroundDeletion"}, nested(own, "metadata", "finalizers"), "held by its blocking dependent")
	held := e.must(200, "GET", e.cmPath("default", "held"), "")
	assert.NotNil(t, nested(held, "metadata", "deletionTimestamp"), "the dependent is being deleted")

	code, _ := e.do("PATCH", e.cmPath("default", "held"), "application/merge-patch+json", `{"metadata":{"finalizers":null}}`)
	require.Equal(t, 200, code)
	e.idle()
	assert.False(t, e.exists(e.cmPath("default", "held")))
	assert.False(t, e.exists(e.cmPath("default", "owner")), "gone once no dependent blocks it")
}

func TestGarbageCollectorOrphanRemovesTheOwnerFromDependents(t *testing.T) {
	e := newEnv(t, controllers.Options{})
	o := e.configMap("default", "owner")
	other := e.configMap("default", "other")
	e.configMap("default", "d1", o)
	e.configMap("default", "d2", o, other)
	e.idle()
	rec := e.record()
	marked := e.must(200, "DELETE", e.cmPath("default", "owner"), `{"propagationPolicy":"Orphan"}`)
	assert.Equal(t, []any{"orphan"}, nested(marked, "metadata", "finalizers"))
	e.idle()
	assert.Equal(t, []string{
		"MODIFIED owner finalizers=[orphan] dt=true owners=[]",
		"MODIFIED d1 finalizers=[] dt=false owners=[]",
		"MODIFIED d2 finalizers=[] dt=false owners=[other:true]",
		"DELETED owner finalizers=[orphan] dt=true owners=[]",
	}, rec.take("/configmaps/default/"))
	assert.False(t, e.exists(e.cmPath("default", "owner")))
	d1 := e.must(200, "GET", e.cmPath("default", "d1"), "")
	assert.Nil(t, nested(d1, "metadata", "ownerReferences"))
	assert.Nil(t, managedBy(d1, "kube-controller-manager"), "removing a field owns nothing, as in kube")
	assert.NotContains(t, fmt.Sprint(nested(d1, "metadata", "managedFields")), "ownerReferences", "the creator no longer owns the reference")
	d2 := e.must(200, "GET", e.cmPath("default", "d2"), "")
	refs := nested(d2, "metadata", "ownerReferences").([]any)
	require.Len(t, refs, 1)
	assert.Equal(t, other.uid, refs[0].(map[string]any)["uid"])
}

func TestGarbageCollectorDeletesObjectsWhoseOwnersNeverExisted(t *testing.T) {
	e := newEnv(t, controllers.Options{})
	real := e.configMap("default", "real")
	e.configMap("default", "ghost-owner", owner{"v1", "ConfigMap", "ghost", "00000000-0000-0000-0000-000000000001", false})
	e.configMap("default", "wrong-uid", owner{"v1", "ConfigMap", "real", "00000000-0000-0000-0000-000000000002", false})
	e.configMap("default", "unknown-kind", owner{"nope.example.com/v1", "Nope", "n", "00000000-0000-0000-0000-000000000003", false})
	e.configMap("default", "one-left", owner{"v1", "ConfigMap", "ghost", "00000000-0000-0000-0000-000000000004", false}, real)
	e.idle()
	assert.False(t, e.exists(e.cmPath("default", "ghost-owner")), "an owner that does not exist")
	assert.False(t, e.exists(e.cmPath("default", "wrong-uid")), "an owner of that name with another uid")
	assert.True(t, e.exists(e.cmPath("default", "unknown-kind")), "an owner of a kind not served waits")
	left := e.must(200, "GET", e.cmPath("default", "one-left"), "")
	refs := nested(left, "metadata", "ownerReferences").([]any)
	require.Len(t, refs, 1, "the dangling reference is removed, the object kept for its real owner")
	assert.Equal(t, real.uid, refs[0].(map[string]any)["uid"])
}

func TestGarbageCollectorBreaksOwnerCycles(t *testing.T) {
	e := newEnv(t, controllers.Options{})
	a := e.configMap("default", "a")
	b := e.configMap("default", "b", a)
	code, _ := e.do("PATCH", e.cmPath("default", "a"), "application/merge-patch+json",
		fmt.Sprintf(`{"metadata":{"ownerReferences":[%s]}}`, b.json()))
	require.Equal(t, 200, code)
	e.idle()
	rec := e.record()
	e.must(200, "DELETE", e.cmPath("default", "a"), `{"propagationPolicy":"Foreground"}`)
	e.idle()
	assert.False(t, e.exists(e.cmPath("default", "a")))
	assert.False(t, e.exists(e.cmPath("default", "b")))
	// What kube-apiserver and kube-controller-manager 1.33 did
	// (docs/kube-behaviour/09-controllers.md).
	assert.Equal(t, []string{
		"MODIFIED a finalizers=[foregroundDeletion] dt=true owners=[b:true]",
		"MODIFIED b finalizers=[] dt=false owners=[a:false]",
		"MODIFIED b finalizers=[foregroundDeletion] dt=true owners=[a:false]",
		"DELETED a finalizers=[foregroundDeletion] dt=true owners=[b:true]",
		"DELETED b finalizers=[foregroundDeletion] dt=true owners=[a:false]",
	}, rec.take("/configmaps/default/"))
}

func TestGarbageCollectorFollowsClusterScopedOwnersAndCustomResources(t *testing.T) {
	e := newEnv(t, controllers.Options{})
	e.must(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCRD)
	e.must(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
		strings.NewReplacer("widgets", "gizmos", "widget", "gizmo", "Widget", "Gizmo", "Namespaced", "Cluster").Replace(widgetCRD))
	gz := e.must(201, "POST", "/apis/example.com/v1/gizmos", `{"apiVersion":"example.com/v1","kind":"Gizmo","metadata":{"name":"g"}}`)
	gizmo := owner{"example.com/v1", "Gizmo", "g", nested(gz, "metadata", "uid").(string), true}
	w := e.must(201, "POST", "/apis/example.com/v1/namespaces/default/widgets",
		fmt.Sprintf(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","ownerReferences":[%s]}}`, gizmo.json()))
	widget := owner{"example.com/v1", "Widget", "w", nested(w, "metadata", "uid").(string), true}
	e.configMap("default", "of-widget", widget)
	e.idle()

	e.must(200, "DELETE", "/apis/example.com/v1/gizmos/g", `{"propagationPolicy":"Foreground"}`)
	e.idle()
	assert.False(t, e.exists("/apis/example.com/v1/gizmos/g"))
	assert.False(t, e.exists("/apis/example.com/v1/namespaces/default/widgets/w"), "a namespaced custom resource of a cluster-scoped owner")
	assert.False(t, e.exists(e.cmPath("default", "of-widget")), "a ConfigMap of a custom resource")
}

func TestGarbageCollectorOrphansCustomResourcesWithAMergePatch(t *testing.T) {
	e := newEnv(t, controllers.Options{})
	e.must(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCRD)
	o := e.configMap("default", "owner")
	e.must(201, "POST", "/apis/example.com/v1/namespaces/default/widgets",
		fmt.Sprintf(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","ownerReferences":[%s]}}`, o.json()))
	e.idle()
	e.must(200, "DELETE", e.cmPath("default", "owner"), `{"propagationPolicy":"Orphan"}`)
	e.idle()
	assert.False(t, e.exists(e.cmPath("default", "owner")))
	w := e.must(200, "GET", "/apis/example.com/v1/namespaces/default/widgets/w", "")
	assert.Nil(t, nested(w, "metadata", "ownerReferences"))
}

func TestGarbageCollectorAppliesEachPolicyOfADeleteCollection(t *testing.T) {
	for _, tc := range []struct {
		policy  string
		orphans bool
	}{{"Background", false}, {"Foreground", false}, {"Orphan", true}} {
		t.Run(tc.policy, func(t *testing.T) {
			e := newEnv(t, controllers.Options{})
			e.must(201, "POST", "/api/v1/namespaces", `{"metadata":{"name":"owners"}}`)
			e.must(201, "POST", "/api/v1/namespaces", `{"metadata":{"name":"deps"}}`)
			e.idle()
			var owners []owner
			for i := range 3 {
				out := e.must(201, "POST", "/api/v1/namespaces/owners/secrets", fmt.Sprintf(`{"metadata":{"name":"o%d","labels":{"owner":"yes"}}}`, i))
				owners = append(owners, owner{"v1", "Secret", fmt.Sprintf("o%d", i), nested(out, "metadata", "uid").(string), true})
			}
			for i, o := range owners {
				e.must(201, "POST", "/api/v1/namespaces/owners/configmaps",
					fmt.Sprintf(`{"metadata":{"name":"d%d","ownerReferences":[%s]}}`, i, o.json()))
			}
			e.idle()
			e.must(200, "DELETE", "/api/v1/namespaces/owners/secrets?labelSelector=owner%3Dyes",
				fmt.Sprintf(`{"propagationPolicy":%q}`, tc.policy))
			e.idle()
			for i := range owners {
				assert.False(t, e.exists(fmt.Sprintf("/api/v1/namespaces/owners/secrets/o%d", i)))
				assert.Equal(t, tc.orphans, e.exists(e.cmPath("owners", fmt.Sprintf("d%d", i))))
			}
		})
	}
}

func TestGarbageCollectorWarnsOfAnOwnerInAnotherNamespace(t *testing.T) {
	e := newEnv(t, controllers.Options{})
	e.must(201, "POST", "/api/v1/namespaces", `{"metadata":{"name":"x1"}}`)
	e.must(201, "POST", "/api/v1/namespaces", `{"metadata":{"name":"x2"}}`)
	o := e.configMap("x1", "owner")
	e.idle()
	e.configMap("x2", "dep", o)
	e.idle()
	assert.False(t, e.exists(e.cmPath("x2", "dep")), "its owner is not in its namespace: gone")
	assert.True(t, e.exists(e.cmPath("x1", "owner")))
	list := e.must(200, "GET", "/api/v1/namespaces/x2/events", "")
	items, _ := list["items"].([]any)
	require.Len(t, items, 1)
	ev := items[0].(map[string]any)
	assert.Equal(t, "OwnerRefInvalidNamespace", ev["reason"])
	assert.Equal(t, "Warning", ev["type"])
	assert.Equal(t, fmt.Sprintf(`ownerRef [v1/ConfigMap, namespace: x2, name: owner, uid: %s] does not exist in namespace "x2"`, o.uid), ev["message"])
	assert.Equal(t, "garbage-collector-controller", nested(ev, "source", "component"))
	assert.NotNil(t, managedBy(ev, "kube-controller-manager"))
}

func TestGarbageCollectorLeavesAClusterScopedObjectWithANamespacedOwner(t *testing.T) {
	e := newEnv(t, controllers.Options{})
	e.must(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
		strings.NewReplacer("widgets", "gizmos", "widget", "gizmo", "Widget", "Gizmo", "Namespaced", "Cluster").Replace(widgetCRD))
	o := e.configMap("default", "owner")
	e.must(201, "POST", "/apis/example.com/v1/gizmos",
		fmt.Sprintf(`{"apiVersion":"example.com/v1","kind":"Gizmo","metadata":{"name":"g","ownerReferences":[%s]}}`, o.json()))
	e.idle()
	e.must(200, "DELETE", e.cmPath("default", "owner"), "")
	e.idle()
	assert.True(t, e.exists("/apis/example.com/v1/gizmos/g"), "kube cannot resolve such an owner and leaves the object")
}

// A foreground deletion goes down a chain of owners: the middle one is
// deleted in the foreground too, as kube does.
func TestGarbageCollectorForegroundGoesDownAChain(t *testing.T) {
	e := newEnv(t, controllers.Options{})
	gp := e.configMap("default", "gp")
	parent := e.configMap("default", "parent", gp)
	e.configMap("default", "child", parent)
	e.idle()
	rec := e.record()
	e.must(200, "DELETE", e.cmPath("default", "gp"), `{"propagationPolicy":"Foreground"}`)
	e.idle()
	assert.Equal(t, []string{
		"MODIFIED gp finalizers=[foregroundDeletion] dt=true owners=[]",
		"MODIFIED parent finalizers=[foregroundDeletion] dt=true owners=[gp:true]",
		"DELETED child finalizers=[] dt=false owners=[parent:true]",
		"DELETED parent finalizers=[foregroundDeletion] dt=true owners=[gp:true]",
		"DELETED gp finalizers=[foregroundDeletion] dt=true owners=[]",
	}, rec.take("/configmaps/default/"))
}
