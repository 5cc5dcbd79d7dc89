package kapitest

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"k8s.io/client-go/rest"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/controllers"
	"github.com/kapi-dev/kapi/store"
)

// Server is one API server started for a test by Start: every built-in
// kind, the CustomResourceDefinitions and objects the options named, served
// in JSON, YAML and protobuf from memory in the test's own process. It
// stops when the test ends.
type Server struct {
	// Config reaches the server in-process (no socket, no TLS) as the
	// identity Start was given (AsUser), by default an administrator in
	// system:masters. Each call to Start returns a Config of its own; copy
	// it (rest.CopyConfig) before changing it.
	Config *rest.Config
	// API is the kapi handler itself, for a test that mounts it elsewhere.
	API *apiserver.Server
	// Store is the store behind the server (the one WithStore gave, or a
	// new in-memory store), as the server sees it.
	Store store.Store
	// Clock is the time the server stamps and checks tokens against;
	// Advance it to age objects or expire tokens without sleeping.
	Clock *Clock
	// Faults injects failures: compactions, 410s, 504s, conflicts,
	// stalled or dropped watches, any Status on any request.
	Faults *Faults
	// Controllers are kube-controller-manager's controllers running in the
	// server, when Start was given WithControllers (nil otherwise):
	// Controllers.WaitIdle(ctx) returns once they have done what the
	// writes so far call for (a deleted namespace gone, orphans collected).
	Controllers *controllers.Manager

	failf     func(format string, args ...any)
	cleanups  []func()
	closeOnce sync.Once
	closed    atomic.Bool
	mu        sync.Mutex   // guards cleanups
	handler   http.Handler // recorder → faults → API
	rec       *recorder
	users     *users
	admin     string // the admin's token
	kinds     *kinds
	settings  *settings

	listenOnce sync.Once
	url        string
	caPEM      []byte
	kubeconfig string
	kcErr      error
}

// inProcessHost is the host of in-process configs: no connection is ever
// made to it.
const inProcessHost = "http://kapitest.invalid"

// Start starts a server for t and stops it when t ends (t.Cleanup). It
// fails t if an option cannot be applied (a CRD file that does not parse,
// an object the server refuses).
//
//	srv := kapitest.Start(t, kapitest.WithCRDPaths("config/crd/bases"))
//	cl, _ := client.New(srv.Config, client.Options{Scheme: scheme})
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s, err := New(opts...)
	if err != nil {
		t.Fatalf("kapitest.Start: %v", err)
	}
	t.Cleanup(s.Close)
	s.failf = t.Fatalf
	return s
}

// New starts a server that runs until Close: for a server shared by a
// whole package (TestMain) or suite (Ginkgo's BeforeSuite). Tests should
// prefer Start, which stops the server with the test.
func New(opts ...Option) (*Server, error) {
	s, err := start(opts...)
	if err != nil && s != nil {
		s.Close()
	}
	return s, err
}

// Close stops the server: open watches end, in-process requests fail as
// if the connection were refused, and the loopback listener (if one was
// started), the server's background work (RBAC role aggregation) and its
// temporary files go. Close is idempotent.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.closed.Store(true)
		if s.Faults != nil {
			s.Faults.DropWatches()
		}
		s.mu.Lock()
		cleanups := s.cleanups
		s.mu.Unlock()
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i]()
		}
	})
}

// onClose adds f to what Close does, in reverse order.
func (s *Server) onClose(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cleanups = append(s.cleanups, f)
}

