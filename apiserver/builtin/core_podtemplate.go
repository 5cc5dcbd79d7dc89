package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// podTemplateResource is core/v1 podtemplates.
func podTemplateResource() apiserver.Resource {
	return apiserver.Resource{ReturnDeletedObject: true, Version: "v1", Kind: "PodTemplate", Plural: "podtemplates", Namespaced: true,
		PrinterColumns: podTemplateColumns, GenericDelete: true, Strategy: podTemplateStrategy{}}
}

// podTemplateStrategy is what a PodTemplate does differently.
type podTemplateStrategy struct{ apiserver.GenericStrategy }

// Default gives the template kube's pod spec defaults.
func (podTemplateStrategy) Default(o meta.Object) { defaultPodSpec(obj(obj(o, "template"), "spec")) }

var podTemplateColumns = []apiserver.PrinterColumn{
	containersColumn(0, "template", "spec"),
	imagesColumn(0, "template", "spec"),
	column("Pod Labels", "string", "The labels for the pod template.", 0,
		func(o meta.Object, _ time.Time) any {
			return selectorString(field(o, "template", "metadata", "labels"))
		}),
}
