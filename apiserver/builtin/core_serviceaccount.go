package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// serviceAccountResource is core/v1 serviceaccounts.
func serviceAccountResource() apiserver.Resource {
	return apiserver.Resource{ReturnDeletedObject: true, Version: "v1", Kind: "ServiceAccount", Plural: "serviceaccounts", Namespaced: true,
		ShortNames: []string{"sa"}, PrinterColumns: serviceAccountColumns, WithoutGeneration: true, GenericDelete: true, Strategy: serviceAccountStrategy{}}
}

// serviceAccountStrategy is what a ServiceAccount does differently.
type serviceAccountStrategy struct{ apiserver.GenericStrategy }

// Subresources are /token, which answers an authentication.k8s.io/v1
// TokenRequest.
func (serviceAccountStrategy) Subresources() []apiserver.Subresource {
	return []apiserver.Subresource{{Name: "token", Verbs: verbsCreate,
		Kind: meta.GroupVersionKind{Group: "authentication.k8s.io", Version: "v1", Kind: "TokenRequest"}}}
}

var serviceAccountColumns = []apiserver.PrinterColumn{
	column("Secrets", "string", propertyDoc("io.k8s.api.core.v1.ServiceAccount", "secrets"), 0,
		func(o meta.Object, _ time.Time) any { return count(field(o, "secrets")) }),
	apiserver.AgeColumn(),
}
