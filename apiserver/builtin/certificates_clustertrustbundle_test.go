package builtin_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
)

// TestClusterTrustBundleNamesFollowTheirSigner holds kube's
// ValidateClusterTrustBundleName: a bundle of a signer is named with the
// signer's name as a prefix, its slashes turned to colons, then a DNS
// subdomain; a bundle without a signer has no colon in its name.
func TestClusterTrustBundleNamesFollowTheirSigner(t *testing.T) {
	const anchor = "-----BEGIN CERTIFICATE-----\nMIIBpTCCAUygAwIBAgIEATUlBTAKBggqhkjOPQQDAjA5\n-----END CERTIFICATE-----\n"
	cases := []struct {
		name, signer, bundle string
		code                 int
		detail               string
	}{
		{name: "a bundle of a signer is named with the signer as a prefix", signer: "example.com/internal-ca",
			bundle: "example.com:internal-ca:2026", code: http.StatusCreated},
		{name: "a bundle without a signer has a DNS subdomain name", bundle: "corp-roots", code: http.StatusCreated},
		{name: "a bundle without a signer may not have a colon in its name", bundle: "example.com:internal-ca:2026",
			code: http.StatusUnprocessableEntity, detail: `ClusterTrustBundle without signer name must not have ":" in its name`},
		{name: "a bundle of a signer named without its prefix is refused", signer: "example.com/internal-ca", bundle: "internal-ca-2026",
			code: http.StatusUnprocessableEntity, detail: "ClusterTrustBundle for signerName example.com/internal-ca must be named with prefix example.com:internal-ca:"},
		{name: "what follows the signer's prefix is a DNS subdomain", signer: "example.com/internal-ca", bundle: "example.com:internal-ca:V2",
			code: http.StatusUnprocessableEntity, detail: "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources()})
			require.NoError(t, err)
			spec := map[string]any{"trustBundle": anchor}
			if c.signer != "" {
				spec["signerName"] = c.signer
			}
			body, err := json.Marshal(map[string]any{"apiVersion": "certificates.k8s.io/v1", "kind": "ClusterTrustBundle",
				"metadata": map[string]any{"name": c.bundle}, "spec": spec})
			require.NoError(t, err)
			code, out := serve(t, srv, "POST", "/apis/certificates.k8s.io/v1/clustertrustbundles", "application/json", string(body))
			require.Equal(t, c.code, code, "%v", out)
			if c.detail == "" {
				return
			}
			details, _ := out["details"].(map[string]any)
			causes, _ := details["causes"].([]any)
			require.Len(t, causes, 1, "%v", out)
			assert.Equal(t, map[string]any{"reason": "FieldValueInvalid", "field": "metadata.name",
				"message": "Invalid value: \"" + c.bundle + "\": " + c.detail}, causes[0])
		})
	}
}
