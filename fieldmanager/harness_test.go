package fieldmanager_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/fieldmanager"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// This file is the scenario harness, in the style of structured-merge-diff's
// internal/fixture: a scenario is a sequence of operations (Update or
// Apply, each by a manager at an apiVersion with a YAML body), then the
// object, the managedFields (as FieldsV1 JSON) and the conflicts expected.
// Operation i (from 1) runs at clock(i), so expected entries name their
// time by operation number.
//
// The same scenarios run against a real kube-apiserver when
// FIELDMANAGER_REFERENCE_URL is set (see reference_test.go), which is how
// their expectations were checked.

// kinds the scenarios use, by name.
const (
	configMap  = "ConfigMap"  // built-in schema, no subresource
	deployment = "Deployment" // built-in schema, status subresource
	widget     = "Widget"     // CRD schema (testdata/widget-crd.yaml), v1 and v2, status subresource
	gizmo      = "Gizmo"      // no schema (deduced)
)

var base = time.Date(2030, 1, 2, 3, 4, 0, 0, time.UTC)

// clock is the time of operation i.
func clock(i int) time.Time { return base.Add(time.Duration(i) * time.Second) }

type scenario struct {
	Kind string
	Ops  []op
	// Object is the expected final object as YAML, without managedFields
	// and uid; empty means not checked.
	Object string
	// Managed are the expected managedFields, in order.
	Managed []entry
}

// entry is an expected managedFields entry; Time is the number of the
// operation that stamped it, 0 for none.
type entry struct {
	Manager, Operation, APIVersion, Subresource string
	Time                                        int
	Fields                                      string // FieldsV1 JSON
}

type op interface {
	run(t *testing.T, s *state)
}

// Update is a create (when there is no object yet), update or patch by
// Manager: Object is the whole object to store. A metadata.managedFields
// in Object is sent as is.
type Update struct {
	Manager, APIVersion, Subresource string
	Object                           string
}

// Apply is a server-side apply by Manager. Conflict, when set, is the
// message of the expected 409; Error that of another expected failure.
type Apply struct {
	Manager, APIVersion, Subresource string
	Force                            bool
	Object                           string
	Conflict                         string
	Causes                           []cause // expected causes of the conflict, when set
	Error                            string
}

type cause struct{ Field, Message string }

type state struct {
	m        *fieldmanager.Manager
	strategy strategy
	live     meta.Object
	step     int
}

// strategy stands for kube's REST strategy, which runs after the field
// manager (PrepareForCreate/PrepareForUpdate): it resets what a write
// through sub may not change. The field manager neither owns those fields
// for the writer (Config.ResetFields) nor resets them; the API server does.
type strategy func(sub string, old, obj meta.Object) meta.Object

// statusStrategy is the strategy of a kind with a status subresource: the
// main resource cannot change status, /status only status (and, for a
// built-in kind, keepMeta lists the metadata fields it cannot change; a
// custom resource's /status changes no metadata at all).
func statusStrategy(crd bool, keepMeta ...string) strategy {
	return func(sub string, old, obj meta.Object) meta.Object {
		out := obj.DeepCopy()
		if sub == "" {
			if old == nil && crd {
				delete(out, "status") // "create cannot set status"
			} else if old == nil {
				out["status"] = map[string]any{} // the status type's zero value
			} else if st, ok := old["status"]; ok {
				out["status"] = meta.DeepCopyValue(st)
			} else {
				delete(out, "status")
			}
			return out
		}
		if crd {
			res := old.DeepCopy()
			res.SetMetadataField("managedFields", out.Metadata()["managedFields"])
			if st, ok := out["status"]; ok {
				res["status"] = st
			} else {
				delete(res, "status")
			}
			return res
		}
		if sp, ok := old["spec"]; ok {
			out["spec"] = meta.DeepCopyValue(sp)
		}
		for _, f := range keepMeta {
			out.SetMetadataField(f, meta.DeepCopyValue(old.Metadata()[f]))
		}
		return out
	}
}

