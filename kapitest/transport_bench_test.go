package kapitest

import (
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// BenchmarkInProcessTransport is the transport's own share of an
// in-process request: a plain handler answering 1.3 KiB with its length
// (as kapi answers a GET of a 1 KiB ConfigMap), read whole and closed, no
// client-go and no kapi.
func BenchmarkInProcessTransport(b *testing.B) {
	body := []byte(strings.Repeat("x", 1300))
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/vnd.kubernetes.protobuf")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(body)
	})
	t := inProcess{handler: h, closed: &atomic.Bool{}}
	req, err := http.NewRequest(http.MethodGet, "http://kapitest.invalid/api/v1/namespaces/default/configmaps/bench", nil)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Accept", "application/vnd.kubernetes.protobuf, */*")
	req.Header.Set("User-Agent", "bench")
	req.Header.Set("Authorization", "Bearer token")
	buf := make([]byte, 4096)
	b.ReportAllocs()
	for b.Loop() {
		resp, err := t.RoundTrip(req)
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := resp.Body.Read(buf); err != nil {
				break
			}
		}
		_ = resp.Body.Close()
	}
}
