package apiserver

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/authz"
	"github.com/kapi-dev/kapi/apiserver/flowcontrol"
	"github.com/kapi-dev/kapi/apiserver/impersonation"
	"github.com/kapi-dev/kapi/apiserver/metrics"
	"github.com/kapi-dev/kapi/apiserver/requestinfo"
	"github.com/kapi-dev/kapi/apiserver/webhook"
	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/codec/protobuf"
	"github.com/kapi-dev/kapi/codec/protobuf/builtinproto"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
)

// Config configures a Server. Zero values mean the defaults.
type Config struct {
	// Store keeps the objects; nil means a new in-memory store.
	Store store.Store
	// Codecs are the representations served; nil means JSON, YAML and
	// Kubernetes protobuf for the built-in kinds (their descriptors are the
	// library's, codec/protobuf/builtinproto), as kube-apiserver serves them.
	Codecs codec.Codecs
	// Resources are the types served besides the built-in namespaces.
	Resources []Resource
	// OpenAPIComponents holds the OpenAPI component schemas that resources
	// name in OpenAPIComponent (for the built-in kinds:
	// builtin.OpenAPIComponents()).
	OpenAPIComponents map[string]any
	// Admission plugins, each a MutatingAdmission, a ValidatingAdmission or
	// both, run in order on every write.
	Admission []any
	// Release is the kube-apiserver release the server answers as
	// (kube-apiserver's --emulated-version): /version, and the OpenAPI
	// documents' info.version. Serve the same release's built-in kinds
	// (builtin.ResourcesFor and builtin.OpenAPIComponentsFor). Empty means
	// DefaultRelease; New refuses a release kapi has no data for.
	Release Release
	// Version is what /version answers; zero fields get Release's.
	Version VersionInfo
	// Now is the clock for timestamps; nil means time.Now.
	Now func() time.Time
	// WatchBookmarkInterval is how often an idle watch that asked for
	// bookmarks gets one; 0 means one minute, as kube-apiserver.
	WatchBookmarkInterval time.Duration
	// MinRequestTimeout sets the default watch duration, random between one
	// and two of it; 0 means 30 minutes, as kube-apiserver.
	MinRequestTimeout time.Duration
	// MaxRequestBodyBytes bounds request bodies (413 beyond); 0 means 3 MiB
	// like kube-apiserver.
	MaxRequestBodyBytes int64
	// Authenticator says who sends each request (authn.New builds
	// kube-apiserver's chain); a request it does not authenticate gets
	// kube's 401. Nil, with a nil Authorizer, serves everyone as an
	// anonymous superuser (no filter at all).
	Authenticator authn.Authenticator
	// ValidatingAdmissionPolicy enforces ValidatingAdmissionPolicies and
	// their bindings (admissionregistration.k8s.io/v1, served by
	// builtin.Resources) on every write of every kind, after the admission
	// plugins, as kube-apiserver's ValidatingAdmissionPolicy plugin.
	ValidatingAdmissionPolicy bool
	// Webhooks calls admission webhooks (Mutating- and
	// ValidatingWebhookConfigurations, admissionregistration.k8s.io/v1)
	// and CRD conversion webhooks, as kube-apiserver does; nil calls none.
	Webhooks *WebhookOptions
	// Authorizer decides what each user may do (authz.New: AlwaysAllow,
	// RBAC...); a denied request gets kube's 403. It also authorizes
	// impersonation headers. Nil allows everything.
	Authorizer authz.Authorizer
	// FlowControl turns API Priority and Fairness on (nil: off): requests
	// are classified by the stored FlowSchemas and queued or rejected by
	// their priority levels, and the bootstrap configuration is created
	// (serve the flowcontrol kinds, as builtin.Resources does, to let
	// clients see and change it).
	FlowControl *flowcontrol.Options
	// Metrics is the registry served at /metrics, where the server adds
	// kube's apiserver_* families; nil means a new one. Components add
	// their own families to it (see package metrics).
	Metrics *metrics.Registry
	// HealthChecks are checks of /livez, /readyz and /healthz besides
	// kube's defaults; one named as a default ("etcd") replaces it. A Store
	// that is a HealthReporter (store/etcd) gives the "etcd" and
	// "etcd-readiness" checks; without one they are not listed, as on an
	// API server without etcd.
	HealthChecks []HealthCheck
	// PostStartHooks run in order once the server is built, before New
	// returns (builtin.PostStartHooks creates the default/kubernetes
	// Service); each is listed as the health check poststarthook/NAME.
	PostStartHooks []PostStartHook
}

