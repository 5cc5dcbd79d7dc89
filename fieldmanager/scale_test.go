package fieldmanager

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// deploymentReplicas is kube's mapping for Deployments at apps/v1, and a
// custom resource version without /scale.
var deploymentReplicas = ReplicasPaths{"apps/v1": {"spec", "replicas"}, "apps/v2": nil}

// creatorEntry is a Deployment's creator: it owns the replica count and
// the selector.
const creatorEntry = `{manager: creator, operation: Update, apiVersion: apps/v1, time: "2030-01-01T00:00:01Z", fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:replicas": {}, "f:selector": {}}}}`

func TestAScaleShowsTheEntriesOwningTheReplicaCount(t *testing.T) {
	for _, tt := range []struct {
		name, parent, want string
	}{{
		name: "each owner of the replica count owns .spec.replicas at autoscaling/v1, with its time and identity",
		parent: `
- ` + creatorEntry + `
- {manager: labeller, operation: Update, apiVersion: apps/v1, time: "2030-01-01T00:00:02Z", fieldsType: FieldsV1, fieldsV1: {"f:metadata": {"f:labels": {}}}}
- {manager: scaler, operation: Apply, apiVersion: apps/v1, fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:replicas": {}}}, subresource: scale}
`,
		want: `[
		  {"manager":"scaler","operation":"Apply","apiVersion":"autoscaling/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}},"subresource":"scale"},
		  {"manager":"creator","operation":"Update","apiVersion":"autoscaling/v1","time":"2030-01-01T00:00:01Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}}}
		]`,
	}, {
		name: "entries at a version without /scale or not of the kind are not shown",
		parent: `
- {manager: a, operation: Update, apiVersion: apps/v2, fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:replicas": {}}}}
- {manager: b, operation: Update, apiVersion: apps/v9, fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:replicas": {}}}}
`,
		want: `null`,
	}, {
		name:   "an object without managedFields shows none",
		parent: `[]`,
		want:   `null`,
	}} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ScaleManagedFields(mustList(t, tt.parent), deploymentReplicas)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, jsonOf(t, got))
		})
	}
}

func TestAWriteThroughScaleIsCarriedBackToTheObjectAsKubeCarriesIt(t *testing.T) {
	for _, tt := range []struct {
		name, parent, scale, want string
	}{{
		name:   "a new writer of the replica count owns it at the endpoint's version, without a time, and the previous owner keeps the rest",
		parent: "- " + creatorEntry,
		scale:  `- {manager: bar, operation: Update, apiVersion: autoscaling/v1, time: "2030-01-01T00:00:05Z", fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:replicas": {}}}, subresource: scale}`,
		want: `[
		  {"manager":"bar","operation":"Update","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}},"subresource":"scale"},
		  {"manager":"creator","operation":"Update","apiVersion":"apps/v1","time":"2030-01-01T00:00:01Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:selector":{}}}}
		]`,
	}, {
		name:   "an Update entry still owning the replica count is split: it loses it, and comes back with it alone and no time",
		parent: "- " + creatorEntry,
		scale:  `- {manager: creator, operation: Update, apiVersion: autoscaling/v1, time: "2030-01-01T00:00:01Z", fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:replicas": {}}}}`,
		want: `[
		  {"manager":"creator","operation":"Update","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}}},
		  {"manager":"creator","operation":"Update","apiVersion":"apps/v1","time":"2030-01-01T00:00:01Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:selector":{}}}}
		]`,
	}, {
		name:   "an Apply entry the Scale keeps stays as the object had it, time included",
		parent: `- {manager: foo, operation: Apply, apiVersion: apps/v1, time: "2030-01-01T00:00:03Z", fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:replicas": {}}}, subresource: scale}`,
		scale:  `- {manager: foo, operation: Apply, apiVersion: autoscaling/v1, time: "2030-01-01T00:00:09Z", fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:replicas": {}}}, subresource: scale}`,
		want: `[
		  {"manager":"foo","operation":"Apply","apiVersion":"apps/v1","time":"2030-01-01T00:00:03Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}},"subresource":"scale"}
		]`,
	}, {
		name:   "an entry that owned only the replica count and lost it goes",
		parent: `- {manager: foo, operation: Apply, apiVersion: apps/v1, fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:replicas": {}}}, subresource: scale}`,
		scale:  `- {manager: baz, operation: Update, apiVersion: autoscaling/v1, fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:replicas": {}}}, subresource: scale}`,
		want: `[
		  {"manager":"baz","operation":"Update","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}},"subresource":"scale"}
		]`,
	}, {
		name: "entries at a version not of the kind are dropped, those of a version without /scale kept; Scale entries not owning the replica count are not carried",
		parent: `
- {manager: old, operation: Update, apiVersion: apps/v9, fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:x": {}}}}
- {manager: other, operation: Update, apiVersion: apps/v2, fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:replicas": {}}}}
`,
		scale: `- {manager: s, operation: Update, apiVersion: autoscaling/v1, fieldsType: FieldsV1, fieldsV1: {"f:status": {"f:selector": {}}}, subresource: scale}`,
		want: `[
		  {"manager":"other","operation":"Update","apiVersion":"apps/v2","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}}}
		]`,
	}} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParentManagedFields(mustList(t, tt.parent), mustList(t, tt.scale), "apps/v1", deploymentReplicas)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, jsonOf(t, got))
		})
	}
}

