package memory_test

// At store level, kube-apiserver's watch-cache list
// benchmark shape (k8s.io/apiserver/pkg/storage/cacher BenchmarkStoreList,
// "Namespaces=50/Pods=150000/Nodes=5000"), which lists from kube's cache
// into objects without serializing them, run on memory.Store.List. The
// same shape served through the API handler (JSON-encoded) is
// BenchmarkUpstreamList in apiserver.

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/kapi-dev/kapi/internal/benchkit"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
)

// nodeNameKey caches a version's spec.nodeName, as kube's watch cache keeps
// each object's selectable fields beside it and kapi's apiserver caches
// them per version.
type nodeNameKey struct{}

func nodeName(o *store.Object) string {
	v, _ := o.Derived(nodeNameKey{}, func(d meta.Object) (any, error) {
		spec, _ := d["spec"].(map[string]any)
		n, _ := spec["nodeName"].(string)
		return n, nil
	})
	return v.(string)
}

// BenchmarkStoreListUpstream: 150,000 pods in 50 namespaces on 5,000
// nodes, stored once per run (the pods carry only what the store and the
// filter read: a List returns pointers, so object size does not matter);
// then kube's scopes, resourceVersion matches and page sizes: Cluster and
// Namespace unpaginated and in pages of 1,000 (following Next), Node with a
// spec.nodeName filter through an index by node (like kube's Indexed=true;
// the API server adds that index), and Node without the index, a scan of
// every pod (kube's Indexed=false). RV=Exact and NotOlderThan read one of
// the last 100 revisions, as kube's benchmark.
func BenchmarkStoreListUpstream(b *testing.B) {
	b.Run(fmt.Sprintf("Namespaces=%d/Pods=%d/Nodes=%d", benchkit.UpstreamNamespaces, benchkit.UpstreamPods, benchkit.UpstreamNodes), func(b *testing.B) {
		// 1,000 revisions of history cover the Exact reads.
		s := memory.New(memory.Config{HistoryLimit: 1000, MaxHistory: 1000})
		// Indexed before the pods come, as the API server indexes pods by
		// node when it starts: every snapshot of the history has it.
		if err := s.AddIndex("node", func(o *store.Object) (string, bool) { return nodeName(o), true }); err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		for i := range benchkit.UpstreamPods {
			ns := benchkit.UpstreamNamespace(i)
			name := fmt.Sprintf("app-%06d", i)
			pod := meta.Object{"apiVersion": "v1", "kind": "Pod",
				"metadata": map[string]any{"name": name, "namespace": ns},
				"spec":     map[string]any{"nodeName": benchkit.UpstreamNode(i)}}
			o, err := s.Create(ctx, "/pods/"+ns+"/"+name, pod)
			if err != nil {
				b.Fatal(err)
			}
			nodeName(o) // derived once per version, as a server's first selector list does
		}

		rev := s.Revision()
		runtime.GC()
		for _, match := range []string{"", "NotOlderThan", "Exact"} {
			for _, scope := range []string{"Cluster", "Node", "NodeScan", "Namespace"} {
				limits := []int{0, 1000}
				if scope == "Node" || scope == "NodeScan" {
					limits = []int{0}
				}
				for _, limit := range limits {
					b.Run(fmt.Sprintf("RV=%s/Scope=%s/Paginate=%d", match, scope, limit), func(b *testing.B) {
						cpu := benchkit.MeterCPU(b)
						objects, pages, ops := 0, 0, 0
						for b.Loop() {
							prefix := "/pods/"
							opts := store.ListOptions{Limit: limit}
							switch scope {
							case "Node", "NodeScan":
								node := benchkit.UpstreamNode(ops)
								opts.Filter = func(o *store.Object) bool { return nodeName(o) == node }
								if scope == "Node" {
									opts.Index, opts.IndexValue = "node", node
								}
							case "Namespace":
								prefix += benchkit.UpstreamNamespace(ops) + "/"
							}
							switch match {
							case "NotOlderThan":
								opts.Revision, opts.Match = rev-99+int64(ops%100), store.NotOlderThan
							case "Exact":
								opts.Revision, opts.Match = rev-99+int64(ops%100), store.Exact
							}
							for {
								res, err := s.List(ctx, prefix, opts)
								if err != nil {
									b.Fatal(err)
								}
								objects += len(res.Items)
								pages++
								if res.Next == "" {
									break
								}
								opts.Start, opts.Revision, opts.Match = res.Next, res.Revision, store.Exact
							}
							ops++
						}
						cpu.Report(ops)
						b.ReportMetric(float64(objects)/float64(ops), "objects/op")
						b.ReportMetric(float64(pages)/float64(ops), "pages/op")
					})
				}
			}
		}
	})
}
