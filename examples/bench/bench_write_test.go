package bench

// Create, update and patch through client-go's typed
// clientset over HTTP (JSON and protobuf) against client-go's fake
// clientset doing the same in-process; and kapi's store against the fake
// clientset's object tracker.

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/rest"
	clienttesting "k8s.io/client-go/testing"

	"github.com/kapi-dev/kapi/internal/benchkit"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
)

// writeClients are the clientsets compared, in the order run: the fake
// clientsets first (baseline: NewSimpleClientset, the plain tracker;
// baseline-fieldmanaged: NewClientset, which tracks managedFields as a
// server does), then kapi's example server over loopback HTTP in JSON and
// in protobuf. Each gets a fresh server or fake with a "bench" namespace.
func writeClients(b *testing.B) []struct {
	name string
	new  func(b *testing.B) kubernetes.Interface
} {
	kapi := func(contentType string) func(b *testing.B) kubernetes.Interface {
		return func(b *testing.B) kubernetes.Interface {
			srv := newExampleServer(b, exampleConfig())
			benchkit.CreateNamespace(b, srv, "bench")
			ts := httptest.NewServer(srv)
			b.Cleanup(ts.Close)
			cfg := &rest.Config{Host: ts.URL, QPS: -1}
			cfg.ContentType = contentType
			if contentType != "application/json" {
				cfg.AcceptContentTypes = contentType + ",application/json"
			}
			cs, err := kubernetes.NewForConfig(cfg)
			if err != nil {
				b.Fatal(err)
			}
			return cs
		}
	}
	return []struct {
		name string
		new  func(b *testing.B) kubernetes.Interface
	}{
		{"baseline", func(*testing.B) kubernetes.Interface { return fake.NewSimpleClientset() }},
		{"baseline-fieldmanaged", func(*testing.B) kubernetes.Interface { return fake.NewClientset() }},
		{"kapi-json", kapi("application/json")},
		{"kapi-protobuf", kapi(protobufMediaType)},
	}
}

func newConfigMap(name string, seed uint64) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "bench", Labels: map[string]string{"app": "bench"}},
		Data:       map[string]string{"payload": benchkit.Payload(seed, benchkit.DataSize)},
	}
}

// prefill creates n ConfigMaps and returns them as stored.
func prefill(b *testing.B, cs kubernetes.Interface, n int) []*corev1.ConfigMap {
	b.Helper()
	out := make([]*corev1.ConfigMap, n)
	for i := range n {
		cm, err := cs.CoreV1().ConfigMaps("bench").Create(context.Background(), newConfigMap(benchkit.CMName(i), uint64(i)), metav1.CreateOptions{})
		if err != nil {
			b.Fatal(err)
		}
		out[i] = cm
	}
	return out
}

// BenchmarkClientWrite: one goroutine writes ConfigMaps of ~1 KiB through a
// typed clientset: create (a new name each op), update (a new payload on
// one of 100 objects, with the resourceVersion of its last write) and
// patch (a JSON merge patch adding a key). kapi's rows include client-go's
// encoding, the loopback round trip and kapi's whole write path (schema,
// managedFields, store, compaction); the fakes run in-process. Target:
// kapi within 3× of the fake (ratio = kapi writes/s ÷ baseline's ≥ 0.33).
func BenchmarkClientWrite(b *testing.B) {
	ctx := context.Background()
	for _, op := range []string{"create", "update", "patch"} {
		var sp benchkit.Speed
		for _, c := range writeClients(b) {
			b.Run(op+"/"+c.name, func(b *testing.B) {
				cs := c.new(b)
				cms := cs.CoreV1().ConfigMaps("bench")
				var objs []*corev1.ConfigMap
				if op != "create" {
					objs = prefill(b, cs, 100)
				}
				payloads := make([]string, 64)
				for i := range payloads {
					payloads[i] = benchkit.Payload(uint64(1000+i), benchkit.DataSize)
				}
				cpu := benchkit.MeterCPU(b)
				i := 0
				for b.Loop() {
					var err error
					switch op {
					case "create":
						_, err = cms.Create(ctx, newConfigMap(benchkit.CMName(100+i), uint64(i)), metav1.CreateOptions{})
					case "update":
						k := i % len(objs)
						next := objs[k].DeepCopy()
						next.Data["payload"] = payloads[i%len(payloads)]
						objs[k], err = cms.Update(ctx, next, metav1.UpdateOptions{})
					case "patch":
						_, err = cms.Patch(ctx, benchkit.CMName(i%len(objs)), types.MergePatchType,
							fmt.Appendf(nil, `{"data":{"seq":"%d"}}`, i), metav1.PatchOptions{})
					}
					if err != nil {
						b.Fatal(err)
					}
					i++
				}
				cpu.Report(i)
				rate := benchkit.PerSecond(float64(i), b.Elapsed())
				b.ReportMetric(rate, "writes/s")
				if c.name == "baseline" {
					sp.SetBaseline(rate)
				} else {
					sp.Report(b, rate)
				}
			})
		}
	}
}