// VersionInfo is the body of /version.
type VersionInfo struct {
	Major                 string `json:"major"`
	Minor                 string `json:"minor"`
	EmulationMajor        string `json:"emulationMajor,omitempty"`
	EmulationMinor        string `json:"emulationMinor,omitempty"`
	MinCompatibilityMajor string `json:"minCompatibilityMajor,omitempty"`
	MinCompatibilityMinor string `json:"minCompatibilityMinor,omitempty"`
	GitVersion            string `json:"gitVersion"`
	GitCommit             string `json:"gitCommit"`
	GitTreeState          string `json:"gitTreeState"`
	BuildDate             string `json:"buildDate"`
	GoVersion             string `json:"goVersion"`
	Compiler              string `json:"compiler"`
	Platform              string `json:"platform"`
}

// Server is an http.Handler serving the Kubernetes API for the configured
// resource types. Mount it at the root of a listener, or under a prefix of
// an existing mux with http.StripPrefix.
type Server struct {
	store       store.Store
	codecs      codec.Codecs
	now         func() time.Time
	maxBody     int64
	version     VersionInfo
	kubeRelease Release
	registry    atomic.Pointer[registry]
	admission   []any

	// registryMu serialises registry rebuilds (CRD writes); readers never
	// take it.
	registryMu sync.Mutex
	// crdGroupVersionHooks are OnCRDGroupVersionsChange's (registryMu).
	crdGroupVersionHooks []func(context.Context)
	staticResources      []Resource
	// crds is the CustomResourceDefinition type served; crdSpecs holds,
	// by CRD name, the newest servedCRD derived, for its successors with
	// the same spec (servedCRDOf).
	crds     *Resource
	crdSpecs sync.Map

	// policies keeps the ValidatingAdmissionPolicies in force; nil when
	// they are not enforced.
	policies *watched
	// webhooks keeps the admission webhook configurations in force and
	// webhookCalls calls them; nil without Config.Webhooks.
	webhooks     *watched
	webhookCalls *webhook.Dispatcher

	openAPIComponents map[string]any

	bookmarkInterval  time.Duration
	minRequestTimeout time.Duration

	// handler is the filter chain in front of serve (just serve, with
	// neither authentication, authorization nor flow control).
	handler     http.Handler
	flowControl *flowcontrol.Controller
	metrics     *serverMetrics
	health      *healthChecks
	// local is the per-server state of strategies (Write.Local).
	local sync.Map

	// servedView caches the view of the served types (Served) for the current
	// registry.
	servedView atomic.Pointer[Served]
}

