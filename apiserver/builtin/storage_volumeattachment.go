package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// volumeAttachmentResource is storage.k8s.io/v1 volumeattachments.
func volumeAttachmentResource() apiserver.Resource {
	return apiserver.Resource{ReturnDeletedObject: true, Group: "storage.k8s.io", Version: "v1", Kind: "VolumeAttachment", Plural: "volumeattachments",
		StatusSubresource: true, WithoutGeneration: true, PrinterColumns: volumeAttachmentColumns, GenericDelete: true, Strategy: volumeAttachmentStrategy{},
		ResetFields: map[string][]string{"": {"status"}, "status": {"metadata", "spec"}}}
}

// volumeAttachmentStrategy is what a VolumeAttachment does differently.
type volumeAttachmentStrategy struct{ apiserver.GenericStrategy }

// PrepareForCreate starts an attachment not attached.
func (volumeAttachmentStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	o["status"] = map[string]any{"attached": false}
}

var volumeAttachmentColumns = []apiserver.PrinterColumn{
	func() apiserver.PrinterColumn {
		c := column("Attacher", "string", "attacher indicates the name of the volume driver that MUST handle this request. This is the name returned by GetPluginName().", 0,
			func(o meta.Object, now time.Time) any { return str(o, "spec", "attacher") })
		c.Format = "name"
		return c
	}(),
	column("PV", "string", "persistentVolumeName represents the name of the persistent volume to attach.", 0,
		func(o meta.Object, now time.Time) any { return str(o, "spec", "source", "persistentVolumeName") }),
	column("Node", "string", "nodeName represents the node that the volume should be attached to.", 0,
		func(o meta.Object, now time.Time) any { return str(o, "spec", "nodeName") }),
	column("Attached", "boolean", "attached indicates the volume is successfully attached. This field must only be set by the entity completing the attach operation, i.e. the external-attacher.", 0,
		func(o meta.Object, now time.Time) any { return flag(field(o, "status", "attached"), false) }),
	apiserver.AgeColumn(),
}

// PrepareForUpdate: a write to /status keeps the stored metadata, as
// kube's status strategy does, and the stored spec.
func (volumeAttachmentStrategy) PrepareForUpdate(w *apiserver.Write, o, old meta.Object) meta.Object {
	o = apiserver.PrepareStatusUpdate(w, o, old)
	if w.Subresource == "status" {
		keepStatusOnlyMetadata(o, old)
	}
	return o
}
