package protobuf

import (
	"fmt"

	"github.com/kapi-dev/kapi/meta"
)

// The JSON forms of apiextensions' schema unions (their MarshalJSON and
// UnmarshalJSON in k8s.io/apiextensions-apiserver):
//
//	JSONSchemaPropsOrBool        a schema (allows=true, schema) or a bool (allows)
//	JSONSchemaPropsOrArray       a schema (schema) or an array of schemas (jSONSchemas)
//	JSONSchemaPropsOrStringArray a schema (schema) or an array of strings (property)
//
// The transcoder writes each as a message of its two fields, taken from the
// JSON value's shape, and reads it back the way MarshalJSON writes it.

// unionFields returns the JSON keys of a union's fields 1 and 2.
func unionFields(p *msgPlan) (one, two string, err error) {
	f1, f2 := p.field(1), p.field(2)
	if f1 == nil || f2 == nil {
		return "", "", fmt.Errorf("%s: union without fields 1 and 2", p.name)
	}
	return f1.key, f2.key, nil
}

// unionMessage is the message form of a union's JSON value v.
func unionMessage(p *msgPlan, v any) (map[string]any, error) {
	one, two, err := unionFields(p)
	if err != nil {
		return nil, err
	}
	obj, isObject := meta.AsMap(v)
	list, isList := v.([]any)
	switch {
	case v == nil:
		return nil, nil
	case p.special == specSchemaOrBool && isObject:
		return map[string]any{one: true, two: obj}, nil
	case p.special == specSchemaOrBool:
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("boolean or JSON schema expected, got %s", jsonType(v))
		}
		return map[string]any{one: b}, nil
	case isObject:
		return map[string]any{one: obj}, nil
	case isList:
		return map[string]any{two: list}, nil
	}
	return nil, fmt.Errorf("JSON schema or array expected, got %s", jsonType(v))
}

// unionValue is the JSON value of a union decoded as the message m.
func unionValue(p *msgPlan, m map[string]any) (any, error) {
	one, two, err := unionFields(p)
	if err != nil {
		return nil, err
	}
	if p.special == specSchemaOrBool {
		if schema, ok := m[two]; ok && schema != nil {
			return schema, nil
		}
		allows, _ := m[one].(bool)
		return allows, nil
	}
	if l, _ := m[two].([]any); len(l) > 0 {
		return l, nil
	}
	if schema, ok := m[one]; ok {
		return schema, nil
	}
	return nil, nil
}
