package bench

// The cost ladder of the example server as it ships: GETs and creates of a
// 1 KiB ConfigMap from 8 concurrent clients, with one layer added per rung
// (plain HTTP/1.1 → TLS → HTTP/2 → client-certificate authentication → RBAC
// → API Priority and Fairness → the in-process controllers), and the same
// transports in front of a bare net/http handler that writes the same bytes,
// so that the transport's share of each rung is known. Every rung reports
// req/s (wall) and cpu-ns/op (the whole process's CPU per request: server,
// clients and garbage collector, which other processes on a shared machine
// do not inflate). docs/performance.md has the table and the profiles.
//
//	go test -run='^$' -bench=Ladder -benchtime=3s -count=3 ./bench

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/flowcontrol"
	"github.com/kapi-dev/kapi/controllers"
	"github.com/kapi-dev/kapi/examples/server/kapiserver"
	"github.com/kapi-dev/kapi/internal/benchkit"
)

// ladderClients is the number of concurrent clients, as perfcompare's.
const ladderClients = 8

// transport is how a rung's clients reach its server.
type transport int

const (
	plainHTTP1 transport = iota // HTTP/1.1 over TCP
	tlsHTTP1                    // HTTP/1.1 over TLS
	tlsHTTP2                    // HTTP/2 over TLS, one connection shared by every client (as client-go)
)

func (t transport) String() string {
	return [...]string{"http1", "tls-http1", "tls-h2"}[t]
}

// ladderRung is one configuration of the ladder.
type ladderRung struct {
	name      string
	transport transport
	// bare serves pre-built bytes instead of kapi.
	bare bool
	// authn, rbac, apf and controllers add the example server's layers.
	authn, rbac, apf, controllers bool
}

var ladderRungs = []ladderRung{
	{name: "bare-http1", transport: plainHTTP1, bare: true},
	{name: "bare-tls-http1", transport: tlsHTTP1, bare: true},
	{name: "bare-tls-h2", transport: tlsHTTP2, bare: true},
	{name: "1-http1", transport: plainHTTP1},
	{name: "2-tls-http1", transport: tlsHTTP1},
	{name: "3-tls-h2", transport: tlsHTTP2},
	{name: "4-certauth", transport: tlsHTTP2, authn: true},
	{name: "5-rbac", transport: tlsHTTP2, authn: true, rbac: true},
	{name: "6-apf", transport: tlsHTTP2, authn: true, rbac: true, apf: true},
	{name: "7-controllers", transport: tlsHTTP2, authn: true, rbac: true, apf: true, controllers: true},
}

// ladderServer is a started rung: where to send requests and how.
type ladderServer struct {
	base   string
	client *http.Client
}

const ladderNS = "ladder"

// startRung starts the rung's server and returns its clients' view of it.
// The server holds a namespace with one ConfigMap, "cm-get", for GETs.
func startRung(b *testing.B, r ladderRung) ladderServer {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)

	sec, err := kapiserver.NewSecure(ctx, kapiserver.Options{AuthorizationMode: map[bool]string{true: "RBAC", false: "AlwaysAllow"}[r.rbac]})
	if err != nil {
		b.Fatal(err)
	}
	cfg := sec.Config
	if !r.authn {
		// Config without the security layers: the -insecure server's.
		store := cfg.Store
		cfg = kapiserver.Config()
		cfg.Store = store
	}
	if r.apf {
		cfg.FlowControl = &flowcontrol.Options{MaxRequestsInFlight: 400, MaxMutatingRequestsInFlight: 200, Context: ctx}
	}
	srv := newExampleServer(b, cfg)
	if r.controllers {
		m, err := controllers.Start(ctx, srv, controllers.Options{RootCA: sec.CAData})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { cancel(); <-m.Done() })
	}
	benchkit.CreateNamespace(b, srv.Loopback(), ladderNS)
	benchkit.MustServe(b, srv.Loopback(), http.StatusCreated, http.MethodPost, "/api/v1/namespaces/"+ladderNS+"/configmaps",
		"application/json", benchkit.ConfigMapJSON(ladderNS, "cm-get", "", 1))

	var h http.Handler = srv
	if r.bare {
		h = bareLadderHandler(b, srv)
	}
	ts := httptest.NewUnstartedServer(h)
	ts.Config.ErrorLog = log.New(io.Discard, "", 0) // handshakes cut short when a rung ends
	tr := benchkit.Transport(ladderClients)
	if r.transport == plainHTTP1 {
		ts.Start()
	} else {
		ts.TLS = sec.TLS.Clone()
		if r.transport == tlsHTTP1 {
			ts.TLS.NextProtos = []string{"http/1.1"}
		} else {
			ts.EnableHTTP2 = true
			tr.ForceAttemptHTTP2 = true
		}
		ts.StartTLS()
		roots := x509.NewCertPool()
		roots.AppendCertsFromPEM(sec.CAData)
		tr.TLSClientConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
		if r.authn {
			pair, err := tls.X509KeyPair(sec.AdminCert, sec.AdminKey)
			if err != nil {
				b.Fatal(err)
			}
			tr.TLSClientConfig.Certificates = []tls.Certificate{pair}
		}
	}
	b.Cleanup(ts.Close)
	b.Cleanup(tr.CloseIdleConnections)
	return ladderServer{base: ts.URL + "/api/v1/namespaces/" + ladderNS + "/configmaps", client: &http.Client{Transport: tr}}
}

