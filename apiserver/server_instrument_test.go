package apiserver

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver/metrics"
)

// metricLines are the lines of /metrics starting with one of prefixes.
func metricLines(t *testing.T, ts *testServer, prefixes ...string) []string {
	t.Helper()
	r := ts.do("GET", "/metrics", "")
	require.Equal(t, http.StatusOK, r.code)
	var out []string
	for _, l := range strings.Split(string(r.raw), "\n") {
		for _, p := range prefixes {
			if strings.HasPrefix(l, p) {
				out = append(out, l)
			}
		}
	}
	return out
}

// rawGet reads a response whatever its type (a watch stream).
func rawGet(t *testing.T, ts *testServer, path string) {
	t.Helper()
	resp, err := http.Get(ts.url + path)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
}

// TestRequestMetricsCarryKubesLabels replays requests made to
// kube-apiserver 1.33.13 and expects the lines it reported for them
// (docs/kube-behaviour/12-health-metrics.md).
func TestRequestMetricsCarryKubesLabels(t *testing.T) {
	ts := newTestServer(t)
	cms := "/api/v1/namespaces/default/configmaps"
	ts.do("POST", cms+"?dryRun=All", `{"metadata":{"name":"m1"}}`)
	ts.do("POST", cms, `{"metadata":{"name":"m1"}}`)
	ts.do("GET", cms+"/m1", "")
	ts.do("GET", cms+"/nope", "")
	ts.do("GET", "/api/v1/configmaps?limit=1", "")
	ts.do("PATCH", cms+"/m1?fieldManager=x", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"m1"}}`,
		"Content-Type", "application/apply-patch+yaml")
	rawGet(t, ts, cms+"?watch=1&timeoutSeconds=1")
	ts.do("DELETE", cms+"/m1", "")
	ts.do("DELETE", cms, "")
	ts.do("POST", cms+"?dryRun=x", `{"metadata":{"name":"m1"}}`)
	ts.do("GET", "/readyz", "")
	ts.do("POST", "/readyz", "")
	ts.do("GET", "/readyz/etcd", "") // a named check is not counted, as kube

	l := `component="apiserver",dry_run="",group="",resource="configmaps",`
	assert.Equal(t, []string{
		`apiserver_request_total{code="200",component="",dry_run="",group="",resource="",scope="",subresource="/readyz",verb="GET",version=""} 1`,
		`apiserver_request_total{code="200",component="",dry_run="",group="",resource="",scope="",subresource="/readyz",verb="POST",version=""} 1`,
		`apiserver_request_total{code="200",` + l + `scope="cluster",subresource="",verb="LIST",version="v1"} 1`,
		`apiserver_request_total{code="200",` + l + `scope="namespace",subresource="",verb="DELETE",version="v1"} 1`,
		`apiserver_request_total{code="200",` + l + `scope="namespace",subresource="",verb="WATCH",version="v1"} 1`,
		`apiserver_request_total{code="200",` + l + `scope="resource",subresource="",verb="APPLY",version="v1"} 1`,
		`apiserver_request_total{code="200",` + l + `scope="resource",subresource="",verb="DELETE",version="v1"} 1`,
		`apiserver_request_total{code="200",` + l + `scope="resource",subresource="",verb="GET",version="v1"} 1`,
		`apiserver_request_total{code="201",` + l + `scope="resource",subresource="",verb="POST",version="v1"} 1`,
		`apiserver_request_total{code="201",component="apiserver",dry_run="All",group="",resource="configmaps",scope="resource",subresource="",verb="POST",version="v1"} 1`,
		`apiserver_request_total{code="404",` + l + `scope="resource",subresource="",verb="GET",version="v1"} 1`,
		`apiserver_request_total{code="422",component="apiserver",dry_run="invalid",group="",resource="configmaps",scope="resource",subresource="",verb="POST",version="v1"} 1`,
	}, metricLines(t, ts, "apiserver_request_total{"))

	assert.Equal(t, []string{
		`apiserver_response_sizes_count{component="",group="",resource="",scope="",subresource="/readyz",verb="GET",version=""} 1`,
		`apiserver_response_sizes_count{component="",group="",resource="",scope="",subresource="/readyz",verb="POST",version=""} 1`,
		`apiserver_response_sizes_count{component="apiserver",group="",resource="configmaps",scope="cluster",subresource="",verb="LIST",version="v1"} 1`,
		`apiserver_response_sizes_count{component="apiserver",group="",resource="configmaps",scope="namespace",subresource="",verb="WATCH",version="v1"} 1`,
		`apiserver_response_sizes_count{component="apiserver",group="",resource="configmaps",scope="resource",subresource="",verb="GET",version="v1"} 2`,
	}, metricLines(t, ts, "apiserver_response_sizes_count{"),
		"sizes of reads and health paths only: a watch through ?watch is a list's, as kube counts it")

	durations := metricLines(t, ts, "apiserver_request_duration_seconds_bucket{")
	assert.Contains(t, durations,
		`apiserver_request_duration_seconds_bucket{`+l+`scope="resource",subresource="",verb="GET",version="v1",le="60"} 2`)
	assert.Equal(t, 11*24, len(durations), "one series per label set without code, 23 buckets and +Inf")
}

func TestWatchEventsAndStorageObjectsAreCounted(t *testing.T) {
	ts := newTestServer(t)
	cms := "/api/v1/namespaces/default/configmaps"
	for _, n := range []string{"a", "b"} {
		require.Equal(t, http.StatusCreated, ts.do("POST", cms, `{"metadata":{"name":"`+n+`"}}`).code)
	}
	rawGet(t, ts, cms+"?watch=1&timeoutSeconds=1")
	assert.Equal(t, []string{`apiserver_watch_events_total{group="",kind="ConfigMap",version="v1"} 2`},
		metricLines(t, ts, "apiserver_watch_events_total{"))
	assert.Equal(t, []string{`apiserver_watch_events_sizes_bucket{group="",kind="ConfigMap",version="v1",le="1024"} 2`},
		metricLines(t, ts, `apiserver_watch_events_sizes_bucket{group="",kind="ConfigMap",version="v1",le="1024"}`))
	assert.Equal(t, []string{
		`apiserver_storage_objects{resource="configmaps"} 2`,
		`apiserver_storage_objects{resource="customresourcedefinitions.apiextensions.k8s.io"} 0`,
		`apiserver_storage_objects{resource="deployments.apps"} 0`,
		`apiserver_storage_objects{resource="leases"} 0`,
		`apiserver_storage_objects{resource="namespaces"} 4`,
		`apiserver_storage_objects{resource="widgets.example.com"} 0`,
	}, metricLines(t, ts, "apiserver_storage_objects{"))
}

func TestLongRunningRequestsAreCountedWhileTheyLast(t *testing.T) {
	ts := newTestServer(t)
	req, err := http.NewRequest("GET", ts.url+"/api/v1/namespaces/default/configmaps?watch=1", nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	line := `apiserver_longrunning_requests{component="apiserver",group="",resource="configmaps",scope="namespace",subresource="",verb="WATCH",version="v1"}`
	assert.Equal(t, []string{line + " 1"}, metricLines(t, ts, line))
	resp.Body.Close()
	assert.Eventually(t, func() bool {
		l := metricLines(t, ts, line)
		return len(l) == 1 && l[0] == line+" 0"
	}, 5e9, 1e7)
}

func TestMetricsRegistryFromConfigTakesOtherFamilies(t *testing.T) {
	reg := metrics.NewRegistry()
	mine := metrics.NewCounterVec("apiserver_flowcontrol_dispatched_requests_total", "[BETA] h", "flow_schema", "priority_level")
	reg.MustRegister(mine)
	srv, err := New(Config{Metrics: reg})
	require.NoError(t, err)
	assert.Same(t, reg, srv.Metrics())
	mine.With("exempt", "exempt").Inc()
	ts := newTestServerFor(t, srv)
	assert.Equal(t, []string{`apiserver_flowcontrol_dispatched_requests_total{flow_schema="exempt",priority_level="exempt"} 1`},
		metricLines(t, ts, "apiserver_flowcontrol_dispatched_requests_total{"))
	_, err = New(Config{Metrics: reg})
	assert.ErrorContains(t, err, "already registered", "one registry serves one server")
}

func TestMetricsAnswersTheTextFormatToAnyMethod(t *testing.T) {
	ts := newTestServer(t)
	ts.do("GET", "/api/v1/namespaces", "")
	for _, m := range []string{"GET", "POST"} {
		r := ts.do(m, "/metrics", "")
		assert.Equal(t, http.StatusOK, r.code)
		assert.Equal(t, metrics.ContentType, r.header.Get("Content-Type"))
		assert.Contains(t, string(r.raw), "# TYPE apiserver_request_total counter\n")
	}
	assert.Equal(t, http.StatusNotFound, ts.do("GET", "/metrics/", "").code)
}
