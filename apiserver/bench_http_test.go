package apiserver_test

// GET and LIST over loopback HTTP against a bare
// net/http handler that writes the same bytes.

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"testing"

	"github.com/kapi-dev/kapi/internal/benchkit"
	"github.com/kapi-dev/kapi/store/memory"
)

// BenchmarkGet: 8 parallel keep-alive clients (4 per CPU on this 2-CPU
// machine, like perfcompare's 8) GET one ~1 KiB ConfigMap. The baseline is a
// bare handler answering with the same body and headers. Target: kapi's
// req/s ≥ 0.6× the baseline's (ratio ≥ 0.6).
func BenchmarkGet(b *testing.B) {
	srv := newBenchServer(b, benchConfig())
	benchkit.CreateNamespace(b, srv, "bench")
	benchkit.MustServe(b, srv, http.StatusCreated, http.MethodPost, "/api/v1/namespaces/bench/configmaps", "application/json",
		benchkit.ConfigMapJSON("bench", "cm-get", "", 1))
	const path = "/api/v1/namespaces/bench/configmaps/cm-get"
	kapi := httptest.NewServer(srv)
	defer kapi.Close()
	setup := &http.Client{Transport: benchkit.Transport(1)}
	body := fetchBody(b, setup, kapi.URL+path)
	setup.CloseIdleConnections()
	bare := httptest.NewServer(&bareHandler{contentType: "application/json", bodies: map[string][]byte{path: body}})
	defer bare.Close()

	run := func(b *testing.B, url string) float64 {
		return parallelGets(b, benchkit.Transport(64), url)
	}
	var sp benchkit.Speed
	b.Run("baseline", func(b *testing.B) { sp.SetBaseline(run(b, bare.URL+path)) })
	b.Run("kapi", func(b *testing.B) { sp.Report(b, run(b, kapi.URL+path)) })
}

// listWalk GETs path (a list, possibly with limit) and follows continue
// tokens to the end. It returns the bytes and pages read. The baseline
// serves the same URIs, so both sides do the same client work.
func listWalk(client *http.Client, base, path string, buf *bytes.Buffer) (int64, int, error) {
	var total int64
	pages := 0
	uri := path
	for {
		buf.Reset()
		if _, err := benchkit.Get(client, base+uri, "application/json", buf); err != nil {
			return 0, 0, fmt.Errorf("%w: %.200s", err, buf.Bytes())
		}
		total += int64(buf.Len())
		pages++
		token := continueOf(buf.Bytes())
		if token == "" {
			return total, pages, nil
		}
		uri = withContinue(path, token)
	}
}

// continueOf pulls metadata.continue out of a JSON list by a byte search
// in its head (the list metadata precedes the items).
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

func withContinue(path, token string) string {
	return path + "&continue=" + url.QueryEscape(token)
}

// recordWalk walks a list once and records every page's URI and body, for
// the baseline to serve.
func recordWalk(tb testing.TB, client *http.Client, base, path string, into map[string][]byte) (pages int, bytes int64) {
	tb.Helper()
	uri := path
	for {
		body := fetchBody(tb, client, base+uri)
		into[uri] = body
		pages++
		bytes += int64(len(body))
		token := continueOf(body)
		if token == "" {
			return pages, bytes
		}
		uri = withContinue(path, token)
	}
}

