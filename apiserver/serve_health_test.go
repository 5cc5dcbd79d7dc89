package apiserver

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
)

// kubeReadyzVerbose is kube-apiserver 1.33.13's /readyz?verbose
// (docs/kube-behaviour/12-health-metrics.md).
const kubeReadyzVerbose = `[+]ping ok
[+]log ok
[+]etcd ok
[+]etcd-readiness ok
[+]informer-sync ok
[+]poststarthook/start-apiserver-admission-initializer ok
[+]poststarthook/generic-apiserver-start-informers ok
[+]poststarthook/priority-and-fairness-config-consumer ok
[+]poststarthook/priority-and-fairness-filter ok
[+]poststarthook/storage-object-count-tracker-hook ok
[+]poststarthook/start-apiextensions-informers ok
[+]poststarthook/start-apiextensions-controllers ok
[+]poststarthook/crd-informer-synced ok
[+]poststarthook/start-system-namespaces-controller ok
[+]poststarthook/start-cluster-authentication-info-controller ok
[+]poststarthook/start-kube-apiserver-identity-lease-controller ok
[+]poststarthook/start-kube-apiserver-identity-lease-garbage-collector ok
[+]poststarthook/start-legacy-token-tracking-controller ok
[+]poststarthook/start-service-ip-repair-controllers ok
[+]poststarthook/scheduling/bootstrap-system-priority-classes ok
[+]poststarthook/priority-and-fairness-config-producer ok
[+]poststarthook/bootstrap-controller ok
[+]poststarthook/start-kubernetes-service-cidr-controller ok
[+]poststarthook/start-kube-aggregator-informers ok
[+]poststarthook/apiservice-status-local-available-controller ok
[+]poststarthook/apiservice-status-remote-available-controller ok
[+]poststarthook/apiservice-registration-controller ok
[+]poststarthook/apiservice-discovery-controller ok
[+]poststarthook/kube-apiserver-autoregistration ok
[+]autoregister-completion ok
[+]poststarthook/apiservice-openapi-controller ok
[+]poststarthook/apiservice-openapiv3-controller ok
[+]shutdown ok
readyz check passed
`

// withoutEtcd is a verbose list without the store's checks: an API server
// without etcd has neither "etcd" nor "etcd-readiness" (kube adds them
// with its etcd storage), so neither has kapi over the in-memory store.
func withoutEtcd(list string) string {
	return strings.NewReplacer("[+]etcd ok\n", "", "[+]etcd-readiness ok\n", "").Replace(list)
}

// memoryReadyzVerbose is /readyz?verbose of a server over the in-memory
// store.
var memoryReadyzVerbose = withoutEtcd(kubeReadyzVerbose)

// kubeLivezVerbose is the same list without the readyz-only checks.
func kubeLivezVerbose(endpoint string) string {
	var out []string
	for _, l := range strings.SplitAfter(kubeReadyzVerbose, "\n") {
		switch {
		case l == "[+]etcd-readiness ok\n", l == "[+]informer-sync ok\n", l == "[+]shutdown ok\n":
		case strings.HasSuffix(l, "check passed\n"):
			out = append(out, endpoint+" check passed\n")
		default:
			out = append(out, l)
		}
	}
	return strings.Join(out, "")
}

