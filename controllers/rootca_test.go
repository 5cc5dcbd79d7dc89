package controllers_test

import (
	"testing"

	"github.com/kapi-dev/kapi/controllers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const testCA = "-----BEGIN CERTIFICATE-----\nMIIBtest\n-----END CERTIFICATE-----\n"

// kube's description of the ConfigMap, word for word.
const rootCADescription = "Contains a CA bundle that can be used to verify the kube-apiserver when using internal " +
	"endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across " +
	"distributions of Kubernetes clusters."

func TestRootCAPublisherKeepsKubeRootCAInEveryNamespace(t *testing.T) {
	e := newEnv(t, controllers.Options{RootCA: []byte(testCA)})
	e.must(201, "POST", "/api/v1/namespaces", `{"metadata":{"name":"n1"}}`)
	e.idle()
	path := e.cmPath("n1", "kube-root-ca.crt")
	cm := e.must(200, "GET", path, "")
	assert.Equal(t, map[string]any{"ca.crt": testCA}, cm["data"])
	assert.Equal(t, rootCADescription, nested(cm, "metadata", "annotations", "kubernetes.io/description"))
	kcm := managedBy(cm, "kube-controller-manager")
	require.NotNil(t, kcm)
	assert.Equal(t, map[string]any{
		"f:data":     map[string]any{".": map[string]any{}, "f:ca.crt": map[string]any{}},
		"f:metadata": map[string]any{"f:annotations": map[string]any{".": map[string]any{}, "f:kubernetes.io/description": map[string]any{}}},
	}, kcm["fieldsV1"], "kube's managedFields")
	assert.Equal(t, "Update", kcm["operation"])

	t.Run("a changed bundle is put back", func(t *testing.T) {
		code, _ := e.do("PATCH", path, "application/merge-patch+json", `{"data":{"ca.crt":"tampered","extra":"x"}}`)
		require.Equal(t, 200, code)
		e.idle()
		cm := e.must(200, "GET", path, "")
		assert.Equal(t, map[string]any{"ca.crt": testCA}, cm["data"])
	})
	t.Run("a deleted one is created again", func(t *testing.T) {
		e.must(200, "DELETE", path, "")
		e.idle()
		assert.True(t, e.exists(path))
	})
	t.Run("the initial namespaces have one", func(t *testing.T) {
		for _, ns := range []string{"default", "kube-system", "kube-public", "kube-node-lease"} {
			assert.True(t, e.exists(e.cmPath(ns, "kube-root-ca.crt")), ns)
		}
	})
}
