package builtin

import (
	"fmt"
	"strings"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// NameErrors finds nothing: a ClusterTrustBundle's name rule depends on its
// spec.signerName, so Validate applies it (clusterTrustBundleNameErrors).
// Its causes then follow, rather than precede, those of the labels and
// annotations.
func (clusterTrustBundleStrategy) NameErrors(string) []string { return nil }

// Validate applies kube's ClusterTrustBundle name rule to the name and
// the generateName.
func (clusterTrustBundleStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	var e fieldErrs
	signer := str(o, "spec", "signerName")
	if gn := o.GenerateName(); gn != "" {
		masked := gn
		if len(gn) > 1 && strings.HasSuffix(gn, "-") {
			masked = gn[:len(gn)-1] + "a" // a prefix may end with '-'
		}
		e.invalidAll("metadata.generateName", gn, clusterTrustBundleNameErrors(signer, masked))
	}
	if name := o.Name(); name != "" {
		e.invalidAll("metadata.name", name, clusterTrustBundleNameErrors(signer, name))
	}
	return e.list
}

// clusterTrustBundleNameErrors is kube's ValidateClusterTrustBundleName: a
// bundle without a signer has a DNS subdomain name without ':'; a
// bundle of signer example.com/foo is named example.com:foo:<DNS
// subdomain>.
func clusterTrustBundleNameErrors(signer, name string) []string {
	if signer == "" {
		if strings.Contains(name, ":") {
			return []string{`ClusterTrustBundle without signer name must not have ":" in its name`}
		}
		return schema.DNS1123Subdomain(name)
	}
	prefix := strings.ReplaceAll(signer, "/", ":") + ":"
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return []string{fmt.Sprintf("ClusterTrustBundle for signerName %s must be named with prefix %s", signer, prefix)}
	}
	return schema.DNS1123Subdomain(rest)
}
