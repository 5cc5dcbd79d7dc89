package fieldmanager

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// differential is one kind the fast walk is held to SMD on, with an
// object of it to mutate.
type differential struct {
	name string
	m    *Manager
	seed meta.Object
}

func differentials(t testing.TB) []differential {
	t.Helper()
	mk := func(cfg Config) *Manager {
		m, err := NewWithConfig(cfg)
		require.NoError(t, err)
		return m
	}
	// Seeds fit their schemas (the mutations then make both fitting and
	// unfitting objects); "y" is quoted, YAML 1.1 reads it as true.
	widget := obj(t, `
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: ns, labels: {a: b}}
spec:
  replicas: 3
  size: m
  tags: [x, "y"]
  args: [a, b]
  items: [{name: c, value: i, weight: 1}, {name: d, value: j}]
  ports: [{port: 80, protocol: TCP}, {port: 80, protocol: UDP, name: u}]
  selector: {app: a}
  config: {k: v}
  env: {A: "1"}
  extra: {any: [1, {x: "y"}]}
  target: 8080
  template: {apiVersion: v1, kind: ConfigMap, metadata: {name: e}}
status: {phase: Ready, count: 2}`)
	deployment := obj(t, `
apiVersion: apps/v1
kind: Deployment
metadata: {name: d, namespace: ns, labels: {app: d}, annotations: {x: "y"}, finalizers: [f], uid: u, resourceVersion: "3", generation: 1, creationTimestamp: "2030-01-01T00:00:00Z"}
spec:
  replicas: 2
  selector: {matchLabels: {app: d}}
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 25%, maxUnavailable: 1}}
  template:
    metadata: {labels: {app: d}}
    spec:
      containers:
      - name: c
        image: nginx
        args: [a, b]
        ports: [{containerPort: 80, protocol: TCP}, {containerPort: 443, protocol: TCP}]
        env: [{name: A, value: "1"}, {name: B, valueFrom: {fieldRef: {fieldPath: metadata.name}}}]
        resources: {limits: {cpu: 100m}}
      - {name: s, image: busybox, command: [sh]}
      tolerations: [{key: k, operator: Exists}]
status: {replicas: 2, conditions: [{type: Available, status: "True"}]}`)
	configMap := obj(t, `
apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: ns, labels: {a: b}, uid: u}
data: {k: v, l: w}
binaryData: {b: AAAA}`)
	return []differential{
		{"Deployment", deploymentManager(t), deployment},
		{"ConfigMap", mk(Config{GVK: meta.GroupVersionKind{Version: "v1", Kind: "ConfigMap"},
			Schema: builtinComponent(t, "io.k8s.api.core.v1.ConfigMap")}), configMap},
		{"Widget", mk(Config{GVK: gvkWidget, Schema: widgetCRDSchema(t), Versions: []string{"v2"},
			ResetFields: map[string][]string{"": {"status"}, "status": {"spec"}}}), widget},
		{"deduced", mk(Config{GVK: gvkWidget}), widget},
	}
}

func widgetCRDSchema(t testing.TB) *schema.Schema {
	t.Helper()
	b, err := os.ReadFile("testdata/widget-crd.yaml")
	require.NoError(t, err)
	crd := obj(t, string(b))
	v, ok := meta.NestedField(crd, "spec", "versions")
	require.True(t, ok)
	s, ok := meta.NestedField(v.([]any)[0].(map[string]any), "schema", "openAPIV3Schema")
	require.True(t, ok)
	parsed, err := schema.Parse(s)
	require.NoError(t, err)
	return parsed
}

// mutator makes random edits to decoded JSON: the kinds of change
// clients make, and a share of ones that do not fit the schema.
type mutator struct{ r *rand.Rand }

var mutationKeys = []string{
	"name", "image", "replicas", "ports", "containerPort", "protocol", "port", "labels", "annotations",
	"env", "value", "data", "spec", "containers", "selector", "matchLabels", "paused", "finalizers", "tags",
	"size", "config", "ready", "x", "args", "command", "status", "target", "cpu", "key",
	"items", "weight", "extra", "phase", "count", "replicas", "app", "tier", "template",
}

