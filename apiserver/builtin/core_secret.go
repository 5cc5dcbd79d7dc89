package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// secretResource is core/v1 secrets.
func secretResource() apiserver.Resource {
	return apiserver.Resource{Version: "v1", Kind: "Secret", Plural: "secrets", Namespaced: true,
		PrinterColumns: secretColumns, WithoutGeneration: true, SelectableFields: []string{"type"},
		Strategy: secretStrategy{}}
}

// secretStrategy gives a Secret its type.
type secretStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_Secret.
func (secretStrategy) Default(o meta.Object) { setDefault(o, "type", "Opaque") }

var secretColumns = []apiserver.PrinterColumn{
	column("Type", "string", "The type of the secret", 0, func(o meta.Object, _ time.Time) any { return str(o, "type") }),
	column("Data", "integer", "The number of entries in the secret", 0, func(o meta.Object, _ time.Time) any {
		return count(field(o, "data"))
	}),
	apiserver.AgeColumn(),
}
