package kapitest_test

import (
	"context"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/kapi-dev/kapi/internal/benchkit"
	"github.com/kapi-dev/kapi/kapitest"
)

// getServer starts a server holding the ConfigMap the GET benchmarks
// read, and returns it with its in-process config over loopback TCP
// instead: plain HTTP on the server's whole handler (request recording
// and faults included, as in-process), the cheapest socket path.
func getServer(b *testing.B) (srv *kapitest.Server, tcp *rest.Config) {
	srv = kapitest.Start(b)
	if _, err := kubernetes.NewForConfigOrDie(srv.Config).CoreV1().ConfigMaps("default").Create(context.Background(), configMap("bench"), metav1.CreateOptions{}); err != nil {
		b.Fatal(err)
	}
	plain := httptest.NewServer(srv.Handler())
	b.Cleanup(plain.Close)
	tcp = rest.CopyConfig(srv.Config)
	tcp.Host, tcp.Transport = plain.URL, nil
	return srv, tcp
}

func getBench(b *testing.B, cs kubernetes.Interface) {
	if _, err := cs.CoreV1().ConfigMaps("default").Get(context.Background(), "bench", metav1.GetOptions{}); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkGet is one client-go GET of a 1 KiB ConfigMap (protobuf, as
// client-go asks for built-in kinds) through the in-process transport,
// and the same GET over loopback TCP (plain HTTP; and HTTPS, what
// Kubeconfig and LoopbackConfig use), each with the process CPU per GET.
// Each row runs alone: their ns/op move with the machine's load between
// rows. BenchmarkGetRatio compares the two in the same moments.
func BenchmarkGet(b *testing.B) {
	srv, tcp := getServer(b)
	for _, c := range []struct {
		name string
		cfg  *rest.Config
	}{{"tcp", tcp}, {"tls", srv.LoopbackConfig()}, {"in-process", srv.Config}} {
		b.Run(c.name, func(b *testing.B) {
			cs := kubernetes.NewForConfigOrDie(c.cfg)
			getBench(b, cs)
			cpu := benchkit.MeterCPU(b)
			for b.Loop() {
				getBench(b, cs)
			}
			cpu.Report(b.N)
		})
	}
}

// BenchmarkGetRatio measures the in-process GET against the same GET over
// loopback TCP in the same moments, so that the load of the other
// processes sharing the cores falls on both alike. Each iteration is a
// block of GETs in-process and a block over TCP, one after the other
// (which comes first alternates), each making GETs for getBlock (each
// goroutine at least one). The same client, server and object serve both.
//
// ratio is the median over the iterations of TCP's time per GET over
// in-process's (2 means twice as fast): the two blocks of an iteration
// ran under the same load, which on a shared machine changes from one
// block to the next. tcp-ns/get and in-process-ns/get are the medians of
// each side's blocks. A block is long enough for each side to pay for
// collecting its own garbage, as a test does: a cycle of the collector
// begun in one block and finished in the next is the only cost that
// crosses, both ways.
//
// sequential is one goroutine making its GETs one after another, as a test
// does; parallel is 4 goroutines at once, as a controller's workers do.
// The cpu-ns/get are the medians of the process CPU per GET of each side's
// blocks, and cpu-ratio their ratio.
func BenchmarkGetRatio(b *testing.B) {
	srv, tcp := getServer(b)
	for _, c := range []struct {
		name    string
		workers int
	}{{"sequential", 1}, {"parallel", 4}} {
		b.Run(c.name, func(b *testing.B) {
			viaTCP, direct := kubernetes.NewForConfigOrDie(tcp), kubernetes.NewForConfigOrDie(srv.Config)
			cpu := benchkit.MeterCPU(b)
			block := func(cs kubernetes.Interface, d time.Duration) (perGet, cpuPerGet time.Duration) {
				c0, t0 := cpu.Elapsed(), time.Now()
				deadline := t0.Add(d)
				var gets atomic.Int64
				var wg sync.WaitGroup
				for range c.workers {
					wg.Add(1)
					go func() {
						defer wg.Done()
						n := int64(0)
						for ; n == 0 || time.Now().Before(deadline); n++ {
							getBench(b, cs)
						}
						gets.Add(n)
					}()
				}
				wg.Wait()
				n := time.Duration(gets.Load())
				return time.Since(t0) / n, (cpu.Elapsed() - c0) / n
			}
			block(viaTCP, getBlock/10) // connections open, caches warm
			block(direct, getBlock/10)
			var tcpWall, inWall []time.Duration
			var ratios []float64
			var tcpCPU, inCPU []time.Duration
			tcpFirst := true
			for b.Loop() {
				for _, side := range [2]bool{tcpFirst, !tcpFirst} {
					if side {
						w, u := block(viaTCP, getBlock)
						tcpWall, tcpCPU = append(tcpWall, w), append(tcpCPU, u)
					} else {
						w, u := block(direct, getBlock)
						inWall, inCPU = append(inWall, w), append(inCPU, u)
					}
				}
				tcpFirst = !tcpFirst
				ratios = append(ratios, float64(tcpWall[len(tcpWall)-1])/float64(inWall[len(inWall)-1]))
			}
			b.ReportMetric(float64(median(tcpWall).Nanoseconds()), "tcp-ns/get")
			b.ReportMetric(float64(median(inWall).Nanoseconds()), "in-process-ns/get")
			b.ReportMetric(median(ratios), "ratio")
			mt, mi := median(tcpCPU), median(inCPU)
			b.ReportMetric(float64(mt.Nanoseconds()), "tcp-cpu-ns/get")
			b.ReportMetric(float64(mi.Nanoseconds()), "in-process-cpu-ns/get")
			b.ReportMetric(float64(mt)/float64(mi), "cpu-ratio")
		})
	}
}

// getBlock is how long each block of BenchmarkGetRatio makes GETs: one to
// four cycles of the garbage collector (TCP's side allocates the least per
// second).
const getBlock = 50 * time.Millisecond

func median[T time.Duration | float64](xs []T) T {
	slices.Sort(xs)
	return xs[len(xs)/2]
}
