package apiserver

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// The kube answers these tests hold kapi to are recorded in
// docs/kube-behaviour/07-strategies.md.

func TestANamespaceCreatorOwnsOnlyTheNameLabel(t *testing.T) {
	ts := newTestServer(t)
	r := ts.do("POST", "/api/v1/namespaces", `{"metadata":{"name":"mf1"}}`, "User-Agent", "kubectl/v1.33")
	require.Equal(t, http.StatusCreated, r.code, string(r.raw))
	assert.Equal(t, map[string]any{"finalizers": []any{"kubernetes"}}, r.body["spec"])
	assert.Equal(t, map[string]any{"phase": "Active"}, r.body["status"])
	mf := field(r.body, "metadata.managedFields").([]any)
	require.Len(t, mf, 1)
	assert.Equal(t, map[string]any{"f:metadata": map[string]any{"f:labels": map[string]any{
		".": map[string]any{}, "f:kubernetes.io/metadata.name": map[string]any{}}}},
		mf[0].(map[string]any)["fieldsV1"], "the finalizer and phase are set after field tracking: nobody owns them")
}

func TestAStatusWriteToABuiltInKindKeepsItsMetadataChangesAndTheStoredSpec(t *testing.T) {
	ts := newTestServer(t)
	const d = "/apis/apps/v1/namespaces/default/deployments"
	require.Equal(t, http.StatusCreated, ts.do("POST", d, `{"metadata":{"name":"d","labels":{"a":"1"}},"spec":{"replicas":1}}`).code)
	r := ts.do("PATCH", d+"/d/status", `{"metadata":{"labels":{"a":"2"},"annotations":{"x":"2"}},"spec":{"replicas":5},"status":{"replicas":3}}`,
		"Content-Type", mergePatchType)
	require.Equal(t, http.StatusOK, r.code, string(r.raw))
	assert.Equal(t, map[string]any{"a": "2"}, field(r.body, "metadata.labels"))
	assert.Equal(t, map[string]any{"x": "2"}, field(r.body, "metadata.annotations"))
	assert.EqualValues(t, 1, field(r.body, "spec.replicas"))
	assert.EqualValues(t, 3, field(r.body, "status.replicas"))
}