func start(opts ...Option) (*Server, error) {
	st := &settings{}
	for _, o := range opts {
		o(st)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{settings: st, rec: &recorder{}, Clock: st.clock, failf: func(format string, args ...any) {
		panic(fmt.Sprintf(format, args...))
	}}
	s.cleanups = append(s.cleanups, cancel)
	if s.Clock == nil {
		s.Clock = NewClock()
	}
	crds, err := readAll(st.crds, st.scheme)
	if err != nil {
		return nil, fmt.Errorf("CRDs: %w", err)
	}
	crds = withCRDDefaults(crds)
	objs, err := readAll(st.objects, st.scheme)
	if err != nil {
		return nil, fmt.Errorf("objects: %w", err)
	}
	backing, prepared := st.store, false
	if backing == nil {
		tmpl, err := templateFor(crds)
		if err != nil {
			return nil, err
		}
		backing, prepared = tmpl.Clone(), true
	}
	if err := s.build(ctx, backing, prepared); err != nil {
		return nil, err
	}
	if !prepared {
		// A store of the test's own may be shared with other servers:
		// serve the CRDs they install, as servers over one etcd do.
		followCtx, stopFollowing := context.WithCancel(ctx)
		following := make(chan struct{})
		go func() {
			defer close(following)
			s.API.FollowCRDs(followCtx)
		}()
		s.onClose(func() {
			stopFollowing()
			<-following
		})
		if err := s.installCRDs(ctx, objects(crds)); err != nil {
			return nil, err
		}
	}
	for _, crd := range crds {
		s.kinds.addCRD(crd.obj)
	}
	if err := s.seed(ctx, objects(objs)); err != nil {
		return nil, err
	}
	if st.controllers != nil {
		if err := s.startControllers(ctx, *st.controllers); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// ConfigFor returns a config that reaches the server in-process as user in
// groups (and system:authenticated), authenticated with a bearer token the
// server knows from now on. What the user may do is up to RBAC: bind it to
// roles as in a real cluster.
func (s *Server) ConfigFor(user string, groups ...string) *rest.Config {
	return s.configWithToken(s.users.add(user, groups))
}

// AdminConfig returns a config for an administrator (group
// system:masters), whatever identity Config has.
func (s *Server) AdminConfig() *rest.Config { return s.configWithToken(s.admin) }

func (s *Server) configWithToken(token string) *rest.Config {
	return &rest.Config{
		Host:        inProcessHost,
		BearerToken: token,
		Transport:   inProcess{handler: s.handler, closed: &s.closed},
		QPS:         -1, // no client-side throttling: the server is in-process
	}
}

// Handler returns the server's whole handler (request recording and
// faults included), for a test that mounts it on a server of its own.
func (s *Server) Handler() http.Handler { return s.handler }

// URL starts, the first time it is called, an HTTPS listener on loopback
// for clients in other processes (net/http/httptest's certificate, which
// the kubeconfig and LoopbackConfig trust), and returns its address
// (https://127.0.0.1:port). Requests over it need a bearer token:
// kubectl and client-go send credentials only over TLS.
func (s *Server) URL() string {
	s.listen()
	return s.url
}

// LoopbackConfig is Config over the loopback listener (see URL) instead of
// in-process: what another process would use.
func (s *Server) LoopbackConfig() *rest.Config {
	s.listen()
	return &rest.Config{
		Host:            s.url,
		BearerToken:     s.Config.BearerToken,
		TLSClientConfig: rest.TLSClientConfig{CAData: s.caPEM},
		QPS:             -1,
	}
}

// Kubeconfig writes, the first time it is called, a kubeconfig file in a
// temporary directory (removed by Close: with Start, when the test ends)
// for kubectl or another process, reaching the server over
// loopback (see URL) as Config's identity, and returns its path.
func (s *Server) Kubeconfig() string {
	s.listen()
	if s.kcErr != nil {
		s.failf("kapitest: kubeconfig: %v", s.kcErr)
	}
	return s.kubeconfig
}

// KubeconfigFor returns a kubeconfig reaching the server over loopback
// (see URL) with a bearer token: one from Config, ConfigFor or AdminConfig.
func (s *Server) KubeconfigFor(token string) ([]byte, error) {
	s.listen()
	if s.url == "" {
		return nil, s.kcErr
	}
	return []byte(kubeconfig(s.url, s.caPEM, token)), nil
}

// startControllers runs the controllers names selects until the server
// closes; Close waits for every goroutine they started.
func (s *Server) startControllers(ctx context.Context, names []string) error {
	ctx, cancel := context.WithCancel(ctx)
	m, err := controllers.Start(ctx, s.API, controllers.Options{Controllers: names, RootCA: loopbackCA(), Now: s.Clock.Now})
	if err != nil {
		cancel()
		return err
	}
	s.Controllers = m
	s.onClose(func() {
		cancel()
		<-m.Done()
	})
	return nil
}

// loopbackCA is the PEM of the certificate every loopback listener serves
// (net/http/httptest's, the same in every server), which the kubeconfig
// trusts and the root-ca-cert-publisher controller publishes.
var loopbackCA = sync.OnceValue(func() []byte {
	hs := httptest.NewUnstartedServer(http.NotFoundHandler())
	hs.StartTLS()
	defer hs.Close()
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: hs.Certificate().Raw})
})

func (s *Server) listen() {
	s.listenOnce.Do(func() {
		hs := httptest.NewUnstartedServer(s.handler)
		hs.EnableHTTP2 = true
		hs.StartTLS()
		s.onClose(hs.Close)
		s.url = hs.URL
		s.caPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: hs.Certificate().Raw})
		dir, err := os.MkdirTemp("", "kapitest-")
		if err != nil {
			s.kcErr = err
			return
		}
		s.onClose(func() { _ = os.RemoveAll(dir) })
		s.kubeconfig = filepath.Join(dir, "kubeconfig")
		s.kcErr = os.WriteFile(s.kubeconfig, []byte(kubeconfig(s.url, s.caPEM, s.Config.BearerToken)), 0o600)
	})
}

func kubeconfig(url string, caPEM []byte, token string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: kapitest
  cluster:
    server: %s
    certificate-authority-data: %s
users:
- name: kapitest
  user:
    token: %s
contexts:
- name: kapitest
  context:
    cluster: kapitest
    user: kapitest
    namespace: default
current-context: kapitest
`, url, base64.StdEncoding.EncodeToString(caPEM), token)
}

// Requests returns every request the server has answered so far, in the
// order they finished (a watch when its stream ended).
func (s *Server) Requests() []Request { return s.rec.all() }

// ResetRequests forgets the requests recorded so far.
func (s *Server) ResetRequests() { s.rec.reset() }

// newToken returns a random bearer token.
func newToken() string {
	var b [24]byte
	_, _ = rand.Read(b[:])
	return "kapitest-" + hex.EncodeToString(b[:])
}
