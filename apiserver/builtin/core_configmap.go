package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// configMapResource is core/v1 configmaps.
func configMapResource() apiserver.Resource {
	return apiserver.Resource{Version: "v1", Kind: "ConfigMap", Plural: "configmaps", Namespaced: true, ShortNames: []string{"cm"},
		PrinterColumns: configMapColumns, WithoutGeneration: true}
}

var configMapColumns = []apiserver.PrinterColumn{
	column("Data", "integer", "Data contains the configuration data", 0, func(o meta.Object, _ time.Time) any {
		return count(field(o, "data")) + count(field(o, "binaryData"))
	}),
	apiserver.AgeColumn(),
}