// New validates cfg and returns a ready Server. The namespaces "default",
// "kube-system", "kube-public" and "kube-node-lease" exist once it returns.
func New(cfg Config) (*Server, error) {
	s := &Server{
		store:       cfg.Store,
		codecs:      cfg.Codecs,
		now:         cfg.Now,
		maxBody:     cfg.MaxRequestBodyBytes,
		version:     cfg.Version.withDefaults(cfg.Release),
		kubeRelease: cfg.Release.OrDefault(),
		admission:   cfg.Admission,

		openAPIComponents: cfg.OpenAPIComponents,
	}
	if !cfg.Release.Known() {
		return nil, fmt.Errorf("apiserver: release %q: kapi serves %s", cfg.Release, strings.Join(releaseNames(), ", "))
	}
	for _, p := range cfg.Admission {
		_, m := p.(MutatingAdmission)
		_, v := p.(ValidatingAdmission)
		if !m && !v {
			return nil, fmt.Errorf("apiserver: admission plugin %T implements neither MutatingAdmission nor ValidatingAdmission", p)
		}
	}
	if s.store == nil {
		s.store = memory.New(memory.Config{})
	}
	if cfg.ValidatingAdmissionPolicy {
		s.policies = newPolicySource(s)
	}
	if cfg.Webhooks != nil {
		s.webhooks = newWebhookSource(s)
		s.webhookCalls = &webhook.Dispatcher{Clients: &webhook.Clients{Resolver: cfg.Webhooks.ServiceResolver,
			Transport: cfg.Webhooks.Transport}}
	}
	if s.codecs == nil {
		s.codecs = append(codec.Default(), protobuf.New(builtinproto.Resolver()))
	}
	if s.now == nil {
		s.now = time.Now
	}
	s.bookmarkInterval, s.minRequestTimeout = cfg.WatchBookmarkInterval, cfg.MinRequestTimeout
	if s.bookmarkInterval <= 0 {
		s.bookmarkInterval = time.Minute
	}
	if s.minRequestTimeout <= 0 {
		s.minRequestTimeout = 30 * time.Minute
	}
	if s.maxBody == 0 {
		s.maxBody = 3 << 20
	}
	// Namespaces and CustomResourceDefinitions are always served; a
	// registration of them in cfg (with a schema, say) replaces the default.
	// A registration without a strategy of its own keeps theirs.
	resources := make([]Resource, 2, len(cfg.Resources)+2)
	resources[0], resources[1] = namespaceResource, crdResource
	for _, r := range cfg.Resources {
		if i := slices.IndexFunc(resources[:2], func(b Resource) bool {
			return b.GroupResource() == r.GroupResource() && b.Version == r.Version
		}); i >= 0 {
			if r.Strategy == nil {
				r.Strategy = resources[i].Strategy
			}
			resources[i] = r
			continue
		}
		resources = append(resources, r)
	}
	for i := range resources {
		r, err := resources[i].withDefaults()
		if err != nil {
			return nil, err
		}
		resources[i] = r
	}
	linkViewVersions(resources)
	reg := cfg.Metrics
	if reg == nil {
		reg = metrics.NewRegistry()
	}
	var err error
	if s.metrics, err = newServerMetrics(reg); err != nil {
		return nil, err
	}
	if err := s.registerStorageObjects(); err != nil {
		return nil, err
	}
	checks := slices.Clone(cfg.HealthChecks)
	for _, h := range cfg.PostStartHooks {
		checks = append(checks, HealthCheck{Name: "poststarthook/" + h.Name, Check: func(context.Context) error { return nil }})
	}
	if s.health, err = newHealthChecks(s.kubeRelease, s.store, checks); err != nil {
		return nil, err
	}
	s.staticResources = resources
	s.crds = &s.staticResources[1]
	s.addIndexes()
	if _, err := s.loadRegistry(context.Background()); err != nil {
		return nil, err
	}
	if err := s.createInitialNamespaces(); err != nil {
		return nil, err
	}
	if cfg.FlowControl != nil {
		s.flowControl = s.newFlowControl(*cfg.FlowControl)
		s.metrics.registry.RegisterText(s.flowControl.WritePrometheus)
	}
	s.handler = s.filters(cfg, http.HandlerFunc(s.serve))
	if s.flowControl != nil {
		if err := s.flowControl.Start(); err != nil {
			return nil, err
		}
	}
	if err := s.runPostStartHooks(cfg.PostStartHooks); err != nil {
		return nil, err
	}
	return s, nil
}

// filters builds kube-apiserver's chain in front of h, outermost first:
// request info → authentication → impersonation → flow control →
// authorization → h.
func (s *Server) filters(cfg Config, h http.Handler) http.Handler {
	if cfg.Authenticator == nil && cfg.Authorizer == nil {
		if s.flowControl != nil {
			h = s.flowControl.Filter(h)
		}
		return h
	}
	authenticator, authorizer := cfg.Authenticator, cfg.Authorizer
	if authenticator == nil {
		authenticator = authn.New(true) // everyone is anonymous
	}
	if authorizer != nil {
		h = authz.Filter(authorizer, s.writeError)(h)
	} else {
		authorizer = authz.AlwaysAllow()
	}
	if s.flowControl != nil {
		h = s.flowControl.Filter(h)
	}
	h = impersonation.Filter(authorizer, s.writeError)(h)
	return s.withInfoAndUser(authenticator, h)
}

// withInfoAndUser parses the request info once for every filter after it
// and authenticates the request (authn.Filter's work), giving h a request
// whose context carries both: one copy of the request, where the two
// filters one after the other would make two.
func (s *Server) withInfoAndUser(a authn.Authenticator, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info := requestinfo.Parse(r)
		u, ok := authn.Authenticate(a, s.writeError, w, r)
		if !ok {
			return
		}
		h.ServeHTTP(w, r.WithContext(authn.WithUser(requestinfo.With(r.Context(), info), u)))
	})
}

