package apiserver

import (
	"strings"

	"github.com/kapi-dev/kapi/apiserver/strategicpatch"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// Strategic merge patch of a built-in kind: the patch library driven by the
// kind's schema (patchStrategy, patchMergeKey).

// strategicMerge applies a strategic merge patch to the current object
// using the type's schema patch metadata (x-kubernetes-patch-strategy and
// -merge-key); without a schema, maps merge and lists are replaced.
func (s *Server) strategicMerge(res *Resource, current, patch meta.Object) (meta.Object, error) {
	out, err := strategicpatch.Apply(current, patch, patchSchema(res.Schema))
	if err == nil {
		dropPatchDirectives(out)
	}
	if err != nil {
		code := strategicpatch.StatusCode(err)
		switch code {
		case 400:
			return nil, meta.BadRequest(err.Error())
		case 422:
			return nil, meta.Invalid(meta.GroupKind{}, "", meta.FieldErrors{{Type: meta.ErrorInvalid, Field: "patch", Value: meta.NoValue, Detail: err.Error()}})
		}
		return nil, &meta.Status{Kind: "Status", APIVersion: "v1", Status: "Failure", Code: int32(code), Message: err.Error()}
	}
	return out, nil
}

// dropPatchDirectives removes the directive keys ($patch, $retainKeys,
// $setElementOrder/..., $deleteFromPrimitiveList/...) a strategic merge can
// leave in values it copied through, which kube drops when it decodes the
// result into its types.
func dropPatchDirectives(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if strings.HasPrefix(k, "$") {
				delete(v, k)
				continue
			}
			dropPatchDirectives(e)
		}
	case []any:
		for _, e := range v {
			dropPatchDirectives(e)
		}
	}
}

// patchSchemaView adapts a structural schema to the patch's navigation.
type patchSchemaView struct{ s *schema.Schema }

func patchSchema(s *schema.Schema) strategicpatch.Schema {
	if s == nil {
		return nil // a nil interface, not a typed nil
	}
	return patchSchemaView{s}
}

func (p patchSchemaView) Property(n string) strategicpatch.Schema {
	return patchSchema(p.s.Property(n))
}

func (p patchSchemaView) ItemSchema() strategicpatch.Schema { return patchSchema(p.s.ItemSchema()) }

func (p patchSchemaView) PatchStrategy() string { return p.s.PatchStrategy() }

func (p patchSchemaView) PatchMergeKey() string { return p.s.PatchMergeKey() }
