package apiserver

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kapi-dev/kapi/apiserver/requestinfo"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// negotiate picks the response codec from the Accept header: the first
// acceptable entry (by quality, then order) that names a representation the
// server writes. Entries asking for a different shape of the data (`as=`)
// are skipped; handlers that serve such shapes look for them first.
func (s *Server) negotiate(r *http.Request, gvk meta.GroupVersionKind) (codec.Codec, error) {
	unsupportedKind := false
	for _, m := range codec.ParseAccept(r.Header.Get("Accept")) {
		if m.Param("as") != "" {
			continue
		}
		for _, c := range s.codecs {
			if m.Matches(c.MediaType()) {
				if codec.Supports(c, gvk) {
					return c, nil
				}
				unsupportedKind = true
			}
		}
	}
	if unsupportedKind {
		// A representation the server speaks, but not for this kind (a
		// custom resource in protobuf): kube names what it accepts.
		return nil, meta.NotAcceptable(s.codecs.MediaTypes())
	}
	return nil, s.notAcceptable(r)
}

// notAcceptable is the 406 of a resource path: the representations the
// path has, with the streaming ones on collections, which can be watched.
func (s *Server) notAcceptable(r *http.Request) *meta.Status {
	available := s.codecs.MediaTypes()
	if info := requestinfo.From(r); info.IsResource && info.Name == "" {
		for _, c := range s.codecs {
			if c.MediaType() != codec.YAML {
				available = append(available, c.MediaType()+";stream=watch")
			}
		}
	}
	return meta.NoAcceptableRepresentation(available)
}

// setCommonHeaders sets the headers kube-apiserver puts on every API
// response.
func setCommonHeaders(w http.ResponseWriter, contentType string) {
	h := w.Header()
	if v, ok := contentTypeValues[contentType]; ok {
		h["Content-Type"] = v
	} else {
		h.Set("Content-Type", contentType)
	}
	h["Cache-Control"] = cacheControlValue
	h["X-Content-Type-Options"] = noSniffValue
}

// Header values every response carries, shared instead of allocated per
// response: net/http only reads them.
var (
	cacheControlValue = []string{"no-cache, private"}
	noSniffValue      = []string{"nosniff"}
	contentTypeValues = map[string][]string{
		codec.JSON: {codec.JSON}, codec.YAML: {codec.YAML}, codec.Protobuf: {codec.Protobuf},
	}
)

// writeBody writes an encoded body with its status code. JSON bodies end
// with a newline, as kube's encoder writes them.
func writeBody(w http.ResponseWriter, r *http.Request, code int, c codec.Codec, body []byte) {
	setCommonHeaders(w, c.MediaType())
	// Compact JSON ends with a newline; indented JSON (pretty) does not.
	newline := c.MediaType() == codec.JSON
	if newline && pretty(r) {
		body, newline = codec.Indent(body), false
	}
	size := len(body)
	if newline {
		size++
	}
	if size > gzipThreshold && acceptsGzip(r) {
		writeGzip(w, r, code, body, newline)
		return
	}
	n := len(body)
	if newline {
		n++
	}
	w.Header()["Content-Length"] = contentLengthValue(n)
	w.WriteHeader(code)
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(body)
	if newline {
		_, _ = w.Write(newlineByte)
	}
}

// newlineByte ends a compact JSON body: one shared slice, where a literal
// passed to an interface's Write is allocated per response (a Writer must
// neither change nor keep it).
var newlineByte = []byte{'\n'}

// contentLengthValues are the Content-Length header values of the body
// sizes below len(contentLengthValues), made on first use and then shared
// by every response of that size (net/http only reads them), as the
// other common header values are: most objects are under 8 KiB.
var contentLengthValues [8192]atomic.Pointer[[]string]

