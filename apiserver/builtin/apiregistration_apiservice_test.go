package builtin_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLocalAPIServicesAreMarkedAvailable holds a local APIService (no
// spec.service) to what kube's availability controller makes of it: the
// create answers with the empty status it stored, and the APIService is
// then Available, reason Local, by a status write of the server's own.
func TestLocalAPIServicesAreMarkedAvailable(t *testing.T) {
	srv := newBuiltinServer(t)
	const path = "/apis/apiregistration.k8s.io/v1/apiservices"
	code, out := serve(t, srv, "POST", path, "application/json",
		`{"metadata":{"name":"v1.local.example.com"},"spec":{"group":"local.example.com","version":"v1","groupPriorityMinimum":100,"versionPriority":10}}`)
	require.Equal(t, http.StatusCreated, code, out)
	assert.Equal(t, map[string]any{}, out["status"])

	got := getJSON(t, srv, path+"/v1.local.example.com", "application/json").(map[string]any)
	conds := got["status"].(map[string]any)["conditions"].([]any)
	require.Len(t, conds, 1)
	cond := conds[0].(map[string]any)
	assert.NotEmpty(t, cond["lastTransitionTime"])
	delete(cond, "lastTransitionTime")
	assert.Equal(t, map[string]any{"type": "Available", "status": "True", "reason": "Local", "message": "Local APIServices are always available"}, cond)
	managers := map[string]string{}
	for _, m := range got["metadata"].(map[string]any)["managedFields"].([]any) {
		e := m.(map[string]any)
		sub, _ := e["subresource"].(string)
		managers[e["manager"].(string)+"/"+sub] = e["operation"].(string)
	}
	assert.Equal(t, "Update", managers["kube-apiserver/status"], "%v", managers)

	code, out = serve(t, srv, "POST", path, "application/json",
		`{"metadata":{"name":"v1.remote.example.com"},"spec":{"group":"remote.example.com","version":"v1","groupPriorityMinimum":100,"versionPriority":10,
		  "service":{"namespace":"default","name":"api"}}}`)
	require.Equal(t, http.StatusCreated, code, out)
	got = getJSON(t, srv, path+"/v1.remote.example.com", "application/json").(map[string]any)
	assert.Equal(t, map[string]any{}, got["status"], "a remote APIService is not marked available")
}
