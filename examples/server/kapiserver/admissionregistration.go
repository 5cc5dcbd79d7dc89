package kapiserver

import (
	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/policy"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// withAdmissionRegistration adds admissionregistration.k8s.io/v1's
// ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding,
// MutatingWebhookConfiguration and ValidatingWebhookConfiguration when
// the resources do not serve them already (apiserver/builtin registers
// them with kube's printer columns; these registrations have kube's
// defaults and validation of what admission reads).
func withAdmissionRegistration(resources []apiserver.Resource) []apiserver.Resource {
	served := map[string]bool{}
	for _, r := range resources {
		if r.Group == "admissionregistration.k8s.io" && r.Version == "v1" {
			served[r.Plural] = true
		}
	}
	for _, r := range []apiserver.Resource{
		{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingAdmissionPolicy",
			Plural: "validatingadmissionpolicies", Categories: []string{"api-extensions"}, StatusSubresource: true,
			Strategy: policyStrategy{}},
		{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingAdmissionPolicyBinding",
			Plural: "validatingadmissionpolicybindings", Categories: []string{"api-extensions"}, Strategy: bindingStrategy{}},
		{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingWebhookConfiguration",
			Plural: "mutatingwebhookconfigurations", Categories: []string{"api-extensions"}, Strategy: webhookStrategy{mutating: true}},
		{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingWebhookConfiguration",
			Plural: "validatingwebhookconfigurations", Categories: []string{"api-extensions"}, Strategy: webhookStrategy{}},
	} {
		if !served[r.Plural] {
			resources = append(resources, r)
		}
	}
	return resources
}

func setDefault(m map[string]any, k string, v any) {
	if m == nil {
		return
	}
	if _, ok := m[k]; !ok {
		m[k] = v
	}
}

func defaultMatchResources(mr map[string]any) {
	setDefault(mr, "matchPolicy", "Equivalent")
	setDefault(mr, "namespaceSelector", map[string]any{})
	setDefault(mr, "objectSelector", map[string]any{})
	for _, list := range []string{"resourceRules", "excludeResourceRules"} {
		rules, _ := mr[list].([]any)
		for _, r := range rules {
			rm, _ := r.(map[string]any)
			setDefault(rm, "scope", "*")
		}
	}
}

type policyStrategy struct{ apiserver.GenericStrategy }

func (policyStrategy) Default(o meta.Object) {
	spec, _ := o["spec"].(map[string]any)
	setDefault(spec, "failurePolicy", "Fail")
	if mc, ok := spec["matchConstraints"].(map[string]any); ok {
		defaultMatchResources(mc)
	}
}

func (policyStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	o["status"] = map[string]any{}
}

func (policyStrategy) AfterWrite(w *apiserver.Write, stored *store.Object) (*store.Object, error) {
	return apiserver.WritePolicyStatus(w, stored)
}

func (policyStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	return policy.ValidatePolicy(o)
}

func (policyStrategy) ValidateUpdate(w *apiserver.Write, o, _ meta.Object) meta.FieldErrors {
	if w.Subresource != "" {
		return nil
	}
	return policy.ValidatePolicy(o)
}

type bindingStrategy struct{ apiserver.GenericStrategy }

func (bindingStrategy) Default(o meta.Object) {
	spec, _ := o["spec"].(map[string]any)
	if mr, ok := spec["matchResources"].(map[string]any); ok {
		defaultMatchResources(mr)
	}
}

func (bindingStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	return policy.ValidateBinding(o)
}

func (bindingStrategy) ValidateUpdate(_ *apiserver.Write, o, _ meta.Object) meta.FieldErrors {
	return policy.ValidateBinding(o)
}

type webhookStrategy struct {
	apiserver.GenericStrategy
	mutating bool
}

func (s webhookStrategy) Default(o meta.Object) {
	hooks, _ := o["webhooks"].([]any)
	for _, h := range hooks {
		wh, _ := h.(map[string]any)
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
		rules, _ := wh["rules"].([]any)
		for _, r := range rules {
			rm, _ := r.(map[string]any)
			setDefault(rm, "scope", "*")
		}
		if cc, ok := wh["clientConfig"].(map[string]any); ok {
			if svc, ok := cc["service"].(map[string]any); ok {
				setDefault(svc, "port", int64(443))
			}
		}
	}
}
