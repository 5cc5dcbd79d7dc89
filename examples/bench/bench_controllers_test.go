//go:build unix

package bench

// Benchmarks of what a cluster does on its own (its controllers), each
// with its baseline in the same run:
//
//   - BenchmarkNamespaceTeardown: a namespace of 10,000 objects deleted by
//     the namespace controller, against the same objects deleted with one
//     deletecollection per kind through client-go (the "ratio" metric is
//     the controller's speed over the baseline's);
//   - BenchmarkGarbageCollection: an owner with 1,000 dependents deleted,
//     until the last dependent is gone, against a client deleting them;
//   - BenchmarkWritesWithControllers: writers' throughput with the
//     controllers on, against the same writers with them off.
//
// Each reports wall ns/op and cpu-ns/op (process CPU over the timed part
// only, which other processes on a shared machine do not inflate).

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/controllers"
	"github.com/kapi-dev/kapi/internal/benchkit"
)

// controlledServer is the example server with its controllers, served on
// loopback for client-go.
type controlledServer struct {
	srv *apiserver.Server
	m   *controllers.Manager
	cs  kubernetes.Interface
}

func newControlledServer(b *testing.B, names []string) *controlledServer {
	b.Helper()
	srv := newExampleServer(b, exampleConfig())
	ctx, cancel := context.WithCancel(context.Background())
	m, err := controllers.Start(ctx, srv, controllers.Options{Controllers: names})
	if err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	b.Cleanup(func() {
		hs.Close()
		cancel()
		<-m.Done()
	})
	cs, err := kubernetes.NewForConfig(&rest.Config{Host: hs.URL, QPS: -1, ContentConfig: rest.ContentConfig{ContentType: "application/vnd.kubernetes.protobuf"}})
	if err != nil {
		b.Fatal(err)
	}
	c := &controlledServer{srv: srv, m: m, cs: cs}
	c.idle(b)
	return c
}

func (c *controlledServer) idle(b *testing.B) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := c.m.WaitIdle(ctx); err != nil {
		b.Fatal(err)
	}
}

// meter sums wall time and process CPU over the timed parts of a
// benchmark.
type meter struct {
	wall, cpu time.Duration
	c0        time.Duration
	start     time.Time
}

// begin starts a timed part from a collected heap, so that neither side
// pays for the set-up's garbage.
func (m *meter) begin() { runtime.GC(); m.start, m.c0 = time.Now(), processCPU() }
func (m *meter) end()   { m.wall += time.Since(m.start); m.cpu += processCPU() - m.c0 }

func (m *meter) report(b *testing.B, ops int) {
	b.ReportMetric(float64(m.cpu.Nanoseconds())/float64(ops), "cpu-ns/op")
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// teardownObjects is what the namespace holds: 10,000 objects of two kinds
// (besides its default ServiceAccount and kube-root-ca.crt).
const (
	teardownConfigMaps = 7000
	teardownSecrets    = 3000
)

// loadNamespace creates the namespace and its objects through the
// server's write path.
func loadNamespace(b *testing.B, c *controlledServer, ns string) {
	b.Helper()
	benchkit.LoadConfigMaps(b, c.srv, ns, teardownConfigMaps)
	for i := range teardownSecrets {
		body := fmt.Appendf(nil, `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s-%07d","namespace":%q,"labels":{"app":"bench"}},"stringData":{"k":%q}}`,
			i, ns, benchkit.Payload(uint64(i), 64))
		benchkit.MustServe(b, c.srv, http.StatusCreated, http.MethodPost, "/api/v1/namespaces/"+ns+"/secrets", "application/json", body)
	}
	c.idle(b)
}

// BenchmarkNamespaceTeardown's "ratio" is the controller's wall-clock
// speed over the baseline's, "cpu-ratio" the same in process CPU (which
// other processes on a shared machine do not inflate). Both paths share
// the server's bulk deletecollection (apiserver/write_deletebulk.go); the
// baseline also encodes, compresses, sends and reads the list each
// deletecollection answers.
func BenchmarkNamespaceTeardown(b *testing.B) {
	ctx := context.Background()
	var sp benchkit.Speed
	var baselineCPU float64 // per op
	b.Run("baseline-deletecollection", func(b *testing.B) {
		var m meter
		for i := 0; i < b.N; i++ {
			c := newControlledServer(b, nil)
			loadNamespace(b, c, "bench")
			m.begin()
			for _, del := range []func() error{
				func() error {
					return c.cs.CoreV1().ConfigMaps("bench").DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{})
				},
				func() error {
					return c.cs.CoreV1().Secrets("bench").DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{})
				},
				func() error {
					return c.cs.CoreV1().ServiceAccounts("bench").DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{})
				},
			} {
				if err := del(); err != nil {
					b.Fatal(err)
				}
			}
			m.end()
		}
		b.ReportMetric(float64(m.wall.Nanoseconds())/float64(b.N), "wall-ns/op")
		m.report(b, b.N)
		sp.SetBaseline(benchkit.PerSecond(float64(b.N), m.wall))
		baselineCPU = float64(m.cpu) / float64(b.N)
	})
	b.Run("namespace-controller", func(b *testing.B) {
		var m meter
		for i := 0; i < b.N; i++ {
			c := newControlledServer(b, nil)
			loadNamespace(b, c, "bench")
			m.begin()
			if err := c.cs.CoreV1().Namespaces().Delete(ctx, "bench", metav1.DeleteOptions{}); err != nil {
				b.Fatal(err)
			}
			c.idle(b)
			m.end()
			if _, err := c.cs.CoreV1().Namespaces().Get(ctx, "bench", metav1.GetOptions{}); err == nil {
				b.Fatal("the namespace is still there")
			}
		}
		b.ReportMetric(float64(m.wall.Nanoseconds())/float64(b.N), "wall-ns/op")
		m.report(b, b.N)
		sp.Report(b, benchkit.PerSecond(float64(b.N), m.wall))
		if cpu := float64(m.cpu) / float64(b.N); baselineCPU > 0 && cpu > 0 {
			b.ReportMetric(baselineCPU/cpu, "cpu-ratio")
		}
	})
}

