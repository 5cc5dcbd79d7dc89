package controllers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/meta"
)

// client calls the server's pipeline in-process (apiserver.Server.Loopback)
// as one of kube-controller-manager's controllers calls kube-apiserver: with
// its User-Agent, from which the server names the field manager of its
// writes ("kube-controller-manager", as in kube), and as the ServiceAccount
// kube's controllers run as when each has its own credentials.
type client struct {
	h     http.Handler
	agent string
	user  *authn.User
}

// Kube-controller-manager's identity in kapi's requests.
const (
	kcmVersion = "v1.33.0"
	// Field managers the server derives from the User-Agent.
	kcmManager = "kube-controller-manager"
)

// newClient is the client of the controller kube names clientName (the
// name of its credentials: "namespace-controller",
// "generic-garbage-collector"...).
func newClient(srv *apiserver.Server, clientName string) *client {
	return &client{
		h: srv.Loopback(),
		agent: fmt.Sprintf("%s/%s (%s/%s) kubernetes/kapi/%s", kcmManager, kcmVersion,
			runtime.GOOS, runtime.GOARCH, clientName),
		user: &authn.User{Name: "system:serviceaccount:kube-system:" + clientName,
			Groups: []string{"system:serviceaccounts", "system:serviceaccounts:kube-system", authn.AllAuthenticated}},
	}
}

// do sends one request and returns the response body (nil when discard);
// body is sent as JSON (as is when it is []byte). An answer of 400 or more
// is returned as its *meta.Status.
func (c *client) do(ctx context.Context, method, path, contentType string, body any, discard bool) ([]byte, error) {
	var rd *bytes.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(raw)
	}
	var req *http.Request
	var err error
	if rd != nil {
		req, err = http.NewRequestWithContext(authn.WithUser(ctx, c.user), method, "http://loopback"+path, rd)
	} else {
		req, err = http.NewRequestWithContext(authn.WithUser(ctx, c.user), method, "http://loopback"+path, nil)
	}
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", c.agent)
	req.Header.Set("Accept", "application/json")
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	w := &response{header: http.Header{}, discard: discard}
	c.h.ServeHTTP(w, req)
	if w.code == 0 {
		w.code = http.StatusOK
	}
	if w.code >= 400 {
		st := &meta.Status{}
		if err := json.Unmarshal(w.body.Bytes(), st); err != nil || st.Kind != "Status" {
			return nil, &meta.Status{Kind: "Status", APIVersion: "v1", Status: "Failure", Code: int32(w.code),
				Message: fmt.Sprintf("%s %s: %d %s", method, path, w.code, w.body.Bytes())}
		}
		return nil, st
	}
	return w.body.Bytes(), nil
}

// Content types of the writes.
const (
	contentJSON           = "application/json"
	contentMergePatch     = "application/merge-patch+json"
	contentStrategicPatch = "application/strategic-merge-patch+json"
)

// deleteOptions is a DeleteOptions body, as client-go encodes one.
// propagation and uid are kube's values (a policy name, a UUID), never
// needing JSON escapes.
func deleteOptions(propagation, uid string) []byte {
	b := []byte(`{"kind":"DeleteOptions","apiVersion":"v1"`)
	if uid != "" {
		b = append(append(append(b, `,"preconditions":{"uid":"`...), uid...), `"}`...)
	}
	if propagation != "" {
		b = append(append(append(b, `,"propagationPolicy":"`...), propagation...), '"')
	}
	return append(b, '}')
}

// objectPath is the URL path of one object.
func objectPath(r apiserver.ServedResource, namespace, name string) string {
	return r.Path(namespace) + "/" + name
}

// response is the http.ResponseWriter of an in-process request.
type response struct {
	header  http.Header
	code    int
	body    bytes.Buffer
	discard bool
}

func (w *response) Header() http.Header { return w.header }

// DiscardsBody tells the server (apiserver.BodyDiscarder) that the body of
// a successful answer is dropped, so it need not be made.
func (w *response) DiscardsBody() bool { return w.discard }

func (w *response) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

func (w *response) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	if w.discard && w.code < 400 {
		return len(b), nil
	}
	return w.body.Write(b)
}

// hasCause reports whether err is a Status with a cause of type t.
func hasCause(err error, t meta.CauseType) bool {
	st, ok := err.(*meta.Status)
	if !ok || st.Details == nil {
		return false
	}
	for _, c := range st.Details.Causes {
		if c.Type == t {
			return true
		}
	}
	return false
}
