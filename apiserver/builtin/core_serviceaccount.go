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
	column("Secrets", "string", "Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a \"kubernetes.io/enforce-mountable-secrets\" annotation set to \"true\". The \"kubernetes.io/enforce-mountable-secrets\" annotation is deprecated since v1.32. Prefer separate namespaces to isolate access to mounted secrets. This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://kubernetes.io/docs/concepts/configuration/secret", 0,
		func(o meta.Object, _ time.Time) any { return count(field(o, "secrets")) }),
	apiserver.AgeColumn(),
}
