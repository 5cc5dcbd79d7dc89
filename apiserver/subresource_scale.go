package apiserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/fieldmanager"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
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
		if n, isInt := meta.AsInt64(v); !isInt || n != 0 {
			spec["replicas"] = v // omitempty in autoscaling/v1 ScaleSpec
		}
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

// writeScale sets the replica count from a Scale body (PUT), a patch of
// the current Scale (PATCH) or a server-side apply of one; a Scale
// carrying a resourceVersion is a precondition. As kube-apiserver, the
// write's managedFields are kept on the Scale, made from and carried back
// to the object's (see scaleManagedFields).
func (q *request) writeScale() {
	kind := "UpdateOptions"
	if q.info.Verb == VerbPatch {
		kind = "PatchOptions"
	}
	patchType := ""
	if q.info.Verb == VerbPatch {
		ct, _ := codec.ParseMediaType(q.r.Header.Get("Content-Type"))
		patchType = ct.MediaType()
		// A Scale has no lists to merge by key: a strategic merge patch
		// merges as a merge patch.
		if patchType != jsonPatchType && patchType != mergePatchType && patchType != strategicPatchType && patchType != applyPatchType {
			q.fail(meta.UnsupportedPatchType())
			return
		}
	}
	applying := patchType == applyPatchType
	wo, err := q.requestOptions(kind, applying)
	if err != nil {
		q.fail(err)
		return
	}
	// The object's managedFields are maintained here, not by the update.
	q.tracked = true
	body := []byte(nil)
	if patchType != "" {
		if body, err = q.readBody(); err != nil {
			q.fail(err)
			return
		}
	}
	var applied meta.Object
	if applying {
		d, err := codec.YAMLCodec{}.Decode(body)
		if codec.IsNull(err) {
			d, err = codec.Decoded{Object: meta.Object{}}, nil
		}
		if err != nil {
			q.fail(meta.BadRequest("error decoding YAML: " + applyYAMLError(err)))
			return
		}
		applied = d.Object
	}
	fm, err := scaleFieldManager()
	if err != nil {
		q.fail(meta.Internal(err))
		return
	}
	specPath := scalePath(q.res.Scale.SpecReplicasPath)
	paths := q.s.replicasPaths(q.res)
	var put meta.Object
	if patchType == "" {
		// kube decodes a PUT's Scale and checks its name before it reads
		// the object.
		if put, err = q.decodeSubresourceBody(scaleKind, nil); err == nil {
			if _, msg := scaleReplicas(put); msg != "" {
				err = meta.BadRequest(`Scale in version "v1" cannot be handled as a Scale: ` + msg)
			} else {
				err = q.checkName(put)
			}
		}
		if err != nil {
			q.fail(err)
			return
		}
	}
	stored, created, err := q.updateObject(wo, false, func(cur *store.Object) (meta.Object, error) {
		if cur == nil {
			return nil, store.ErrNotFound
		}
		cur, err := q.res.present(q.r.Context(), cur)
		if err != nil {
			return nil, err
		}
		parentFields := cur.Data().Metadata()["managedFields"]
		current := scaleOf(q.res, cur.Data())
		scaleFields, err := fieldmanager.ScaleManagedFields(parentFields, paths)
		if err != nil {
			return nil, meta.Internal(err)
		}
		if scaleFields != nil {
			current.MetadataForWrite()["managedFields"] = scaleFields
		}
		o := q.mo
		o.APIVersion, o.Now = scaleKind.GroupVersion().String(), q.s.now()
		scale := put
		switch {
		case applying:
			if q.res.customResource && scaleFields == nil && gvkOf(applied) == scaleKind {
				// kube's apply to a custom resource's Scale first tracks
				// what the untracked Scale has, converting it as a
				// custom resource, which fails.
				return nil, crScaleConversionError("failed to create manager for existing fields: failed to convert live object")
			}
			if scale, err = fm.Apply(current, applied.DeepCopy(), o); err != nil {
				return nil, err
			}
			if q.res.customResource && !sameScale(current, scale) {
				// The same conversion of the applied result.
				return nil, crScaleConversionError("failed to convert new object")
			}
			if _, msg := scaleReplicas(scale); msg != "" {
				return nil, meta.BadRequest(msg)
			}
		case patchType != "":
			var scaleJSON []byte
			currentJSON, _ := json.Marshal(current)
			if patchType == jsonPatchType {
				patchBytes, err := jsonPatcher(body)
				if err != nil {
					return nil, err
				}
				if scaleJSON, err = patchBytes(currentJSON); err != nil {
					return nil, err
				}
			} else if scaleJSON, err = mergeScale(patchType, currentJSON, body); err != nil {
				return nil, err
			}
			d, err := codec.JSONCodec{}.Decode(scaleJSON)
			if err != nil {
				return nil, meta.BadRequest(err.Error())
			}
			if _, msg := scaleReplicas(d.Object); msg != "" {
				return nil, meta.Invalid(meta.GroupKind{}, "", meta.FieldErrors{{
					Type: meta.ErrorInvalid, Field: "patch", Value: string(scaleJSON), Detail: msg}})
			}
			if err := q.checkName(d.Object); err != nil {
				return nil, err
			}
			scale = d.Object
		}
		replicas, _ := scaleReplicas(scale)
		if replicas < 0 {
			return nil, meta.Invalid(scaleKind.GroupKind(), q.info.Name, meta.FieldErrors{{
				Type: meta.ErrorInvalid, Field: "spec.replicas", Value: replicas,
				Detail: "must be greater than or equal to 0"}})
		}
		next := cur.Data().DeepCopy()
		if rv := scale.ResourceVersion(); rv != "" {
			next.SetMetadataField("resourceVersion", rv)
		}
		if err := setNested(next, specPath, replicas); err != nil {
			return nil, meta.BadRequest(err.Error())
		}
		if !applying {
			scale = fm.Update(current, scale, o)
		}
		parent, err := fieldmanager.ParentManagedFields(parentFields, scale.Metadata()["managedFields"], q.res.APIVersion(), paths)
		if err != nil {
			return nil, meta.Internal(err)
		}
		if parent == nil {
			delete(next.MetadataForWrite(), "managedFields")
		} else {
			next.MetadataForWrite()["managedFields"] = parent
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

// crScaleConversionError is kube's 500 for a server-side apply to a
// custom resource's /scale: its field manager converts the Scale with
// the custom resource's converter, which knows no autoscaling/v1. Only an
// apply that finds a tracked Scale and changes nothing (or conflicts, or
// fails before) escapes it.
func crScaleConversionError(what string) *meta.Status {
	return &meta.Status{Kind: "Status", APIVersion: "v1", Status: "Failure", Code: http.StatusInternalServerError,
		Message: what + " (/; autoscaling/v1, Kind=Scale) to proper version: request to convert CR to an invalid group/version: autoscaling/v1"}
}

// sameScale says whether two Scales differ only in managedFields.
func sameScale(a, b meta.Object) bool {
	strip := func(o meta.Object) meta.Object {
		o = o.DeepCopy()
		delete(o.MetadataForWrite(), "managedFields")
		return o
	}
	return meta.EqualValues(map[string]any(strip(a)), map[string]any(strip(b)))
}

// scaleFieldManager tracks writes on the autoscaling/v1 Scale that /scale
// shows; one for every kind and server (a Manager is immutable).
var scaleFieldManager = sync.OnceValues(func() (*fieldmanager.Manager, error) {
	return fieldmanager.New(scaleKind, schema.Scale())
})

// replicasPaths maps each version of r's kind to the field holding its
// desired replica count, nil for a version without /scale (a CRD's).
func (s *Server) replicasPaths(r *Resource) fieldmanager.ReplicasPaths {
	paths := fieldmanager.ReplicasPaths{r.APIVersion(): scalePath(r.Scale.SpecReplicasPath)}
	if len(r.otherVersions) == 0 {
		return paths
	}
	reg := s.registry.Load()
	for _, v := range r.otherVersions {
		gv := meta.GroupVersion{Group: r.Group, Version: v}.String()
		paths[gv] = nil
		if o := reg.lookup(r.Group, v, r.Plural); o != nil && o.Scale != nil {
			paths[gv] = scalePath(o.Scale.SpecReplicasPath)
		}
	}
	return paths
}

// scaleReplicas reads a Scale's spec.replicas as kube's decoding into
// autoscaling/v1 Scale does: an int32, 0 when absent; for another value,
// Go's decoding error.
func scaleReplicas(scale meta.Object) (int64, string) {
	typeErr := func(v any, field, goType string) string {
		return fmt.Sprintf("json: cannot unmarshal %s into Go struct field %s of type %s", goJSONKind(v), field, goType)
	}
	spec, ok := scale["spec"].(map[string]any)
	if !ok {
		if v := scale["spec"]; v != nil {
			return 0, typeErr(v, "Scale.spec", "v1.ScaleSpec")
		}
		return 0, ""
	}
	switch n := spec["replicas"].(type) {
	case nil:
		return 0, ""
	case int64:
		if n == int64(int32(n)) {
			return n, ""
		}
	}
	return 0, typeErr(spec["replicas"], "ScaleSpec.spec.replicas", "int32")
}

// goJSONKind names a JSON value as Go's decoder does in a type error: a
// number with its text.
func goJSONKind(v any) string {
	switch n := v.(type) {
	case int64:
		return "number " + strconv.FormatInt(n, 10)
	case float64:
		return "number " + strconv.FormatFloat(n, 'g', -1, 64)
	}
	return jsonKind(v)
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

// mergeScale merges a merge or strategic merge patch into a Scale's JSON
// (a Scale has no lists to merge by key), with kube's words for a body
// that is no patch: its decoder's for what is no JSON object (a merge
// patch's prefixed, as its field validation decodes it first), the merge
// library's for null.
func mergeScale(patchType string, current, body []byte) ([]byte, error) {
	var probe map[string]any
	if err := json.Unmarshal(body, &probe); err != nil {
		if patchType == mergePatchType {
			return nil, meta.BadRequest(fmt.Sprintf("error decoding patch: %v", err))
		}
		return nil, meta.BadRequest(err.Error())
	}
	if probe == nil {
		return nil, meta.BadRequest("Invalid JSON Patch")
	}
	merged, err := mergedDocument(current, body)
	if err != nil {
		return nil, meta.BadRequest(err.Error())
	}
	return merged, nil
}
