package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// serviceAccountResource is core/v1 serviceaccounts.
func serviceAccountResource() apiserver.Resource {
	return apiserver.Resource{Version: "v1", Kind: "ServiceAccount", Plural: "serviceaccounts", Namespaced: true,
		ShortNames: []string{"sa"}, PrinterColumns: serviceAccountColumns, WithoutGeneration: true}
}

var serviceAccountColumns = []apiserver.PrinterColumn{
	column("Secrets", "integer", "Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.", 0,
		func(o meta.Object, _ time.Time) any { return count(field(o, "secrets")) }),
	apiserver.AgeColumn(),
}
