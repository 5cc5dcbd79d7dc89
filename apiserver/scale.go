package apiserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// Scale describes a kind's scale subresource: an autoscaling/v1 Scale view
// of the replica counts at these paths, so that `kubectl scale` and
// autoscalers work on the kind, as on kube's workloads and on custom
// resources whose CRD declares one. Paths are JSON paths of one field each
// (".spec.replicas").
type Scale struct {
	// SpecReplicasPath is the desired count, which a write of the Scale
	// sets; StatusReplicasPath the observed count.
	SpecReplicasPath, StatusReplicasPath string
	// LabelSelectorPath names a string field holding the selector of what
	// is scaled, in its string form (CRDs).
	LabelSelectorPath string
	// Selector renders the selector when LabelSelectorPath is empty (kube's
	// workloads render spec.selector in its string form).
	Selector func(obj meta.Object) string
}

func scalePath(p string) []string {
	if p == "" {
		return nil
	}
	return strings.Split(strings.TrimPrefix(p, "."), ".")
}

// scaleOf renders an object's Scale.
func scaleOf(res *Resource, obj meta.Object) meta.Object {
	md := obj.Metadata()
	scaleMeta := map[string]any{}
	for _, f := range []string{"name", "namespace", "uid", "resourceVersion", "creationTimestamp"} {
		if v, ok := md[f]; ok {
			scaleMeta[f] = v
		}
	}
	sc := res.Scale
	spec, status := map[string]any{}, map[string]any{"replicas": int64(0)}
	if v, ok := meta.NestedField(obj, scalePath(sc.SpecReplicasPath)...); ok {
		spec["replicas"] = v
	}
	if v, ok := meta.NestedField(obj, scalePath(sc.StatusReplicasPath)...); ok {
		status["replicas"] = v
	}
	if p := scalePath(sc.LabelSelectorPath); p != nil {
		if v, ok := meta.NestedField(obj, p...); ok {
			status["selector"] = v
		}
	} else if sc.Selector != nil {
		if sel := sc.Selector(obj); sel != "" {
			status["selector"] = sel
		}
	}
	return meta.Object{"kind": "Scale", "apiVersion": "autoscaling/v1", "metadata": scaleMeta, "spec": spec, "status": status}
}

// serveScale answers get, update and patch of /scale.
func (q *request) serveScale() {
	key := q.res.key(q.info.Namespace, q.info.Name)
	switch q.info.Verb {
	case VerbGet:
		obj, err := q.s.store.Get(q.r.Context(), key)
		if err != nil {
			q.fail(storeError(err, q.gr(), q.info.Name))
			return
		}
		if obj, err = q.res.present(q.r.Context(), obj); err != nil {
			q.fail(err)
			return
		}
		q.s.writeValue(q.w, q.r, http.StatusOK, scaleKind, scaleOf(q.res, obj.Data()))
	case VerbUpdate, VerbPatch:
		q.writeScale()
	default:
		q.fail(q.methodNotSupported(q.info.Verb))
	}
}

var scaleKind = meta.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}

// writeScale sets the replica count from a Scale body (PUT) or a patch of
// the current Scale (PATCH); a Scale carrying a resourceVersion is a
// precondition.
func (q *request) writeScale() {
	kind := "UpdateOptions"
	if q.info.Verb == VerbPatch {
		kind = "PatchOptions"
	}
	wo, err := q.requestOptions(kind, false)
	if err != nil {
		q.fail(err)
		return
	}
	body, err := q.readBody()
	if err != nil {
		q.fail(err)
		return
	}
	patchType := ""
	if q.info.Verb == VerbPatch {
		ct, _ := codec.ParseMediaType(q.r.Header.Get("Content-Type"))
		patchType = ct.MediaType()
		if patchType != jsonPatchType && patchType != mergePatchType {
			q.fail(meta.UnsupportedPatchType())
			return
		}
	}
	specPath := scalePath(q.res.Scale.SpecReplicasPath)
	stored, created, err := q.updateObject(wo, false, func(cur *store.Object) (meta.Object, error) {
		if cur == nil {
			return nil, store.ErrNotFound
		}
		cur, err := q.res.present(q.r.Context(), cur)
		if err != nil {
			return nil, err
		}
		scaleJSON := body
		if patchType != "" {
			current, _ := json.Marshal(scaleOf(q.res, cur.Data()))
			if patchType == jsonPatchType {
				p, err := jsonpatch.DecodePatch(body)
				if err != nil {
					return nil, meta.BadRequest(fmt.Sprintf("error decoding patch: %v", err))
				}
				if scaleJSON, err = p.Apply(current); err != nil {
					return nil, patchFailed(err)
				}
			} else if scaleJSON, err = jsonpatch.MergePatch(current, body); err != nil {
				return nil, meta.BadRequest(err.Error())
			}
		}
		d, err := codec.JSONCodec{}.Decode(scaleJSON)
		if err != nil {
			return nil, meta.BadRequest(err.Error())
		}
		replicas, ok := meta.AsInt64(d.Object["spec"].(map[string]any)["replicas"])
		if !ok || replicas < 0 {
			return nil, meta.Invalid(scaleKind.GroupKind(), q.info.Name, meta.FieldErrors{{
				Type: meta.ErrorInvalid, Field: "spec.replicas", Value: d.Object["spec"].(map[string]any)["replicas"],
				Detail: "must be greater than or equal to 0"}})
		}
		next := cur.Data().DeepCopy()
		if rv := d.Object.ResourceVersion(); rv != "" {
			next.SetMetadataField("resourceVersion", rv)
		}
		if err := setNested(next, specPath, replicas); err != nil {
			return nil, meta.BadRequest(err.Error())
		}
		return next, nil
	})
	if err != nil {
		q.fail(storeError(err, q.gr(), q.info.Name))
		return
	}
	_ = created
	if stored, err = q.res.present(q.r.Context(), stored); err != nil {
		q.fail(err)
		return
	}
	q.s.writeValue(q.w, q.r, http.StatusOK, scaleKind, scaleOf(q.res, stored.Data()))
}

// setNested sets a value at a dotted path, creating maps on the way.
func setNested(obj map[string]any, path []string, v any) error {
	if len(path) == 0 {
		return fmt.Errorf("the scale subresource has no specReplicasPath")
	}
	cur := obj
	for _, p := range path[:len(path)-1] {
		next, ok := cur[p].(map[string]any)
		if !ok {
			if cur[p] != nil {
				return fmt.Errorf("%s is not an object", p)
			}
			next = map[string]any{}
			cur[p] = next
		}
		cur = next
	}
	cur[path[len(path)-1]] = v
	return nil
}
