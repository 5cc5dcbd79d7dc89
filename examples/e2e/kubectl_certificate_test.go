package e2e

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// csrRequest is a PEM certificate request for CN=alice, O=dev (base64).
const csrRequest = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlJQ1l6Q0NBVXNDQVFBd0hqRU9NQXdHQTFVRUF3d0ZZV3hwWTJVeEREQUtCZ05WQkFvTUEyUmxkakNDQVNJdwpEUVlKS29aSWh2Y05BUUVCQlFBRGdnRVBBRENDQVFvQ2dnRUJBTEZCaWZXMG56Z0ltZC9MY1diWlBKZ0tQenJtCmJqaFlrbjVTZkFpTlNkaE5RMHpONGlNN2UwdTRzV1k4MDgxVjlmY1hCZ1QzRisyMUg0eWZhdFMvQjQwMHhlL1gKeFZjY2tibUpyOHZhcXN1YXlEMG91N0FKZDdwd1FWNzRCN3g2TFNtdm9pdE9IdlBXdkZBdzJjY0plTEVMYlhicgp0YkRPM2o5bkpsdHJ1S2NvNHVmc2liMXE2djh3c2ZyK1FkRm5LcUQxZVNqSU84M1k4MWxqUUlLQk1nQWJyK3plCkxlSkV1dnFpb0dqd1k3VXoxNFV0MzBGcGVGTDY0NkdyUVJlVWkwREMwVjZ1THdWcEVuWWozYzBsZlNrUFd1MmQKaWc5dEhRQmlEZGhXWW5qV2hBYUpNMjk4YUVSQ0dySlhHbmVHVDhJQVZTVUFXRjVSc3pwdERyeVMyb2tDQXdFQQpBYUFBTUEwR0NTcUdTSWIzRFFFQkN3VUFBNElCQVFDVDVJQzczSTE1WE9xbmdRRlY0N0Q4bWpqQllncG91d2txCjVGeWJoT3kxazk4UnFrU2RhcFkvbkNPRjR0d1R1NFlKTGtPc1RxUUlMZE1KNDJVOXlSdnB6aTZ6YzQ3WDhPbkgKT0IvdGxLd3d1NVVLT0FnaHFsckNYUURkVjJJeTQ0S1RNblk0QWU0OFlvWVMzdmlWWmNTZDMxc29hY3hrTXVCRwpNT0ZJdW4wWFA4L0FhWi9tbG8zSlFSSDhkY3h4dU5nNUl6SlJGK0YzUERYeUF0TTJPZU52eWxkd3VFR1BGUEJFCklrd3JJS084M080TlphT0h2Q003UzgzRTl4USt3SWh3Tm9xYVYyWHRsV2dwazF6VlQ0VUtBbkROaDV4aFR4MDgKTWhsWVVmeDJ5bUZ5SzlBNEhSWW9HdkhFNDJrQmRNMW9Sb1ZzNzhGN3BPOGsyMGxzUWF4RwotLS0tLUVORCBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0K"

// TestKubectlCertificateApprove approves a CertificateSigningRequest
// through /approval as against kube-apiserver 1.33
// (docs/kube-behaviour/10-validation.md): kubectl's answers and the
// condition it leaves.
func TestKubectlCertificateApprove(t *testing.T) {
	c := startCluster(t)
	for _, v := range []string{"1.27", "1.33"} {
		t.Run("kubectl "+v, func(t *testing.T) {
			name := "alice-" + strings.ReplaceAll(v, ".", "")
			manifest := "apiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata: {name: " + name + "}\n" +
				"spec:\n  request: " + csrRequest + "\n  signerName: kubernetes.io/kube-apiserver-client\n  usages: [client auth]\n"
			_, err := c.kubectlStdin(v, manifest, "create", "-f", "-")
			require.NoError(t, err)
			assert.Equal(t, "certificatesigningrequest.certificates.k8s.io/"+name+" approved\n",
				c.mustKubectl(v, "certificate", "approve", name))
			assert.Equal(t, "Approved True KubectlApprove This CSR was approved by kubectl certificate approve.",
				c.mustKubectl(v, "get", "csr", name, "-o",
					"jsonpath={.status.conditions[0].type} {.status.conditions[0].status} {.status.conditions[0].reason} {.status.conditions[0].message}"))
			out, err := c.kubectl(v, "certificate", "deny", name)
			require.Error(t, err)
			assert.Equal(t, "error: certificate signing request \""+name+"\" is already Approved\n", out)
			assert.Contains(t, c.mustKubectl(v, "get", "csr", name), "Approved")
		})
	}
}