func (mu mutator) value(depth int) any {
	switch mu.r.IntN(14) {
	case 0:
		return nil
	case 1:
		return int64(mu.r.IntN(3))
	case 2:
		return float64(mu.r.IntN(3)) // 1.0 equals 1 to SMD
	case 3:
		return 1.5
	case 4:
		return mu.r.IntN(2) == 0
	case 5:
		return map[string]any{}
	case 6:
		return []any{}
	case 7:
		if depth < 3 {
			return map[string]any{mutationKeys[mu.r.IntN(len(mutationKeys))]: mu.value(depth + 1), "name": mu.value(depth + 1)}
		}
	case 8:
		if depth < 3 {
			return []any{mu.value(depth + 1), mu.value(depth + 1)}
		}
	case 9:
		return map[string]any{"name": []string{"c", "d", "e"}[mu.r.IntN(3)], "image": "i"}
	case 10:
		return map[string]any{"port": int64(80), "protocol": []string{"TCP", "UDP"}[mu.r.IntN(2)]}
	}
	return []string{"a", "b", "x", "TCP", "80", "c", "d"}[mu.r.IntN(7)]
}

// containers lists every map and list inside v, v included.
func containers(v any, out []any) []any {
	switch v := v.(type) {
	case map[string]any:
		out = append(out, v)
		for _, c := range v {
			out = containers(c, out)
		}
	case []any:
		out = append(out, v)
		for _, c := range v {
			out = containers(c, out)
		}
	}
	return out
}

// mutate returns a copy of obj with one to four random edits.
func (mu mutator) mutate(obj meta.Object) meta.Object {
	out := obj.DeepCopy()
	for range 1 + mu.r.IntN(4) {
		all := containers(map[string]any(out), nil)
		mu.edit(all[mu.r.IntN(len(all))], out)
	}
	return out
}

func (mu mutator) edit(c any, root meta.Object) {
	switch c := c.(type) {
	case map[string]any:
		keys := make([]string, 0, len(c))
		for k := range c {
			keys = append(keys, k)
		}
		switch op := mu.r.IntN(3); {
		case op == 0 && len(keys) > 0:
			delete(c, keys[mu.r.IntN(len(keys))])
		case op == 1 && len(keys) > 0:
			c[keys[mu.r.IntN(len(keys))]] = mu.value(0)
		default:
			c[mutationKeys[mu.r.IntN(len(mutationKeys))]] = mu.value(0)
		}
	case []any:
		// Lists are edited in place, by element: their length stays.
		if len(c) == 0 {
			return
		}
		i, j := mu.r.IntN(len(c)), mu.r.IntN(len(c))
		switch mu.r.IntN(3) {
		case 0:
			c[i], c[j] = c[j], c[i]
		case 1:
			c[i] = meta.DeepCopyValue(c[j]) // a duplicate when i != j
		default:
			c[i] = mu.value(0)
		}
	}
}

// bothUpdates runs a write from live to obj through the fast walk and
// through SMD, and fails the test when the fast walk answers and SMD
// answers differently (or fails). It returns SMD's managed fields and
// whether the fast walk answered.
func bothUpdates(t testing.TB, m *Manager, live, obj meta.Object, o Options, describe func() string) (managed, bool) {
	t.Helper()
	mf := newManaged()
	if live != nil {
		mf = decodeOrEmpty(live)
	}
	out := withManagedFields(obj, nil)
	c := m.newCall(o, mf.fields)
	fast, ok := m.updateFast(c, live, out, mf.fields)

	fields, err := m.updateSMD(c, live, out, mf.fields)
	var want managed
	if err == nil {
		want = m.record(c, fields.Copy(), mf, c.identity(OperationUpdate))
	}
	if live == nil && len(mf.fields) == 0 {
		checkCreate(t, m, out, o, want, err, describe)
	}
	if !ok {
		return want, false
	}
	if err != nil {
		t.Fatalf("the fast walk answered where SMD fails (%v)\n%s", err, describe())
	}
	if msg := sameManagedFields(fast, fields); msg != "" {
		t.Fatalf("%s\n%s", msg, describe())
	}
	return want, true
}

// checkCreate holds createFast's entries to those of SMD's result (want,
// or its failure smdErr).
func checkCreate(t testing.TB, m *Manager, obj meta.Object, o Options, want managed, smdErr error, describe func() string) {
	t.Helper()
	entries, ok := m.createFast(o, obj)
	if !ok {
		return
	}
	if smdErr != nil {
		t.Fatalf("createFast answered where SMD fails (%v)\n%s", smdErr, describe())
	}
	wantEntries, err := encodeManaged(want)
	require.NoError(t, err)
	if got, w := jsonOf(t, entries), jsonOf(t, wantEntries); got != w {
		t.Fatalf("createFast:\n%s\nSMD:\n%s\n%s", got, w, describe())
	}
}

