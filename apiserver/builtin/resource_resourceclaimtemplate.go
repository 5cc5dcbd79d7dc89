package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// resourceClaimTemplateResource is resource.k8s.io/v1
// resourceclaimtemplates (since 1.34).
func resourceClaimTemplateResource() apiserver.Resource {
	return apiserver.Resource{ReturnDeletedObject: true, Group: "resource.k8s.io", Version: "v1", Kind: "ResourceClaimTemplate",
		Plural: "resourceclaimtemplates", Namespaced: true, WithoutGeneration: true,
		PrinterColumns: []apiserver.PrinterColumn{apiserver.AgeColumn()},
		GenericDelete:  true, Strategy: resourceClaimTemplateStrategy{}}
}

// resourceClaimTemplateStrategy is what a ResourceClaimTemplate does
// differently.
type resourceClaimTemplateStrategy struct{ apiserver.GenericStrategy }

// Default mirrors the defaults of the template's claim's device requests.
func (resourceClaimTemplateStrategy) Default(o meta.Object) {
	if spec, ok := field(o, "spec", "spec").(map[string]any); ok {
		defaultDeviceClaim(spec)
	}
}
