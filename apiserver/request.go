package apiserver

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"slices"

	"github.com/kapi-dev/kapi/apiserver/requestinfo"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/fieldmanager"
	"github.com/kapi-dev/kapi/meta"
)

// request carries one resource request through its handler.
type request struct {
	s    *Server
	w    http.ResponseWriter
	r    *http.Request
	info requestinfo.Info
	res  *Resource

	// body is the request body once read.
	body []byte
	// wo are the write options once parsed.
	wo writeOptions
	// mo says who is writing, for managedFields; applying marks a
	// server-side apply, which tracks its own fields.
	mo       fieldmanager.Options
	applying bool
	// warnings are sent as Warning headers with the response.
	warnings []string
	// alloc is what the write being prepared allocated (Allocator).
	alloc Allocation
	// counted is w as the request's metrics count it (instrument.go).
	counted instrumentedWriter
}

// flushWarnings sets the Warning headers of the response.
func (q *request) flushWarnings() {
	for _, w := range q.warnings {
		q.w.Header().Add("Warning", fmt.Sprintf("299 - %q", w))
	}
	q.warnings = nil
}

func (q *request) gr() meta.GroupResource { return q.res.GroupResource() }
func (q *request) gk() meta.GroupKind     { return q.res.GroupVersionKind().GroupKind() }

// fail answers err. The warnings found so far go with it: kube records
// them as the request is decoded, and writes them on whatever the answer
// is (a create of an existing name with an unknown field is a 409 that
// warns of the field).
func (q *request) fail(err error) {
	q.flushWarnings()
	q.s.writeError(q.w, q.r, err)
}

// serve dispatches on the verb after checking the type supports it.
func (q *request) serve() {
	verb := q.info.Verb
	supported := q.res.Supports(verb)
	if q.info.Subresource != "" {
		sub, ok := q.res.subresource(q.info.Subresource)
		if !ok {
			q.fail(notFoundPath(q.r))
			return
		}
		if sub.name == "scale" {
			q.serveScale()
			return
		}
		supported = slices.Contains(sub.verbs, verb)
		if supported && sub.serve != nil {
			q.serveSubresource(sub)
			return
		}
	}
	if !supported {
		q.fail(q.methodNotSupported(verb))
		return
	}
	switch verb {
	case VerbGet:
		q.get()
	case VerbList:
		q.list()
	case VerbWatch:
		q.watch()
	case VerbCreate:
		q.create()
	case VerbUpdate:
		q.update()
	case VerbPatch:
		q.patch()
	case VerbDelete:
		q.delete()
	case VerbDeleteCollection:
		q.deleteCollection()
	default:
		q.fail(q.methodNotSupported(verb))
	}
}

// methodNotSupported is the 405 kube-apiserver sends for a verb a type does
// not serve, or a method that makes no sense on the URL.
func (q *request) methodNotSupported(verb string) error {
	st := meta.MethodNotSupported(q.gr(), verb)
	st.Message = "the server does not allow this method on the requested resource"
	st.Details = &meta.StatusDetails{}
	return st
}

// readBody reads the request body within the size limit.
func (q *request) readBody() ([]byte, error) {
	limit := q.s.maxBody
	var body []byte
	var err error
	if n := q.r.ContentLength; n >= 0 && n <= limit {
		// The length is known: one allocation of that size (net/http ends
		// the body there), not a doubling buffer.
		body = make([]byte, n)
		_, err = io.ReadFull(q.r.Body, body)
	} else {
		body, err = io.ReadAll(io.LimitReader(q.r.Body, limit+1))
	}
	if err != nil {
		return nil, meta.BadRequest(fmt.Sprintf("unable to read request body: %v", err))
	}
	if int64(len(body)) > limit {
		return nil, meta.RequestEntityTooLarge(limit)
	}
	q.body = body
	return body, nil
}

// decodeBody reads and decodes the request body as an object of this
// resource type, defaulting a missing apiVersion/kind to the endpoint's as
// kube-apiserver does for its own types.
func (q *request) decodeBody() (codec.Decoded, error) {
	body, err := q.readBody()
	if err != nil {
		return codec.Decoded{}, err
	}
	c, ok := q.s.codecs.ForContentType(q.r.Header.Get("Content-Type"))
	if !ok || !codec.Supports(c, q.res.GroupVersionKind()) {
		return codec.Decoded{}, meta.UnsupportedMediaType(q.r.Header.Get("Content-Type"), q.s.codecs.MediaTypes())
	}
	if trimmed := bytes.TrimSpace(body); c.MediaType() == codec.JSON && bytes.Equal(trimmed, []byte("null")) {
		body = []byte("{}") // kube decodes null as an empty object
	}
	decode := c.Decode
	if typed, ok := c.(codec.TypedDecoder); ok && !q.res.customResource {
		decode = typed.DecodeTyped // built-in kinds decode into Go types: a duplicate object merges
	}
	d, err := decode(body)
	if err != nil {
		return codec.Decoded{}, meta.BadRequest(fmt.Sprintf(
			"the object provided is unrecognized (must be of type %s): couldn't get version/kind; json parse error: %v (%s)",
			q.res.Kind, err, bodyPreview(body)))
	}
	if err := q.checkKind(d.Object); err != nil {
		return codec.Decoded{}, err
	}
	q.res.toStorage(d.Object)
	return d, nil
}

// checkKind fills a missing apiVersion/kind with the endpoint's and rejects
// a body meant for another type.
func (q *request) checkKind(obj meta.Object) error {
	apiVersion, kind := obj.APIVersion(), obj.Kind()
	if q.res.customResource {
		// Custom resources must name their kind, as kube's unstructured
		// decoding requires.
		if kind == "" {
			return meta.BadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): "+
				"Object 'Kind' is missing in '%s' (%s)", q.res.Kind, q.body, bodyPreview(q.body)))
		}
		if kind != q.res.Kind && apiVersion == q.res.APIVersion() {
			return meta.Invalid(meta.GroupKind{Group: q.res.Group, Kind: kind}, obj.Name(), meta.FieldErrors{{
				Type: meta.ErrorInvalid, Field: "kind", Value: kind, Detail: "must be " + q.res.Kind}})
		}
	}
	if apiVersion == "" {
		obj["apiVersion"] = q.res.APIVersion()
	} else if apiVersion != q.res.APIVersion() {
		return meta.BadRequest(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%s)",
			apiVersion, q.res.APIVersion()))
	}
	if kind == "" {
		obj["kind"] = q.res.Kind
	} else if kind != q.res.Kind {
		return meta.BadRequest(fmt.Sprintf("the kind in the data (%s) does not match the expected kind (%s)",
			kind, q.res.Kind))
	}
	return nil
}

// bodyPreview quotes the start of a body in error messages as kube-apiserver
// does: "<empty>", the first 30 bytes of an object, or hex for other bodies.
func bodyPreview(body []byte) string {
	const max = 30
	switch {
	case len(body) == 0:
		return "<empty>"
	case body[0] != '{':
		if len(body) > max {
			return hex.EncodeToString(body[:max]) + " ..."
		}
		return hex.EncodeToString(body)
	case len(body) > max:
		return string(body[:max]) + " ..."
	}
	return string(body)
}