func sameManagedFields(got, want fieldpath.ManagedFields) string {
	if len(got) != len(want) {
		return fmt.Sprintf("managers: fast %v, SMD %v", got, want)
	}
	for name, w := range want {
		g, ok := got[name]
		switch {
		case !ok:
			return fmt.Sprintf("fast walk lost manager %s", name)
		case !g.Set().Equals(w.Set()):
			return fmt.Sprintf("manager %s: fast\n%v\nSMD\n%v", name, g.Set(), w.Set())
		case g.APIVersion() != w.APIVersion() || g.Applied() != w.Applied():
			return fmt.Sprintf("manager %s: fast %s/%v, SMD %s/%v", name, g.APIVersion(), g.Applied(), w.APIVersion(), w.Applied())
		}
	}
	return ""
}

// runDifferential creates the seed mutated, then updates it steps times,
// each by one of three managers (sometimes through /status), holding the
// fast walk to SMD at every step. It counts the writes SMD answered and
// those the fast walk answered too, and keeps one that it did not.
func runDifferential(t testing.TB, d differential, r *rand.Rand, steps int, st *walkStats) {
	t.Helper()
	mu := mutator{r}
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	var live meta.Object
	next := d.seed.DeepCopy()
	for i := range steps {
		if i > 0 || r.IntN(2) == 0 {
			// Mostly edits that fit the schema, as clients make.
			for try := 0; ; try++ {
				cand := mu.mutate(next)
				if _, err := d.m.typed.FromUnstructured(map[string]any(cand), typed.AllowDuplicates); err == nil || try == 20 || r.IntN(8) == 0 {
					next = cand
					break
				}
			}
		}
		o := Options{Manager: []string{"a", "b", "c"}[r.IntN(3)], Now: now.Add(time.Duration(i) * time.Second)}
		if live != nil && r.IntN(4) == 0 {
			o.Subresource = "status"
		}
		describe := func() string {
			return fmt.Sprintf("kind %s, step %d\nlive: %s\nnew:  %s", d.name, i, jsonOf(t, live), jsonOf(t, next))
		}
		mf, ok := bothUpdates(t, d.m, live, next, o, describe)
		if mf.fields != nil {
			st.total++
			if ok {
				st.answered++
			} else if st.unanswered == "" {
				st.unanswered = describe()
			}
		}
		if mf.fields == nil {
			// SMD failed, kube would store nothing: go on from what is stored.
			if next = d.seed.DeepCopy(); live != nil {
				next = withManagedFields(live, nil)
			}
			continue
		}
		entries, err := encodeManaged(mf)
		require.NoError(t, err)
		live = withManagedFieldsInPlace(withManagedFields(next, nil), entries)
		if live.UID() == "" {
			live.MetadataForWrite()["uid"] = "u"
		}
		next = withManagedFields(live, nil)
	}
}

type walkStats struct {
	answered, total int
	unanswered      string // a write SMD answered and the fast walk left to it
}

func TestTheFastWalkAgreesWithStructuredMergeDiffOnRandomWrites(t *testing.T) {
	for _, d := range differentials(t) {
		t.Run(d.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(len(d.name))))
			var st walkStats
			for range 300 {
				runDifferential(t, d, r, 8, &st)
			}
			t.Logf("the fast walk answered %d of the %d writes SMD accepted", st.answered, st.total)
			// Nearly every write SMD accepts must take the fast walk, or it
			// is not worth having.
			require.Greater(t, st.answered*10, st.total*9, "fast walk answered %d of %d writes; it left to SMD:\n%s", st.answered, st.total, st.unanswered)
		})
	}
}

func FuzzFastUpdateMatchesStructuredMergeDiff(f *testing.F) {
	for i := range 8 {
		f.Add(uint8(i), uint64(i))
	}
	ds := differentials(f)
	f.Fuzz(func(t *testing.T, which uint8, seed uint64) {
		d := ds[int(which)%len(ds)]
		runDifferential(t, d, rand.New(rand.NewPCG(seed, uint64(which))), 6, &walkStats{})
	})
}
