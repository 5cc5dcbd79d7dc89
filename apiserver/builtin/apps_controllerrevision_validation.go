package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// controllerRevisionStrategy is what a ControllerRevision does
// differently: kube's ValidateControllerRevision and its update.
type controllerRevisionStrategy struct{ apiserver.GenericStrategy }

// controllerRevisionSchema is the published schema without its `required:
// [revision]` (kube decodes a missing revision as 0 and accepts it) and
// with data of any JSON type (kube's RawExtension decodes any, and its
// validation refuses what is not an object).
func controllerRevisionSchema() *schema.Schema {
	s := schemaEdited(Schema(meta.GroupVersionKind{Group: "apps", Version: "v1", Kind: "ControllerRevision"}), nil,
		func(s *schema.Schema) { s.Required = nil })
	// data is a RawExtension: any JSON decodes, and Validate wants an object.
	anyJSON := schema.MustParse(map[string]any{"x-kubernetes-preserve-unknown-fields": true})
	return schemaEdited(s, []string{"data"}, func(s *schema.Schema) {
		component := s.Component // RawExtension still, for managedFields
		*s = *anyJSON
		s.Component = component
	})
}

// Default gives a revision kube's zero value, which kube always encodes.
func (controllerRevisionStrategy) Default(o meta.Object) {
	if _, ok := o["revision"]; !ok {
		o["revision"] = int64(0)
	}
}

// Validate: a non-negative revision (kube checks it first), then data.
func (controllerRevisionStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	var e fieldErrs
	e.nonNegative("revision", o["revision"])
	data := o["data"]
	if r, ok := data.(meta.RawJSON); ok {
		data = r.Value
	}
	switch data.(type) {
	case nil:
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: "data", Detail: "data is mandatory"})
	case map[string]any:
	default:
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: "data", Detail: "data must be a valid JSON object"})
	}
	return e.list
}

// ValidateUpdate validates the next version and keeps its data.
func (s controllerRevisionStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	var e fieldErrs
	e.list = s.Validate(w, o)
	e.immutable("data", o["data"], old["data"], goRawExtension(o["data"]))
	return e.list
}
