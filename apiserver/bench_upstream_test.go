package apiserver_test

// kube-apiserver's watch-cache list benchmark shape
// (k8s.io/apiserver/pkg/storage/cacher BenchmarkStoreList,
// "Namespaces=50/Pods=150000/Nodes=5000") against kapi's handler.

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/internal/benchkit"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
)

// upstreamPodJSON is a realistic running Pod (~2 KB of JSON as stored: a
// Deployment's pod with one container, probes, resources, tolerations, a
// projected token volume and a full status).
func upstreamPodJSON(i int) string {
	ns, name, node := benchkit.UpstreamNamespace(i), fmt.Sprintf("app-%06d", i), benchkit.UpstreamNode(i)
	return `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"` + name + `","generateName":"app-7c9f8d6b5-","namespace":"` + ns +
		`","uid":"` + fmt.Sprintf("8a6b1c2d-0000-4000-8000-%012d", i) + `","creationTimestamp":"2026-01-01T00:00:00Z",` +
		`"labels":{"app":"web","pod-template-hash":"7c9f8d6b5","tier":"frontend"},` +
		`"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"app-7c9f8d6b5","uid":"0d7c8e9f-1111-4222-8333-444455556666","controller":true,"blockOwnerDeletion":true}]},` +
		`"spec":{"containers":[{"name":"web","image":"registry.k8s.io/nginx-slim:0.27","ports":[{"name":"http","containerPort":8080,"protocol":"TCP"}],` +
		`"env":[{"name":"POD_NAME","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"}}}],` +
		`"resources":{"limits":{"cpu":"500m","memory":"256Mi"},"requests":{"cpu":"100m","memory":"128Mi"}},` +
		`"readinessProbe":{"httpGet":{"path":"/healthz","port":8080,"scheme":"HTTP"},"periodSeconds":10,"timeoutSeconds":1,"successThreshold":1,"failureThreshold":3},` +
		`"volumeMounts":[{"name":"kube-api-access","readOnly":true,"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount"}],` +
		`"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent"}],` +
		`"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","serviceAccountName":"default",` +
		`"nodeName":"` + node + `","securityContext":{},"schedulerName":"default-scheduler","priority":0,"enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority",` +
		`"tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300},` +
		`{"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}],` +
		`"volumes":[{"name":"kube-api-access","projected":{"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},` +
		`{"configMap":{"name":"kube-root-ca.crt","items":[{"key":"ca.crt","path":"ca.crt"}]}}],"defaultMode":420}}]},` +
		`"status":{"phase":"Running","conditions":[{"type":"Initialized","status":"True","lastTransitionTime":"2026-01-01T00:00:01Z"},` +
		`{"type":"Ready","status":"True","lastTransitionTime":"2026-01-01T00:00:05Z"},{"type":"ContainersReady","status":"True","lastTransitionTime":"2026-01-01T00:00:05Z"},` +
		`{"type":"PodScheduled","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z"}],"hostIP":"10.0.` + strconv.Itoa(i%250) + `.1","podIP":"10.244.` +
		strconv.Itoa(i%250) + `.` + strconv.Itoa(i%200+2) + `","startTime":"2026-01-01T00:00:01Z",` +
		`"containerStatuses":[{"name":"web","state":{"running":{"startedAt":"2026-01-01T00:00:03Z"}},"ready":true,"restartCount":0,` +
		`"image":"registry.k8s.io/nginx-slim:0.27","imageID":"registry.k8s.io/nginx-slim@sha256:8b7f1e6a2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6",` +
		`"containerID":"containerd://` + fmt.Sprintf("%064d", i) + `","started":true}],"qosClass":"Burstable"}}`
}

// upstreamFixture is the 150,000-pod server. Building it costs a few
// seconds, so BenchmarkUpstreamList builds it once per run (in the parent
// benchmark, which the testing package runs once) and drops it afterwards.
type upstreamFixture struct {
	srv      http.Handler
	st       *memory.Store
	revision int64
	// heapPerPod is the live heap of the whole fixture per pod, and
	// jsonPerPod the pods' stored JSON.
	heapPerPod, jsonPerPod float64
}

