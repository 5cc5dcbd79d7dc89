package fieldmanager_test

import "testing"

// csaCreated is a ConfigMap as client-side `kubectl apply` creates it: its
// configuration in the last-applied annotation, tracked for the manager
// kubectl-client-side-apply.
var csaCreated = Update{Manager: "kubectl-client-side-apply", Object: `
apiVersion: v1
kind: ConfigMap
metadata:
  name: x
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"apiVersion":"v1","data":{"a":"1","b":"1"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"x"}}
data: {a: "1", b: "1"}`}

const csaFields = `{"f:data":{".":{},"f:b":{}},"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}}}`

// Scenarios of "Upgrading from client-side apply to server-side apply":
// kubectl's first `apply --server-side` takes over, without conflicts,
// the fields client-side apply managed, and keeps the annotation current.
func TestScenarioClientSideApplyUpgrade(t *testing.T) {
	runScenarios(t, map[string]scenario{
		"kubectl's server-side apply takes over what client-side apply managed": {
			Kind: configMap,
			Ops: []op{
				csaCreated,
				Apply{Manager: "kubectl", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "2", b: "1"}}`},
			},
			Object: `
apiVersion: v1
kind: ConfigMap
metadata:
  name: x
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"apiVersion":"v1","data":{"a":"2","b":"1"},"kind":"ConfigMap","metadata":{"name":"x"}}
data: {a: "2", b: "1"}`,
			Managed: []entry{
				{Manager: "kubectl", Operation: "Apply", APIVersion: "v1", Time: 2, Fields: `{"f:data":{"f:a":{},"f:b":{}}}`},
				{Manager: "kubectl-client-side-apply", Operation: "Update", APIVersion: "v1", Time: 1, Fields: csaFields},
			},
		},
		"but not what someone changed since the last client-side apply": {
			Kind: configMap,
			Ops: []op{
				csaCreated,
				Update{Manager: "kubectl-edit", Object: `
apiVersion: v1
kind: ConfigMap
metadata:
  name: x
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"apiVersion":"v1","data":{"a":"1","b":"1"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"x"}}
data: {a: "1", b: "2"}`},
				Apply{Manager: "kubectl", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "3", b: "3"}}`,
					Conflict: `Apply failed with 1 conflict: conflict with "kubectl-edit" using v1: .data.b`},
				Apply{Manager: "kubectl", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "3", b: "2"}}`},
			},
			Managed: []entry{
				{Manager: "kubectl", Operation: "Apply", APIVersion: "v1", Time: 4, Fields: `{"f:data":{"f:a":{},"f:b":{}}}`},
				{Manager: "kubectl-client-side-apply", Operation: "Update", APIVersion: "v1", Time: 1,
					Fields: `{"f:data":{},"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}}}`},
				{Manager: "kubectl-edit", Operation: "Update", APIVersion: "v1", Time: 2, Fields: `{"f:data":{"f:b":{}}}`},
			},
		},
		"the annotation becomes the applied configuration as JSON, HTML-escaped, with a newline": {
			Kind: configMap,
			Ops: []op{
				csaCreated,
				Apply{Manager: "kubectl", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x, annotations: {x: "<&>"}}, data: {a: "1", b: "1"}}`},
			},
			Object: `
apiVersion: v1
kind: ConfigMap
metadata:
  name: x
  annotations:
    x: "<&>"
    kubectl.kubernetes.io/last-applied-configuration: |
      {"apiVersion":"v1","data":{"a":"1","b":"1"},"kind":"ConfigMap","metadata":{"annotations":{"x":"\u003c\u0026\u003e"},"name":"x"}}
data: {a: "1", b: "1"}`,
			Managed: []entry{
				{Manager: "kubectl", Operation: "Apply", APIVersion: "v1", Time: 2, Fields: `{"f:data":{"f:a":{},"f:b":{}},"f:metadata":{"f:annotations":{"f:x":{}}}}`},
				{Manager: "kubectl-client-side-apply", Operation: "Update", APIVersion: "v1", Time: 1,
					Fields: `{"f:data":{".":{},"f:a":{},"f:b":{}},"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}}}`},
			},
		},
		"another field manager gets the conflicts": {
			Kind: configMap,
			Ops: []op{
				csaCreated,
				Apply{Manager: "ci", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "2"}}`,
					Conflict: `Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.a`},
			},
			Managed: []entry{
				{Manager: "kubectl-client-side-apply", Operation: "Update", APIVersion: "v1", Time: 1,
					Fields: `{"f:data":{".":{},"f:a":{},"f:b":{}},"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}}}`},
			},
		},
	})
}
