package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/policy"
	"github.com/kapi-dev/kapi/meta"
)

// validatingAdmissionPolicyBindingResource is admissionregistration.k8s.io/v1
// validatingadmissionpolicybindings.
func validatingAdmissionPolicyBindingResource() apiserver.Resource {
	return apiserver.Resource{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingAdmissionPolicyBinding",
		Plural: "validatingadmissionpolicybindings", Categories: []string{"api-extensions"},
		PrinterColumns: validatingAdmissionPolicyBindingColumns, GenericDelete: true, Strategy: validatingAdmissionPolicyBindingStrategy{}}
}

// validatingAdmissionPolicyBindingStrategy is what a binding does
// differently.
type validatingAdmissionPolicyBindingStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_MatchResources on the binding's resources.
func (validatingAdmissionPolicyBindingStrategy) Default(o meta.Object) {
	if mr, ok := field(o, "spec", "matchResources").(map[string]any); ok {
		defaultMatchResources(mr)
	}
}

// Validate checks the spec as kube does (policy.ValidateBinding).
func (validatingAdmissionPolicyBindingStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	return policy.ValidateBinding(o)
}

// ValidateUpdate checks the spec again.
func (validatingAdmissionPolicyBindingStrategy) ValidateUpdate(_ *apiserver.Write, o, _ meta.Object) meta.FieldErrors {
	return policy.ValidateBinding(o)
}

var validatingAdmissionPolicyBindingColumns = []apiserver.PrinterColumn{
	column("PolicyName", "string", "PolicyName indicates the policy definition which the policy binding binded to", 0,
		func(o meta.Object, now time.Time) any { return str(o, "spec", "policyName") }),
	// kube 1.35 corrected the description's spelling
	column("ParamRef", "string", sinceRelease(35, "ParamRef indicates the param resource which sets the configration param",
		"ParamRef indicates the param resource which sets the configuration param"), 0,
		func(o meta.Object, now time.Time) any {
			ref, ok := field(o, "spec", "paramRef").(map[string]any)
			switch {
			case !ok:
				return "<unset>"
			case stringOr(ref["name"], "") != "" && stringOr(ref["namespace"], "") != "":
				return ref["namespace"].(string) + "/" + ref["name"].(string)
			case stringOr(ref["name"], "") != "":
				return "*/" + ref["name"].(string)
			case ref["selector"] != nil:
				return labelSelectorString(ref["selector"])
			}
			return "<unset>"
		}),
	apiserver.AgeColumn(),
}