func TestAStatusWriteToACustomResourceChangesOnlyItsStatus(t *testing.T) {
	ts := newTestServer(t)
	require.Equal(t, http.StatusCreated, ts.do("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCRD).code)
	require.Equal(t, http.StatusCreated, ts.do("POST", widgets, `{"apiVersion":"example.org/v1","kind":"Widget","metadata":{"name":"w","labels":{"a":"1"}},"spec":{"size":1}}`).code)
	r := ts.do("PATCH", widgets+"/w/status", `{"metadata":{"labels":{"a":"2"},"annotations":{"x":"2"}},"spec":{"size":2},"status":{"ready":true}}`,
		"Content-Type", mergePatchType)
	require.Equal(t, http.StatusOK, r.code, string(r.raw))
	assert.Equal(t, map[string]any{"a": "1"}, field(r.body, "metadata.labels"))
	assert.Nil(t, field(r.body, "metadata.annotations"))
	assert.EqualValues(t, 1, field(r.body, "spec.size"))
	assert.Equal(t, true, field(r.body, "status.ready"))
}

// gadgetStrategy is a made-up kind with one special rule of each sort, to
// hold the generic pipeline to calling every hook.
type gadgetStrategy struct{ GenericStrategy }

func (gadgetStrategy) Default(obj meta.Object) {
	if _, ok := obj["color"]; !ok {
		obj["color"] = "grey"
	}
}

func (gadgetStrategy) PrepareForCreate(_ *Write, obj meta.Object) { obj["serial"] = "g-1" }

func (gadgetStrategy) PrepareForUpdate(w *Write, obj, old meta.Object) meta.Object {
	if w.Subresource == "paint" { // /paint changes the color and nothing else
		next := old.DeepCopy()
		next["color"] = obj["color"]
		next.MetadataForWrite()["managedFields"] = obj.Metadata()["managedFields"]
		return next
	}
	obj["serial"] = old["serial"]
	return PrepareStatusUpdate(w, obj, old)
}

func (gadgetStrategy) NameErrors(name string) []string {
	if name == "bad" {
		return []string{"gadgets may not be called bad"}
	}
	return nil
}

func (gadgetStrategy) Validate(_ *Write, obj meta.Object) meta.FieldErrors {
	if obj["color"] == "red" {
		return meta.FieldErrors{{Type: meta.ErrorForbidden, Field: "color", Detail: "no red gadgets"}}
	}
	return nil
}

func (gadgetStrategy) ValidateUpdate(_ *Write, obj, old meta.Object) meta.FieldErrors {
	if obj["size"] != old["size"] {
		return meta.FieldErrors{{Type: meta.ErrorInvalid, Field: "size", Value: obj["size"], Detail: "field is immutable"}}
	}
	return nil
}

// A gadget with "held" true stays after a DELETE until it is unset.
func (gadgetStrategy) PrepareForDelete(_ *Write, obj meta.Object) (bool, error) {
	if obj["locked"] == true {
		return false, meta.Forbidden(meta.GroupResource{Group: "example.com", Resource: "gadgets"}, obj.Name(), "locked")
	}
	return obj["held"] == true, nil
}

func (gadgetStrategy) Held(obj meta.Object) bool { return obj["held"] == true }

func (gadgetStrategy) AfterWrite(_ *Write, stored *store.Object) (*store.Object, error) {
	data := stored.Data().DeepCopy()
	data["answeredAfterWrite"] = true
	return store.NewObject(stored.Key(), stored.Revision(), data), nil
}

var stampKind = meta.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Stamp"}

func (gadgetStrategy) Subresources() []Subresource {
	return []Subresource{
		{Name: "paint", Verbs: []string{VerbUpdate, VerbPatch}},
		// POST /stamp copies the stamp's text onto the gadget and answers
		// with the stamp, counting the gadgets in the namespace.
		{Name: "stamp", Verbs: []string{VerbCreate}, Kind: stampKind, Serve: func(c *SubresourceCall) (int, meta.Object, error) {
			all, err := c.List(meta.GroupResource{Group: "example.com", Resource: "gadgets"}, c.Namespace)
			if err != nil {
				return 0, nil, err
			}
			_, err = c.UpdateObject(func(cur meta.Object) (meta.Object, error) {
				cur["stamp"] = c.Body["text"]
				return cur, nil
			})
			if err != nil {
				return 0, nil, err
			}
			c.Body["gadgets"] = int64(len(all))
			return http.StatusCreated, c.Body, nil
		}},
	}
}

func TestTheGenericPipelineCallsEveryStrategyHook(t *testing.T) {
	srv, err := New(Config{Resources: []Resource{{Group: "example.com", Version: "v1", Kind: "Gadget", Plural: "gadgets",
		Namespaced: true, WithoutGeneration: true, Strategy: gadgetStrategy{}}}})
	require.NoError(t, err)
	ts := newTestServerFor(t, srv)
	const gadgets = "/apis/example.com/v1/namespaces/default/gadgets"
	create := func(body string) response { return ts.do("POST", gadgets, body) }

	t.Run("a create is defaulted, prepared and answered through AfterWrite", func(t *testing.T) {
		r := create(`{"metadata":{"name":"g"},"size":1}`)
		require.Equal(t, http.StatusCreated, r.code, string(r.raw))
		assert.Equal(t, "grey", r.body["color"])
		assert.Equal(t, "g-1", r.body["serial"])
		assert.Equal(t, true, r.body["answeredAfterWrite"])
		stored := ts.do("GET", gadgets+"/g", "")
		assert.Nil(t, stored.body["answeredAfterWrite"], "AfterWrite's answer is not stored")
	})
	t.Run("the kind's name rule replaces the generic one", func(t *testing.T) {
		r := create(`{"metadata":{"name":"bad"}}`)
		require.Equal(t, http.StatusUnprocessableEntity, r.code)
		assert.Contains(t, r.body["message"], "gadgets may not be called bad")
		assert.Equal(t, http.StatusCreated, create(`{"metadata":{"name":"UPPER"}}`).code, "not a DNS subdomain, but gadgets allow it")
	})
	t.Run("a create fails the kind's validation", func(t *testing.T) {
		r := create(`{"metadata":{"name":"r"},"color":"red"}`)
		require.Equal(t, http.StatusUnprocessableEntity, r.code)
		assert.Equal(t, `Gadget.example.com "r" is invalid: color: Forbidden: no red gadgets`, r.body["message"])
	})
	t.Run("an update fails the kind's update validation", func(t *testing.T) {
		r := ts.do("PATCH", gadgets+"/g", `{"size":2}`, "Content-Type", mergePatchType)
		require.Equal(t, http.StatusUnprocessableEntity, r.code)
		assert.Contains(t, r.body["message"], "size: Invalid value: 2: field is immutable")
	})
	t.Run("the kind's subresource changes only what its strategy lets it", func(t *testing.T) {
		r := ts.do("PATCH", gadgets+"/g/paint", `{"color":"blue","serial":"forged"}`, "Content-Type", mergePatchType)
		require.Equal(t, http.StatusOK, r.code, string(r.raw))
		assert.Equal(t, "blue", r.body["color"])
		assert.Equal(t, "g-1", r.body["serial"])
		assert.Equal(t, http.StatusMethodNotAllowed, ts.do("GET", gadgets+"/g/paint", "").code)
		assert.Equal(t, http.StatusNotFound, ts.do("GET", gadgets+"/g/varnish", "").code)
	})
	t.Run("a subresource that serves itself answers as its kind", func(t *testing.T) {
		r := ts.do("POST", gadgets+"/g/stamp", `{"text":"approved"}`)
		require.Equal(t, http.StatusCreated, r.code, string(r.raw))
		assert.Equal(t, "Stamp", r.body["kind"])
		assert.Equal(t, "example.com/v1", r.body["apiVersion"])
		assert.EqualValues(t, 2, r.body["gadgets"])
		assert.Equal(t, "approved", ts.do("GET", gadgets+"/g", "").body["stamp"])
		wrong := ts.do("POST", gadgets+"/g/stamp", `{"kind":"Gadget","text":"x"}`)
		assert.Equal(t, http.StatusBadRequest, wrong.code, "a body of another kind is refused")
		assert.Equal(t, http.StatusNotFound, ts.do("POST", gadgets+"/missing/stamp", `{"text":"x"}`).code)
		dry := ts.do("POST", gadgets+"/g/stamp?dryRun=All", `{"text":"dry"}`)
		require.Equal(t, http.StatusCreated, dry.code)
		assert.Equal(t, "approved", ts.do("GET", gadgets+"/g", "").body["stamp"], "a dry run stores nothing")
	})
	t.Run("discovery lists the kind's subresource", func(t *testing.T) {
		r := ts.do("GET", "/apis/example.com/v1", "")
		var names []string
		for _, res := range r.body["resources"].([]any) {
			names = append(names, res.(map[string]any)["name"].(string))
		}
		assert.Equal(t, []string{"gadgets", "gadgets/paint", "gadgets/stamp"}, names)
	})
	t.Run("a delete the strategy refuses leaves the object", func(t *testing.T) {
		require.Equal(t, http.StatusCreated, create(`{"metadata":{"name":"l"},"locked":true}`).code)
		r := ts.do("DELETE", gadgets+"/l", "")
		assert.Equal(t, http.StatusForbidden, r.code)
		assert.Equal(t, http.StatusOK, ts.do("GET", gadgets+"/l", "").code)
	})
	t.Run("a held object is marked, and removed once an update releases it", func(t *testing.T) {
		require.Equal(t, http.StatusCreated, create(`{"metadata":{"name":"h"},"held":true}`).code)
		r := ts.do("DELETE", gadgets+"/h", "")
		require.Equal(t, http.StatusOK, r.code, string(r.raw))
		marked := ts.do("GET", gadgets+"/h", "")
		require.Equal(t, http.StatusOK, marked.code)
		assert.NotEmpty(t, field(marked.body, "metadata.deletionTimestamp"))
		require.Equal(t, http.StatusOK, ts.do("PATCH", gadgets+"/h", `{"held":false}`, "Content-Type", mergePatchType).code)
		assert.Equal(t, http.StatusNotFound, ts.do("GET", gadgets+"/h", "").code)
	})
}
