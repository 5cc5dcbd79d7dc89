package bench

// Watch with both media types: the encodings made per event when
// JSON and protobuf watchers watch one collection. (Fan-out throughput and
// the stalled watcher: BenchmarkWatchFanout and BenchmarkWatchStalled in
// apiserver.)

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kapi-dev/kapi/codec/protobuf"
	"github.com/kapi-dev/kapi/internal/benchkit"
	"github.com/kapi-dev/kapi/kapitest/kubeproto"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
)

// BenchmarkWatchEncodings: 500 JSON and 500 protobuf HTTP watchers of one
// collection on the example server; each update is written to the store
// directly, so only the watch path serializes. Target: exactly one
// encoding per object version per media type (json-encodings/event and
// protobuf-encodings/event both 1), whatever the number of watchers. The
// count comes from the heap profile (see benchkit.EncodingMeter); ns/op includes
// the profiler's overhead.
func BenchmarkWatchEncodings(b *testing.B) {
	for _, n := range []int{2, 1000} {
		b.Run(fmt.Sprintf("watchers=%d", n), func(b *testing.B) {
			cfg := exampleConfig()
			st := memory.New(memory.Config{})
			cfg.Store = st
			srv := newExampleServer(b, cfg)
			const objects = 100
			benchkit.LoadConfigMaps(b, srv, "watch", objects)
			ts := httptest.NewServer(srv)
			b.Cleanup(ts.Close)
			body := benchkit.MustServe(b, srv, http.StatusOK, http.MethodGet, "/api/v1/namespaces/watch/configmaps?limit=1", "", nil)
			rv := string(bytes.SplitN(bytes.SplitN(body, []byte(`"resourceVersion":"`), 2)[1], []byte(`"`), 2)[0])
			w := startWatchers(b, ts.URL+"/api/v1/namespaces/watch/configmaps?watch=1&resourceVersion="+rv, n)
			ctx := context.Background()
			seq := 0
			update := func() {
				seq++
				key := "/configmaps/watch/" + benchkit.CMName(seq%objects)
				_, err := st.Update(ctx, key, store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
					next := map[string]any(cur.Data().DeepCopy())
					next["data"].(map[string]any)["seq"] = fmt.Sprint(seq)
					return next, nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			m := benchkit.StartEncodingMeter()
			defer m.Stop()
			const warm = 20
			for range warm {
				update()
			}
			w.waitFor(b, int64(n)*warm)
			sample, err := st.Get(ctx, "/configmaps/watch/"+benchkit.CMName(1))
			if err != nil {
				b.Fatal(err)
			}
			pb := protobuf.New(kubeproto.Resolver())
			protoEncoding := benchkit.EncodingCodec{Fn: "github.com/kapi-dev/kapi/codec/protobuf.(*Codec).Encode",
				Encode: func(o meta.Object) ([]byte, error) { return pb.Encode(o) }}
			m.Calibrate(b, sample.Data(), benchkit.JSONEncoding, protoEncoding)
			b.ResetTimer()
			for range b.N {
				update()
			}
			w.waitFor(b, int64(n)*int64(warm+b.N))
			b.StopTimer()
			enc := m.Encodings(b, benchkit.JSONEncoding, protoEncoding)
			b.ReportMetric(enc[0]/float64(b.N), "json-encodings/event")
			b.ReportMetric(enc[1]/float64(b.N), "protobuf-encodings/event")
		})
	}
}

// watchers counts the MODIFIED events of n watch streams, half JSON and
// half protobuf.
type watchers struct {
	received atomic.Int64
	cancel   context.CancelFunc
	wg       sync.WaitGroup
}

func startWatchers(b *testing.B, url string, n int) *watchers {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w := &watchers{cancel: cancel}
	tr := benchkit.Transport(n)
	client := &http.Client{Transport: tr}
	var ready sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		accept := "application/json"
		if i%2 == 1 {
			accept = protobufMediaType
		}
		ready.Add(1)
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
			req.Header.Set("Accept", accept)
			resp, err := client.Do(req)
			ready.Done()
			if err != nil {
				errs <- err
				return
			}
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), accept) {
				errs <- fmt.Errorf("watch: %s %s", resp.Status, resp.Header.Get("Content-Type"))
				return
			}
			benchkit.CountEvents(bufio.NewReaderSize(resp.Body, 64<<10), accept, func() { w.received.Add(1) })
		}()
	}
	ready.Wait()
	select {
	case err := <-errs:
		b.Fatal(err)
	default:
	}
	b.Cleanup(func() { cancel(); w.wg.Wait(); tr.CloseIdleConnections() })
	return w
}

func (w *watchers) waitFor(b *testing.B, total int64) {
	deadline := time.Now().Add(2 * time.Minute)
	for w.received.Load() < total {
		if time.Now().After(deadline) {
			b.Fatalf("watchers received %d of %d events", w.received.Load(), total)
		}
		time.Sleep(time.Millisecond)
	}
}