// newFlowControl is API Priority and Fairness for this server: its own
// writes (bootstrap objects, statuses) go straight to serve, behind every
// filter, as kube's loopback client's go through as system:masters.
func (s *Server) newFlowControl(opts flowcontrol.Options) *flowcontrol.Controller {
	deps := flowcontrol.Deps{Store: s.store, Client: flowcontrol.HandlerClient{Handler: http.HandlerFunc(s.serve)},
		ObjectCount: s.objectCount}
	reg := s.registry.Load()
	if r := reg.lookup(flowcontrol.Group, "v1", "prioritylevelconfigurations"); r != nil {
		deps.PriorityLevelPrefix = r.keyPrefix()
	}
	if r := reg.lookup(flowcontrol.Group, "v1", "flowschemas"); r != nil {
		deps.FlowSchemaPrefix = r.keyPrefix()
	}
	return flowcontrol.New(opts, deps)
}

// FlowControl is the server's API Priority and Fairness (its metrics,
// say), nil when it is off.
func (s *Server) FlowControl() *flowcontrol.Controller { return s.flowControl }

// objectCount is how many objects of a resource are stored, for the cost
// of a LIST under flow control.
func (s *Server) objectCount(group, resource string) (int64, bool) {
	reg := s.registry.Load()
	g := reg.group(group)
	if g == nil {
		return 0, false
	}
	for _, v := range g.versions {
		if r := reg.lookup(group, v.version, resource); r != nil {
			res, err := s.store.List(context.Background(), r.keyPrefix(), store.ListOptions{Limit: 1})
			if err != nil {
				return 0, false
			}
			return res.Total, true
		}
	}
	return 0, false
}

// ServeHTTP implements http.Handler. A panic while serving (a bug) answers
// 500 with a Status, as kube-apiserver's panic filter does, instead of
// killing the connection.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			s.writeError(w, r, meta.Internal(fmt.Errorf("%v", p)))
		}
	}()
	reserveStack()
	s.handler.ServeHTTP(w, r)
}

// serve answers a request the filters let through.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	info := requestinfo.From(r)
	if err := timeoutError(r, info); err != nil {
		s.writeError(w, r, err)
		return
	}
	if !info.IsResource {
		s.serveNonResource(w, r, info)
		return
	}
	reg := s.registry.Load()
	res := reg.lookup(info.Group, info.Version, info.Resource)
	if res == nil {
		if reg.group(info.Group) == nil {
			http.NotFound(w, r) // kube answers unknown groups in plain text
			return
		}
		s.writeError(w, r, notFoundPath(r))
		return
	}
	if res.Deprecated != "" {
		w.Header().Add("Warning", fmt.Sprintf("299 - %q", res.Deprecated))
	}
	if !res.Namespaced {
		info.Namespace = ""
	}
	q := &request{s: s, r: r, info: info, res: res}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		// Writes collect admission warnings (AddWarning).
		q.r = r.WithContext(withWarningSink(r.Context(), &q.warnings))
	}
	c := s.metrics.begin(&q.counted, w, r, info)
	q.w = c.w
	defer s.metrics.end(&c)
	q.serve()
}

// Metrics is the registry served at /metrics: register a component's
// metric families on it (see package metrics).
func (s *Server) Metrics() *metrics.Registry { return s.metrics.registry }

// notFoundPath is kube-apiserver's answer to a path it does not serve.
func notFoundPath(r *http.Request) *meta.Status {
	st := meta.NotFound(meta.GroupResource{}, "")
	st.Message = "the server could not find the requested resource"
	st.Details = &meta.StatusDetails{}
	return st
}

// newUID returns a random RFC 4122 version 4 UUID.
func newUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func (v VersionInfo) withDefaults(r Release) VersionInfo {
	def := r.versionInfo()
	def.GitTreeState, def.BuildDate, def.GoVersion = "clean", "2026-01-01T00:00:00Z", goVersion()
	def.Compiler, def.Platform = "gc", platform()
	if v.Major != "" {
		def.Major, def.Minor = v.Major, v.Minor
		def.EmulationMajor, def.EmulationMinor = v.EmulationMajor, v.EmulationMinor
		def.MinCompatibilityMajor, def.MinCompatibilityMinor = v.MinCompatibilityMajor, v.MinCompatibilityMinor
	}
	for _, p := range []struct{ dst, src *string }{
		{&def.GitVersion, &v.GitVersion}, {&def.GitCommit, &v.GitCommit}, {&def.GitTreeState, &v.GitTreeState},
		{&def.BuildDate, &v.BuildDate}, {&def.GoVersion, &v.GoVersion}, {&def.Compiler, &v.Compiler},
		{&def.Platform, &v.Platform},
	} {
		if *p.src != "" {
			*p.dst = *p.src
		}
	}
	return def
}

func goVersion() string { return runtime.Version() }

func platform() string { return runtime.GOOS + "/" + runtime.GOARCH }
