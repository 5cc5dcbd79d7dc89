package kapitest_test

import (
	"fmt"
	"testing"

	"github.com/kapi-dev/kapi/kapitest"
)

// crdYAML is a CRD of kind K<i> with a schema of a few properties.
func crdYAML(i int) string {
	return fmt.Sprintf(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: things%[1]d.bench.kapi.dev
spec:
  group: bench.kapi.dev
  names: {kind: Thing%[1]d, listKind: Thing%[1]dList, plural: things%[1]d, singular: thing%[1]d}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer, minimum: 0}
              image: {type: string}
              ports: {type: array, items: {type: object, properties: {name: {type: string}, port: {type: integer}}}}
              labels: {type: object, additionalProperties: {type: string}}
          status:
            type: object
            properties:
              ready: {type: boolean}
              conditions: {type: array, items: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`, i)
}

func BenchmarkStart(b *testing.B) {
	crds := make([]any, 50)
	for i := range crds {
		crds[i] = crdYAML(i)
	}
	b.Run("crds=0", func(b *testing.B) {
		for b.Loop() {
			kapitest.Start(b)
		}
	})
	b.Run("crds=50", func(b *testing.B) {
		for b.Loop() {
			kapitest.Start(b, kapitest.WithCRDs(crds...))
		}
	})
}
