package apiserver

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// HealthCheck is one named check of /livez, /readyz and /healthz, as
// kube-apiserver's: /readyz?verbose lists every check, /readyz/NAME runs
// one, /readyz?exclude=NAME skips one.
type HealthCheck struct {
	// Name is the check's name and path segment ("etcd").
	Name string
	// Check reports nil when healthy. Its error is shown only at the
	// check's own path (/readyz/NAME); the lists withhold it, as kube does.
	// ctx ends with the request or after healthCheckTimeout.
	Check func(ctx context.Context) error
	// ReadyzOnly lists the check under /readyz only (as kube's
	// etcd-readiness, informer-sync and shutdown), not /livez and /healthz.
	ReadyzOnly bool
	// notReadyz lists the check under /livez and /healthz only (as kube's
	// loopback-serving-certificate).
	notReadyz bool
}

// healthCheckTimeout bounds each check, as kube bounds its etcd check
// (--etcd-healthcheck-timeout, 2s): a store that does not answer fails its
// check instead of holding the probe.
const healthCheckTimeout = 2 * time.Second

// run runs c with the request's context bounded by healthCheckTimeout.
func (c HealthCheck) run(r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), healthCheckTimeout)
	defer cancel()
	return c.Check(ctx)
}

// defaultHealthChecks are kube-apiserver's checks of release r, in its
// order. kapi does its start-up (system namespaces, the kubernetes Service,
// the registry of CRDs, APIService objects...) before New returns, so each
// of kube's post-start hooks is done once a Server exists; they are listed
// under kube's names for the clients that look for them (Kubernetes' own
// e2e suite requires them in /healthz?verbose). "etcd" and
// "etcd-readiness" are the store's checks, listed only for a store that
// reports its health (a HealthReporter: store/etcd) or when
// Config.HealthChecks names them: over the in-memory store the server has
// the checks a Kubernetes API server has without etcd.
//
// From 1.36 kube also lists loopback-serving-certificate (under /livez and
// /healthz only), poststarthook/peer-endpoint-reconciler-controller and
// poststarthook/storage-readiness: the last two come with feature gates
// (UnknownVersionInteroperabilityProxy, WatchCacheInitializationPostStartHook)
// on by default from 1.36 (docs/kube-behaviour/22-kubernetes-e2e-1.37.md).
func defaultHealthChecks(r Release) []HealthCheck {
	ok := func(context.Context) error { return nil }
	since136 := r.OrDefault().AtLeast(36)
	checks := []HealthCheck{{Name: "ping"}, {Name: "log"}}
	if since136 {
		checks = append(checks, HealthCheck{Name: "loopback-serving-certificate", notReadyz: true})
	}
	checks = append(checks, HealthCheck{Name: storeCheck},
		HealthCheck{Name: storeReadinessCheck, ReadyzOnly: true}, HealthCheck{Name: "informer-sync", ReadyzOnly: true})
	hooks := []string{
		"start-apiserver-admission-initializer", "generic-apiserver-start-informers",
		"priority-and-fairness-config-consumer", "priority-and-fairness-filter", "storage-object-count-tracker-hook",
		"start-apiextensions-informers", "start-apiextensions-controllers", "crd-informer-synced",
		"start-system-namespaces-controller", "start-cluster-authentication-info-controller",
		"start-kube-apiserver-identity-lease-controller", "start-kube-apiserver-identity-lease-garbage-collector",
		"start-legacy-token-tracking-controller", "start-service-ip-repair-controllers",
		"scheduling/bootstrap-system-priority-classes", "priority-and-fairness-config-producer", "bootstrap-controller",
		"start-kubernetes-service-cidr-controller", "start-kube-aggregator-informers",
		"apiservice-status-local-available-controller", "apiservice-status-remote-available-controller",
		"apiservice-registration-controller", "apiservice-discovery-controller", "kube-apiserver-autoregistration",
	}
	if since136 {
		hooks = slices.Insert(hooks, slices.Index(hooks, "start-system-namespaces-controller")+1, "peer-endpoint-reconciler-controller")
		hooks = slices.Insert(hooks, slices.Index(hooks, "start-kube-apiserver-identity-lease-garbage-collector")+1, "storage-readiness")
	}
	for _, hook := range hooks {
		checks = append(checks, HealthCheck{Name: "poststarthook/" + hook})
	}
	checks = append(checks, HealthCheck{Name: "autoregister-completion"},
		HealthCheck{Name: "poststarthook/apiservice-openapi-controller"},
		HealthCheck{Name: "poststarthook/apiservice-openapiv3-controller"},
		HealthCheck{Name: "shutdown", ReadyzOnly: true})
	for i := range checks {
		if checks[i].Name != storeCheck && checks[i].Name != storeReadinessCheck {
			checks[i].Check = ok
		}
	}
	return checks
}

// The store's checks, kube's names for its storage's.
const (
	storeCheck          = "etcd"
	storeReadinessCheck = "etcd-readiness"
)