func TestScaleManagedFieldsRefuseEntriesThatDoNotDecode(t *testing.T) {
	bad := mustList(t, `- {manager: x, operation: Bogus, apiVersion: apps/v1, fieldsType: FieldsV1}`)
	_, err := ScaleManagedFields(bad, deploymentReplicas)
	assert.Error(t, err)
	_, err = ParentManagedFields(nil, bad, "apps/v1", deploymentReplicas)
	assert.Error(t, err)
	_, err = ParentManagedFields(nil, nil, "apps/v2", deploymentReplicas)
	assert.Error(t, err, "the endpoint's version has no replica count")
}

// Replays kube-apiserver 1.37.2's answers (docs/kube-behaviour/20): an
// apply of a Scale on the Scale view of a Deployment whose creator owns
// the replica count conflicts with the creator "using autoscaling/v1";
// forced, the applier owns the object's replica count, without a time.
func TestAnApplyToAScaleConflictsAndForcesAsKubes(t *testing.T) {
	m, err := New(meta.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}, schema.Scale())
	require.NoError(t, err)
	parent := mustList(t, "- "+creatorEntry)
	view, err := ScaleManagedFields(parent, deploymentReplicas)
	require.NoError(t, err)
	live := meta.Object{"apiVersion": "autoscaling/v1", "kind": "Scale",
		"metadata": map[string]any{"name": "d1", "namespace": "default", "managedFields": view},
		"spec":     map[string]any{"replicas": int64(2)}, "status": map[string]any{"replicas": int64(0), "selector": "a=b"}}
	applied := meta.Object{"apiVersion": "autoscaling/v1", "kind": "Scale", "spec": map[string]any{"replicas": int64(3)}}
	o := Options{Manager: "foo", Subresource: "scale"}

	_, err = m.Apply(live, applied, o)
	var st *meta.Status
	require.ErrorAs(t, err, &st)
	assert.Equal(t, 409, int(st.Code))
	assert.Equal(t, `Apply failed with 1 conflict: conflict with "creator" using autoscaling/v1: .spec.replicas`, st.Message)

	o.Force = true
	out, err := m.Apply(live, applied, o)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"replicas": int64(3)}, out["spec"])
	back, err := ParentManagedFields(parent, out.Metadata()["managedFields"], "apps/v1", deploymentReplicas)
	require.NoError(t, err)
	assert.JSONEq(t, `[
	  {"manager":"foo","operation":"Apply","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}},"subresource":"scale"},
	  {"manager":"creator","operation":"Update","apiVersion":"apps/v1","time":"2030-01-01T00:00:01Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:selector":{}}}}
	]`, jsonOf(t, back))
}
