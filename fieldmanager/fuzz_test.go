package fieldmanager

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/yaml"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
)

// FuzzApply applies arbitrary YAML or JSON to an arbitrary live object
// (managedFields included) of a kind with and without a schema, then
// updates with it. Nothing may panic (the init in internal_test.go turns
// a recovered panic into a crash); failures must be Statuses; a
// successful apply must leave decodable managedFields and be repeatable
// without conflicts.
func FuzzApply(f *testing.F) {
	deduced, err := New(meta.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, nil)
	if err != nil {
		f.Fatal(err)
	}
	typedM := deploymentManager(f)

	seeds := []struct{ live, applied string }{
		{"", `{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, spec: {replicas: 1}}`},
		{`
apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  uid: u
  managedFields:
  - {manager: a, operation: Apply, apiVersion: apps/v1, fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:replicas": {}}}}
  - {manager: b, operation: Update, apiVersion: apps/v1, fieldsType: FieldsV1, time: "2030-01-01T00:00:00Z",
     fieldsV1: {"f:spec": {"f:template": {"f:spec": {"f:containers": {"k:{\"name\":\"c\"}": {".": {}, "f:image": {}}}}}}}}
spec:
  replicas: 2
  template: {spec: {containers: [{name: c, image: x}, {name: c, image: y}]}}`,
			`
apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  replicas: 3
  template: {spec: {containers: [{name: c, image: z, ports: [{containerPort: 80}, {containerPort: 80, protocol: UDP}]}]}}`},
		{`{apiVersion: apps/v1, kind: Deployment, metadata: {name: d, annotations: {kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"apps/v1","kind":"Deployment","spec":{"replicas":1}}'}}, spec: {replicas: 1}}`,
			`{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, spec: {replicas: 4, paused: true}}`},
		{`{metadata: {managedFields: [{}]}}`, `{spec: {selector: {matchLabels: {a: b}}, strategy: {type: Recreate}}}`},
		{`{metadata: {managedFields: [{manager: x, operation: Update, apiVersion: "a/b/c", fieldsType: FieldsV1, fieldsV1: {"v:1": {}, "i:0": {}}}]}}`, `[1, 2]`},
		{`{spec: [1]}`, `{apiVersion: apps/v1, kind: Deployment, spec: {template: {metadata: {labels: {a: null}}}}}`},
		{"", `{apiVersion: apps/v1, kind: Deployment, metadata: {managedFields: null, finalizers: [a, a]}}`},
	}
	for _, s := range seeds {
		for _, mgr := range []string{"kubectl", "m"} {
			f.Add([]byte(s.live), []byte(s.applied), mgr, false, false)
			f.Add([]byte(s.live), []byte(s.applied), mgr, true, true)
		}
	}

	f.Fuzz(func(t *testing.T, liveIn, appliedIn []byte, manager string, force, withSchema bool) {
		if len(liveIn)+len(appliedIn) > 1<<16 {
			return
		}
		m := deduced
		if withSchema {
			m = typedM
		}
		live := parseFuzz(liveIn)
		applied := parseFuzz(appliedIn)
		if applied == nil {
			return
		}
		if applied.APIVersion() == "" && applied.Kind() == "" {
			applied["apiVersion"], applied["kind"] = "apps/v1", "Deployment"
		}
		liveCopy, appliedCopy := live.DeepCopy(), applied.DeepCopy()
		now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)

		out, err := m.Apply(live, applied, Options{Manager: manager, Force: force, Now: now})
		mustBeUntouched(t, live, liveCopy, "live")
		mustBeUntouched(t, applied, appliedCopy, "applied")
		if err != nil {
			var st *meta.Status
			if !errors.As(err, &st) {
				t.Fatalf("Apply failed with a %T, not a Status: %v", err, err)
			}
			return
		}
		if _, err := decodeManaged(out.Metadata()["managedFields"]); err != nil {
			t.Fatalf("Apply left managedFields that do not decode: %v", err)
		}
		if _, err := m.Apply(out, applied, Options{Manager: manager, Now: now.Add(time.Second)}); err != nil {
			t.Fatalf("applying the same configuration again failed: %v", err)
		}

		stored := out.DeepCopy()
		stored.SetMetadataField("uid", "u")
		upd := m.Update(stored, applied, Options{Manager: manager, Now: now.Add(2 * time.Second)})
		if _, err := decodeManaged(upd.Metadata()["managedFields"]); err != nil {
			t.Fatalf("Update left managedFields that do not decode: %v", err)
		}
		m.Update(live, applied, Options{Manager: manager, Subresource: "status", Now: now})
	})
}

func parseFuzz(b []byte) meta.Object {
	if len(b) == 0 {
		return nil
	}
	j, err := yaml.YAMLToJSON(b)
	if err != nil {
		return nil
	}
	v, err := codec.DecodeValue(j)
	if err != nil {
		return nil
	}
	m, _ := v.(map[string]any)
	return m
}

func mustBeUntouched(t *testing.T, got, want meta.Object, what string) {
	t.Helper()
	if !equalJSON(map[string]any(got), map[string]any(want)) {
		t.Fatalf("%s was modified", what)
	}
}

func equalJSON(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equalJSON(v, w) {
				return false
			}
		}
		return true
	case meta.Object:
		return equalJSON(map[string]any(x), b)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	default:
		return a == b
	}
}

// FuzzFieldsV1 checks that reading and writing the FieldsV1 trie directly
// from and to maps gives exactly what SMD's Set.FromJSON and Set.ToJSON
// give through JSON.
func FuzzFieldsV1(f *testing.F) {
	for _, s := range []string{
		`{}`,
		`{"f:a":{}}`,
		`{"f:data":{".":{},"f:k":{}},"f:metadata":{"f:labels":{".":{},"f:a":{}}}}`,
		`{"f:spec":{"f:items":{"k:{\"name\":\"a\"}":{".":{},"f:name":{}},"k:{\"port\":80,\"protocol\":\"TCP\"}":{}}}}`,
		`{"f:tags":{"v:\"b\"":{},"v:1.5":{},"v:{\"a\":[1]}":{}},"i:3":{"f:x":null},"x:unknown":{"f:y":{}}}`,
		`{".":{},"f:a":{".":5}}`,
		`{"f:a":1}`,
		`{"k:[":{}}`,
		`{"ab":{}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		v, err := codec.DecodeValue(in)
		if err != nil {
			return
		}
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		direct, derr := fieldsToSet(m)
		viaJSON := &fieldpath.Set{}
		b, err := json.Marshal(m)
		if err != nil {
			return
		}
		jerr := viaJSON.FromJSON(bytes.NewReader(b))
		if (derr == nil) != (jerr == nil) {
			t.Fatalf("%s: direct error %v, JSON error %v", in, derr, jerr)
		}
		if derr != nil {
			return
		}
		if !direct.Equals(viaJSON) {
			t.Fatalf("%s: direct %v, JSON %v", in, direct, viaJSON)
		}
		out, err := setToFields(direct)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := direct.ToJSON()
		if err != nil {
			t.Fatal(err)
		}
		var want map[string]any
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(out)
		exp, _ := json.Marshal(want)
		if !bytes.Equal(got, exp) {
			t.Fatalf("%s: direct %s, JSON %s", in, got, exp)
		}
	})
}
