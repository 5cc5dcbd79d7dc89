package policy

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

type noHost struct{}

func (noHost) Namespace(context.Context, string) (map[string]any, error) {
	return map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "default", "labels": map[string]any{"a": "b"}}}, nil
}
func (noHost) ResourceForKind(string, string) (ResourceKind, bool) {
	return ResourceKind{Resource: meta.GroupVersionResource{Version: "v1", Resource: "configmaps"},
		Kind: meta.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, Namespaced: true}, true
}
func (noHost) Get(context.Context, ResourceKind, string, string) (map[string]any, error) {
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "p"}, "data": map[string]any{"max": "3"}}, nil
}
func (h noHost) List(ctx context.Context, r ResourceKind, ns string, _ LabelSelector) ([]map[string]any, error) {
	p, _ := h.Get(ctx, r, ns, "")
	return []map[string]any{p}, nil
}
func (noHost) Equivalents(meta.GroupVersionResource) []ResourceKind { return nil }
func (noHost) Convert(_ context.Context, obj map[string]any, _ string) (map[string]any, error) {
	return obj, nil
}

type noSchemas struct{}

func (noSchemas) KindsFor(gvr meta.GroupVersionResource) []meta.GroupVersionKind {
	return []meta.GroupVersionKind{{Group: gvr.Group, Version: gvr.Version, Kind: "Thing"}}
}
func (noSchemas) SchemaFor(meta.GroupVersionKind) *schema.Schema { return nil }

// Whatever a client sends as a ValidatingAdmissionPolicy and its binding,
// validating them, type-checking the policy, and (when both are valid)
// enforcing them on a ConfigMap create never panics, and ends in time.
func FuzzPolicySpecs(f *testing.F) {
	f.Add([]byte(`{"metadata":{"name":"p"},"spec":{"failurePolicy":"Fail","paramKind":{"apiVersion":"v1","kind":"ConfigMap"},
"matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["configmaps"]}]},
"matchConditions":[{"name":"c","expression":"true"}],"variables":[{"name":"n","expression":"size(object.data)"}],
"validations":[{"expression":"variables.n <= int(params.data.max)","messageExpression":"'too many: ' + string(variables.n)","reason":"Forbidden"}],
"auditAnnotations":[{"key":"k","valueExpression":"'v'"}]}}`),
		[]byte(`{"metadata":{"name":"b"},"spec":{"policyName":"p","validationActions":["Deny","Audit"],"paramRef":{"name":"p","parameterNotFoundAction":"Deny"},
"matchResources":{"namespaceSelector":{"matchLabels":{"a":"b"}}}}}`))
	f.Add([]byte(`{"metadata":{"name":"p"},"spec":{"matchConstraints":{"resourceRules":[{"apiGroups":["*"],"apiVersions":["*"],"operations":["*"],"resources":["*"]}]},
"validations":[{"expression":"object.data.all(k, object.data.all(j, k != j))"}]}}`),
		[]byte(`{"metadata":{"name":"b"},"spec":{"policyName":"p","validationActions":["Warn"],"paramRef":{"selector":{"matchExpressions":[{"key":"x","operator":"In","values":["y"]}]}}}}`))
	f.Add([]byte(`{"spec":{"validations":[{"expression":"("}],"variables":[{"name":"","expression":1}]}}`), []byte(`{"spec":[]}`))
	f.Fuzz(func(t *testing.T, policyJSON, bindingJSON []byte) {
		var p, b map[string]any
		if json.Unmarshal(policyJSON, &p) != nil || json.Unmarshal(bindingJSON, &b) != nil || p == nil || b == nil {
			return
		}
		TypeCheck(p, noSchemas{})
		perrs, berrs := ValidatePolicy(p), ValidateBinding(b)
		if len(perrs) > 0 || len(berrs) > 0 {
			return
		}
		set := NewSet([]*Policy{CompilePolicy(p)}, []*Binding{CompileBinding(b)})
		data := map[string]any{}
		for _, k := range []string{"a", "b", "c"} {
			data[k] = k
		}
		a := &Attributes{Operation: "CREATE", Kind: meta.GroupVersionKind{Version: "v1", Kind: "ConfigMap"},
			Resource: meta.GroupVersionResource{Version: "v1", Resource: "configmaps"}, Namespace: "default", Name: "cm",
			Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "cm", "namespace": "default"}, "data": data}}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		set.Validate(ctx, noHost{}, a, meta.GroupResource{Resource: "configmaps"})
	})
}