// gcDependents is how many dependents the owner has.
const gcDependents = 1000

func loadOwner(b *testing.B, c *controlledServer) string {
	b.Helper()
	uid := createOwner(b, c)
	for i := range gcDependents {
		body := fmt.Appendf(nil, `{"metadata":{"name":"dep-%05d","labels":{"owner":"yes"},"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"owner","uid":%q,"controller":true,"blockOwnerDeletion":true}]},"data":{"payload":%q}}`,
			i, uid, benchkit.Payload(uint64(i), benchkit.DataSize))
		benchkit.MustServe(b, c.srv, http.StatusCreated, http.MethodPost, "/api/v1/namespaces/default/configmaps", "application/json", body)
	}
	c.idle(b)
	return uid
}

// createOwner creates the ConfigMap "owner" and returns its uid.
func createOwner(b *testing.B, c *controlledServer) string {
	b.Helper()
	out := benchkit.MustServe(b, c.srv, http.StatusCreated, http.MethodPost, "/api/v1/namespaces/default/configmaps",
		"application/json", []byte(`{"metadata":{"name":"owner"}}`))
	var obj struct {
		Metadata struct{ UID string } `json:"metadata"`
	}
	if err := json.Unmarshal(out, &obj); err != nil {
		b.Fatal(err)
	}
	return obj.Metadata.UID
}

func BenchmarkGarbageCollection(b *testing.B) {
	ctx := context.Background()
	var sp benchkit.Speed
	b.Run("baseline-client-deletes", func(b *testing.B) {
		var m meter
		for i := 0; i < b.N; i++ {
			c := newControlledServer(b, []string{"-garbagecollector", "*"})
			loadOwner(b, c)
			m.begin()
			if err := c.cs.CoreV1().ConfigMaps("default").Delete(ctx, "owner", metav1.DeleteOptions{}); err != nil {
				b.Fatal(err)
			}
			for j := range gcDependents {
				if err := c.cs.CoreV1().ConfigMaps("default").Delete(ctx, fmt.Sprintf("dep-%05d", j), metav1.DeleteOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			m.end()
		}
		b.ReportMetric(float64(m.wall.Nanoseconds())/float64(b.N), "wall-ns/op")
		m.report(b, b.N)
		sp.SetBaseline(benchkit.PerSecond(float64(b.N), m.wall))
	})
	b.Run("garbage-collector", func(b *testing.B) {
		var m meter
		for i := 0; i < b.N; i++ {
			c := newControlledServer(b, nil)
			loadOwner(b, c)
			m.begin()
			if err := c.cs.CoreV1().ConfigMaps("default").Delete(ctx, "owner", metav1.DeleteOptions{}); err != nil {
				b.Fatal(err)
			}
			c.idle(b)
			m.end()
			left, err := c.cs.CoreV1().ConfigMaps("default").List(ctx, metav1.ListOptions{LabelSelector: "owner=yes"})
			if err != nil || len(left.Items) != 0 {
				b.Fatalf("dependents left: %v", err)
			}
		}
		b.ReportMetric(float64(m.wall.Nanoseconds())/float64(b.N), "wall-ns/op")
		m.report(b, b.N)
		sp.Report(b, benchkit.PerSecond(float64(b.N), m.wall))
	})
}

func BenchmarkWritesWithControllers(b *testing.B) {
	for _, kind := range []string{"plain", "owned"} {
		var sp benchkit.Speed
		for _, on := range []bool{false, true} {
			name := kind + "/controllers-off"
			var names []string
			if on {
				name = kind + "/controllers-on"
			} else {
				names = []string{}
			}
			b.Run(name, func(b *testing.B) {
				c := newControlledServer(b, names)
				owner := ""
				if kind == "owned" {
					owner = fmt.Sprintf(`,"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"owner","uid":%q,"controller":true}]`,
						createOwner(b, c))
				}
				payload := benchkit.Payload(1, benchkit.DataSize)
				var m meter
				var seq atomic.Int64
				b.ResetTimer()
				m.begin()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						n := seq.Add(1)
						body := fmt.Appendf(nil, `{"metadata":{"name":"w-%08d"%s},"data":{"payload":%q}}`, n, owner, payload)
						if code, out := benchkit.Serve(c.srv, http.MethodPost, "/api/v1/namespaces/default/configmaps", "application/json", body); code != http.StatusCreated {
							b.Errorf("%d %s", code, out)
							return
						}
					}
				})
				if on {
					c.idle(b) // the controllers have caught up: their work is in the time
				}
				m.end()
				m.report(b, b.N)
				tput := benchkit.PerSecond(float64(b.N), m.wall)
				b.ReportMetric(tput, "writes/s")
				if on {
					sp.Report(b, tput)
				} else {
					sp.SetBaseline(tput)
				}
			})
		}
	}
}