// HealthReporter is a store that can be unreachable (store/etcd): the
// server lists its Healthy as kube's "etcd" and "etcd-readiness" checks.
// Healthy returns nil when the store answers a read within ctx.
type HealthReporter interface {
	Healthy(ctx context.Context) error
}

// healthChecks are a server's checks: kube's, with those of the Config
// replacing the ones of the same name and the others added before
// "shutdown".
type healthChecks struct {
	all []HealthCheck
}

func newHealthChecks(r Release, st any, extra []HealthCheck) (*healthChecks, error) {
	checks := defaultHealthChecks(r)
	if hr, ok := st.(HealthReporter); ok {
		for i, c := range checks {
			if c.Name == storeCheck || c.Name == storeReadinessCheck {
				checks[i].Check = hr.Healthy
			}
		}
	}
	for _, c := range extra {
		if c.Name == "" || c.Check == nil || strings.HasPrefix(c.Name, "/") || strings.HasSuffix(c.Name, "/") {
			return nil, fmt.Errorf("apiserver: health check %q needs a name (no leading or trailing /) and a Check", c.Name)
		}
		if i := slices.IndexFunc(checks, func(d HealthCheck) bool { return d.Name == c.Name }); i >= 0 {
			checks[i] = c
			continue
		}
		checks = slices.Insert(checks, len(checks)-1, c)
	}
	// The store's checks nobody filled: a store without them.
	checks = slices.DeleteFunc(checks, func(c HealthCheck) bool { return c.Check == nil })
	return &healthChecks{all: checks}, nil
}

// endpoint lists the checks of /livez, /readyz or /healthz.
func (h *healthChecks) endpoint(name string) []HealthCheck {
	var out []HealthCheck
	for _, c := range h.all {
		if name == "readyz" && !c.notReadyz || name != "readyz" && !c.ReadyzOnly {
			out = append(out, c)
		}
	}
	return out
}

// isHealthPath reports whether a path is one of the three endpoints or a
// check under one.
func isHealthPath(p []string) bool {
	return len(p) >= 1 && (p[0] == "healthz" || p[0] == "livez" || p[0] == "readyz")
}

// serveHealth answers /livez, /readyz and /healthz (any method, as kube)
// and one check under them; an unknown check is a plain-text 404.
func (s *Server) serveHealth(w http.ResponseWriter, r *http.Request, path []string) {
	endpoint := path[0]
	checks := s.health.endpoint(endpoint)
	w.Header()["Cache-Control"] = cacheControlValue
	if len(path) == 1 && !strings.HasSuffix(r.URL.Path, "/") {
		writeHealthRoot(w, r, endpoint, checks)
		return
	}
	name := strings.Join(path[1:], "/")
	i := slices.IndexFunc(checks, func(c HealthCheck) bool { return c.Name == name })
	if i < 0 || strings.HasSuffix(r.URL.Path, "/") {
		http.NotFound(w, r)
		return
	}
	// One check answers as kube's: "ok" (its type sniffed, no nosniff), or
	// its error in a plain-text 500.
	if err := checks[i].run(r); err != nil {
		http.Error(w, fmt.Sprintf("internal server error: %v", err), http.StatusInternalServerError)
		return
	}
	fmt.Fprint(w, "ok")
}

// writeHealthRoot runs an endpoint's checks: "ok", or with ?verbose one
// line per check; a failure answers 500 with every line, its reason
// withheld.
func writeHealthRoot(w http.ResponseWriter, r *http.Request, endpoint string, checks []HealthCheck) {
	query := r.URL.Query()
	excluded := map[string]bool{}
	var excludeOrder []string
	for _, n := range query["exclude"] {
		if !excluded[n] {
			excluded[n] = true
			excludeOrder = append(excludeOrder, n)
		}
	}
	var out bytes.Buffer
	failed := false
	for _, c := range checks {
		if excluded[c.Name] {
			delete(excluded, c.Name)
			fmt.Fprintf(&out, "[+]%s excluded: ok\n", c.Name)
			continue
		}
		if err := c.run(r); err != nil {
			fmt.Fprintf(&out, "[-]%s failed: reason withheld\n", c.Name)
			failed = true
			continue
		}
		fmt.Fprintf(&out, "[+]%s ok\n", c.Name)
	}
	if len(excluded) > 0 {
		var quoted []string
		slices.Sort(excludeOrder)
		for _, n := range excludeOrder {
			if excluded[n] {
				quoted = append(quoted, fmt.Sprintf("%q", n))
			}
		}
		fmt.Fprintf(&out, "warn: some health checks cannot be excluded: no matches for %s\n", strings.Join(quoted, ","))
	}
	if failed {
		http.Error(w, fmt.Sprintf("%s%s check failed", out.String(), endpoint), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h["X-Content-Type-Options"] = noSniffValue
	if _, verbose := query["verbose"]; !verbose {
		fmt.Fprint(w, "ok")
		return
	}
	fmt.Fprintf(&out, "%s check passed\n", endpoint)
	_, _ = out.WriteTo(w)
}