// bareLadderHandler answers a GET of cm-get with the bytes kapi answers it
// with, and a create with the body kapi answers a create with.
func bareLadderHandler(b *testing.B, srv *apiserver.Server) http.Handler {
	b.Helper()
	path := "/api/v1/namespaces/" + ladderNS + "/configmaps"
	got := benchkit.MustServe(b, srv.Loopback(), http.StatusOK, http.MethodGet, path+"/cm-get", "", nil)
	created := benchkit.MustServe(b, srv.Loopback(), http.StatusCreated, http.MethodPost, path, "application/json",
		benchkit.ConfigMapJSON(ladderNS, "cm-bare", "", 2))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, code := got, http.StatusOK
		if r.Method == http.MethodPost {
			_, _ = io.Copy(io.Discard, r.Body)
			body, code = created, http.StatusCreated
		}
		hd := w.Header()
		hd["Content-Type"] = []string{"application/json"}
		hd["Cache-Control"] = []string{"no-cache, private"}
		hd["X-Content-Type-Options"] = []string{"nosniff"}
		hd["Content-Length"] = []string{strconv.Itoa(len(body))}
		w.WriteHeader(code)
		_, _ = w.Write(body)
	})
}

// runLadder sends b.N requests from ladderClients clients, each built by
// req(i) for the i-th request, expecting want, and reports req/s and
// cpu-ns/op.
func runLadder(b *testing.B, s ladderServer, want int, req func(i int) (*http.Request, error)) {
	var next atomic.Int64
	errs := make(chan error, ladderClients)
	b.ResetTimer()
	cpu := benchkit.MeterCPU(b)
	start := time.Now()
	done := make(chan struct{})
	for range ladderClients {
		go func() {
			defer func() { done <- struct{}{} }()
			var buf bytes.Buffer
			for {
				i := int(next.Add(1) - 1)
				if i >= b.N {
					return
				}
				rq, err := req(i)
				if err == nil {
					var resp *http.Response
					if resp, err = s.client.Do(rq); err == nil {
						buf.Reset()
						_, err = buf.ReadFrom(resp.Body)
						_ = resp.Body.Close()
						if err == nil && resp.StatusCode != want {
							err = fmt.Errorf("%s %s: %d, want %d: %.200s", rq.Method, rq.URL.Path, resp.StatusCode, want, buf.Bytes())
						}
					}
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for range ladderClients {
		<-done
	}
	elapsed := time.Since(start)
	b.StopTimer()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	cpu.Report(b.N)
	b.ReportMetric(benchkit.PerSecond(float64(b.N), elapsed), "req/s")
}

// BenchmarkLadder is the ladder: op=get and op=create, each rung in order.
func BenchmarkLadder(b *testing.B) {
	b.Run("op=get", func(b *testing.B) {
		for _, r := range ladderRungs {
			b.Run("rung="+r.name, func(b *testing.B) {
				s := startRung(b, r)
				url := s.base + "/cm-get"
				runLadder(b, s, http.StatusOK, func(int) (*http.Request, error) {
					rq, err := http.NewRequest(http.MethodGet, url, nil)
					if err == nil {
						rq.Header.Set("Accept", "application/json")
					}
					return rq, err
				})
			})
		}
	})
	b.Run("op=create", func(b *testing.B) {
		for _, r := range ladderRungs {
			b.Run("rung="+r.name, func(b *testing.B) {
				s := startRung(b, r)
				runLadder(b, s, http.StatusCreated, func(i int) (*http.Request, error) {
					rq, err := http.NewRequest(http.MethodPost, s.base, bytes.NewReader(
						benchkit.ConfigMapJSON(ladderNS, benchkit.CMName(i), "", uint64(i))))
					if err == nil {
						rq.Header.Set("Accept", "application/json")
						rq.Header.Set("Content-Type", "application/json")
					}
					return rq, err
				})
			})
		}
	})
}