// newUpstreamFixture stores the pods directly (the write path would cost
// ~20 s for 150k pods) and leaves them as a long-running server has them:
// compacted to their JSON, with their selector fields derived. It works in
// chunks of 10,000 pods: store them (copies of one decoded pod with their
// own name, namespace, uid, node and IPs), list one node with a
// spec.nodeName selector (which derives the new pods' selector fields from
// their decoded data; older pods already have theirs), then encode and
// compact them, as the write path does after every write. A field-selector
// list over freshly compacted pods would instead decode every one of them.
func newUpstreamFixture(b *testing.B) *upstreamFixture {
	b.Helper()
	cfg := benchConfig()
	// A history of 1,000 revisions covers the Exact reads (the last 100).
	st := memory.New(memory.Config{HistoryLimit: 1000, MaxHistory: 1000})
	cfg.Store = st
	srv := newBenchServer(b, cfg)
	for i := range benchkit.UpstreamNamespaces {
		benchkit.CreateNamespace(b, srv, benchkit.UpstreamNamespace(i))
	}
	base := benchkit.HeapInUse()
	tmpl, err := codec.JSONCodec{}.Decode([]byte(upstreamPodJSON(0)))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	workers := runtime.GOMAXPROCS(0)
	const chunk = 10_000
	created := make([]*store.Object, benchkit.UpstreamPods)
	parallel := func(from, to int, do func(i int)) {
		var wg sync.WaitGroup
		for k := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := from + k; i < to; i += workers {
					do(i)
				}
			}()
		}
		wg.Wait()
	}
	for from := 0; from < benchkit.UpstreamPods; from += chunk {
		to := min(from+chunk, benchkit.UpstreamPods)
		parallel(from, to, func(i int) {
			pod := upstreamPod(tmpl.Object, i)
			o, err := st.Create(ctx, "/pods/"+benchkit.UpstreamNamespace(i)+"/"+upstreamPodName(i), pod)
			if err != nil {
				b.Error(err)
				return
			}
			created[i] = o
		})
		w := &discardResponse{}
		srv.ServeHTTP(w, upstreamRequest("/api/v1/pods?fieldSelector=spec.nodeName%3D"+benchkit.UpstreamNode(1)))
		if w.code != http.StatusOK {
			b.Fatalf("node list: %d", w.code)
		}
		parallel(from, to, func(i int) { compactStored(b, created[i]) })
	}
	if b.Failed() {
		b.FailNow()
	}
	f := &upstreamFixture{srv: srv, st: st, revision: st.Revision()}
	f.heapPerPod = float64(benchkit.HeapInUse()-base) / benchkit.UpstreamPods
	jsonBytes, _ := storedJSONBytes(b, st, "/pods/")
	f.jsonPerPod = float64(jsonBytes) / benchkit.UpstreamPods
	return f
}

func upstreamPodName(i int) string { return fmt.Sprintf("app-%06d", i) }

// upstreamPod is a copy of the decoded template pod made pod i.
func upstreamPod(tmpl map[string]any, i int) map[string]any {
	pod := meta.DeepCopyValue(tmpl).(map[string]any)
	md := pod["metadata"].(map[string]any)
	md["name"] = upstreamPodName(i)
	md["namespace"] = benchkit.UpstreamNamespace(i)
	md["uid"] = fmt.Sprintf("8a6b1c2d-0000-4000-8000-%012d", i)
	pod["spec"].(map[string]any)["nodeName"] = benchkit.UpstreamNode(i)
	status := pod["status"].(map[string]any)
	status["hostIP"] = "10.0." + strconv.Itoa(i%250) + ".1"
	status["podIP"] = "10.244." + strconv.Itoa(i%250) + "." + strconv.Itoa(i%200+2)
	status["containerStatuses"].([]any)[0].(map[string]any)["containerID"] = fmt.Sprintf("containerd://%064d", i)
	return pod
}

func upstreamRequest(uri string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, uri, nil)
	r.Header.Set("Accept", "application/json")
	return r
}

