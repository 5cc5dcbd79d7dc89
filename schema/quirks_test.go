package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Observed on kube-apiserver v1.33.13; each quirk comes from
// kube-openapi's validator and is kept so that clients see the same
// answers.
func TestValidateMatchesKubeQuirks(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{"spec":{"type":"object","properties":{
		"tags":{"type":"array","items":{"type":"string"},"minItems":1},
		"labels":{"type":"object","additionalProperties":{"type":"string"},"minProperties":1},
		"i":{"type":"integer","multipleOf":0.5},
		"j":{"type":"integer","maximum":1.5},
		"f":{"type":"string","format":"date-time"},
		"emb":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
		"emb2":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
		"e":{"type":"string","enum":["a"]},
		"en":{"type":"integer","enum":[97]}}}}}`)
	obj := object(t, `{"spec":{"tags":[],"labels":{},"i":2,"j":2,"f":5,"emb":{"metadata":{"name":"a/b","labels":{"a":"b"}}},
		"emb2":{"apiVersion":"a/b/c","kind":"9x","metadata":{"namespace":"Bad_ns"}},"e":97,"en":97.5}}`)
	assert.Equal(t, []string{
		`spec.e: Invalid value: "integer": spec.e in body must be of type string: "integer"`,
		`spec.en: Invalid value: "number": spec.en in body must be of type integer: "number"`,
		`spec.f: Invalid value: "int64": spec.f in body must be of type date-time: "int64"`,
		`spec.i: Invalid value: 0: factor MultipleOf declared for spec.i must be positive: 0`,
		`spec.j: Invalid value: 2: spec.j in body should be less than or equal to 1`,
		`spec.labels: Invalid value: 0: spec.labels in body should have at least 1 properties`,
		`spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items`,
		`spec.emb.apiVersion: Required value: must not be empty`,
		`spec.emb.kind: Required value: must not be empty`,
		`spec.emb.metadata.name: Invalid value: "a/b": may not contain '/'`,
		`spec.emb2.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c`,
		`spec.emb2.kind: Invalid value: "9x": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
		`spec.emb2.metadata.namespace: Invalid value: "Bad_ns": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
	}, messages(s.Validate(obj)), "97 matches enum [\"a\"] (Go's int→string conversion) and 97.5 matches [97] (truncation), as in kube")
}
