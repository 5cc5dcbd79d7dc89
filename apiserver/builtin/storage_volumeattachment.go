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
		c := column("Attacher", "string", propertyDoc("io.k8s.api.storage.v1.VolumeAttachmentSpec", "attacher"), 0,
			func(o meta.Object, now time.Time) any { return str(o, "spec", "attacher") })
		c.Format = "name"
		return c
	}(),
	column("PV", "string", propertyDoc("io.k8s.api.storage.v1.VolumeAttachmentSource", "persistentVolumeName"), 0,
		func(o meta.Object, now time.Time) any { return str(o, "spec", "source", "persistentVolumeName") }),
	column("Node", "string", propertyDoc("io.k8s.api.storage.v1.VolumeAttachmentSpec", "nodeName"), 0,
		func(o meta.Object, now time.Time) any { return str(o, "spec", "nodeName") }),
	column("Attached", "boolean", propertyDoc("io.k8s.api.storage.v1.VolumeAttachmentStatus", "attached"), 0,
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
