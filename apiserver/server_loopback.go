package apiserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/requestinfo"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// loopbackUser is who the server's own requests come from, as
// kube-apiserver's loopback client.
var loopbackUser = &authn.User{Name: "system:apiserver", Groups: []string{authn.SystemPrivilegedGroup, authn.AllAuthenticated}}

// loopbackUserAgent makes "kube-apiserver" the field manager of what the
// server writes itself, as in kube.
const loopbackUserAgent = "kube-apiserver/v1.33.0 (kapi) kubernetes/loopback"

// Do sends one request to the server itself, in-process, as
// kube-apiserver's loopback client does for its own controllers (the
// default/kubernetes Service, the IPAddress of an allocated cluster IP):
// it goes through the whole pipeline (defaults, managedFields with the
// manager "kube-apiserver", admission, validation) as the privileged user
// system:apiserver. body is JSON-encoded unless it is nil or already
// bytes. It returns the status code and the response body; a failure's
// body decodes to the *meta.Status returned as the error.
func (s *Server) Do(ctx context.Context, method, path string, body any) (int, []byte, error) {
	var rd *bytes.Reader
	switch b := body.(type) {
	case nil:
		rd = bytes.NewReader(nil)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		enc, err := json.Marshal(b)
		if err != nil {
			return 0, nil, err
		}
		rd = bytes.NewReader(enc)
	}
	u, err := url.Parse(path)
	if err != nil {
		return 0, nil, err
	}
	r := &http.Request{Method: method, URL: u, RequestURI: path, Header: http.Header{}, Body: noClose{rd},
		ContentLength: int64(rd.Len()), Host: "localhost", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
	// ctx is often the context of the request being served (a Service's
	// create writing its IPAddress), which carries that request's info:
	// this request's own replaces it, or it would be served as that one.
	r = r.WithContext(requestinfo.With(authn.WithUser(ctx, loopbackUser), requestinfo.Parse(r)))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json")
	r.Header.Set("User-Agent", loopbackUserAgent)
	rec := &recorder{header: http.Header{}}
	func() {
		defer func() {
			if p := recover(); p != nil { // a bug: answered as ServeHTTP answers one
				rec.code, rec.body = 0, bytes.Buffer{}
				s.writeError(rec, r, meta.Internal(fmt.Errorf("%v", p)))
			}
		}()
		s.serve(rec, r) // past the filters: the server is its own privileged client
	}()
	if rec.code == 0 {
		rec.code = http.StatusOK
	}
	if rec.code >= 300 {
		st := &meta.Status{}
		if json.Unmarshal(rec.body.Bytes(), st) != nil || st.Code == 0 {
			st = meta.Internal(fmt.Errorf("%s %s: %d %s", method, path, rec.code, rec.body.String()))
		}
		return rec.code, rec.body.Bytes(), st
	}
	return rec.code, rec.body.Bytes(), nil
}

type noClose struct{ *bytes.Reader }

func (noClose) Close() error { return nil }

// recorder is the response of a loopback request.
type recorder struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if r.code == 0 {
		r.code = code
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.code == 0 {
		r.code = http.StatusOK
	}
	return r.body.Write(b)
}

// path is the URL of a kind's collection in a namespace ("" for
// cluster-scoped kinds or all namespaces), or of one object with name.
func (r *Resource) path(namespace, name string) string {
	p := "/apis/" + r.Group + "/" + r.Version
	if r.Group == "" {
		p = "/api/" + r.Version
	}
	if r.Namespaced && namespace != "" {
		p += "/namespaces/" + url.PathEscape(namespace)
	}
	p += "/" + r.Plural
	if name != "" {
		p += "/" + url.PathEscape(name)
	}
	return p
}

// Create creates another object through the whole create pipeline as the
// server itself (Server.Do): a Service's IPAddress, say. It may be called
// from any hook; on dry run nothing is created and obj is answered as it
// is.
func (w *Write) Create(gr meta.GroupResource, namespace string, obj meta.Object) (*store.Object, error) {
	res, err := w.s.served(gr)
	if err != nil {
		return nil, err
	}
	if w.DryRun {
		return store.NewObject(res.key(namespace, obj.Name()), 0, obj), nil
	}
	if _, _, err := w.s.Do(w.Context, http.MethodPost, res.path(namespace, ""), obj); err != nil {
		return nil, err
	}
	return w.Get(gr, namespace, obj.Name())
}

// Delete deletes another object through the delete pipeline as the server
// itself (its strategy, finalizers); nothing on dry run.
func (w *Write) Delete(gr meta.GroupResource, namespace, name string) error {
	if w.DryRun {
		return nil
	}
	res, err := w.s.served(gr)
	if err != nil {
		return err
	}
	u, err := url.Parse(res.path(namespace, name))
	if err != nil {
		return err
	}
	r := &http.Request{Method: http.MethodDelete, URL: u, Header: http.Header{}}
	r = r.WithContext(requestinfo.With(authn.WithUser(w.Context, loopbackUser), requestinfo.Parse(r)))
	_, _, err = w.s.deleteObject(r, res, namespace, name, deleteOptions{})
	return err
}

// Local returns the value this server keeps under key for a strategy,
// made by newValue on first use: state such as an allocator's, which must
// not be shared by two servers even when they share a Strategy value.
func (w *Write) Local(key any, newValue func() any) any {
	if v, ok := w.s.local.Load(key); ok {
		return v
	}
	v, _ := w.s.local.LoadOrStore(key, newValue())
	return v
}

// PostStartHook is work done once a server is built, before New returns,
// as kube-apiserver's post-start hooks (its bootstrap controller creates
// the default/kubernetes Service). Run talks to the server through
// Server.Do; an error fails New.
type PostStartHook struct {
	Name string
	Run  func(ctx context.Context, s *Server) error
}

// runPostStartHooks runs the configured hooks in order.
func (s *Server) runPostStartHooks(hooks []PostStartHook) error {
	for _, h := range hooks {
		if err := h.Run(context.Background(), s); err != nil {
			return fmt.Errorf("apiserver: post-start hook %s: %w", h.Name, err)
		}
	}
	return nil
}

// GroupVersions are the group versions the server's configured types are
// served in (not those of custom resources), in registration order: the
// start-up work that registers each (APIService objects) reads them.
func (s *Server) GroupVersions() []meta.GroupVersion {
	var out []meta.GroupVersion
	seen := map[meta.GroupVersion]bool{}
	for i := range s.staticResources {
		gv := meta.GroupVersion{Group: s.staticResources[i].Group, Version: s.staticResources[i].Version}
		if !seen[gv] {
			seen[gv] = true
			out = append(out, gv)
		}
	}
	return out
}

// Preload stores objects the server has from its start, as they are,
// without the pipeline: each gets a uid and a creationTimestamp (unless
// set), and one that exists already is kept. It is for start-up objects
// written in bulk that the pipeline would only slow down (kube's
// automanaged APIServices: a loopback create of each would double the
// server's start-up); objects clients could have written go through Do.
func (s *Server) Preload(gr meta.GroupResource, objs ...meta.Object) error {
	res, err := s.served(gr)
	if err != nil {
		return err
	}
	for _, obj := range objs {
		m := obj.MetadataForWrite()
		if m["uid"] == nil {
			m["uid"] = newUID()
		}
		if m["creationTimestamp"] == nil {
			m["creationTimestamp"] = meta.FormatTime(s.now())
		}
		if _, err := s.store.Create(context.Background(), res.key(obj.Namespace(), obj.Name()), obj); err != nil &&
			!errors.Is(err, store.ErrExists) {
			return fmt.Errorf("apiserver: preloading %s %s: %w", gr, obj.Name(), err)
		}
	}
	return nil
}

// Now is the server's clock (Config.Now).
func (s *Server) Now() time.Time { return s.now() }
