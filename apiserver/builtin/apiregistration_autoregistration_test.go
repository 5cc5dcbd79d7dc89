package builtin_test

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
)

// TestAPIServicesForEveryServedGroupVersion: a server serving APIServices
// has one for each group version it serves, as kube-apiserver 1.33
// registers them (docs/kube-behaviour/11-apiservices.md).
func TestAPIServicesForEveryServedGroupVersion(t *testing.T) {
	srv := newAPIServiceServer(t)

	code, list := serve(t, srv, "GET", "/apis/apiregistration.k8s.io/v1/apiservices", "", "")
	require.Equal(t, http.StatusOK, code)
	names := apiServiceNames(list)
	assert.Contains(t, names, "v1.")
	assert.Contains(t, names, "v1.apps")
	assert.Contains(t, names, "v1.coordination.k8s.io")
	assert.NotContains(t, names, "v1.apiregistration.k8s.io", "kube registers none for the aggregator's own group")

	code, svc := serve(t, srv, "GET", "/apis/apiregistration.k8s.io/v1/apiservices/v1.apps", "", "")
	require.Equal(t, http.StatusOK, code)
	m := md(svc)
	assert.Equal(t, map[string]any{"kube-aggregator.kubernetes.io/automanaged": "onstart"}, m["labels"])
	assert.Equal(t, automanagedFields, m["managedFields"])
	assert.Equal(t, map[string]any{"group": "apps", "version": "v1", "groupPriorityMinimum": float64(17800), "versionPriority": float64(15)}, svc["spec"])
	assert.Equal(t, localAvailable, svc["status"])

	code, core := serve(t, srv, "GET", "/apis/apiregistration.k8s.io/v1/apiservices/v1.", "", "")
	require.Equal(t, http.StatusOK, code)
	assert.Equal(t, map[string]any{"version": "v1", "groupPriorityMinimum": float64(18000), "versionPriority": float64(1)}, core["spec"])
}

// TestAPIServicesFollowTheGroupVersionsOfCRDs: each served version of a
// CRD's group has an automanaged APIService, as kube's CRD registration
// controller keeps them (docs/kube-behaviour/11-apiservices.md), until no
// CRD serves it.
func TestAPIServicesFollowTheGroupVersionsOfCRDs(t *testing.T) {
	srv := newAPIServiceServer(t)
	const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	crd := func(v2Served bool) string {
		return `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"gadgets.example.com"},
"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"gadgets","singular":"gadget","kind":"Gadget"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}},
{"name":"v2beta1","served":` + strconv.FormatBool(v2Served) + `,"storage":false,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}},
{"name":"v0","served":false,"storage":false,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`
	}
	crdNames := func() []string {
		code, list := serve(t, srv, "GET", "/apis/apiregistration.k8s.io/v1/apiservices?labelSelector=kube-aggregator.kubernetes.io%2Fautomanaged%3Dtrue", "", "")
		require.Equal(t, http.StatusOK, code)
		return apiServiceNames(list)
	}

	code, body := serve(t, srv, "POST", crds, "application/json", crd(true))
	require.Equal(t, http.StatusCreated, code, body)
	assert.Equal(t, []string{"v1.example.com", "v2beta1.example.com"}, crdNames(), "one for each served version")

	code, svc := serve(t, srv, "GET", "/apis/apiregistration.k8s.io/v1/apiservices/v1.example.com", "", "")
	require.Equal(t, http.StatusOK, code)
	m := md(svc)
	assert.Equal(t, map[string]any{"kube-aggregator.kubernetes.io/automanaged": "true"}, m["labels"])
	assert.Equal(t, automanagedFields, m["managedFields"])
	assert.Equal(t, map[string]any{"group": "example.com", "version": "v1", "groupPriorityMinimum": float64(1000), "versionPriority": float64(100)}, svc["spec"])
	assert.Equal(t, localAvailable, svc["status"])

	code, body = serve(t, srv, "PUT", crds+"/gadgets.example.com", "application/json", strings.Replace(crd(false),
		`"name":"gadgets.example.com"`, `"name":"gadgets.example.com","resourceVersion":"`+md(body)["resourceVersion"].(string)+`"`, 1))
	require.Equal(t, http.StatusOK, code, body)
	assert.Equal(t, []string{"v1.example.com"}, crdNames(), "a version no longer served loses its APIService")

	code, body = serve(t, srv, "DELETE", crds+"/gadgets.example.com", "", "")
	require.Equal(t, http.StatusOK, code, body)
	assert.Empty(t, crdNames(), "none once no CRD serves the group")
}

var (
	automanagedFields = []any{map[string]any{"manager": "kube-apiserver", "operation": "Update", "apiVersion": "apiregistration.k8s.io/v1",
		"time": "2026-11-24T21:12:21Z", "fieldsType": "FieldsV1", "fieldsV1": map[string]any{
			"f:metadata": map[string]any{"f:labels": map[string]any{".": map[string]any{}, "f:kube-aggregator.kubernetes.io/automanaged": map[string]any{}}},
			"f:spec": map[string]any{"f:group": map[string]any{}, "f:groupPriorityMinimum": map[string]any{}, "f:version": map[string]any{},
				"f:versionPriority": map[string]any{}}}}}
	localAvailable = map[string]any{"conditions": []any{map[string]any{"type": "Available", "status": "True",
		"lastTransitionTime": "2026-11-24T21:12:21Z", "reason": "Local", "message": "Local APIServices are always available"}}}
)

func apiServiceNames(list map[string]any) []string {
	var names []string
	for _, it := range list["items"].([]any) {
		names = append(names, md(it.(map[string]any))["name"].(string))
	}
	sort.Strings(names)
	return names
}

// newAPIServiceServer is a server of the built-in kinds and their
// post-start hooks at a fixed time.
func newAPIServiceServer(t *testing.T) *apiserver.Server {
	t.Helper()
	now := time.Date(2026, 11, 24, 21, 12, 21, 0, time.UTC)
	rs := builtin.Resources()
	served := false
	for _, r := range rs {
		served = served || r.Plural == "apiservices"
	}
	if !served {
		rs = append(rs, apiserver.Resource{Group: "apiregistration.k8s.io", Version: "v1", Kind: "APIService", Plural: "apiservices",
			StatusSubresource: true, WithoutGeneration: true})
	}
	hooks, err := builtin.PostStartHooks(builtin.Options{})
	require.NoError(t, err)
	srv, err := apiserver.New(apiserver.Config{Resources: rs, OpenAPIComponents: builtin.OpenAPIComponents(), PostStartHooks: hooks,
		Now: func() time.Time { return now }})
	require.NoError(t, err)
	return srv
}
