package flowcontrol

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/meta"
)

// Client writes configuration objects (flowcontrol.apiserver.k8s.io/v1)
// the way any client of the server would, so that they get managedFields,
// resourceVersions, admission and validation like every other write.
// Resource is "prioritylevelconfigurations" or "flowschemas". Errors are
// *meta.Status values.
type Client interface {
	// Create creates obj.
	Create(ctx context.Context, resource string, obj meta.Object, fieldManager string) error
	// Update replaces the object obj names, if its resourceVersion is
	// still current.
	Update(ctx context.Context, resource string, obj meta.Object, fieldManager string) error
	// Delete deletes an object.
	Delete(ctx context.Context, resource, name string) error
	// ApplyStatus server-side applies obj (a partial object holding a
	// status) to an object's status, forcing conflicts.
	ApplyStatus(ctx context.Context, resource, name string, obj meta.Object, fieldManager string) error
}

// LoopbackUser is who flow control's own writes come from, as kube-apiserver's
// loopback client: a member of system:masters, whose requests are exempt.
var LoopbackUser = &authn.User{Name: "system:apiserver", Groups: []string{authn.SystemPrivilegedGroup, authn.AllAuthenticated}}

// HandlerClient is a Client that serves its writes with Handler in
// process, as requests from LoopbackUser: pass the server's handler
// without the flow control filter in front of it.
type HandlerClient struct {
	Handler http.Handler
}

func (c HandlerClient) do(ctx context.Context, method, path string, query url.Values, contentType string, body meta.Object) error {
	var b []byte
	if body != nil {
		var err error
		if b, err = json.Marshal(map[string]any(body)); err != nil {
			return meta.Internal(err)
		}
	}
	u := "/apis/" + Group + "/v1/" + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	r, err := http.NewRequestWithContext(authn.WithUser(ctx, LoopbackUser), method, u, bytes.NewReader(b))
	if err != nil {
		return meta.Internal(err)
	}
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	r.Header.Set("Accept", "application/json")
	r.Header.Set("User-Agent", "kapi-flowcontrol")
	rec := &recorder{header: http.Header{}, code: http.StatusOK}
	c.Handler.ServeHTTP(rec, r)
	if rec.code < 300 {
		return nil
	}
	st := &meta.Status{}
	if err := json.Unmarshal(rec.body.Bytes(), st); err != nil || st.Code == 0 {
		st = meta.Internal(&httpError{code: rec.code, body: rec.body.String()})
		st.Code = int32(rec.code)
	}
	return st
}

type httpError struct {
	code int
	body string
}

func (e *httpError) Error() string { return http.StatusText(e.code) + ": " + e.body }

// Create implements Client.
func (c HandlerClient) Create(ctx context.Context, resource string, obj meta.Object, fieldManager string) error {
	return c.do(ctx, http.MethodPost, resource, url.Values{"fieldManager": {fieldManager}}, "application/json", obj)
}

// Update implements Client.
func (c HandlerClient) Update(ctx context.Context, resource string, obj meta.Object, fieldManager string) error {
	return c.do(ctx, http.MethodPut, resource+"/"+obj.Name(), url.Values{"fieldManager": {fieldManager}}, "application/json", obj)
}

// Delete implements Client.
func (c HandlerClient) Delete(ctx context.Context, resource, name string) error {
	return c.do(ctx, http.MethodDelete, resource+"/"+name, nil, "", nil)
}

// ApplyStatus implements Client.
func (c HandlerClient) ApplyStatus(ctx context.Context, resource, name string, obj meta.Object, fieldManager string) error {
	return c.do(ctx, http.MethodPatch, resource+"/"+name+"/status",
		url.Values{"fieldManager": {fieldManager}, "force": {"true"}}, "application/apply-patch+yaml", obj)
}

// recorder is a minimal in-memory http.ResponseWriter.
type recorder struct {
	header http.Header
	code   int
	wrote  bool
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.code, r.wrote = code, true
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.body.Write(b)
}
