package apiserver

import (
	"encoding/hex"
	"errors"
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
	// tracked marks a write whose managedFields are maintained before the
	// update (a server-side apply, a write through /scale).
	tracked bool
	// warnings are sent as Warning headers with the response.
	warnings []string
	// alloc is what the write being prepared allocated (Allocator).
	alloc Allocation
	// counted is w as the request's metrics count it (server_instrument.go).
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

// gk names the kind in a 422: for a type kept as another kind, the
// stored kind, which kube's validation is of (an events.k8s.io Event is
// a core "Event").
func (q *request) gk() meta.GroupKind {
	if q.res.Storage != nil {
		return q.res.Storage.Kind.GroupKind()
	}
	return q.res.GroupVersionKind().GroupKind()
}

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
	if verb != VerbPatch { // a patch checks its Content-Type first
		if err := q.checkAcceptable(); err != nil {
			q.fail(err)
			return
		}
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

// checkAcceptable refuses (406), before anything else is done, a request
// whose answer no representation the client accepts could carry: kube
// negotiates the response first, so a GET of a missing object with Accept
// text/plain is a 406, not a 404. A metadata-only form (as=Table, ...)
// counts as acceptable here; whether it fits the object is decided when
// the answer is written.
func (q *request) checkAcceptable() error {
	if q.info.Verb == VerbWatch {
		if _, err := q.s.watchEncoder(q.r, q.res); err != nil && meta.AsStatus(err).Code == http.StatusNotAcceptable {
			return err
		}
		return nil
	}
	if tr, err := q.s.wantsTable(q.r, q.info.Verb, q.res); tr != nil || err != nil {
		return nil
	}
	_, err := q.s.negotiate(q.r, q.res.GroupVersionKind())
	return err
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
	decode := c.Decode
	if typed, ok := c.(codec.TypedDecoder); ok && !q.res.customResource {
		decode = typed.DecodeTyped // built-in kinds decode into Go types: a duplicate object merges
	}
	d, err := decode(body)
	if codec.IsNull(err) {
		d, err = codec.Decoded{Object: meta.Object{}}, nil // kube decodes null as an empty object
	}
	if err != nil {
		return codec.Decoded{}, unrecognizedBody(q.res.Kind, err, body)
	}
	if err := q.checkKind(d.Object, nil); err != nil {
		return codec.Decoded{}, err
	}
	q.res.toStorage(d.Object)
	return d, nil
}

// unrecognizedBody is kube's answer to a body its serializer cannot decode
// as kind.
func unrecognizedBody(kind string, err error, body []byte) error {
	return meta.BadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): %s (%s)",
		kind, serializerError(err), bodyPreview(body)))
}

// serializerError words a codec's decoding error as kube's serializers do:
// what the format cannot read at all in the format's own words, the rest
// as the JSON reading of the body's apiVersion and kind.
func serializerError(err error) string {
	var fe *codec.FormatError
	var st *meta.Status
	if errors.As(err, &fe) || errors.As(err, &st) {
		return err.Error()
	}
	return "couldn't get version/kind; json parse error: " + err.Error()
}

// checkKind fills a missing apiVersion/kind with the endpoint's and rejects
// a body meant for another type: a built-in kind's as kube's decoder reads
// it (checkKindOf; patched, when set, is the document of a patch whose
// result obj is), a custom resource's as kube's unstructured decoding.
func (q *request) checkKind(obj meta.Object, patched func() []byte) error {
	if !q.res.customResource {
		return q.checkKindOf(q.res.decodeTarget(), obj, patched)
	}
	apiVersion, kind := obj.APIVersion(), obj.Kind()
	// Custom resources must name their kind, as kube's unstructured
	// decoding requires.
	if kind == "" {
		return meta.BadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): "+
			"Object 'Kind' is missing in '%s' (%s)", q.res.Kind, q.body, bodyPreview(q.body)))
	}
	if patched == nil {
		// A request body's metadata is read as ObjectMeta by the decoder,
		// before the handler checks the version it names.
		if cause := customMetadataFailure(obj["metadata"]); cause != "" {
			return meta.BadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %s",
				kind, meta.ParseGroupVersion(apiVersion).Version, q.res.Kind, cause))
		}
	}
	if apiVersion != q.res.APIVersion() {
		// A missing apiVersion too: kube takes the body's as it is.
		return meta.BadRequest(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%s)",
			apiVersion, q.res.APIVersion()))
	}
	if kind != q.res.Kind {
		return meta.Invalid(meta.GroupKind{Group: q.res.Group, Kind: kind}, obj.Name(), meta.FieldErrors{{
			Type: meta.ErrorInvalid, Field: "kind", Value: kind, Detail: "must be " + q.res.Kind}})
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
