package apiserver

import (
	"encoding/json"
	"errors"
)

// mergedDocument is the JSON merge patch of current by patch as kube's
// merge patch library (evanphx/json-patch v4) writes it, for the error
// answers that quote the patched document: the members of each object the
// patch merged into in sorted order, what it did not touch as current
// wrote it, what it added as the patch wrote it (objects sorted, nulls of
// objects dropped). kapi merges objects itself (mergePatch); this is only
// their quotation.
func mergedDocument(current, patch []byte) ([]byte, error) {
	var doc, p jsonDoc
	if err := json.Unmarshal(current, &doc); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(patch, &p); err != nil {
		return nil, err
	}
	doc.merge(p)
	return json.Marshal(doc)
}

// patchedDocument is a JSON patch's result as kube's JSON patch library
// (evanphx/json-patch v4) writes it, for the answers that quote it: the
// document's members in sorted order. (Where the patch reached into
// objects the library sorts them too; kapi's encoding already has them
// sorted.) A result that is no object is quoted as it is.
func patchedDocument(patched []byte) []byte {
	var doc jsonDoc
	if err := json.Unmarshal(patched, &doc); err != nil || doc == nil {
		return patched
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return patched
	}
	return b
}

// jsonDoc is a JSON object whose members are decoded only when a merge
// reaches into them; a JSON null member is a nil node.
type jsonDoc map[string]*jsonNode

// jsonNode is a JSON value kept as written until a merge needs it as an
// object (doc) or a list (list).
type jsonNode struct {
	raw  json.RawMessage
	doc  jsonDoc
	list []*jsonNode
}

func (n *jsonNode) UnmarshalJSON(b []byte) error {
	n.raw = append(json.RawMessage(nil), b...)
	return nil
}

func (n *jsonNode) MarshalJSON() ([]byte, error) {
	switch {
	case n.doc != nil:
		return json.Marshal(n.doc)
	case n.list != nil:
		return json.Marshal(n.list)
	case n.raw != nil:
		return n.raw, nil
	}
	return nil, errors.New("empty JSON node")
}

// object decodes the node as an object; false when it is none.
func (n *jsonNode) object() bool {
	if n.doc != nil {
		return true
	}
	if n.list != nil {
		return false
	}
	var d jsonDoc
	if err := json.Unmarshal(n.raw, &d); err != nil || d == nil {
		return false
	}
	n.doc = d
	return true
}

// merge applies patch to doc: a null removes the member, an object merges
// into an object, anything else replaces the member.
func (doc jsonDoc) merge(patch jsonDoc) {
	for k, v := range patch {
		cur := doc[k]
		switch {
		case v == nil:
			delete(doc, k)
		case cur == nil:
			v.pruneNulls()
			doc[k] = v
		case !cur.object():
			v.pruneNulls()
			doc[k] = v
		case !v.object():
			doc[k] = v
		default:
			cur.doc.merge(v.doc)
		}
	}
}

// pruneNulls drops the null members of the objects in n, as the library
// does to a value it adds, decoding what it walks.
func (n *jsonNode) pruneNulls() {
	if n.object() {
		for k, v := range n.doc {
			if v == nil {
				delete(n.doc, k)
			} else {
				v.pruneNulls()
			}
		}
		return
	}
	var list []*jsonNode
	if err := json.Unmarshal(n.raw, &list); err != nil || list == nil {
		return
	}
	n.list = list
	for _, v := range list {
		if v != nil {
			v.pruneNulls()
		}
	}
}