func TestHealthEndpointsAnswerAsKube(t *testing.T) {
	// kube 1.33's lists; TestHealthChecksFollowTheRelease holds the others.
	ts := startReleaseServer(t, Release133)
	plain := "text/plain; charset=utf-8"
	tests := []struct {
		name, method, path string
		code               int
		body               string
		noSniff            bool
	}{
		{"readyz answers ok", "GET", "/readyz", 200, "ok", true},
		{"livez answers ok", "GET", "/livez", 200, "ok", true},
		{"healthz answers ok", "GET", "/healthz", 200, "ok", true},
		{"any method is answered", "POST", "/readyz", 200, "ok", true},
		{"readyz?verbose lists kube's checks in kube's order, but etcd's", "GET", "/readyz?verbose", 200, memoryReadyzVerbose, true},
		{"verbose=false is verbose too, as kube only looks for the key", "GET", "/readyz?verbose=false", 200, memoryReadyzVerbose, true},
		{"livez?verbose lists the checks but the readyz-only ones", "GET", "/livez?verbose", 200, withoutEtcd(kubeLivezVerbose("livez")), true},
		{"healthz?verbose lists the livez checks", "GET", "/healthz?verbose=1", 200, withoutEtcd(kubeLivezVerbose("healthz")), true},
		{"an excluded check is reported excluded", "GET", "/readyz?verbose&exclude=log&exclude=ping",
			200, strings.NewReplacer("[+]log ok", "[+]log excluded: ok", "[+]ping ok", "[+]ping excluded: ok").Replace(memoryReadyzVerbose), true},
		{"an unknown exclusion is warned about in verbose output", "GET", "/readyz?verbose&exclude=nope&exclude=a",
			200, strings.Replace(memoryReadyzVerbose, "readyz check passed", `warn: some health checks cannot be excluded: no matches for "a","nope"`+"\nreadyz check passed", 1), true},
		{"an unknown exclusion alone answers ok", "GET", "/readyz?exclude=nope", 200, "ok", true},
		{"a named check answers ok without nosniff", "GET", "/readyz/log", 200, "ok", false},
		{"a post-start hook is a named check", "GET", "/readyz/poststarthook/bootstrap-controller", 200, "ok", false},
		{"a named check ignores verbose", "GET", "/livez/ping?verbose", 200, "ok", false},
		{"without etcd there is no etcd check", "GET", "/readyz/etcd", 404, "404 page not found\n", true},
		{"an unknown check is a plain 404", "GET", "/readyz/nope", 404, "404 page not found\n", true},
		{"a readyz-only check is unknown under livez", "GET", "/livez/informer-sync", 404, "404 page not found\n", true},
		{"a trailing slash is unknown", "GET", "/readyz/", 404, "404 page not found\n", true},
		{"a path under a check is unknown", "GET", "/readyz/ping/x", 404, "404 page not found\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ts.do(tt.method, tt.path, "")
			assert.Equal(t, tt.code, r.code)
			assert.Equal(t, tt.body, string(r.raw))
			assert.Equal(t, plain, r.header.Get("Content-Type"))
			assert.Equal(t, "no-cache, private", r.header.Get("Cache-Control"))
			if tt.noSniff {
				assert.Equal(t, "nosniff", r.header.Get("X-Content-Type-Options"))
			} else {
				assert.Empty(t, r.header.Get("X-Content-Type-Options"))
			}
		})
	}
}

func TestHealthCheckFromConfig(t *testing.T) {
	down := errors.New("etcd unreachable")
	var etcdErr error
	srv, err := New(Config{Resources: testResources, Release: Release133, HealthChecks: []HealthCheck{
		{Name: "etcd", Check: func(context.Context) error { return etcdErr }},
		{Name: "custom", Check: func(context.Context) error { return nil }, ReadyzOnly: true},
	}})
	require.NoError(t, err)
	ts := newTestServerFor(t, srv)

	t.Run("a check named as a default replaces it and one of a new name comes before shutdown", func(t *testing.T) {
		r := ts.do("GET", "/readyz?verbose", "")
		assert.Equal(t, 200, r.code)
		assert.Contains(t, string(r.raw), "[+]poststarthook/apiservice-openapiv3-controller ok\n[+]custom ok\n[+]shutdown ok\n")
		assert.NotContains(t, ts.do("GET", "/livez?verbose", "").raw, "custom")
	})
	etcdErr = down
	t.Run("a failing check fails the endpoint with every line and its reason withheld", func(t *testing.T) {
		r := ts.do("GET", "/livez", "")
		assert.Equal(t, 500, r.code)
		assert.Equal(t, strings.Replace(kubeLivezVerbose("livez"), "[+]etcd ok", "[-]etcd failed: reason withheld", 1)+"",
			strings.Replace(string(r.raw), "livez check failed\n", "livez check passed\n", 1))
		assert.True(t, strings.HasSuffix(string(r.raw), "livez check failed\n"))
	})
	t.Run("a failing check answers its error at its own path", func(t *testing.T) {
		r := ts.do("GET", "/readyz/etcd", "")
		assert.Equal(t, 500, r.code)
		assert.Equal(t, "internal server error: etcd unreachable\n", string(r.raw))
	})
	t.Run("excluding the failing check makes the endpoint healthy", func(t *testing.T) {
		assert.Equal(t, "ok", string(ts.do("GET", "/readyz?exclude=etcd", "").raw))
	})
}

