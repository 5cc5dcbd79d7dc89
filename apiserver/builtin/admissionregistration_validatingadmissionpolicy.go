package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/policy"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// validatingAdmissionPolicyResource is admissionregistration.k8s.io/v1
// validatingadmissionpolicies.
func validatingAdmissionPolicyResource() apiserver.Resource {
	return apiserver.Resource{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingAdmissionPolicy",
		Plural: "validatingadmissionpolicies", Categories: []string{"api-extensions"}, StatusSubresource: true,
		PrinterColumns: validatingAdmissionPolicyColumns, GenericDelete: true, Strategy: validatingAdmissionPolicyStrategy{}}
}

// validatingAdmissionPolicyStrategy is what a ValidatingAdmissionPolicy
// does differently.
type validatingAdmissionPolicyStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_ValidatingAdmissionPolicySpec and
// SetDefaults_MatchResources: failure policy Fail, Equivalent matching,
// selectors matching everything, rules of any scope.
func (validatingAdmissionPolicyStrategy) Default(o meta.Object) {
	spec := obj(o, "spec")
	setDefault(spec, "failurePolicy", "Fail")
	if mc, ok := spec["matchConstraints"].(map[string]any); ok {
		defaultMatchResources(mc)
	}
}

// PrepareForCreate starts a policy with an empty status.
func (validatingAdmissionPolicyStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	o["status"] = map[string]any{}
}

// Validate checks the spec as kube does, its CEL expressions compiled in
// the environment a request runs them in (policy.ValidatePolicy).
func (validatingAdmissionPolicyStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	return policy.ValidatePolicy(o)
}

// ValidateUpdate checks the spec again; a status write is the server's.
func (validatingAdmissionPolicyStrategy) ValidateUpdate(w *apiserver.Write, o, _ meta.Object) meta.FieldErrors {
	if w.Subresource != "" {
		return nil
	}
	return policy.ValidatePolicy(o)
}

// AfterWrite type-checks the policy and writes its status, as kube's
// status controller does (apiserver.WritePolicyStatus).
func (validatingAdmissionPolicyStrategy) AfterWrite(w *apiserver.Write, stored *store.Object) (*store.Object, error) {
	return apiserver.WritePolicyStatus(w, stored)
}

// defaultMatchResources mirrors SetDefaults_MatchResources.
func defaultMatchResources(mr map[string]any) {
	setDefault(mr, "matchPolicy", "Equivalent")
	setDefault(mr, "namespaceSelector", map[string]any{})
	setDefault(mr, "objectSelector", map[string]any{})
	defaultRules(mr["resourceRules"])
	defaultRules(mr["excludeResourceRules"])
}

var validatingAdmissionPolicyColumns = []apiserver.PrinterColumn{
	column("Validations", "integer", "Validations indicates the number of validation rules defined in this configuration", 0,
		func(o meta.Object, now time.Time) any { return count(field(o, "spec", "validations")) }),
	column("ParamKind", "string", "ParamKind specifies the kind of resources used to parameterize this policy", 0,
		func(o meta.Object, now time.Time) any {
			if pk, ok := field(o, "spec", "paramKind").(map[string]any); ok {
				return stringOr(pk["apiVersion"], "") + "/" + stringOr(pk["kind"], "")
			}
			return "<unset>"
		}),
	apiserver.AgeColumn(),
}
