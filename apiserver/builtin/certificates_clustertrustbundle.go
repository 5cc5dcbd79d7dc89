package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// clusterTrustBundleResource is certificates.k8s.io/v1 clustertrustbundles
// (GA and on by default in 1.37), selectable by signer.
func clusterTrustBundleResource() apiserver.Resource {
	return apiserver.Resource{Group: "certificates.k8s.io", Version: "v1", Kind: "ClusterTrustBundle",
		Plural: "clustertrustbundles", WithoutGeneration: true, SelectableFields: []string{"spec.signerName"},
		GenericDelete: true, Strategy: clusterTrustBundleStrategy{},
		PrinterColumns: []apiserver.PrinterColumn{
			column("SignerName", "string", propertyDoc("io.k8s.api.certificates.v1.ClusterTrustBundleSpec", "signerName"), 0,
				func(o meta.Object, now time.Time) any {
					if s := str(o, "spec", "signerName"); s != "" {
						return s
					}
					return "<none>"
				}),
		}}
}

// clusterTrustBundleStrategy is what a ClusterTrustBundle does
// differently: its name follows its signer (the name rule is in
// certificates_clustertrustbundle_validation.go).
type clusterTrustBundleStrategy struct{ apiserver.GenericStrategy }
