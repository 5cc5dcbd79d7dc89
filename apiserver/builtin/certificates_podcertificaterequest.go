package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// podCertificateRequestResource is certificates.k8s.io/v1
// podcertificaterequests (GA and on by default in 1.37). Nothing signs
// them: a signer controller does, as in kube.
func podCertificateRequestResource() apiserver.Resource {
	const spec = "io.k8s.api.certificates.v1.PodCertificateRequestSpec"
	specColumn := func(name, field string, priority int32) apiserver.PrinterColumn {
		return column(name, "string", propertyDoc(spec, field), priority,
			func(o meta.Object, now time.Time) any { return str(o, "spec", field) })
	}
	return apiserver.Resource{Group: "certificates.k8s.io", Version: "v1", Kind: "PodCertificateRequest",
		Plural: "podcertificaterequests", Namespaced: true, StatusSubresource: true, WithoutGeneration: true,
		SelectableFields: []string{"spec.signerName", "spec.podName", "spec.nodeName"},
		PrinterColumns: []apiserver.PrinterColumn{
			specColumn("PodName", "podName", 0),
			specColumn("ServiceAccountName", "serviceAccountName", 0),
			specColumn("NodeName", "nodeName", 0),
			specColumn("SignerName", "signerName", 0),
			column("State", "string", "Is the request Pending, Issued, Denied, or Failed?", 0,
				func(o meta.Object, now time.Time) any {
					state := "Pending"
					conds, _ := field(o, "status", "conditions").([]any)
					for _, c := range conds {
						switch t, _ := asMap(c)["type"].(string); t {
						case "Issued", "Denied", "Failed":
							state = t
						}
					}
					return state
				}),
			column("UnverifiedUserAnnotations", "string", propertyDoc(spec, "unverifiedUserAnnotations"), 1,
				func(o meta.Object, now time.Time) any {
					return selectorString(field(o, "spec", "unverifiedUserAnnotations"))
				}),
		}}
}
