package builtin

import (
	"encoding/json"
	"fmt"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// Validate is kube's ValidateVolumeAttachment and, for v1,
// ValidateVolumeAttachmentV1: an attacher (a CSI driver name), exactly one
// source, a node name.
func (volumeAttachmentStrategy) Validate(w *apiserver.Write, o meta.Object) meta.FieldErrors {
	e := fieldErrs{release: w.Release()}
	e.volumeAttachment(o)
	return e.all()
}

func (e *fieldErrs) volumeAttachment(o meta.Object) {
	spec := asMap(o["spec"])
	attacher, _ := spec["attacher"].(string)
	declarative := e.release.AtLeast(37) // the attacher's checks are declarative rules
	switch {
	case declarative:
	case e.release.AtLeast(36): // ValidateCSIDriverName first, once
		e.csiDriverName("spec.attacher", attacher)
	case attacher == "":
		e.required("spec.attacher")
	}
	src := asMap(spec["source"])
	pvName, hasPV := src["persistentVolumeName"].(string)
	inline, hasInline := src["inlineVolumeSpec"].(map[string]any)
	const one = "must specify exactly one of inlineVolumeSpec and persistentVolumeName"
	switch {
	case !hasPV && !hasInline:
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: "spec.source", Detail: one})
	case hasPV && hasInline:
		e.forbidden("spec.source", one)
	case hasPV && pvName == "":
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: "spec.source.persistentVolumeName",
			Detail: "must specify non empty persistentVolumeName"})
	case hasInline:
		_ = inline // kube validates an inline spec as a volume's; kapi does not yet
	}
	node, _ := spec["nodeName"].(string)
	e.dnsSubdomain("spec.nodeName", node)
	switch {
	case declarative:
		e.declarativeCSIDriverName("spec.attacher", attacher)
	case !e.release.AtLeast(36):
		e.csiDriverName("spec.attacher", attacher)
	}
	if hasPV {
		e.dnsSubdomain("spec.source.persistentVolumeName", pvName)
	}
}

// ValidateUpdate validates the attachment as on create; its spec stays
// (a write to /status keeps the stored spec).
func (s volumeAttachmentStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	if w.Subresource == "status" {
		return nil
	}
	e := fieldErrs{release: w.Release()}
	if e.release.AtLeast(37) { // declarative: the spec's rule before its fields'
		e.declarativeImmutable("spec", o["spec"], old["spec"], nil)
		e.volumeAttachment(o)
		return e.all()
	}
	e.volumeAttachment(o)
	e.immutable("spec", o["spec"], old["spec"], goVolumeAttachmentSpec(asMap(o["spec"])))
	return e.list
}

// goVolumeAttachmentSpec renders a storage.VolumeAttachmentSpec as Go's
// %#v does (its pointers' addresses vary in kube's too).
// Its JSON shows an inline volume spec as {...}: kapi does not print a
// whole internal PersistentVolumeSpec.
func goVolumeAttachmentSpec(spec map[string]any) kubeValue {
	src := asMap(spec["source"])
	pv, inline := "(*string)(nil)", "(*core.PersistentVolumeSpec)(nil)"
	var pvJSON any
	inlineJSON := json.RawMessage("null")
	if name, ok := src["persistentVolumeName"].(string); ok {
		pv, pvJSON = "(*string)(0xc000000000)", name
	}
	if _, ok := src["inlineVolumeSpec"].(map[string]any); ok {
		inline, inlineJSON = "(*core.PersistentVolumeSpec)(0xc000000000)", json.RawMessage("{}")
	}
	attacher, _ := spec["attacher"].(string)
	node, _ := spec["nodeName"].(string)
	return kubeValue{fmt.Sprintf("storage.VolumeAttachmentSpec{Attacher:%q, Source:storage.VolumeAttachmentSource{PersistentVolumeName:%s, InlineVolumeSpec:%s}, NodeName:%q}",
		attacher, pv, inline, node),
		jsonStruct("Attacher", attacher, "Source", json.RawMessage(jsonStruct("PersistentVolumeName", pvJSON, "InlineVolumeSpec", inlineJSON)), "NodeName", node)}
}