// BenchmarkList: one client LISTs 10,000 ConfigMaps of ~1 KiB (JSON), whole
// (limit=0) and as a walk of pages of 500 (limit=500: 20 requests following
// continue tokens), against a bare handler writing the same pre-built
// bytes for the same URIs. MB/s is response bytes per second. Target: kapi
// ≥ 0.5× the baseline's MB/s (ratio ≥ 0.5). The protobuf variant is
// BenchmarkListProtobuf in examples/bench.
func BenchmarkList(b *testing.B) {
	const n = 10_000
	srv := newBenchServer(b, benchConfig())
	benchkit.LoadConfigMaps(b, srv, "list", n)
	kapi := httptest.NewServer(srv)
	defer kapi.Close()
	setup := &http.Client{Transport: benchkit.Transport(1)}
	bodies := map[string][]byte{}
	for _, limit := range []int{0, 500} {
		path := listPath("list", limit)
		pages, _ := recordWalk(b, setup, kapi.URL, path, bodies)
		if want := max(1, n/max(limit, 1)); limit > 0 && pages != want || limit == 0 && pages != 1 {
			b.Fatalf("limit=%d: %d pages", limit, pages)
		}
	}
	if items := bytes.Count(bodies[listPath("list", 0)], itemMarker); items != n {
		b.Fatalf("%d items, want %d", items, n)
	}
	setup.CloseIdleConnections()
	bare := httptest.NewServer(&bareHandler{contentType: "application/json", bodies: bodies})
	defer bare.Close()

	for _, limit := range []int{0, 500} {
		path := listPath("list", limit)
		run := func(b *testing.B, base string) float64 {
			client := &http.Client{Transport: benchkit.Transport(1)}
			defer client.CloseIdleConnections()
			var buf bytes.Buffer
			// One untimed walk opens the connection and sizes the buffer.
			size, _, err := listWalk(client, base, path, &buf)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(size)
			cpu := benchkit.MeterCPU(b)
			ops := 0
			for b.Loop() {
				if _, _, err := listWalk(client, base, path, &buf); err != nil {
					b.Fatal(err)
				}
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

func listPath(ns string, limit int) string {
	p := "/api/v1/namespaces/" + ns + "/configmaps"
	if limit > 0 {
		p += fmt.Sprintf("?limit=%d", limit)
	}
	return p
}

// BenchmarkListPage shows that a page costs O(limit): one page of 500 read
// at the start, the middle and the end of a collection of 10,000 and of
// 100,000 ConfigMaps costs about the same (what differs is how much of
// the store fits in the CPU caches). Continue tokens are taken from one
// walk of the collection, so the middle and end pages are read at the
// walk's snapshot revision (Exact), as a client's next page is.
func BenchmarkListPage(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("objects=%d", n), func(b *testing.B) {
			cfg := benchConfig()
			st := memory.New(memory.Config{})
			cfg.Store = st
			srv := newBenchServer(b, cfg)
			fillConfigMapsDirect(b, srv, st, "list", n)
			kapi := httptest.NewServer(srv)
			defer kapi.Close()
			client := &http.Client{Transport: benchkit.Transport(1)}
			defer client.CloseIdleConnections()
			const limit = 500
			path := listPath("list", limit)
			uris := map[string]string{"start": path}
			uri := path
			for page := 0; ; page++ {
				body := fetchBody(b, client, kapi.URL+uri)
				switch page {
				case n / limit / 2:
					uris["middle"] = uri
				case n/limit - 1:
					uris["end"] = uri
				}
				token := continueOf(body)
				if token == "" {
					break
				}
				uri = withContinue(path, token)
			}
			if len(uris) != 3 {
				b.Fatalf("walk of %d objects found %d of 3 pages", n, len(uris))
			}
			runtime.GC()
			for _, at := range []string{"start", "middle", "end"} {
				b.Run("at="+at, func(b *testing.B) {
					var buf bytes.Buffer
					size, _, err := listWalk1(client, kapi.URL+uris[at], &buf)
					if err != nil {
						b.Fatal(err)
					}
					if items := bytes.Count(buf.Bytes(), itemMarker); items != limit {
						b.Fatalf("page at %s has %d items", at, items)
					}
					b.SetBytes(size)
					cpu := benchkit.MeterCPU(b)
					ops := 0
					for b.Loop() {
						if _, _, err := listWalk1(client, kapi.URL+uris[at], &buf); err != nil {
							b.Fatal(err)
						}
						ops++
					}
					cpu.Report(ops)
				})
			}
		})
	}
}

// listWalk1 reads exactly one page.
func listWalk1(client *http.Client, url string, buf *bytes.Buffer) (int64, int, error) {
	buf.Reset()
	n, err := benchkit.Get(client, url, "application/json", buf)
	return n, 1, err
}