// healthyStore is an in-memory store that reports its health, as
// store/etcd does.
type healthyStore struct {
	store.Store
	err error
}

func (h *healthyStore) Healthy(context.Context) error { return h.err }

func TestAStoreThatReportsItsHealthGivesKubesEtcdChecks(t *testing.T) {
	st := &healthyStore{Store: memory.New(memory.Config{})}
	srv, err := New(Config{Resources: testResources, Store: st, Release: Release133})
	require.NoError(t, err)
	ts := newTestServerFor(t, srv)

	t.Run("readyz?verbose lists kube's checks in kube's order", func(t *testing.T) {
		assert.Equal(t, kubeReadyzVerbose, string(ts.do("GET", "/readyz?verbose", "").raw))
		assert.Equal(t, kubeLivezVerbose("livez"), string(ts.do("GET", "/livez?verbose", "").raw))
	})
	st.err = errors.New("error getting data from etcd: context deadline exceeded")
	t.Run("a store that does not answer fails etcd and etcd-readiness", func(t *testing.T) {
		r := ts.do("GET", "/readyz?verbose", "")
		assert.Equal(t, 500, r.code)
		assert.Contains(t, string(r.raw), "[+]log ok\n[-]etcd failed: reason withheld\n[-]etcd-readiness failed: reason withheld\n[+]informer-sync ok\n")
		r = ts.do("GET", "/readyz/etcd", "")
		assert.Equal(t, 500, r.code)
		assert.Equal(t, "internal server error: error getting data from etcd: context deadline exceeded\n", string(r.raw))
	})
}

func TestHealthCheckFromConfigNeedsANameAndACheck(t *testing.T) {
	for _, c := range []HealthCheck{{Name: "x"}, {Check: func(context.Context) error { return nil }}, {Name: "/x", Check: func(context.Context) error { return nil }}} {
		_, err := New(Config{HealthChecks: []HealthCheck{c}})
		assert.Error(t, err, "%+v", c)
	}
}

// kube137ReadyzVerbose is kube-apiserver 1.37.2's /readyz?verbose with RBAC
// (docs/kube-behaviour/22-kubernetes-e2e-1.37.md) but for
// poststarthook/rbac/bootstrap-roles, which kube lists only when RBAC
// authorizes and kapi does not list.
const kube137ReadyzVerbose = `[+]ping ok
[+]log ok
[+]etcd ok
[+]etcd-readiness ok
[+]informer-sync ok
[+]poststarthook/start-apiserver-admission-initializer ok
[+]poststarthook/generic-apiserver-start-informers ok
[+]poststarthook/priority-and-fairness-config-consumer ok
[+]poststarthook/priority-and-fairness-filter ok
[+]poststarthook/storage-object-count-tracker-hook ok
[+]poststarthook/start-apiextensions-informers ok
[+]poststarthook/start-apiextensions-controllers ok
[+]poststarthook/crd-informer-synced ok
[+]poststarthook/start-system-namespaces-controller ok
[+]poststarthook/peer-endpoint-reconciler-controller ok
[+]poststarthook/start-cluster-authentication-info-controller ok
[+]poststarthook/start-kube-apiserver-identity-lease-controller ok
[+]poststarthook/start-kube-apiserver-identity-lease-garbage-collector ok
[+]poststarthook/storage-readiness ok
[+]poststarthook/start-legacy-token-tracking-controller ok
[+]poststarthook/start-service-ip-repair-controllers ok
[+]poststarthook/scheduling/bootstrap-system-priority-classes ok
[+]poststarthook/priority-and-fairness-config-producer ok
[+]poststarthook/bootstrap-controller ok
[+]poststarthook/start-kubernetes-service-cidr-controller ok
[+]poststarthook/start-kube-aggregator-informers ok
[+]poststarthook/apiservice-status-local-available-controller ok
[+]poststarthook/apiservice-status-remote-available-controller ok
[+]poststarthook/apiservice-registration-controller ok
[+]poststarthook/apiservice-discovery-controller ok
[+]poststarthook/kube-apiserver-autoregistration ok
[+]autoregister-completion ok
[+]poststarthook/apiservice-openapi-controller ok
[+]poststarthook/apiservice-openapiv3-controller ok
[+]shutdown ok
readyz check passed
`