// list serves one list (following continue tokens when paginated) at
// handler level and returns the pages and bytes, and with count the
// objects.
func (f *upstreamFixture) list(b *testing.B, path, rv, match string, limit int, count bool) (objects, pages int, size int64) {
	q := url.Values{}
	if rv != "" {
		q.Set("resourceVersion", rv)
	}
	if match != "" {
		q.Set("resourceVersionMatch", match)
	}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	for {
		uri := path
		if enc := q.Encode(); enc != "" {
			if strings.Contains(path, "?") {
				uri += "&" + enc
			} else {
				uri += "?" + enc
			}
		}
		w := &discardResponse{keepHead: true, countItems: count}
		f.srv.ServeHTTP(w, upstreamRequest(uri))
		if w.code != http.StatusOK {
			b.Fatalf("GET %s: %d %.300s", uri, w.code, w.head)
		}
		pages++
		size += w.n
		objects += w.items
		token := continueOf(w.head)
		if token == "" {
			return objects, pages, size
		}
		// Later pages continue the first page's snapshot, as kube's
		// benchmark continues with an unset resourceVersion.
		q.Del("resourceVersion")
		q.Del("resourceVersionMatch")
		q.Set("continue", token)
	}
}

// BenchmarkUpstreamList runs kube's BenchmarkStoreList shape on kapi: 50
// namespaces, 150,000 pods on 5,000 nodes; lists cluster-wide, of one
// namespace (3,000 pods) and of one node (spec.nodeName field selector, 30
// pods, read through the store's index by node, like kube's Indexed=true;
// the store-level benchmark also measures the scan without it); resourceVersion
// unset, NotOlderThan and Exact (one of the last 100 revisions, as kube
// picks them); unpaginated and in pages of 1,000 (kube paginates only
// scopes of more than 1,000 pods). kube's benchmark lists from its watch
// cache into typed objects (no serialization) with b.N lists in parallel;
// this one serves each list through kapi's handler, JSON-encoded into a
// discarding ResponseWriter, one at a time. The store-level run (no
// encoding, like kube's) is BenchmarkStoreListUpstream in store/memory.
func BenchmarkUpstreamList(b *testing.B) {
	b.Run(fmt.Sprintf("Namespaces=%d/Pods=%d/Nodes=%d", benchkit.UpstreamNamespaces, benchkit.UpstreamPods, benchkit.UpstreamNodes), func(b *testing.B) {
		f := newUpstreamFixture(b)
		b.Logf("fixture heap %.0f bytes per pod (stored JSON %.0f bytes per pod)", f.heapPerPod, f.jsonPerPod)
		for _, match := range []string{"", "NotOlderThan", "Exact"} {
			for _, scope := range []string{"Cluster", "Node", "Namespace"} {
				limits := []int{0, 1000}
				if scope == "Node" {
					limits = []int{0}
				}
				for _, limit := range limits {
					b.Run(fmt.Sprintf("RV=%s/Scope=%s/Paginate=%d", match, scope, limit), func(b *testing.B) {
						args := func(i int) (path, rv string) {
							path = "/api/v1/pods"
							switch scope {
							case "Node":
								path += "?fieldSelector=" + url.QueryEscape("spec.nodeName="+benchkit.UpstreamNode(i))
							case "Namespace":
								path = "/api/v1/namespaces/" + benchkit.UpstreamNamespace(i) + "/pods"
							}
							if match != "" {
								rv = strconv.FormatInt(f.revision-99+int64(i%100), 10)
							}
							return path, rv
						}
						// One untimed list checks the result and sizes it.
						path, rv := args(1)
						objects, pages, size := f.list(b, path, rv, match, limit, true)
						if want := map[string]int{"Cluster": benchkit.UpstreamPods, "Node": benchkit.UpstreamPods / benchkit.UpstreamNodes,
							"Namespace": benchkit.UpstreamPods / benchkit.UpstreamNamespaces}[scope]; objects < want-100 || objects > want {
							b.Fatalf("listed %d pods, want %d", objects, want)
						}
						b.SetBytes(size)
						cpu := benchkit.MeterCPU(b)
						ops := 0
						for b.Loop() {
							path, rv := args(ops)
							f.list(b, path, rv, match, limit, false)
							ops++
						}
						cpu.Report(ops)
						b.ReportMetric(float64(objects), "objects/op")
						b.ReportMetric(float64(pages), "pages/op")
					})
				}
			}
		}
	})
}
