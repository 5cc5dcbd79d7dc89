package e2e

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const invalidValidatingWebhooks = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: probe-kubectl
webhooks:
- name: a.b.c
  clientConfig:
    url: https://u:p@h.example/x#frag
  sideEffects: Some
  admissionReviewVersions: ["v1"]
- name: a.b.c
  clientConfig:
    service: {name: s, namespace: ns, port: 0}
  sideEffects: None
  admissionReviewVersions: ["v1"]
`

const validMutatingWebhooks = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: probe-kubectl
webhooks:
- name: m.example.com
  clientConfig:
    url: https://h.example/mutate
  sideEffects: None
  admissionReviewVersions: ["v1"]
`

// TestKubectlRefusesInvalidWebhookConfigurations applies webhook
// configurations kube-apiserver 1.33 refuses, with kubectl 1.27 and 1.33:
// kubectl prints kube's causes, in kube's order, on create and on an
// apply that patches a stored configuration
// (docs/kube-behaviour/14-webhook-configurations.md).
func TestKubectlRefusesInvalidWebhookConfigurations(t *testing.T) {
	c := startCluster(t)
	invalidUpdate := strings.Replace(validMutatingWebhooks, "  sideEffects: None\n",
		"  sideEffects: None\n  timeoutSeconds: 31\n  reinvocationPolicy: Sometimes\n", 1)
	for _, v := range []string{"1.27", "1.33"} {
		t.Run("kubectl "+v, func(t *testing.T) {
			for _, verb := range []string{"apply", "create"} {
				out, err := c.kubectlStdin(v, invalidValidatingWebhooks, verb, "-f", "-")
				require.Error(t, err, verb)
				assert.Equal(t, `The ValidatingWebhookConfiguration "probe-kubectl" is invalid: `+"\n"+
					`* webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"`+"\n"+
					`* webhooks[0].clientConfig.url: Invalid value: "u:p": user information is not permitted in the URL`+"\n"+
					`* webhooks[0].clientConfig.url: Invalid value: "frag": fragments are not permitted in the URL`+"\n"+
					`* webhooks[1].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive`+"\n"+
					`* webhooks[1].name: Duplicate value: "a.b.c"`+"\n", out, verb)
			}
			_, err := c.kubectl(v, "get", "validatingwebhookconfiguration", "probe-kubectl")
			require.Error(t, err, "nothing is stored")

			out, err := c.kubectlStdin(v, validMutatingWebhooks, "apply", "-f", "-")
			require.NoError(t, err, out)
			assert.Equal(t, "mutatingwebhookconfiguration.admissionregistration.k8s.io/probe-kubectl created\n", out)
			out, err = c.kubectlStdin(v, invalidUpdate, "apply", "-f", "-")
			require.Error(t, err)
			assert.Equal(t, `The MutatingWebhookConfiguration "probe-kubectl" is invalid: `+"\n"+
				`* webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds`+"\n"+
				`* webhooks[0].reinvocationPolicy: Unsupported value: "Sometimes": supported values: "IfNeeded", "Never"`+"\n", out)
			c.mustKubectl(v, "delete", "mutatingwebhookconfiguration", "probe-kubectl")
		})
	}
}