func (u Update) run(t *testing.T, s *state) {
	t.Helper()
	obj := parse(t, u.Object)
	out := s.m.Update(s.live, obj, fieldmanager.Options{
		Manager: u.Manager, APIVersion: u.APIVersion, Subresource: u.Subresource, Now: clock(s.step),
	})
	s.store(u.Subresource, out)
}

func (a Apply) run(t *testing.T, s *state) {
	t.Helper()
	obj := parse(t, a.Object)
	out, err := s.m.Apply(s.live, obj, fieldmanager.Options{
		Manager: a.Manager, APIVersion: a.APIVersion, Subresource: a.Subresource, Force: a.Force, Now: clock(s.step),
	})
	switch {
	case a.Conflict != "":
		require.Error(t, err, "step %d: expected a conflict", s.step)
		st := meta.AsStatus(err)
		assert.Equal(t, int32(409), st.Code)
		assert.Equal(t, meta.ReasonConflict, st.Reason)
		assert.Equal(t, a.Conflict, st.Message)
		if a.Causes != nil {
			var got []cause
			for _, c := range st.Details.Causes {
				assert.Equal(t, meta.CauseFieldManagerConflict, c.Type)
				got = append(got, cause{Field: c.Field, Message: c.Message})
			}
			assert.Equal(t, a.Causes, got)
		}
	case a.Error != "":
		require.Error(t, err, "step %d", s.step)
		assert.Equal(t, a.Error, err.Error())
	default:
		require.NoError(t, err, "step %d", s.step)
		s.store(a.Subresource, out)
	}
}

// store keeps out as the live object after the kind's strategy, with a uid
// and creationTimestamp as a store would give it.
func (s *state) store(sub string, out meta.Object) {
	if s.strategy != nil {
		out = s.strategy(sub, s.live, out)
	}
	if out.UID() == "" {
		out = out.DeepCopy()
		out.SetMetadataField("uid", "00000000-0000-0000-0000-000000000001")
		out.SetMetadataField("creationTimestamp", meta.FormatTime(base))
	}
	s.live = out
}

func (sc scenario) run(t *testing.T, m *fieldmanager.Manager) {
	t.Helper()
	s := &state{m: m, strategy: strategies[sc.Kind]}
	for i, o := range sc.Ops {
		s.step = i + 1
		o.run(t, s)
	}
	if sc.Object != "" {
		require.NotNil(t, s.live)
		got := s.live.DeepCopy()
		delete(got.Metadata(), "managedFields")
		delete(got.Metadata(), "uid")
		delete(got.Metadata(), "creationTimestamp")
		assert.Equal(t, parse(t, sc.Object), got, "object")
	}
	var got []entry
	if s.live != nil {
		got = entriesOf(t, s.live)
	}
	want := slices.Clone(sc.Managed)
	for i := range want {
		want[i].Fields = canonicalJSON(t, want[i].Fields)
	}
	assert.Equal(t, want, got, "managedFields")
}

// entriesOf reads obj's managedFields back into entries, checking their
// wire form on the way.
func entriesOf(t *testing.T, obj meta.Object) []entry {
	t.Helper()
	raw, ok := obj.Metadata()["managedFields"]
	if !ok {
		return nil
	}
	list, ok := raw.([]any)
	require.True(t, ok, "managedFields is a list")
	var out []entry
	for _, item := range list {
		m := item.(map[string]any)
		e := entry{
			Manager:     str(m["manager"]),
			Operation:   str(m["operation"]),
			APIVersion:  str(m["apiVersion"]),
			Subresource: str(m["subresource"]),
		}
		assert.Equal(t, "FieldsV1", m["fieldsType"])
		if ts, ok := m["time"].(string); ok {
			tm, err := time.Parse(time.RFC3339, ts)
			require.NoError(t, err)
			assert.Equal(t, meta.FormatTime(tm), ts, "time in RFC 3339 seconds")
			e.Time = int(tm.Sub(base) / time.Second)
		}
		b, err := json.Marshal(m["fieldsV1"])
		require.NoError(t, err)
		e.Fields = string(b)
		out = append(out, e)
	}
	return out
}

