package kapitest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	crenvtest "sigs.k8s.io/controller-runtime/pkg/envtest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/kapi-dev/kapi/internal/benchkit"
	"github.com/kapi-dev/kapi/kapitest"
)

// benchCRDs are 50 CRDs of 20 properties each, as a mid-sized operator
// installs.
var benchCRDs = sync.OnceValue(func() []any {
	crds := make([]any, 50)
	for i := range crds {
		crds[i] = benchkit.CRD("bench.kapi.dev", fmt.Sprintf("things%d", i), 20)
	}
	return crds
})

// BenchmarkStart is kapitest.Start with 50 CRDs installed and a ready
// rest.Config (a first GET answered), against controller-runtime's envtest
// doing the same with etcd and kube-apiserver where their binaries are
// (KUBEBUILDER_ASSETS; skipped otherwise). The kapitest row with 50 CRDs
// reports the ratio of envtest's time to its own: how many times faster it
// starts. The controllers row adds WithControllers (which envtest does not
// run).
func BenchmarkStart(b *testing.B) {
	var envtestNs float64
	b.Run("envtest/crds=50", func(b *testing.B) {
		assets := os.Getenv("KUBEBUILDER_ASSETS")
		if _, err := os.Stat(filepath.Join(assets, "kube-apiserver")); assets == "" || err != nil {
			b.Skip("no envtest binaries: set KUBEBUILDER_ASSETS to a directory with etcd and kube-apiserver")
		}
		logf.SetLogger(logr.Discard())
		dir := b.TempDir()
		for i, c := range benchCRDs() {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("crd%02d.json", i)), c.([]byte), 0o600); err != nil {
				b.Fatal(err)
			}
		}
		start := time.Now()
		for b.Loop() {
			env := &crenvtest.Environment{CRDDirectoryPaths: []string{dir}, ErrorIfCRDPathMissing: true}
			cfg, err := env.Start()
			if err != nil {
				b.Fatal(err)
			}
			firstGet(b, cfg)
			b.StopTimer()
			if err := env.Stop(); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		envtestNs = float64(time.Since(start).Nanoseconds()) / float64(b.N)
	})
	for _, c := range []struct {
		crds        int
		controllers bool
	}{{0, false}, {50, false}, {50, true}} {
		name := fmt.Sprintf("kapitest/crds=%d", c.crds)
		if c.controllers {
			name += "/controllers"
		}
		b.Run(name, func(b *testing.B) {
			n := c.crds
			opts := []kapitest.Option{kapitest.WithCRDs(benchCRDs()[:n]...)}
			if c.controllers {
				opts = append(opts, kapitest.WithControllers())
			}
			kapitest.Start(b, opts...) // the template, once per process
			startOne := func(timed bool) time.Duration {
				t0 := time.Now()
				srv, err := kapitest.New(opts...)
				if err != nil {
					b.Fatal(err)
				}
				firstGet(b, srv.Config)
				d := time.Since(t0)
				if timed {
					b.StopTimer()
				}
				srv.Close()
				if timed {
					b.StartTimer()
				}
				return d
			}
			var samples []time.Duration
			cpu := benchkit.MeterCPU(b)
			for b.Loop() {
				samples = append(samples, startOne(true))
			}
			cpu.Report(b.N)
			// The median of at least 50 starts: robust to the other
			// processes sharing the cores, which a few envtest-sized
			// iterations are not.
			for len(samples) < 50 {
				samples = append(samples, startOne(false))
			}
			slices.Sort(samples)
			median := samples[len(samples)/2]
			b.ReportMetric(float64(median.Nanoseconds()), "median-ns/start")
			if envtestNs > 0 && n == 50 && !c.controllers {
				b.ReportMetric(envtestNs/float64(median.Nanoseconds()), "times-faster-than-envtest")
			}
		})
	}
}

// firstGet reads the default namespace: the config is ready.
func firstGet(b *testing.B, cfg *rest.Config) {
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := cs.CoreV1().Namespaces().Get(context.Background(), "default", metav1.GetOptions{}); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkStartParallel starts 100 servers at once (one goroutine each,
// as 100 tests under t.Parallel do), each with the 50 CRDs, and reports the
// time for all of them.
func BenchmarkStartParallel(b *testing.B) {
	crds := benchCRDs()
	kapitest.Start(b, kapitest.WithCRDs(crds...))
	cpu := benchkit.MeterCPU(b)
	for b.Loop() {
		servers := make([]*kapitest.Server, 100)
		var wg sync.WaitGroup
		for i := range servers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				srv, err := kapitest.New(kapitest.WithCRDs(crds...))
				if err != nil {
					b.Error(err)
					return
				}
				firstGet(b, srv.Config)
				servers[i] = srv
			}()
		}
		wg.Wait()
		b.StopTimer()
		for _, s := range servers {
			if s != nil {
				s.Close()
			}
		}
		b.StartTimer()
	}
	cpu.Report(b.N)
}

func configMap(name string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string]string{"key": benchkit.Payload(1, 1024)}}
}
