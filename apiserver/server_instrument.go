package apiserver

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kapi-dev/kapi/apiserver/metrics"
	"github.com/kapi-dev/kapi/apiserver/requestinfo"
	"github.com/kapi-dev/kapi/store"
)

// serverMetrics are kube-apiserver's core metric families, under kube's
// names, labels and buckets, served at /metrics with whatever else is
// registered on the server's Registry.
type serverMetrics struct {
	registry        *metrics.Registry
	requests        *metrics.CounterVec
	durations       *metrics.HistogramVec
	responseSizes   *metrics.HistogramVec
	longRunning     *metrics.GaugeVec
	watchEvents     *metrics.CounterVec
	watchEventSizes *metrics.HistogramVec

	// cells holds the children of one request label set, so that a request
	// costs one map read besides its atomic increments.
	cells sync.Map // requestLabels -> *requestCells
}

// requestLabels are the labels of apiserver_request_total.
type requestLabels struct {
	verb, dryRun, group, version, resource, subresource, scope, component string
	code                                                                  int
	// sized: a watch through a list's ?watch, whose size kube records as
	// the list's (the /watch/ path is not).
	sized bool
}

type requestCells struct {
	total          *metrics.Counter
	duration, size *metrics.Histogram
}

func newServerMetrics(reg *metrics.Registry) (*serverMetrics, error) {
	requestLabelNames := []string{"verb", "dry_run", "group", "version", "resource", "subresource", "scope", "component"}
	m := &serverMetrics{
		registry: reg,
		requests: metrics.NewCounterVec("apiserver_request_total",
			"[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.",
			append(slices.Clone(requestLabelNames), "code")...),
		durations: metrics.NewHistogramVec("apiserver_request_duration_seconds",
			"[STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.",
			[]float64{0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60},
			requestLabelNames...),
		responseSizes: metrics.NewHistogramVec("apiserver_response_sizes",
			"[STABLE] Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.",
			metrics.ExponentialBuckets(1000, 10, 7),
			"verb", "group", "version", "resource", "subresource", "scope", "component"),
		longRunning: metrics.NewGaugeVec("apiserver_longrunning_requests",
			"[STABLE] Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.",
			"verb", "group", "version", "resource", "subresource", "scope", "component"),
		watchEvents: metrics.NewCounterVec("apiserver_watch_events_total",
			"[ALPHA] Number of events sent in watch clients", "group", "version", "kind"),
		watchEventSizes: metrics.NewHistogramVec("apiserver_watch_events_sizes",
			"[ALPHA] Watch event size distribution in bytes", metrics.ExponentialBuckets(1024, 2, 8),
			"group", "version", "kind"),
	}
	for _, c := range []metrics.Collector{m.requests, m.durations, m.responseSizes, m.longRunning, m.watchEvents, m.watchEventSizes} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// registerStorageObjects adds apiserver_storage_objects: the objects of
// every served resource, counted when scraped (kube counts them every
// minute; -1 when the store fails, as kube reports a fetch error).
func (s *Server) registerStorageObjects() error {
	return s.metrics.registry.Register(metrics.NewFunc(metrics.Desc{
		Name:   "apiserver_storage_objects",
		Help:   "[STABLE] Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.",
		Type:   metrics.TypeGauge,
		Labels: []string{"resource"},
	}, func(emit func(float64, ...string)) {
		seen := map[string]bool{}
		for _, res := range s.registry.Load().byGVR {
			gr := res.GroupResource().String()
			if seen[gr] {
				continue
			}
			seen[gr] = true
			page, err := s.store.List(context.Background(), res.keyPrefix(), store.ListOptions{Limit: 1})
			if err != nil {
				emit(-1, gr)
				continue
			}
			emit(float64(page.Total), gr)
		}
	}))
}

// instrumentedWriter records a response's status code and size.
type instrumentedWriter struct {
	http.ResponseWriter
	code int
	size int64
}

func (w *instrumentedWriter) WriteHeader(code int) {
	if w.code == 0 && code >= 200 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *instrumentedWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.size += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection (watch flushes).
func (w *instrumentedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// call is one request being counted: begin it before serving through w,
// end it after. Ending records apiserver_request_total,
// apiserver_request_duration_seconds and apiserver_response_sizes (reads);
// a watch or connect request is in apiserver_longrunning_requests between
// the two.
type call struct {
	w      *instrumentedWriter
	start  time.Time
	labels requestLabels
	long   *metrics.Gauge
}

// begin starts counting a request answered through iw, which wraps w (the
// caller keeps iw, in its request, to save an allocation).
func (m *serverMetrics) begin(iw *instrumentedWriter, w http.ResponseWriter, r *http.Request, info requestinfo.Info) call {
	iw.ResponseWriter, iw.code, iw.size = w, 0, 0
	c := call{w: iw, start: time.Now(), labels: requestLabelsOf(r, info)}
	if l := c.labels; l.verb == "WATCH" || l.verb == "CONNECT" {
		c.long = m.longRunning.With(l.verb, l.group, l.version, l.resource, l.subresource, l.scope, l.component)
		c.long.Inc()
	}
	return c
}

func (m *serverMetrics) end(c *call) {
	elapsed := time.Since(c.start)
	if c.long != nil {
		c.long.Dec()
	}
	l := c.labels
	l.code = c.w.code
	if l.code == 0 {
		l.code = http.StatusOK
	}
	size := c.w.size

	cells := m.cellsOf(l)
	cells.total.Inc()
	cells.duration.ObserveDuration(elapsed)
	if cells.size != nil {
		cells.size.ObserveInt(size)
	}
}

func (m *serverMetrics) cellsOf(l requestLabels) *requestCells {
	if c, ok := m.cells.Load(l); ok {
		return c.(*requestCells)
	}
	c := &requestCells{
		total:    m.requests.With(l.verb, l.dryRun, l.group, l.version, l.resource, l.subresource, l.scope, l.component, strconv.Itoa(l.code)),
		duration: m.durations.With(l.verb, l.dryRun, l.group, l.version, l.resource, l.subresource, l.scope, l.component),
	}
	if l.verb == "GET" || l.verb == "LIST" || l.sized {
		c.size = m.responseSizes.With(l.verb, l.group, l.version, l.resource, l.subresource, l.scope, l.component)
	}
	actual, _ := m.cells.LoadOrStore(l, c)
	return actual.(*requestCells)
}

// connectSubresources are reported with the verb CONNECT, as kube does.
var connectSubresources = map[string]bool{"log": true, "exec": true, "portforward": true, "attach": true, "proxy": true}

// reportedVerbs are the verbs kube reports; others are "other".
var reportedVerbs = map[string]bool{"APPLY": true, "CONNECT": true, "CREATE": true, "DELETE": true, "DELETECOLLECTION": true,
	"GET": true, "LIST": true, "PATCH": true, "POST": true, "PROXY": true, "PUT": true, "UPDATE": true, "WATCH": true}

// requestLabelsOf computes a request's labels as kube's MonitorRequest
// does: the method, GET becoming LIST for a collection and WATCH for a
// watch, PATCH becoming APPLY for a server-side apply; the scope from the
// name and namespace; health paths as a subresource of no resource.
func requestLabelsOf(r *http.Request, info requestinfo.Info) requestLabels {
	l := requestLabels{dryRun: cleanDryRun(r)}
	if !info.IsResource {
		l.verb = strings.ToUpper(r.Method)
		if l.verb == http.MethodHead {
			l.verb = http.MethodGet
		}
		l.subresource = r.URL.Path
		l.sized = true // kube instruments health paths as GETs, whatever the method
	} else {
		l.group, l.version, l.resource, l.subresource, l.component = info.Group, info.Version, info.Resource, info.Subresource, "apiserver"
		switch {
		case info.Name != "" || info.Verb == VerbCreate:
			l.scope = "resource"
		case info.Namespace != "":
			l.scope = "namespace"
		default:
			l.scope = "cluster"
		}
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			l.verb = "GET"
			if l.scope != "resource" {
				l.verb = "LIST"
			}
		case http.MethodPost:
			l.verb = "POST"
		case http.MethodPut:
			l.verb = "PUT"
		case http.MethodPatch:
			l.verb = "PATCH"
			if r.Header.Get("Content-Type") == applyPatchType {
				l.verb = "APPLY"
			}
		case http.MethodDelete:
			l.verb = "DELETE"
		default:
			l.verb = strings.ToUpper(r.Method)
		}
		if info.Verb == VerbWatch {
			l.verb = "WATCH"
			l.sized = r.URL.Query().Has("watch")
		}
		if connectSubresources[info.Subresource] {
			l.verb = "CONNECT"
		}
	}
	if !reportedVerbs[l.verb] {
		l.verb = "other"
	}
	return l
}

// cleanDryRun is the dry_run label: the sorted distinct values, "invalid"
// when one is not All; empty without dryRun.
func cleanDryRun(r *http.Request) string {
	if !strings.Contains(r.URL.RawQuery, "dryRun") {
		return ""
	}
	values := r.URL.Query()["dryRun"]
	for _, v := range values {
		if v != "All" {
			return "invalid"
		}
	}
	if len(values) == 0 {
		return ""
	}
	return "All"
}

// watchEventCells count the events of one watch stream
// (apiserver_watch_events_total and _sizes), gathered in the stream and
// added to the shared cells when it writes (flush): a hundred streams
// adding every event to the same cells from two cores spent 8% of a
// fan-out's CPU there, on the cache line they share.
type watchEventCells struct {
	total *metrics.Counter
	sizes *metrics.IntBatch
}

func (m *serverMetrics) watchEventCells(res *Resource) watchEventCells {
	return watchEventCells{
		total: m.watchEvents.With(res.Group, res.Version, res.Kind),
		sizes: metrics.NewIntBatch(m.watchEventSizes.With(res.Group, res.Version, res.Kind)),
	}
}

// observe records one event of n bytes.
func (c watchEventCells) observe(n int) { c.sizes.ObserveInt(int64(n)) }

// flush adds the events observed since the last flush to the shared cells.
func (c watchEventCells) flush() {
	if n := c.sizes.Flush(); n > 0 {
		c.total.Add(float64(n))
	}
}
