package apiserver

import (
	"fmt"
	"net/http"
	"slices"

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

// decodeSubresourceBody decodes a request body as an object of kind,
// defaulting a missing apiVersion and kind to kind's.
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
	if err != nil {
		return nil, meta.BadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): %v (%s)",
			kind.Kind, err, bodyPreview(body)))
	}
	apiVersion := kind.GroupVersion().String()
	if v := d.Object.APIVersion(); v == "" {
		d.Object["apiVersion"] = apiVersion
	} else if v != apiVersion && !slices.Contains(otherVersions, v) {
		return nil, meta.BadRequest(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%s)",
			v, apiVersion))
	}
	if k := d.Object.Kind(); k == "" {
		d.Object["kind"] = kind.Kind
	} else if k != kind.Kind {
		return nil, meta.BadRequest(fmt.Sprintf("the kind in the data (%s) does not match the expected kind (%s)", k, kind.Kind))
	}
	return d.Object, nil
}
