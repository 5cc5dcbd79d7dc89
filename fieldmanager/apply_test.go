package fieldmanager_test

import "testing"

// Scenarios of server-side apply on a built-in kind (ConfigMap) and on a
// kind without a schema.
func TestScenarioApply(t *testing.T) {
	runScenarios(t, map[string]scenario{
		"an apply creates the object and owns exactly what it applied": {
			Kind: configMap,
			Ops: []op{
				Apply{Manager: "m1", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x, labels: {a: b}}, data: {a: "1"}}`},
			},
			Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x, labels: {a: b}}, data: {a: "1"}}`,
			Managed: []entry{
				{Manager: "m1", Operation: "Apply", APIVersion: "v1", Time: 1, Fields: `{"f:data":{"f:a":{}},"f:metadata":{"f:labels":{"f:a":{}}}}`},
			},
		},
		"an apply of only identity fields creates an object nobody manages": {
			Kind: configMap,
			Ops: []op{
				Apply{Manager: "m1", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}}`},
			},
			Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}}`,
		},
		"applying the value a field has shares its ownership and stamps no time": {
			Kind: configMap,
			Ops: []op{
				Apply{Manager: "m1", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1"}}`},
				Apply{Manager: "m2", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1"}}`},
			},
			Managed: []entry{
				{Manager: "m2", Operation: "Apply", APIVersion: "v1", Fields: `{"f:data":{"f:a":{}}}`},
				{Manager: "m1", Operation: "Apply", APIVersion: "v1", Time: 1, Fields: `{"f:data":{"f:a":{}}}`},
			},
		},
		"changing a shared value conflicts with every owner": {
			Kind: configMap,
			Ops: []op{
				Apply{Manager: "m1", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1"}}`},
				Apply{Manager: "m2", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1"}}`},
				Apply{Manager: "m3", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "2", b: x}}`,
					Conflict: "Apply failed with 2 conflicts: conflicts with \"m1\":\n- .data.a\nconflicts with \"m2\":\n- .data.a",
					Causes: []cause{
						{Field: ".data.a", Message: `conflict with "m1"`},
						{Field: ".data.a", Message: `conflict with "m2"`},
					}},
			},
			Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1"}}`,
			Managed: []entry{
				{Manager: "m2", Operation: "Apply", APIVersion: "v1", Fields: `{"f:data":{"f:a":{}}}`},
				{Manager: "m1", Operation: "Apply", APIVersion: "v1", Time: 1, Fields: `{"f:data":{"f:a":{}}}`},
			},
		},
		"a conflict with an updater names its apiVersion": {
			Kind: configMap,
			Ops: []op{
				Update{Manager: "up", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "9", c: "3"}}`},
				Apply{Manager: "m3", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "9", c: "4"}}`,
					Conflict: `Apply failed with 1 conflict: conflict with "up" using v1: .data.c`,
					Causes:   []cause{{Field: ".data.c", Message: `conflict with "up" using v1`}}},
				Apply{Manager: "m3", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "2", b: x, c: "4"}}`,
					Conflict: "Apply failed with 2 conflicts: conflicts with \"up\" using v1:\n- .data.a\n- .data.c"},
			},
			Managed: []entry{
				{Manager: "up", Operation: "Update", APIVersion: "v1", Time: 1, Fields: `{"f:data":{".":{},"f:a":{},"f:c":{}}}`},
			},
		},
		"force takes the conflicting fields from their managers": {
			Kind: configMap,
			Ops: []op{
				Update{Manager: "up", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1", c: "3"}}`},
				Apply{Manager: "m1", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {c: "4"}}`, Force: true},
			},
			Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1", c: "4"}}`,
			Managed: []entry{
				{Manager: "m1", Operation: "Apply", APIVersion: "v1", Time: 2, Fields: `{"f:data":{"f:c":{}}}`},
				{Manager: "up", Operation: "Update", APIVersion: "v1", Time: 1, Fields: `{"f:data":{".":{},"f:a":{}}}`},
			},
		},
		"an update wins over an applier without conflict": {
			Kind: configMap,
			Ops: []op{
				Apply{Manager: "m1", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1", b: "1"}}`},
				Update{Manager: "up", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1", b: "2"}}`},
			},
			Managed: []entry{
				{Manager: "m1", Operation: "Apply", APIVersion: "v1", Time: 1, Fields: `{"f:data":{"f:a":{}}}`},
				{Manager: "up", Operation: "Update", APIVersion: "v1", Time: 2, Fields: `{"f:data":{"f:b":{}}}`},
			},
		},
		"a field the applier stops applying is removed": {
			Kind: configMap,
			Ops: []op{
				Apply{Manager: "m1", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x, labels: {l: "1"}}, data: {a: "1", b: "2"}}`},
				Apply{Manager: "m1", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1"}}`},
			},
			Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1"}}`,
			Managed: []entry{
				{Manager: "m1", Operation: "Apply", APIVersion: "v1", Time: 2, Fields: `{"f:data":{"f:a":{}}}`},
			},
		},
		"a field the applier stops applying stays while another applier owns it": {
			Kind: configMap,
			Ops: []op{
				Apply{Manager: "m1", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1", b: "2"}}`},
				Apply{Manager: "m2", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {b: "2"}}`},
				Apply{Manager: "m1", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1"}}`},
			},
			Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1", b: "2"}}`,
			Managed: []entry{
				{Manager: "m2", Operation: "Apply", APIVersion: "v1", Fields: `{"f:data":{"f:b":{}}}`},
				{Manager: "m1", Operation: "Apply", APIVersion: "v1", Time: 1, Fields: `{"f:data":{"f:a":{}}}`},
			},
		},
		"a field the applier stops applying stays when an updater changed it": {
			Kind: configMap,
			Ops: []op{
				Apply{Manager: "m1", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1", b: "2"}}`},
				Update{Manager: "up", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1", b: "3"}}`},
				Apply{Manager: "m1", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1"}}`},
			},
			Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1", b: "3"}}`,
			Managed: []entry{
				{Manager: "m1", Operation: "Apply", APIVersion: "v1", Time: 1, Fields: `{"f:data":{"f:a":{}}}`},
				{Manager: "up", Operation: "Update", APIVersion: "v1", Time: 2, Fields: `{"f:data":{"f:b":{}}}`},
			},
		},
		"an applier that applies nothing more loses its entry": {
			Kind: configMap,
			Ops: []op{
				Apply{Manager: "m1", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1"}}`},
				Apply{Manager: "m2", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1"}}`},
				Apply{Manager: "m1", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}}`},
			},
			Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1"}}`,
			Managed: []entry{
				{Manager: "m2", Operation: "Apply", APIVersion: "v1", Fields: `{"f:data":{"f:a":{}}}`},
			},
		},
		"an apply to an object without managedFields first gives what it has to before-first-apply": {
			Kind: configMap,
			Ops: []op{
				Update{Manager: "a", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x, labels: {l: "1"}}, data: {a: "1"}}`},
				Update{Manager: "a", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x, labels: {l: "1"}, managedFields: []}, data: {a: "1"}}`},
				Apply{Manager: "m1", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {b: "2"}}`},
				Apply{Manager: "m2", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "2"}}`,
					Conflict: `Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.a`},
			},
			Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x, labels: {l: "1"}}, data: {a: "1", b: "2"}}`,
			Managed: []entry{
				{Manager: "m1", Operation: "Apply", APIVersion: "v1", Time: 3, Fields: `{"f:data":{"f:b":{}}}`},
				{Manager: "before-first-apply", Operation: "Update", APIVersion: "v1", Time: 3,
					Fields: `{"f:data":{".":{},"f:a":{}},"f:metadata":{"f:labels":{".":{},"f:l":{}}}}`},
			},
		},
		"transferring ownership between users: share the value, then one drops it": {
			Kind: configMap,
			Ops: []op{
				Apply{Manager: "alice", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1", b: "1"}}`},
				Apply{Manager: "bob", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {b: "1"}}`},
				Apply{Manager: "alice", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1"}}`},
				Apply{Manager: "bob", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {b: "2"}}`},
			},
			Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1", b: "2"}}`,
			Managed: []entry{
				{Manager: "alice", Operation: "Apply", APIVersion: "v1", Time: 1, Fields: `{"f:data":{"f:a":{}}}`},
				{Manager: "bob", Operation: "Apply", APIVersion: "v1", Time: 4, Fields: `{"f:data":{"f:b":{}}}`},
			},
		},
		"create, update, apply, drop, reset and apply again (docs/kube-behaviour/05)": {
			Kind: configMap,
			Ops: []op{
				Update{Manager: "creator", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: mf, labels: {l1: a}}, data: {a: "1", b: "2"}}`},
				Update{Manager: "updater", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: mf, labels: {l1: a}}, data: {a: "1", b: "22", c: "3"}}`},
				Apply{Manager: "applier", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: mf}, data: {a: "1", d: "4"}}`},
				Apply{Manager: "applier", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: mf}, data: {a: "1"}}`},
				Update{Manager: "resetter", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: mf, labels: {l1: a}, managedFields: []}, data: {a: "1", b: "22", c: "3"}}`},
				Apply{Manager: "applier", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: mf}, data: {a: "1"}}`},
				Update{Manager: "updater2", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: mf, labels: {l1: a}}, data: {a: "1", b: "22", c: "33"}}`},
			},
			Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: mf, labels: {l1: a}}, data: {a: "1", b: "22", c: "33"}}`,
			Managed: []entry{
				{Manager: "applier", Operation: "Apply", APIVersion: "v1", Fields: `{"f:data":{"f:a":{}}}`},
				{Manager: "before-first-apply", Operation: "Update", APIVersion: "v1", Time: 6,
					Fields: `{"f:data":{".":{},"f:a":{},"f:b":{}},"f:metadata":{"f:labels":{".":{},"f:l1":{}}}}`},
				{Manager: "updater2", Operation: "Update", APIVersion: "v1", Time: 7, Fields: `{"f:data":{"f:c":{}}}`},
			},
		},
		"apply errors: another version, another kind, no apiVersion, managedFields, an unknown field, a wrong type": {
			Kind: configMap,
			Ops: []op{
				Apply{Manager: "m1", Object: `{apiVersion: v2, kind: ConfigMap, metadata: {name: x}}`,
					Error: "invalid object type: /v2, Kind=ConfigMap"},
				Apply{Manager: "m1", Object: `{apiVersion: v1, kind: Secret, metadata: {name: x}}`,
					Error: "invalid object type: /v1, Kind=Secret"},
				Apply{Manager: "m1", Object: `{kind: ConfigMap, metadata: {name: x}}`,
					Error: "invalid object type: /, Kind=ConfigMap"},
				Apply{Manager: "m1", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x, managedFields: []}}`,
					Error: "metadata.managedFields must be nil"},
				Apply{Manager: "m1", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x, managedFields: [{manager: x, operation: Apply}]}}`,
					Error: "metadata.managedFields must be nil"},
				Apply{Manager: "m1", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x, managedFields: [1]}}`,
					Error: "failed to create typed patch object (/x; /v1, Kind=ConfigMap): .metadata.managedFields[0]: expected map, got &{1}"},
				Apply{Manager: "m1", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: "1"}, foo: bar}`,
					Error: "failed to create typed patch object (/x; /v1, Kind=ConfigMap): .foo: field not declared in schema"},
				Apply{Manager: "m1", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x, namespace: other}, data: {a: 1}}`,
					Error: "failed to create typed patch object (other/x; /v1, Kind=ConfigMap): .data.a: expected string, got &value.valueUnstructured{Value:1}"},
			},
		},
	})
}

// Scenarios of a kind without a schema: maps are granular, lists atomic.
func TestScenarioDeduced(t *testing.T) {
	runScenarios(t, map[string]scenario{
		"without a schema maps merge per key": {
			Kind: gizmo,
			Ops: []op{
				Apply{Manager: "m1", Object: `{apiVersion: example.com/v1, kind: Gizmo, metadata: {name: x}, spec: {a: {b: 1}}}`},
				Apply{Manager: "m2", Object: `{apiVersion: example.com/v1, kind: Gizmo, metadata: {name: x}, spec: {a: {c: 2}, d: x}}`},
			},
			Object: `{apiVersion: example.com/v1, kind: Gizmo, metadata: {name: x}, spec: {a: {b: 1, c: 2}, d: x}}`,
			Managed: []entry{
				{Manager: "m1", Operation: "Apply", APIVersion: "example.com/v1", Time: 1, Fields: `{"f:spec":{".":{},"f:a":{".":{},"f:b":{}}}}`},
				{Manager: "m2", Operation: "Apply", APIVersion: "example.com/v1", Time: 2, Fields: `{"f:spec":{".":{},"f:a":{".":{},"f:c":{}},"f:d":{}}}`},
			},
		},
		"without a schema a list belongs to one manager as a whole": {
			Kind: gizmo,
			Ops: []op{
				Apply{Manager: "m1", Object: `{apiVersion: example.com/v1, kind: Gizmo, metadata: {name: x}, spec: {list: [{name: a}]}}`},
				Apply{Manager: "m2", Object: `{apiVersion: example.com/v1, kind: Gizmo, metadata: {name: x}, spec: {list: [{name: b}]}}`,
					Conflict: `Apply failed with 1 conflict: conflict with "m1": .spec.list`},
				Apply{Manager: "m2", Force: true, Object: `{apiVersion: example.com/v1, kind: Gizmo, metadata: {name: x}, spec: {list: [{name: b}]}}`},
			},
			Object: `{apiVersion: example.com/v1, kind: Gizmo, metadata: {name: x}, spec: {list: [{name: b}]}}`,
			Managed: []entry{
				{Manager: "m1", Operation: "Apply", APIVersion: "example.com/v1", Time: 1, Fields: `{"f:spec":{}}`},
				{Manager: "m2", Operation: "Apply", APIVersion: "example.com/v1", Time: 3, Fields: `{"f:spec":{".":{},"f:list":{}}}`},
			},
		},
		"without a schema an update owns what it creates": {
			Kind: gizmo,
			Ops: []op{
				Update{Manager: "c", Object: `{apiVersion: example.com/v1, kind: Gizmo, metadata: {name: x, labels: {a: b}}, spec: {list: [1, 2], m: {k: v}}}`},
			},
			Managed: []entry{
				{Manager: "c", Operation: "Update", APIVersion: "example.com/v1", Time: 1,
					Fields: `{"f:metadata":{"f:labels":{".":{},"f:a":{}}},"f:spec":{".":{},"f:list":{},"f:m":{".":{},"f:k":{}}}}`},
			},
		},
	})
}