// BenchmarkStoreWrite: kapi's store (memory.Store, the default) against
// the fake clientset's object tracker, in-process, one goroutine: create a
// new ConfigMap, update one of 100. Each op builds its object (kapi: a
// fresh map of the ConfigMap, whose metadata the store stamps; tracker: a
// fresh *corev1.ConfigMap, which it deep-copies). The store runs with its
// default history window, so history costs are included. Target: kapi ≥ 5×
// the tracker's ops/s (ratio ≥ 5). baseline is NewSimpleClientset's tracker,
// baseline-fieldmanaged NewClientset's; kapi-nohistory is the store without
// a history window (the price of snapshots and watch history).
func BenchmarkStoreWrite(b *testing.B) {
	gvr := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	payload := benchkit.Payload(1, benchkit.DataSize)
	kapiObject := func(name string) meta.Object {
		return meta.Object{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": name, "namespace": "bench", "uid": "8a6b1c2d-0000-4000-8000-000000000001",
				"creationTimestamp": "2026-01-01T00:00:00Z", "labels": map[string]any{"app": "bench"}},
			"data": map[string]any{"payload": payload}}
	}
	trackerObject := func(name string) *corev1.ConfigMap {
		return &corev1.ConfigMap{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "bench", Labels: map[string]string{"app": "bench"}},
			Data:       map[string]string{"payload": payload},
		}
	}
	ctx := context.Background()
	for _, op := range []string{"create", "update"} {
		var sp benchkit.Speed
		trackers := []struct {
			name    string
			tracker func() clienttesting.ObjectTracker
		}{
			{"baseline", func() clienttesting.ObjectTracker { return fake.NewSimpleClientset().Tracker() }},
			{"baseline-fieldmanaged", func() clienttesting.ObjectTracker { return fake.NewClientset().Tracker() }},
		}
		for _, tr := range trackers {
			b.Run(op+"/"+tr.name, func(b *testing.B) {
				t := tr.tracker()
				for i := range 100 {
					if err := t.Create(gvr, trackerObject(benchkit.CMName(i)), "bench"); err != nil {
						b.Fatal(err)
					}
				}
				i := 0
				for b.Loop() {
					var err error
					if op == "create" {
						err = t.Create(gvr, trackerObject(benchkit.CMName(100+i)), "bench")
					} else {
						err = t.Update(gvr, trackerObject(benchkit.CMName(i%100)), "bench")
					}
					if err != nil {
						b.Fatal(err)
					}
					i++
				}
				rate := benchkit.PerSecond(float64(i), b.Elapsed())
				b.ReportMetric(rate, "ops/s")
				if tr.name == "baseline" {
					sp.SetBaseline(rate)
				}
			})
		}
		for _, variant := range []struct {
			name string
			cfg  memory.Config
		}{
			{"kapi", memory.Config{}},
			// Without history: what the default window costs a writer.
			{"kapi-nohistory", memory.Config{HistoryLimit: 1, MaxHistory: 1, MinHistoryAge: -1}},
		} {
			b.Run(op+"/"+variant.name, func(b *testing.B) {
				s := memory.New(variant.cfg)
				for i := range 100 {
					if _, err := s.Create(ctx, "/configmaps/bench/"+benchkit.CMName(i), kapiObject(benchkit.CMName(i))); err != nil {
						b.Fatal(err)
					}
				}
				i := 0
				for b.Loop() {
					var err error
					if op == "create" {
						_, err = s.Create(ctx, "/configmaps/bench/"+benchkit.CMName(100+i), kapiObject(benchkit.CMName(100+i)))
					} else {
						name := benchkit.CMName(i % 100)
						_, err = s.Update(ctx, "/configmaps/bench/"+name, store.UpdateOptions{}, func(*store.Object) (meta.Object, error) {
							return kapiObject(name), nil
						})
					}
					if err != nil {
						b.Fatal(err)
					}
					i++
				}
				rate := benchkit.PerSecond(float64(i), b.Elapsed())
				b.ReportMetric(rate, "ops/s")
				sp.Report(b, rate)
			})
		}
	}
}
