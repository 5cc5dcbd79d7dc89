package apiserver

import (
	"context"
	"net/http"
	"strings"
	"time"
)

// HealthCheck is one named check of /healthz, /livez and /readyz, such as
// kube-apiserver's "etcd": Check returns nil when healthy.
type HealthCheck struct {
	Name  string
	Check func(ctx context.Context) error
	// ReadyzOnly leaves the check out of /livez, as kube's
	// "etcd-readiness".
	ReadyzOnly bool
}

// healthCheckTimeout bounds every check, as kube's etcd check times out
// after 2s.
const healthCheckTimeout = 2 * time.Second

// serveHealth answers /healthz, /livez and /readyz (p[0]) and their
// single checks (/livez/etcd) as kube-apiserver: "ok" when every check
// passes (each one listed with ?verbose), otherwise 500 with the list,
// failures "[-]name failed: reason withheld", and "<path> check failed";
// a single check that fails answers "internal server error: <error>".
// (docs/kube-behaviour/09-etcd.md)
func (s *Server) serveHealth(w http.ResponseWriter, r *http.Request, p []string) {
	checks := []HealthCheck{{Name: "ping"}, {Name: "log"}}
	for _, c := range s.health {
		if !c.ReadyzOnly || p[0] != "livez" {
			checks = append(checks, c)
		}
	}
	if len(p) == 2 {
		for _, c := range checks {
			if c.Name == p[1] {
				checks = []HealthCheck{c}
				break
			}
		}
		if len(checks) != 1 || checks[0].Name != p[1] {
			http.NotFound(w, r)
			return
		}
	} else if len(p) > 2 {
		http.NotFound(w, r)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), healthCheckTimeout)
	defer cancel()
	var b strings.Builder
	failed := false
	var firstErr error
	for _, c := range checks {
		var err error
		if c.Check != nil {
			err = c.Check(ctx)
		}
		if err != nil {
			failed = true
			firstErr = err
			b.WriteString("[-]" + c.Name + " failed: reason withheld\n")
		} else {
			b.WriteString("[+]" + c.Name + " ok\n")
		}
	}
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "no-cache, private")
	h.Set("X-Content-Type-Options", "nosniff")
	_, verbose := r.URL.Query()["verbose"]
	body := "ok"
	code := http.StatusOK
	switch {
	case failed && len(p) == 2:
		code = http.StatusInternalServerError
		body = "internal server error: " + firstErr.Error() + "\n"
	case failed:
		code = http.StatusInternalServerError
		body = b.String() + p[0] + " check failed\n"
	case verbose:
		body = b.String() + p[0] + " check passed\n"
	}
	w.WriteHeader(code)
	if r.Method != http.MethodHead {
		_, _ = w.Write([]byte(body))
	}
}