// contentLengthValue is the Content-Length header value of a body of n
// bytes.
func contentLengthValue(n int) []string {
	if n < 0 || n >= len(contentLengthValues) {
		return []string{strconv.Itoa(n)}
	}
	if v := contentLengthValues[n].Load(); v != nil {
		return *v
	}
	v := []string{strconv.Itoa(n)}
	contentLengthValues[n].Store(&v)
	return v
}

// gzipThreshold is the body size from which kube-apiserver compresses a
// response for a client that accepts gzip.
const gzipThreshold = 128 * 1024

var gzipWriters = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression); return w }}

// acceptsGzip matches kube-apiserver: the exact token "gzip", not with q=0.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(enc) != "gzip" {
			continue
		}
		if q, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(q, 64); err == nil && f == 0 {
				return false
			}
		}
		return true
	}
	return false
}

func writeGzip(w http.ResponseWriter, r *http.Request, code int, body []byte, newline bool) {
	var buf bytes.Buffer
	gz := gzipWriters.Get().(*gzip.Writer)
	gz.Reset(&buf)
	_, _ = gz.Write(body)
	if newline {
		_, _ = gz.Write([]byte{'\n'})
	}
	_ = gz.Close()
	gzipWriters.Put(gz)
	h := w.Header()
	h.Set("Content-Encoding", "gzip")
	h.Add("Vary", "Accept-Encoding")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(code)
	if r.Method != http.MethodHead {
		_, _ = w.Write(buf.Bytes())
	}
}

// pretty reports whether JSON is indented: pretty=true, or a browser or
// command-line user agent unless pretty=false, as kube-apiserver decides.
func pretty(r *http.Request) bool {
	if !strings.Contains(r.URL.RawQuery, "pretty") {
		ua := r.UserAgent()
		return strings.HasPrefix(ua, "curl") || strings.HasPrefix(ua, "Wget") || strings.HasPrefix(ua, "Mozilla/5.0")
	}
	switch r.URL.Query().Get("pretty") {
	case "true", "1":
		return true
	case "false", "0":
		return false
	}
	ua := r.UserAgent()
	return strings.HasPrefix(ua, "curl") || strings.HasPrefix(ua, "Wget") || strings.HasPrefix(ua, "Mozilla/5.0")
}

// Kinds of the values the server itself writes, for negotiation.
var (
	statusKind    = meta.GroupVersionKind{Version: "v1", Kind: "Status"}
	discoveryKind = meta.GroupVersionKind{Version: "v1", Kind: "APIResourceList"}
)

// writeValue encodes v, a value of kind gvk, in the negotiated
// representation.
func (s *Server) writeValue(w http.ResponseWriter, r *http.Request, code int, gvk meta.GroupVersionKind, v any) {
	c, err := s.negotiate(r, gvk)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	body, err := c.Encode(v)
	if err != nil {
		s.writeError(w, r, meta.Internal(err))
		return
	}
	writeBody(w, r, code, c, body)
}

// writeObject writes one stored version, reusing its cached encoding.
// gvk is the kind the request serves, which the stored version carries
// (never read from it: a compacted version would be decoded for it).
func (s *Server) writeObject(w http.ResponseWriter, r *http.Request, code int, gvk meta.GroupVersionKind, obj *store.Object) {
	c, err := s.negotiate(r, gvk)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	body, err := encodeObject(c, obj)
	if err != nil {
		s.writeError(w, r, meta.Internal(err))
		return
	}
	writeBody(w, r, code, c, body)
}

// encodeObject returns the cached encoding of a stored version.
// For protobuf the cached encoding is the enveloped object (what GET and
// watch send); list items are sliced out of it.
//
// Once its JSON is cached, a stored version is compacted: it keeps only the
// JSON and decodes again when its data is needed, so a stored object costs
// about its encoded size.
//
// The cache key is the codec value itself: codecs are zero-size values or
// pointers, so looking it up allocates nothing.
func encodeObject(c codec.Codec, obj *store.Object) ([]byte, error) {
	if b, ok := obj.Cached(c); ok {
		return b, nil
	}
	b, err := obj.Encoded(c, func(o meta.Object) ([]byte, error) { return c.Encode(o) })
	if err == nil {
		if _, isJSON := c.(codec.JSONCodec); isJSON {
			obj.Compact(codec.JSONCodec{}, decodeStored)
		}
	}
	return b, err
}

