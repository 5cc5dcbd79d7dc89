package builtin

import "github.com/kapi-dev/kapi/apiserver"

// resourceClaimTemplateResource is resource.k8s.io/v1
// resourceclaimtemplates (since 1.34).
func resourceClaimTemplateResource() apiserver.Resource {
	return apiserver.Resource{ReturnDeletedObject: true, Group: "resource.k8s.io", Version: "v1", Kind: "ResourceClaimTemplate",
		Plural: "resourceclaimtemplates", Namespaced: true, WithoutGeneration: true,
		PrinterColumns: []apiserver.PrinterColumn{apiserver.AgeColumn()}}
}
