package apiserver

import "github.com/kapi-dev/kapi/meta"

// customResourceStrategy is what the custom resources of a CRD do
// differently, as apiextensions-apiserver's strategies do: a write to
// /status changes the status and nothing else, not even the metadata
// (only the managedFields that track the write).
type customResourceStrategy struct{ GenericStrategy }

// PrepareForUpdate keeps the stored object except the status on a /status
// write; the object itself follows the generic split.
func (customResourceStrategy) PrepareForUpdate(w *Write, obj, old meta.Object) meta.Object {
	if w.Subresource != "status" || !w.res.StatusSubresource {
		return PrepareStatusUpdate(w, obj, old)
	}
	status, hasStatus := obj["status"]
	kept := old.DeepCopy()
	delete(kept, "status")
	if hasStatus {
		kept["status"] = status
	}
	if mf, ok := obj.Metadata()["managedFields"]; ok {
		kept.MetadataForWrite()["managedFields"] = mf
	}
	return kept
}
