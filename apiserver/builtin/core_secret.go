package builtin

import (
	"encoding/base64"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// secretResource is core/v1 secrets.
func secretResource() apiserver.Resource {
	return apiserver.Resource{Version: "v1", Kind: "Secret", Plural: "secrets", Namespaced: true,
		PrinterColumns: secretColumns, WithoutGeneration: true, SelectableFields: []string{"type"},
		FieldValues:   func(o meta.Object) map[string]string { return map[string]string{"type": str(o, "type")} },
		GenericDelete: true, Strategy: secretStrategy{}}
}

// secretStrategy is what a Secret does differently.
type secretStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_Secret (type Opaque) and kube's decoding of
// stringData: each entry is written into data (base64, replacing a key of
// the same name) and stringData itself is never stored.
func (secretStrategy) Default(o meta.Object) {
	setDefault(o, "type", "Opaque")
	sd, ok := o["stringData"].(map[string]any)
	if !ok {
		delete(o, "stringData")
		return
	}
	if len(sd) > 0 {
		data := obj(o, "data")
		for k, v := range sd {
			s, _ := v.(string)
			data[k] = base64.StdEncoding.EncodeToString([]byte(s))
		}
	}
	delete(o, "stringData")
}

var secretColumns = []apiserver.PrinterColumn{
	column("Type", "string", propertyDoc("io.k8s.api.core.v1.Secret", "type"), 0,
		func(o meta.Object, _ time.Time) any { return str(o, "type") }),
	column("Data", "string", propertyDoc("io.k8s.api.core.v1.Secret", "data"), 0,
		func(o meta.Object, _ time.Time) any { return count(field(o, "data")) }),
	apiserver.AgeColumn(),
}
