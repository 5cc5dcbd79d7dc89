package schema

import (
	_ "embed"
	"encoding/json"
	"sync"
)

// ObjectMetaComponent is the component name of metav1.ObjectMeta's schema.
const ObjectMetaComponent = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"

// objectMetaJSON holds the component schemas of metav1.ObjectMeta and of
// everything it refers to (OwnerReference, ManagedFieldsEntry, FieldsV1,
// Time) as kube-apiserver publishes them, descriptions dropped; generated
// by apiserver/builtin/gen from shared/kube-openapi.
//
//go:embed objectmeta.json
var objectMetaJSON []byte

var objectMeta = sync.OnceValue(func() *Schema {
	var v map[string]any
	if err := json.Unmarshal(objectMetaJSON, &v); err != nil {
		panic("schema: embedded ObjectMeta schema: " + err.Error())
	}
	comps, err := ParseComponents(v)
	if err != nil {
		panic("schema: embedded ObjectMeta schema: " + err.Error())
	}
	return comps[ObjectMetaComponent]
})

// ObjectMeta returns the schema of metav1.ObjectMeta (name, namespace,
// labels, annotations, ownerReferences, finalizers, managedFields, ...),
// which [Schema.Prune] applies to the metadata of a resource root and of
// embedded resources, whatever their own schema says (as kube-apiserver
// decodes it into ObjectMeta), and which server-side apply gives the
// metadata of custom resources. It is a component (see
// [Schema.Component]) parsed by [ParseComponents]. Shared: do not modify.
func ObjectMeta() *Schema {
	return objectMeta()
}
