package apiserver

import (
	"net/http"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
)

// serveSubresource answers a subresource that serves itself
// (Subresource.Serve): its body decoded as the subresource's kind, the
// strategy's handler called, its answer encoded as the client asks.
func (q *request) serveSubresource(sub subresourceInfo) {
	kind := sub.kind
	if kind.Kind == "" {
		kind = q.res.GroupVersionKind()
	}
	if kind.Version == "" { // a kind of the resource's own group version, as discovery shows it
		kind.Group, kind.Version = q.res.Group, q.res.Version
	}
	call := &SubresourceCall{Verb: q.info.Verb, Query: q.r.URL.Query(), Request: q.r}
	op := map[string]Operation{VerbCreate: OperationCreate, VerbUpdate: OperationUpdate, VerbPatch: OperationUpdate,
		VerbDelete: OperationDelete}[q.info.Verb]
	dryRun := false
	if op != "" {
		wo, err := q.writeOptions(map[Operation]string{OperationCreate: "CreateOptions", OperationUpdate: "UpdateOptions",
			OperationDelete: "DeleteOptions"}[op])
		if err != nil {
			q.fail(err)
			return
		}
		dryRun = wo.dryRun
	}
	call.Write = q.newWrite(op, dryRun)
	if (q.r.Method == http.MethodPost || q.r.Method == http.MethodPut) && !sub.def.Connect {
		body, err := q.decodeSubresourceBody(kind, sub.def.AcceptedVersions)
		if err != nil {
			q.fail(err)
			return
		}
		call.Body = body
	}
	code, out, err := sub.serve(call)
	if err != nil {
		q.fail(err)
		return
	}
	q.flushWarnings()
	if out == nil {
		q.w.WriteHeader(code)
		return
	}
	q.s.writeValue(q.w, q.r, code, gvkOf(out), out)
}

// decodeSubresourceBody decodes a request body as an object of kind (or
// of kind's group in otherVersions), defaulting a missing apiVersion and
// kind to kind's.
func (q *request) decodeSubresourceBody(kind meta.GroupVersionKind, otherVersions []string) (meta.Object, error) {
	body, err := q.readBody()
	if err != nil {
		return nil, err
	}
	c, ok := q.s.codecs.ForContentType(q.r.Header.Get("Content-Type"))
	if !ok || !codec.Supports(c, kind) {
		return nil, meta.UnsupportedMediaType(q.r.Header.Get("Content-Type"), q.s.codecs.MediaTypes())
	}
	d, err := c.Decode(body)
	if codec.IsNull(err) {
		d, err = codec.Decoded{Object: meta.Object{}}, nil
	}
	if err != nil {
		return nil, unrecognizedBody(kind.Kind, err, body)
	}
	if err := q.checkKindOf(q.res.subresourceTarget(kind, otherVersions), d.Object, nil); err != nil {
		return nil, err
	}
	return d.Object, nil
}
