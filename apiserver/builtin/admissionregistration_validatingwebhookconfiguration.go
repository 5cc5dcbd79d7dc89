package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// validatingWebhookConfigurationResource is admissionregistration.k8s.io/v1
// validatingwebhookconfigurations; the webhooks' checks cover what their
// schema requires (ValidatesCompletely).
func validatingWebhookConfigurationResource() apiserver.Resource {
	return apiserver.Resource{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingWebhookConfiguration",
		Plural: "validatingwebhookconfigurations", Categories: []string{"api-extensions"},
		PrinterColumns: validatingWebhookColumns, GenericDelete: true, ValidatesCompletely: true, Strategy: webhookConfigurationStrategy{}}
}

var validatingWebhookColumns = []apiserver.PrinterColumn{
	column("Webhooks", "integer", "Webhooks indicates the number of webhooks registered in this configuration", 0,
		func(o meta.Object, now time.Time) any { return count(o["webhooks"]) }),
	apiserver.AgeColumn(),
}
