package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// mutatingAdmissionPolicyBindingResource is admissionregistration.k8s.io/v1
// mutatingadmissionpolicybindings (since 1.36).
func mutatingAdmissionPolicyBindingResource() apiserver.Resource {
	return apiserver.Resource{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingAdmissionPolicyBinding",
		Plural: "mutatingadmissionpolicybindings", Categories: []string{"api-extensions"},
		PrinterColumns: mutatingAdmissionPolicyBindingColumns, GenericDelete: true, Strategy: mutatingAdmissionPolicyBindingStrategy{}}
}

// mutatingAdmissionPolicyBindingStrategy is what a binding does
// differently.
type mutatingAdmissionPolicyBindingStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_MatchResources on the binding's resources.
func (mutatingAdmissionPolicyBindingStrategy) Default(o meta.Object) {
	if mr, ok := field(o, "spec", "matchResources").(map[string]any); ok {
		defaultMatchResources(mr)
	}
}

// mutatingAdmissionPolicyBindingColumns are a ValidatingAdmissionPolicyBinding's,
// with kube's spelling of ParamRef's description for this kind.
var mutatingAdmissionPolicyBindingColumns = func() []apiserver.PrinterColumn {
	cols := append([]apiserver.PrinterColumn(nil), validatingAdmissionPolicyBindingColumns...)
	cols[1].Description = "ParamRef indicates the param resource which sets the configuration param"
	return cols
}()