// kube137HealthzVerbose is kube-apiserver 1.37.2's /healthz?verbose, as
// kube137ReadyzVerbose; /livez?verbose lists the same.
const kube137HealthzVerbose = `[+]ping ok
[+]log ok
[+]loopback-serving-certificate ok
[+]etcd ok
[+]poststarthook/start-apiserver-admission-initializer ok
[+]poststarthook/generic-apiserver-start-informers ok
[+]poststarthook/priority-and-fairness-config-consumer ok
[+]poststarthook/priority-and-fairness-filter ok
[+]poststarthook/storage-object-count-tracker-hook ok
[+]poststarthook/start-apiextensions-informers ok
[+]poststarthook/start-apiextensions-controllers ok
[+]poststarthook/crd-informer-synced ok
[+]poststarthook/start-system-namespaces-controller ok
[+]poststarthook/peer-endpoint-reconciler-controller ok
[+]poststarthook/start-cluster-authentication-info-controller ok
[+]poststarthook/start-kube-apiserver-identity-lease-controller ok
[+]poststarthook/start-kube-apiserver-identity-lease-garbage-collector ok
[+]poststarthook/storage-readiness ok
[+]poststarthook/start-legacy-token-tracking-controller ok
[+]poststarthook/start-service-ip-repair-controllers ok
[+]poststarthook/scheduling/bootstrap-system-priority-classes ok
[+]poststarthook/priority-and-fairness-config-producer ok
[+]poststarthook/bootstrap-controller ok
[+]poststarthook/start-kubernetes-service-cidr-controller ok
[+]poststarthook/start-kube-aggregator-informers ok
[+]poststarthook/apiservice-status-local-available-controller ok
[+]poststarthook/apiservice-status-remote-available-controller ok
[+]poststarthook/apiservice-registration-controller ok
[+]poststarthook/apiservice-discovery-controller ok
[+]poststarthook/kube-apiserver-autoregistration ok
[+]autoregister-completion ok
[+]poststarthook/apiservice-openapi-controller ok
[+]poststarthook/apiservice-openapiv3-controller ok
healthz check passed
`

func TestHealthChecksFollowTheRelease(t *testing.T) {
	tests := []struct {
		name           string
		release        Release
		readyz, livez  string
		loopbackAnswer int
	}{
		{"1.33 lists kube 1.33's checks", Release133, kubeReadyzVerbose, kubeLivezVerbose("livez"), 404},
		{"1.35 lists the same as 1.33", Release135, kubeReadyzVerbose, kubeLivezVerbose("livez"), 404},
		{"1.36 adds the loopback certificate, peer endpoint and storage readiness checks", Release136,
			kube137ReadyzVerbose, strings.Replace(kube137HealthzVerbose, "healthz check passed", "livez check passed", 1), 200},
		{"1.37 lists kube 1.37's checks", Release137,
			kube137ReadyzVerbose, strings.Replace(kube137HealthzVerbose, "healthz check passed", "livez check passed", 1), 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, err := New(Config{Resources: testResources, Store: &healthyStore{Store: memory.New(memory.Config{})}, Release: tt.release})
			require.NoError(t, err)
			ts := newTestServerFor(t, srv)
			assert.Equal(t, tt.readyz, string(ts.do("GET", "/readyz?verbose", "").raw))
			assert.Equal(t, tt.livez, string(ts.do("GET", "/livez?verbose", "").raw))
			assert.Equal(t, tt.loopbackAnswer, ts.do("GET", "/livez/loopback-serving-certificate", "").code)
		})
	}
	t.Run("the loopback certificate check is not a readyz check", func(t *testing.T) {
		srv, err := New(Config{Resources: testResources, Release: Release137})
		require.NoError(t, err)
		ts := newTestServerFor(t, srv)
		assert.Equal(t, 404, ts.do("GET", "/readyz/loopback-serving-certificate", "").code)
		assert.Equal(t, withoutEtcd(kube137HealthzVerbose), string(ts.do("GET", "/healthz?verbose", "").raw))
	})
}
