package fieldmanager_test

import "testing"

// Scenarios of non-apply writes (create, update, patch): kube-apiserver
// tracks them as Update entries.
func TestScenarioUpdate(t *testing.T) {
	runScenarios(t, map[string]scenario{
		"a create records an Update entry for its manager": {
			Kind: configMap,
			Ops: []op{
				Update{Manager: "kref", Object: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, labels: {a: b}}
data: {k: v}`},
			},
			Object: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, labels: {a: b}}
data: {k: v}`,
			Managed: []entry{
				{Manager: "kref", Operation: "Update", APIVersion: "v1", Time: 1,
					Fields: `{"f:data":{".":{},"f:k":{}},"f:metadata":{"f:labels":{".":{},"f:a":{}}}}`},
			},
		},
		"an object created with nothing set has no managedFields": {
			Kind: configMap,
			Ops: []op{
				Update{Manager: "kref", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}`},
			},
			Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}`,
		},
		"identity and system metadata are never owned but generateName is": {
			Kind: configMap,
			Ops: []op{
				Update{Manager: "kref", Object: `
apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  generateName: gen
  generation: 3
  creationTimestamp: "2020-01-01T00:00:00Z"
  uid: 00000000-0000-0000-0000-000000000002
  selfLink: /x`},
				Update{Manager: "kref2", Object: `
apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  generateName: gen
  resourceVersion: "12"
  generation: 4`},
			},
			Managed: []entry{
				{Manager: "kref", Operation: "Update", APIVersion: "v1", Time: 1,
					Fields: `{"f:metadata":{"f:generateName":{}}}`},
			},
		},
		"a manager without a name is unknown": {
			Kind: configMap,
			Ops: []op{
				Update{Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: a}, data: {k: v}}`},
			},
			Managed: []entry{
				{Manager: "unknown", Operation: "Update", APIVersion: "v1", Time: 1, Fields: `{"f:data":{".":{},"f:k":{}}}`},
			},
		},
		"an update takes the fields it changes or adds from their managers": {
			Kind: configMap,
			Ops: []op{
				Update{Manager: "a", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {k: v, j: w}}`},
				Update{Manager: "b", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {k: v2, j: w, o: x}}`},
			},
			Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {k: v2, j: w, o: x}}`,
			Managed: []entry{
				{Manager: "a", Operation: "Update", APIVersion: "v1", Time: 1, Fields: `{"f:data":{".":{},"f:j":{}}}`},
				{Manager: "b", Operation: "Update", APIVersion: "v1", Time: 2, Fields: `{"f:data":{"f:k":{},"f:o":{}}}`},
			},
		},
		"an update removing fields removes them from every manager": {
			Kind: configMap,
			Ops: []op{
				Update{Manager: "a", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x, labels: {l: m}}, data: {k: v, j: w}}`},
				Update{Manager: "b", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {k: v}}`},
			},
			Managed: []entry{
				{Manager: "a", Operation: "Update", APIVersion: "v1", Time: 1, Fields: `{"f:data":{".":{},"f:k":{}}}`},
			},
		},
		"an update that changes nothing keeps the entries and their times": {
			Kind: configMap,
			Ops: []op{
				Update{Manager: "a", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {k: v}}`},
				Update{Manager: "a", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {k: v}}`},
				Update{Manager: "b", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {k: v}}`},
			},
			Managed: []entry{
				{Manager: "a", Operation: "Update", APIVersion: "v1", Time: 1, Fields: `{"f:data":{".":{},"f:k":{}}}`},
			},
		},
		"a manager's later update joins its entry and moves its time": {
			Kind: configMap,
			Ops: []op{
				Update{Manager: "a", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {k: v}}`},
				Update{Manager: "b", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {k: v, j: w}}`},
				Update{Manager: "a", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x, labels: {l: m}}, data: {k: v, j: w}}`},
			},
			Managed: []entry{
				{Manager: "b", Operation: "Update", APIVersion: "v1", Time: 2, Fields: `{"f:data":{"f:j":{}}}`},
				{Manager: "a", Operation: "Update", APIVersion: "v1", Time: 3,
					Fields: `{"f:data":{".":{},"f:k":{}},"f:metadata":{"f:labels":{".":{},"f:l":{}}}}`},
			},
		},
		"an empty managedFields list in a write clears them, and the object stays untracked": {
			Kind: configMap,
			Ops: []op{
				Update{Manager: "a", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {k: v}}`},
				Update{Manager: "b", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x, managedFields: []}, data: {k: v2}}`},
				Update{Manager: "c", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {k: v3, j: w}}`},
			},
			Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {k: v3, j: w}}`,
		},
		"a managedFields list of one empty entry clears them": {
			Kind: configMap,
			Ops: []op{
				Update{Manager: "a", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {k: v}}`},
				Update{Manager: "b", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x, managedFields: [{}]}, data: {k: v2}}`},
			},
		},
		"a null managedFields keeps the live object's": {
			Kind: configMap,
			Ops: []op{
				Update{Manager: "a", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {k: v}}`},
				Update{Manager: "b", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x, managedFields: null}, data: {k: v, j: w}}`},
			},
			Managed: []entry{
				{Manager: "a", Operation: "Update", APIVersion: "v1", Time: 1, Fields: `{"f:data":{".":{},"f:k":{}}}`},
				{Manager: "b", Operation: "Update", APIVersion: "v1", Time: 2, Fields: `{"f:data":{"f:j":{}}}`},
			},
		},
		"managedFields that do not decode are replaced by the live object's": {
			Kind: configMap,
			Ops: []op{
				Update{Manager: "kref", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x, labels: {a: b}}, data: {k: v}}`},
				Update{Manager: "upd", Object: `
apiVersion: v1
kind: ConfigMap
metadata:
  name: x
  managedFields:
  - {manager: x, operation: Foo, apiVersion: v1, fieldsType: FieldsV1, fieldsV1: {"f:data": {}}}
data: {k: v2}`},
			},
			Managed: []entry{
				{Manager: "kref", Operation: "Update", APIVersion: "v1", Time: 1, Fields: `{"f:data":{}}`},
				{Manager: "upd", Operation: "Update", APIVersion: "v1", Time: 2, Fields: `{"f:data":{"f:k":{}}}`},
			},
		},
		"managedFields sent by a client replace the tracked state": {
			Kind: configMap,
			Ops: []op{
				Update{Manager: "kref", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x, labels: {a: b}}, data: {k: v}}`},
				Update{Manager: "upd", Object: `
apiVersion: v1
kind: ConfigMap
metadata:
  name: x
  managedFields:
  - manager: x
    operation: Apply
    apiVersion: v1
    time: "2030-01-02T03:03:59.5Z"
    fieldsType: FieldsV1
    fieldsV1: {"f:data": {"f:k": {}}}
data: {k: v, z: "1"}`},
			},
			Managed: []entry{
				{Manager: "x", Operation: "Apply", APIVersion: "v1", Time: -1, Fields: `{"f:data":{"f:k":{}}}`},
				{Manager: "upd", Operation: "Update", APIVersion: "v1", Time: 2, Fields: `{"f:data":{"f:z":{}}}`},
			},
		},
		"entries at a version the kind does not serve are dropped": {
			Kind: configMap,
			Ops: []op{
				Update{Manager: "kref", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {k: v}}`},
				Update{Manager: "up", Object: `
apiVersion: v1
kind: ConfigMap
metadata:
  name: x
  managedFields:
  - {manager: mx, operation: Update, apiVersion: v2, fieldsType: FieldsV1, fieldsV1: {"f:data": {"f:k": {}}}}
  - {manager: my, operation: Update, apiVersion: v1, fieldsType: FieldsV1, fieldsV1: {"f:data": {"f:k": {}}}}
data: {k: v3, z: "1"}`},
			},
			Managed: []entry{
				{Manager: "up", Operation: "Update", APIVersion: "v1", Time: 2, Fields: `{"f:data":{"f:k":{},"f:z":{}}}`},
			},
		},
		"an entry whose apiVersion does not parse leaves the write without managedFields": {
			Kind: configMap,
			Ops: []op{
				Update{Manager: "kref", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {k: v}}`},
				Update{Manager: "up", Object: `
apiVersion: v1
kind: ConfigMap
metadata:
  name: x
  managedFields:
  - {manager: x, operation: Update, apiVersion: a/b/c, fieldsType: FieldsV1, fieldsV1: {"f:data": {"f:k": {}}}}
data: {k: v2}`},
			},
		},
		"more than ten update managers merge the oldest into ancient-changes": {
			Kind: configMap,
			Ops: []op{
				Update{Manager: "m01", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d01: "1"}}`},
				Update{Manager: "m02", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d01: "1", d02: "1"}}`},
				Update{Manager: "m03", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d01: "1", d02: "1", d03: "1"}}`},
				Update{Manager: "m04", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d01: "1", d02: "1", d03: "1", d04: "1"}}`},
				Update{Manager: "m05", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d01: "1", d02: "1", d03: "1", d04: "1", d05: "1"}}`},
				Update{Manager: "m06", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d01: "1", d02: "1", d03: "1", d04: "1", d05: "1", d06: "1"}}`},
				Update{Manager: "m07", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d01: "1", d02: "1", d03: "1", d04: "1", d05: "1", d06: "1", d07: "1"}}`},
				Update{Manager: "m08", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d01: "1", d02: "1", d03: "1", d04: "1", d05: "1", d06: "1", d07: "1", d08: "1"}}`},
				Update{Manager: "m09", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d01: "1", d02: "1", d03: "1", d04: "1", d05: "1", d06: "1", d07: "1", d08: "1", d09: "1"}}`},
				Update{Manager: "m10", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d01: "1", d02: "1", d03: "1", d04: "1", d05: "1", d06: "1", d07: "1", d08: "1", d09: "1", d10: "1"}}`},
				Update{Manager: "m11", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d01: "1", d02: "1", d03: "1", d04: "1", d05: "1", d06: "1", d07: "1", d08: "1", d09: "1", d10: "1", d11: "1"}}`},
				Update{Manager: "m12", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d01: "1", d02: "1", d03: "1", d04: "1", d05: "1", d06: "1", d07: "1", d08: "1", d09: "1", d10: "1", d11: "1", d12: "1"}}`},
			},
			Managed: []entry{
				{Manager: "ancient-changes", Operation: "Update", APIVersion: "v1", Time: 3, Fields: `{"f:data":{".":{},"f:d01":{},"f:d02":{},"f:d03":{}}}`},
				{Manager: "m04", Operation: "Update", APIVersion: "v1", Time: 4, Fields: `{"f:data":{"f:d04":{}}}`},
				{Manager: "m05", Operation: "Update", APIVersion: "v1", Time: 5, Fields: `{"f:data":{"f:d05":{}}}`},
				{Manager: "m06", Operation: "Update", APIVersion: "v1", Time: 6, Fields: `{"f:data":{"f:d06":{}}}`},
				{Manager: "m07", Operation: "Update", APIVersion: "v1", Time: 7, Fields: `{"f:data":{"f:d07":{}}}`},
				{Manager: "m08", Operation: "Update", APIVersion: "v1", Time: 8, Fields: `{"f:data":{"f:d08":{}}}`},
				{Manager: "m09", Operation: "Update", APIVersion: "v1", Time: 9, Fields: `{"f:data":{"f:d09":{}}}`},
				{Manager: "m10", Operation: "Update", APIVersion: "v1", Time: 10, Fields: `{"f:data":{"f:d10":{}}}`},
				{Manager: "m11", Operation: "Update", APIVersion: "v1", Time: 11, Fields: `{"f:data":{"f:d11":{}}}`},
				{Manager: "m12", Operation: "Update", APIVersion: "v1", Time: 12, Fields: `{"f:data":{"f:d12":{}}}`},
			},
		},
		"apply entries are never merged into ancient-changes": {
			Kind: configMap,
			Ops: []op{
				Apply{Manager: "a01", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d01: "1"}}`},
				Apply{Manager: "a02", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d02: "1"}}`},
				Apply{Manager: "a03", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d03: "1"}}`},
				Apply{Manager: "a04", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d04: "1"}}`},
				Apply{Manager: "a05", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d05: "1"}}`},
				Apply{Manager: "a06", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d06: "1"}}`},
				Apply{Manager: "a07", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d07: "1"}}`},
				Apply{Manager: "a08", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d08: "1"}}`},
				Apply{Manager: "a09", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d09: "1"}}`},
				Apply{Manager: "a10", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d10: "1"}}`},
				Apply{Manager: "a11", Object: `{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {d11: "1"}}`},
			},
			Managed: []entry{
				{Manager: "a01", Operation: "Apply", APIVersion: "v1", Time: 1, Fields: `{"f:data":{"f:d01":{}}}`},
				{Manager: "a02", Operation: "Apply", APIVersion: "v1", Time: 2, Fields: `{"f:data":{"f:d02":{}}}`},
				{Manager: "a03", Operation: "Apply", APIVersion: "v1", Time: 3, Fields: `{"f:data":{"f:d03":{}}}`},
				{Manager: "a04", Operation: "Apply", APIVersion: "v1", Time: 4, Fields: `{"f:data":{"f:d04":{}}}`},
				{Manager: "a05", Operation: "Apply", APIVersion: "v1", Time: 5, Fields: `{"f:data":{"f:d05":{}}}`},
				{Manager: "a06", Operation: "Apply", APIVersion: "v1", Time: 6, Fields: `{"f:data":{"f:d06":{}}}`},
				{Manager: "a07", Operation: "Apply", APIVersion: "v1", Time: 7, Fields: `{"f:data":{"f:d07":{}}}`},
				{Manager: "a08", Operation: "Apply", APIVersion: "v1", Time: 8, Fields: `{"f:data":{"f:d08":{}}}`},
				{Manager: "a09", Operation: "Apply", APIVersion: "v1", Time: 9, Fields: `{"f:data":{"f:d09":{}}}`},
				{Manager: "a10", Operation: "Apply", APIVersion: "v1", Time: 10, Fields: `{"f:data":{"f:d10":{}}}`},
				{Manager: "a11", Operation: "Apply", APIVersion: "v1", Time: 11, Fields: `{"f:data":{"f:d11":{}}}`},
			},
		},
	})
}
