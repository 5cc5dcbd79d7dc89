package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// componentStatusResource is core/v1 componentstatuses: read-only, the
// health of the control plane's components, deprecated since 1.19.
func componentStatusResource() apiserver.Resource {
	return apiserver.Resource{Version: "v1", Kind: "ComponentStatus", Plural: "componentstatuses", ShortNames: []string{"cs"},
		Verbs: []string{"get", "list"}, Ephemeral: true, WithoutGeneration: true, PrinterColumns: componentStatusColumns,
		Deprecated: "v1 ComponentStatus is deprecated in v1.19+"}
}

// componentHealth is the first Healthy condition's status, message and error.
func componentHealth(o meta.Object) (status, message, errText string) {
	status = "Unknown"
	for _, c := range meta.AsList(o["conditions"]) {
		m, _ := c.(map[string]any)
		if m["type"] != "Healthy" {
			continue
		}
		status = "Unhealthy"
		if m["status"] == "True" {
			status = "Healthy"
		}
		message, _ = m["message"].(string)
		errText, _ = m["error"].(string)
		break
	}
	return status, message, errText
}

var componentStatusColumns = []apiserver.PrinterColumn{
	column("Status", "string", "Status of the component conditions", 0,
		func(o meta.Object, _ time.Time) any { s, _, _ := componentHealth(o); return s }),
	column("Message", "string", "Message of the component conditions", 0,
		func(o meta.Object, _ time.Time) any { _, m, _ := componentHealth(o); return m }),
	column("Error", "string", "Error of the component conditions", 0,
		func(o meta.Object, _ time.Time) any { _, _, e := componentHealth(o); return e }),
}
