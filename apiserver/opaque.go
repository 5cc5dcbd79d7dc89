package apiserver

import (
	"encoding/json"
	"net/http"
	"sync"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// kube keeps a runtime.RawExtension (a ControllerRevision's data) as the
// bytes a client sent and returns them so: compacted, with the keys in the
// client's order, not sorted as an object decoded and encoded again. A
// controller comparing revisions by their bytes (kube's controller
// history, which StatefulSets, DaemonSets and operators use) finds its own
// revision only so. kapi stores such a field (Resource.AsSent) as a
// meta.RawJSON, the bytes and their decoding, when the value written is the
// one a client's JSON body held (or the one stored before, through a patch
// that left it alone); a value the server or a patch changed is encoded
// anew, with sorted keys, as kube encodes one it changed.

// asSentFields are the AsSent fields by "apiVersion kind", for the
// decoding of stored versions (decodeStored).
var asSentFields sync.Map

// keepAsSent replaces each of fields in obj by a meta.RawJSON of the same
// member of the JSON object doc, when that member holds obj's value.
func keepAsSent(obj meta.Object, fields []string, doc []byte) {
	var members map[string]json.RawMessage
	if json.Unmarshal(doc, &members) != nil {
		return
	}
	for _, f := range fields {
		raw, ok := members[f]
		if !ok {
			continue
		}
		if r, ok := rawJSON(raw); ok && meta.EqualValues(r.Value, obj[f]) {
			obj[f] = r
		}
	}
}

// rawJSON is a member's JSON as kube returns it (compacted, with HTML
// characters escaped, as encoding/json writes a RawExtension) with its
// decoding; false for null, which kube decodes as no value.
func rawJSON(member json.RawMessage) (meta.RawJSON, bool) {
	raw, err := json.Marshal(member)
	if err != nil || string(raw) == "null" {
		return meta.RawJSON{}, false
	}
	v, err := codec.DecodeJSONValue(raw)
	if err != nil {
		return meta.RawJSON{}, false
	}
	return meta.RawJSON{Raw: raw, Value: v}, true
}

// keepSentFields is keepAsSent for a write about to be stored: the value
// of an AsSent field keeps the client's bytes when it is what a POST or
// PUT body in JSON held, or the stored version's when it is unchanged.
func (q *request) keepSentFields(obj meta.Object, cur *store.Object) {
	if len(q.res.AsSent) == 0 {
		return
	}
	if q.r.Method == http.MethodPost || q.r.Method == http.MethodPut {
		if c, ok := q.s.codecs.ForContentType(q.r.Header.Get("Content-Type")); ok {
			if _, isJSON := c.(codec.JSONCodec); isJSON {
				keepAsSent(obj, q.res.AsSent, q.body)
			}
		}
	}
	if cur == nil {
		return
	}
	old := cur.Data()
	for _, f := range q.res.AsSent {
		if _, kept := obj[f].(meta.RawJSON); kept {
			continue
		}
		if r, ok := old[f].(meta.RawJSON); ok && meta.EqualValues(r.Value, obj[f]) {
			obj[f] = r
		}
	}
}
