package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// mutatingAdmissionPolicyResource is admissionregistration.k8s.io/v1
// mutatingadmissionpolicies (GA and on by default since 1.36). They are
// stored and served; the server does not apply their mutations.
func mutatingAdmissionPolicyResource() apiserver.Resource {
	return apiserver.Resource{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingAdmissionPolicy",
		Plural: "mutatingadmissionpolicies", Categories: []string{"api-extensions"},
		PrinterColumns: mutatingAdmissionPolicyColumns, GenericDelete: true, Strategy: mutatingAdmissionPolicyStrategy{}}
}

// mutatingAdmissionPolicyStrategy is what a MutatingAdmissionPolicy does
// differently.
type mutatingAdmissionPolicyStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_MutatingAdmissionPolicySpec and
// SetDefaults_MatchResources: failure policy Fail, and the match
// constraints' defaults.
func (mutatingAdmissionPolicyStrategy) Default(o meta.Object) {
	spec := obj(o, "spec")
	setDefault(spec, "failurePolicy", "Fail")
	if mc, ok := spec["matchConstraints"].(map[string]any); ok {
		defaultMatchResources(mc)
	}
}

var mutatingAdmissionPolicyColumns = []apiserver.PrinterColumn{
	column("Mutations", "integer", "Mutation indicates the number of mutations rules defined in this configuration", 0,
		func(o meta.Object, now time.Time) any { return count(field(o, "spec", "mutations")) }),
	validatingAdmissionPolicyColumns[1], // ParamKind
	apiserver.AgeColumn(),
}