// compact caches a written version's JSON and compacts it.
func compact(obj *store.Object) {
	_, _ = encodeObject(codec.JSONCodec{}, obj)
}

// decodeStored decodes the JSON a compacted version keeps.
func decodeStored(b []byte) (meta.Object, error) {
	d, err := codec.JSONCodec{}.Decode(b)
	if err == nil {
		if fields, ok := asSentFields.Load(d.Object.APIVersion() + " " + d.Object.Kind()); ok {
			keepAsSent(d.Object, fields.([]string), b)
		}
	}
	return d.Object, err
}

// gvkOf reads an object's kind.
func gvkOf(o meta.Object) meta.GroupVersionKind {
	gv := meta.ParseGroupVersion(o.APIVersion())
	return meta.GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: o.Kind()}
}

// WriteError answers r with err as the server answers its own failures: a
// *meta.Status (any other error is a 500 InternalError) in the
// representation the request accepts, with kube's headers. Filters in front
// of the server use it to fail a request exactly as kube-apiserver would
// (kapitest's fault injection).
func (s *Server) WriteError(w http.ResponseWriter, r *http.Request, err error) {
	s.writeError(w, r, err)
}

// writeError writes err as a Status, in the negotiated representation when
// there is one and JSON otherwise.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	st := meta.AsStatus(err)
	c, negErr := s.negotiate(r, statusKind)
	if negErr != nil {
		c = codec.JSONCodec{}
	}
	body, encErr := c.Encode(st)
	if encErr != nil {
		c = codec.JSONCodec{}
		body, _ = c.Encode(st)
	}
	if st.Details != nil && st.Details.RetryAfterSeconds > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(st.Details.RetryAfterSeconds)))
	}
	indent := negErr != nil // no representation the client accepts: kube falls back to raw, indented JSON
	switch st.Code {
	case http.StatusRequestEntityTooLarge:
		w.Header().Set("Connection", "close") // the rest of the body is not read
	case http.StatusNotAcceptable, http.StatusBadRequest:
		if st.Code == http.StatusNotAcceptable || strings.HasPrefix(st.Message, "Unable to convert to Table") {
			indent = indent || c.MediaType() == codec.JSON
		}
	}
	if indent {
		// kube writes these indented, without the trailing newline.
		body, _ = json.MarshalIndent(st, "", "  ")
		setCommonHeaders(w, codec.JSON)
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(int(st.Code))
		if r.Method != http.MethodHead {
			_, _ = w.Write(body)
		}
		return
	}
	writeBody(w, r, st.HTTPStatus(), c, body)
}

// storeError turns a store failure about one object into the Status
// kube-apiserver would send for it.
func storeError(err error, gr meta.GroupResource, name string) error {
	var pre *store.PreconditionError
	var expired *store.ExpiredError
	var future *store.FutureRevisionError
	switch {
	case errors.Is(err, store.ErrNotFound):
		return meta.NotFound(gr, name)
	case errors.Is(err, store.ErrExists):
		return meta.AlreadyExists(gr, name)
	case errors.As(err, &pre):
		return meta.Conflict(gr, name, "Precondition failed: "+pre.Field+" in precondition: "+pre.Want+", "+
			pre.Field+" in object meta: "+pre.Got)
	case errors.As(err, &expired):
		return meta.Expired("too old resource version: " + strconv.FormatInt(expired.Requested, 10) +
			" (" + strconv.FormatInt(expired.Oldest, 10) + ")")
	case errors.As(err, &future):
		return meta.TooLargeResourceVersion(future.Requested, future.Current, 1)
	}
	return err
}
