package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/policy"
	"github.com/kapi-dev/kapi/meta"
)

// mutatingWebhookConfigurationResource is admissionregistration.k8s.io/v1
// mutatingwebhookconfigurations; the webhooks' checks cover what their
// schema requires (ValidatesCompletely).
func mutatingWebhookConfigurationResource() apiserver.Resource {
	return apiserver.Resource{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingWebhookConfiguration",
		Plural: "mutatingwebhookconfigurations", Categories: []string{"api-extensions"},
		PrinterColumns: mutatingWebhookColumns, GenericDelete: true, ValidatesCompletely: true, Strategy: webhookConfigurationStrategy{mutating: true}}
}

// webhookConfigurationStrategy is what a webhook configuration does
// differently.
type webhookConfigurationStrategy struct {
	apiserver.GenericStrategy
	mutating bool
}

// Default mirrors SetDefaults_MutatingWebhook and SetDefaults_ValidatingWebhook:
// failure policy Fail, Equivalent matching, selectors matching everything,
// ten seconds, rules of any scope, service port 443, and (mutating) no
// reinvocation.
func (s webhookConfigurationStrategy) Default(o meta.Object) {
	for _, w := range meta.AsList(o["webhooks"]) {
		wh, _ := w.(map[string]any)
		if wh == nil {
			continue
		}
		setDefault(wh, "failurePolicy", "Fail")
		setDefault(wh, "matchPolicy", "Equivalent")
		setDefault(wh, "namespaceSelector", map[string]any{})
		setDefault(wh, "objectSelector", map[string]any{})
		setDefault(wh, "timeoutSeconds", int64(10))
		if s.mutating {
			setDefault(wh, "reinvocationPolicy", "Never")
		}
		defaultRules(wh["rules"])
		if svc, ok := field(wh, "clientConfig", "service").(map[string]any); ok {
			setDefault(svc, "port", int64(443))
		}
	}
}

// Validate checks the webhooks as kube's
// ValidateMutatingWebhookConfiguration and
// ValidateValidatingWebhookConfiguration do (policy.ValidateWebhooks).
func (s webhookConfigurationStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	return policy.ValidateWebhooks(o, nil, s.mutating)
}

// ValidateUpdate checks them again, relaxing what the stored
// configuration already broke, as kube's update validation does.
func (s webhookConfigurationStrategy) ValidateUpdate(_ *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	return policy.ValidateWebhooks(o, old, s.mutating)
}

// defaultRules mirrors SetDefaults_Rule: a rule's scope is "*" unless told.
func defaultRules(rules any) {
	for _, r := range meta.AsList(rules) {
		if rm, ok := r.(map[string]any); ok {
			setDefault(rm, "scope", "*")
		}
	}
}

var mutatingWebhookColumns = []apiserver.PrinterColumn{
	column("Webhooks", "integer", "Webhooks indicates the number of webhooks registered in this configuration", 0,
		func(o meta.Object, now time.Time) any { return count(o["webhooks"]) }),
	apiserver.AgeColumn(),
}
