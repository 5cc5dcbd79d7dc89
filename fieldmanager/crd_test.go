package fieldmanager_test

import "testing"

// Scenarios on a custom resource whose schema uses every SSA marker
// (testdata/widget-crd.yaml), served at v1 and v2, with a status
// subresource.
func TestScenarioCustomResource(t *testing.T) {
	runScenarios(t, map[string]scenario{
		"list-map items merge by key from two appliers": {
			Kind: widget,
			Ops: []op{
				Apply{Manager: "m1", Object: `
apiVersion: example.com/v1
kind: Widget
metadata: {name: x}
spec: {items: [{name: a, value: "1"}]}`},
				Apply{Manager: "m2", Object: `
apiVersion: example.com/v1
kind: Widget
metadata: {name: x}
spec: {items: [{name: b, value: "2"}]}`},
				Apply{Manager: "m2", Object: `
apiVersion: example.com/v1
kind: Widget
metadata: {name: x}
spec: {items: [{name: a, value: "3"}]}`,
					Conflict: `Apply failed with 1 conflict: conflict with "m1": .spec.items[name="a"].value`},
			},
			Object: `
apiVersion: example.com/v1
kind: Widget
metadata: {name: x}
spec: {items: [{name: a, value: "1"}, {name: b, value: "2"}]}`,
			Managed: []entry{
				{Manager: "m1", Operation: "Apply", APIVersion: "example.com/v1", Time: 1,
					Fields: `{"f:spec":{"f:items":{"k:{\"name\":\"a\"}":{".":{},"f:name":{},"f:value":{}}}}}`},
				{Manager: "m2", Operation: "Apply", APIVersion: "example.com/v1", Time: 2,
					Fields: `{"f:spec":{"f:items":{"k:{\"name\":\"b\"}":{".":{},"f:name":{},"f:value":{}}}}}`},
			},
		},
		"list-map items keyed by several fields": {
			Kind: widget,
			Ops: []op{
				Apply{Manager: "m1", Object: `
apiVersion: example.com/v1
kind: Widget
metadata: {name: x}
spec: {ports: [{port: 80, protocol: TCP, name: http}, {port: 80, protocol: UDP}]}`},
				Update{Manager: "up", Object: `
apiVersion: example.com/v1
kind: Widget
metadata: {name: x}
spec: {ports: [{port: 80, protocol: TCP, name: web}, {port: 80, protocol: UDP}, {port: 53, protocol: UDP}]}`},
			},
			Managed: []entry{
				{Manager: "m1", Operation: "Apply", APIVersion: "example.com/v1", Time: 1,
					Fields: `{"f:spec":{"f:ports":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:port":{},"f:protocol":{}},"k:{\"port\":80,\"protocol\":\"UDP\"}":{".":{},"f:port":{},"f:protocol":{}}}}}`},
				{Manager: "up", Operation: "Update", APIVersion: "example.com/v1", Time: 2,
					Fields: `{"f:spec":{"f:ports":{"k:{\"port\":53,\"protocol\":\"UDP\"}":{".":{},"f:port":{},"f:protocol":{}},"k:{\"port\":80,\"protocol\":\"TCP\"}":{"f:name":{}}}}}`},
			},
		},
		"set items merge by value": {
			Kind: widget,
			Ops: []op{
				Apply{Manager: "m1", Object: `{apiVersion: example.com/v1, kind: Widget, metadata: {name: x}, spec: {tags: [a, b]}}`},
				Apply{Manager: "m2", Object: `{apiVersion: example.com/v1, kind: Widget, metadata: {name: x}, spec: {tags: [b, c]}}`},
				Apply{Manager: "m1", Object: `{apiVersion: example.com/v1, kind: Widget, metadata: {name: x}, spec: {tags: [a]}}`},
			},
			Object: `{apiVersion: example.com/v1, kind: Widget, metadata: {name: x}, spec: {tags: [a, b, c]}}`,
			Managed: []entry{
				{Manager: "m1", Operation: "Apply", APIVersion: "example.com/v1", Time: 1, Fields: `{"f:spec":{"f:tags":{"v:\"a\"":{}}}}`},
				{Manager: "m2", Operation: "Apply", APIVersion: "example.com/v1", Time: 2, Fields: `{"f:spec":{"f:tags":{"v:\"b\"":{},"v:\"c\"":{}}}}`},
			},
		},
		"an atomic list belongs to one manager": {
			Kind: widget,
			Ops: []op{
				Apply{Manager: "m1", Object: `{apiVersion: example.com/v1, kind: Widget, metadata: {name: x}, spec: {args: [a, b]}}`},
				Apply{Manager: "m2", Object: `{apiVersion: example.com/v1, kind: Widget, metadata: {name: x}, spec: {args: [c]}}`,
					Conflict: `Apply failed with 1 conflict: conflict with "m1": .spec.args`},
				Apply{Manager: "m2", Force: true, Object: `{apiVersion: example.com/v1, kind: Widget, metadata: {name: x}, spec: {args: [c]}}`},
			},
			Object: `{apiVersion: example.com/v1, kind: Widget, metadata: {name: x}, spec: {args: [c]}}`,
			Managed: []entry{
				{Manager: "m2", Operation: "Apply", APIVersion: "example.com/v1", Time: 3, Fields: `{"f:spec":{"f:args":{}}}`},
			},
		},
		"an atomic map belongs to one manager, a granular one per key": {
			Kind: widget,
			Ops: []op{
				Apply{Manager: "m1", Object: `{apiVersion: example.com/v1, kind: Widget, metadata: {name: x}, spec: {config: {a: "1"}, env: {a: "1"}, selector: {app: x}}}`},
				Apply{Manager: "m2", Object: `{apiVersion: example.com/v1, kind: Widget, metadata: {name: x}, spec: {env: {b: "2"}, selector: {app: x, tier: "y"}}}`,
					Conflict: `Apply failed with 1 conflict: conflict with "m1": .spec.selector`},
				Apply{Manager: "m2", Object: `{apiVersion: example.com/v1, kind: Widget, metadata: {name: x}, spec: {env: {b: "2"}, config: {b: "2"}}}`,
					Conflict: `Apply failed with 1 conflict: conflict with "m1": .spec.config`},
				Apply{Manager: "m2", Object: `{apiVersion: example.com/v1, kind: Widget, metadata: {name: x}, spec: {env: {b: "2"}}}`},
			},
			Object: `{apiVersion: example.com/v1, kind: Widget, metadata: {name: x}, spec: {config: {a: "1"}, env: {a: "1", b: "2"}, selector: {app: x}}}`,
			Managed: []entry{
				{Manager: "m1", Operation: "Apply", APIVersion: "example.com/v1", Time: 1, Fields: `{"f:spec":{"f:config":{},"f:env":{"f:a":{}},"f:selector":{}}}`},
				{Manager: "m2", Operation: "Apply", APIVersion: "example.com/v1", Time: 4, Fields: `{"f:spec":{"f:env":{"f:b":{}}}}`},
			},
		},
		"preserved unknown fields are granular maps and atomic lists": {
			Kind: widget,
			Ops: []op{
				Apply{Manager: "m1", Object: `{apiVersion: example.com/v1, kind: Widget, metadata: {name: x}, spec: {extra: {a: {b: 1}, l: [1]}}}`},
				Apply{Manager: "m2", Object: `{apiVersion: example.com/v1, kind: Widget, metadata: {name: x}, spec: {extra: {a: {c: 2}}}}`},
			},
			Object: `{apiVersion: example.com/v1, kind: Widget, metadata: {name: x}, spec: {extra: {a: {b: 1, c: 2}, l: [1]}}}`,
			Managed: []entry{
				{Manager: "m1", Operation: "Apply", APIVersion: "example.com/v1", Time: 1, Fields: `{"f:spec":{"f:extra":{"f:a":{".":{},"f:b":{}},"f:l":{}}}}`},
				{Manager: "m2", Operation: "Apply", APIVersion: "example.com/v1", Time: 2, Fields: `{"f:spec":{"f:extra":{"f:a":{".":{},"f:c":{}}}}}`},
			},
		},
		"int-or-string takes either and an embedded resource has object metadata": {
			Kind: widget,
			Ops: []op{
				Apply{Manager: "m1", Object: `
apiVersion: example.com/v1
kind: Widget
metadata: {name: x}
spec:
  target: 5
  template:
    apiVersion: v1
    kind: Pod
    metadata: {name: p, labels: {a: b}, ownerReferences: [{apiVersion: v1, kind: X, name: o, uid: u1}]}
    spec: {containers: [{name: c}]}`},
				Apply{Manager: "m2", Object: `
apiVersion: example.com/v1
kind: Widget
metadata: {name: x}
spec:
  template:
    metadata: {labels: {c: d}, ownerReferences: [{apiVersion: v1, kind: X, name: o2, uid: u2}]}`},
				Apply{Manager: "m1", Force: true, Object: `
apiVersion: example.com/v1
kind: Widget
metadata: {name: x}
spec:
  target: 50%
  template:
    apiVersion: v1
    kind: Pod
    metadata: {name: p, labels: {a: b}, ownerReferences: [{apiVersion: v1, kind: X, name: o, uid: u1}]}
    spec: {containers: [{name: c}]}`},
			},
			Managed: []entry{
				{Manager: "m2", Operation: "Apply", APIVersion: "example.com/v1", Time: 2,
					Fields: `{"f:spec":{"f:template":{"f:metadata":{"f:labels":{"f:c":{}},"f:ownerReferences":{"k:{\"uid\":\"u2\"}":{}}}}}}`},
				{Manager: "m1", Operation: "Apply", APIVersion: "example.com/v1", Time: 3,
					Fields: `{"f:spec":{"f:target":{},"f:template":{"f:apiVersion":{},"f:kind":{},"f:metadata":{"f:labels":{"f:a":{}},"f:name":{},"f:ownerReferences":{"k:{\"uid\":\"u1\"}":{}}},"f:spec":{".":{},"f:containers":{}}}}}`},
			},
		},
		"applying through another version of the kind keeps one Apply entry": {
			Kind: widget,
			Ops: []op{
				Apply{Manager: "m1", Object: `{apiVersion: example.com/v1, kind: Widget, metadata: {name: x}, spec: {color: red, size: S}}`},
				Update{Manager: "up", APIVersion: "example.com/v2", Object: `{apiVersion: example.com/v2, kind: Widget, metadata: {name: x}, spec: {color: red, size: S, replicas: 2}}`},
				Apply{Manager: "m1", APIVersion: "example.com/v2", Object: `{apiVersion: example.com/v2, kind: Widget, metadata: {name: x}, spec: {color: blue}}`},
				Apply{Manager: "m1", APIVersion: "example.com/v2", Object: `{apiVersion: example.com/v2, kind: Widget, metadata: {name: x}, spec: {color: blue, replicas: 3}}`,
					Conflict: `Apply failed with 1 conflict: conflict with "up" using example.com/v2: .spec.replicas`},
			},
			Object: `{apiVersion: example.com/v2, kind: Widget, metadata: {name: x}, spec: {color: blue, replicas: 2}}`,
			Managed: []entry{
				{Manager: "m1", Operation: "Apply", APIVersion: "example.com/v2", Time: 3, Fields: `{"f:spec":{"f:color":{}}}`},
				{Manager: "up", Operation: "Update", APIVersion: "example.com/v2", Time: 2, Fields: `{"f:spec":{"f:replicas":{}}}`},
			},
		},
		"a status writer gets its own entry and never conflicts with the spec's owner": {
			Kind: widget,
			Ops: []op{
				Apply{Manager: "user", Object: `{apiVersion: example.com/v1, kind: Widget, metadata: {name: x, labels: {a: b}}, spec: {color: red}}`},
				Update{Manager: "ctrl", Subresource: "status", Object: `
apiVersion: example.com/v1
kind: Widget
metadata:
  name: x
  labels: {a: b}
  managedFields: [{manager: evil, operation: Update, apiVersion: example.com/v1, fieldsType: FieldsV1, fieldsV1: {"f:spec": {}}}]
spec: {color: green}
status: {phase: Running}`},
				Apply{Manager: "ctrl2", Subresource: "status", Object: `
apiVersion: example.com/v1
kind: Widget
metadata: {name: x}
spec: {color: yellow}
status: {count: 3}`},
				Apply{Manager: "user", Object: `{apiVersion: example.com/v1, kind: Widget, metadata: {name: x, labels: {a: b}}, spec: {color: blue}, status: {phase: Done}}`},
			},
			Object: `{apiVersion: example.com/v1, kind: Widget, metadata: {name: x, labels: {a: b}}, spec: {color: blue}, status: {phase: Running, count: 3}}`,
			Managed: []entry{
				{Manager: "ctrl2", Operation: "Apply", APIVersion: "example.com/v1", Subresource: "status", Time: 3, Fields: `{"f:status":{"f:count":{}}}`},
				{Manager: "user", Operation: "Apply", APIVersion: "example.com/v1", Time: 4, Fields: `{"f:metadata":{"f:labels":{"f:a":{}}},"f:spec":{"f:color":{}}}`},
				{Manager: "ctrl", Operation: "Update", APIVersion: "example.com/v1", Subresource: "status", Time: 2, Fields: `{"f:status":{".":{},"f:phase":{}}}`},
			},
		},
		"a status write changing metadata owns it although the change is reset (as in kube 1.33)": {
			Kind: widget,
			Ops: []op{
				Apply{Manager: "user", Object: `{apiVersion: example.com/v1, kind: Widget, metadata: {name: x, labels: {a: b}}, spec: {color: red}}`},
				Update{Manager: "ctrl", Subresource: "status", Object: `
apiVersion: example.com/v1
kind: Widget
metadata: {name: x, labels: {a: c}}
spec: {color: red}
status: {phase: Running}`},
			},
			Object: `{apiVersion: example.com/v1, kind: Widget, metadata: {name: x, labels: {a: b}}, spec: {color: red}, status: {phase: Running}}`,
			Managed: []entry{
				{Manager: "user", Operation: "Apply", APIVersion: "example.com/v1", Time: 1, Fields: `{"f:spec":{"f:color":{}}}`},
				{Manager: "ctrl", Operation: "Update", APIVersion: "example.com/v1", Subresource: "status", Time: 2,
					Fields: `{"f:metadata":{"f:labels":{"f:a":{}}},"f:status":{".":{},"f:phase":{}}}`},
			},
		},
	})
}
