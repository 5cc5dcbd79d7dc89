package bench

// LIST in protobuf: 10,000 ConfigMaps of ~1 KiB as
// application/vnd.kubernetes.protobuf, whole and in pages of 500, against
// a bare handler writing the same bytes. (JSON: BenchmarkList in apiserver.)

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/kapi-dev/kapi/internal/benchkit"
)

const protobufMediaType = "application/vnd.kubernetes.protobuf"

// pageURIs walks a list in JSON and returns the URI of every page: continue
// tokens do not depend on the representation, so a protobuf walk requests
// the same URIs.
func pageURIs(tb testing.TB, client *http.Client, base, path string) []string {
	tb.Helper()
	var uris []string
	var buf bytes.Buffer
	uri := path
	for {
		if err := get(client, base+uri, "application/json", &buf); err != nil {
			tb.Fatal(err)
		}
		uris = append(uris, uri)
		token := continueOf(buf.Bytes())
		if token == "" {
			return uris
		}
		uri = path + "&continue=" + url.QueryEscape(token)
	}
}

func continueOf(body []byte) string {
	head := body[:min(len(body), 1024)]
	const key = `"continue":"`
	i := bytes.Index(head, []byte(key))
	if i < 0 {
		return ""
	}
	rest := head[i+len(key):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return ""
	}
	return string(rest[:j])
}

// BenchmarkListProtobuf: one client LISTs 10,000 ConfigMaps in protobuf,
// whole (limit=0) and as a walk of 20 pages of 500, from the example
// server and from a bare handler serving the same bytes for the same URIs.
// Target: kapi ≥ 0.5× the baseline's MB/s (ratio ≥ 0.5).
func BenchmarkListProtobuf(b *testing.B) {
	const n = 10_000
	srv := newExampleServer(b, exampleConfig())
	benchkit.LoadConfigMaps(b, srv, "list", n)
	kapi := httptest.NewServer(srv)
	defer kapi.Close()
	setup := &http.Client{Transport: benchkit.Transport(1)}
	bodies := map[string][]byte{}
	walks := map[int][]string{}
	var buf bytes.Buffer
	for _, limit := range []int{0, 500} {
		path := "/api/v1/namespaces/list/configmaps"
		if limit > 0 {
			path += fmt.Sprintf("?limit=%d", limit)
		}
		walks[limit] = pageURIs(b, setup, kapi.URL, path)
		want := 1
		if limit > 0 {
			want = n / limit
		}
		if len(walks[limit]) != want {
			b.Fatalf("limit=%d: %d pages, want %d", limit, len(walks[limit]), want)
		}
		for _, uri := range walks[limit] {
			if err := get(setup, kapi.URL+uri, protobufMediaType, &buf); err != nil {
				b.Fatal(err)
			}
			if !bytes.HasPrefix(buf.Bytes(), []byte("k8s\x00")) {
				b.Fatalf("%s: not protobuf: %.40q", uri, buf.Bytes())
			}
			bodies[uri] = bytes.Clone(buf.Bytes())
		}
	}
	setup.CloseIdleConnections()
	bare := httptest.NewServer(&bareHandler{contentType: protobufMediaType, bodies: bodies})
	defer bare.Close()

	for _, limit := range []int{0, 500} {
		uris := walks[limit]
		var size int64
		for _, u := range uris {
			size += int64(len(bodies[u]))
		}
		run := func(b *testing.B, base string) float64 {
			client := &http.Client{Transport: benchkit.Transport(1)}
			defer client.CloseIdleConnections()
			var buf bytes.Buffer
			walk := func() {
				for _, u := range uris {
					if err := get(client, base+u, protobufMediaType, &buf); err != nil {
						b.Fatal(err)
					}
				}
			}
			walk() // opens the connection, sizes the buffer
			b.SetBytes(size)
			cpu := benchkit.MeterCPU(b)
			ops := 0
			for b.Loop() {
				walk()
				ops++
			}
			cpu.Report(ops)
			return benchkit.PerSecond(float64(size)*float64(ops), b.Elapsed())
		}
		var sp benchkit.Speed
		b.Run(fmt.Sprintf("limit=%d/baseline", limit), func(b *testing.B) { sp.SetBaseline(run(b, bare.URL)) })
		b.Run(fmt.Sprintf("limit=%d/kapi", limit), func(b *testing.B) { sp.Report(b, run(b, kapi.URL)) })
	}
}