func str(v any) string { s, _ := v.(string); return s }

func canonicalJSON(t *testing.T, s string) string {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(s), &v), "%s", s)
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// parse reads YAML (or JSON) into an object with int64 integers.
func parse(t testing.TB, y string) meta.Object {
	t.Helper()
	obj, err := parseObject([]byte(y))
	require.NoError(t, err)
	return obj
}

func parseObject(y []byte) (meta.Object, error) {
	j, err := yaml.YAMLToJSON(y)
	if err != nil {
		return nil, err
	}
	v, err := codec.DecodeValue(j)
	if err != nil {
		return nil, err
	}
	m, _ := v.(map[string]any)
	return meta.Object(m), nil
}

var strategies = map[string]strategy{
	deployment: statusStrategy(false, "labels"),
	widget:     statusStrategy(true),
}

// managers builds the Manager of every kind the scenarios use.
func managers(t testing.TB) map[string]*fieldmanager.Manager {
	t.Helper()
	builtin := builtinSchemas(t)
	crd := widgetSchema(t)
	mk := func(cfg fieldmanager.Config) *fieldmanager.Manager {
		m, err := fieldmanager.NewWithConfig(cfg)
		require.NoError(t, err)
		return m
	}
	return map[string]*fieldmanager.Manager{
		configMap: mk(fieldmanager.Config{
			GVK:    meta.GroupVersionKind{Version: "v1", Kind: "ConfigMap"},
			Schema: builtin["io.k8s.api.core.v1.ConfigMap"],
		}),
		deployment: mk(fieldmanager.Config{
			GVK:         meta.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"},
			Schema:      builtin["io.k8s.api.apps.v1.Deployment"],
			ResetFields: map[string][]string{"": {"status"}, "status": {"spec", "metadata.labels"}},
		}),
		widget: mk(fieldmanager.Config{
			GVK:         meta.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"},
			Schema:      crd,
			Versions:    []string{"v2"},
			ResetFields: map[string][]string{"": {"status"}, "status": {"spec"}},
		}),
		gizmo: mk(fieldmanager.Config{
			GVK: meta.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Gizmo"},
		}),
	}
}

func builtinSchemas(t testing.TB) map[string]*schema.Schema {
	t.Helper()
	b, err := os.ReadFile("testdata/builtin-schemas.json")
	require.NoError(t, err)
	v, err := codec.DecodeValue(b)
	require.NoError(t, err)
	parsed, err := schema.ParseComponents(v.(map[string]any)["components"].(map[string]any)["schemas"].(map[string]any))
	require.NoError(t, err)
	return parsed
}

func widgetSchema(t testing.TB) *schema.Schema {
	t.Helper()
	b, err := os.ReadFile("testdata/widget-crd.yaml")
	require.NoError(t, err)
	crd := parse(t, string(b))
	v, ok := meta.NestedField(crd, "spec")
	require.True(t, ok)
	versions := v.(map[string]any)["versions"].([]any)
	s, ok := meta.NestedField(versions[0].(map[string]any), "schema", "openAPIV3Schema")
	require.True(t, ok)
	parsed, err := schema.Parse(s)
	require.NoError(t, err)
	return parsed
}

// runScenarios runs every scenario as a subtest named after it.
func runScenarios(t *testing.T, scenarios map[string]scenario) {
	ms := managers(t)
	names := make([]string, 0, len(scenarios))
	for name := range scenarios {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		sc := scenarios[name]
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			if referenceURL != "" {
				runReference(t, name, sc)
				return
			}
			m := ms[sc.Kind]
			require.NotNil(t, m, "kind %q", sc.Kind)
			sc.run(t, m)
		})
	}
}
