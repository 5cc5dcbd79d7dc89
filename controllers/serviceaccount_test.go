package controllers_test

import (
	"testing"

	"github.com/kapi-dev/kapi/controllers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServiceAccountControllerGivesEveryNamespaceADefaultServiceAccount(t *testing.T) {
	e := newEnv(t, controllers.Options{})
	for _, ns := range []string{"default", "kube-system", "kube-public", "kube-node-lease"} {
		assert.True(t, e.exists("/api/v1/namespaces/"+ns+"/serviceaccounts/default"), "the initial namespace %s has one", ns)
	}
	e.must(201, "POST", "/api/v1/namespaces", `{"metadata":{"name":"n1"}}`)
	e.idle()
	sa := e.must(200, "GET", "/api/v1/namespaces/n1/serviceaccounts/default", "")
	assert.Nil(t, nested(sa, "metadata", "managedFields"), "created with nothing but its name, as kube's")

	e.must(200, "DELETE", "/api/v1/namespaces/n1/serviceaccounts/default", "")
	e.idle()
	again := e.must(200, "GET", "/api/v1/namespaces/n1/serviceaccounts/default", "")
	require.NotEqual(t, nested(sa, "metadata", "uid"), nested(again, "metadata", "uid"), "a new one")
}
