package fieldmanager

import (
	"bytes"
	"encoding/json"
	"errors"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
)

// This file is kubectl's road from client-side to server-side apply
// (apimachinery's lastappliedmanager.go and lastappliedupdater.go). Both
// only act for the manager named exactly "kubectl", kubectl's default for
// `apply --server-side`; another name opts out.

// LastAppliedAnnotation is the annotation in which client-side
// `kubectl apply` keeps the configuration it applied last.
const LastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// kubectlManager is the field manager the last-applied handling is for.
const kubectlManager = "kubectl"

// totalAnnotationSizeLimit is apimachinery's TotalAnnotationSizeLimitB.
const totalAnnotationSizeLimit = 256 * (1 << 10)

// allowedConflicts returns the fields a first server-side apply by kubectl
// may take over without a conflict: those of the live object's
// last-applied configuration whose values still match the live object
// (the ones client-side apply owned). An error means there is no usable
// annotation; the conflicts then stand.
func (m *Manager) allowedConflicts(live meta.Object, apiVersion string) (*fieldpath.Set, error) {
	last := live.Annotations()[LastAppliedAnnotation]
	if last == "" {
		return nil, errors.New("no last applied annotation")
	}
	v, err := codec.DecodeValue([]byte(last))
	if err != nil {
		return nil, err
	}
	lastObj, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("last applied configuration is not an object")
	}
	if k, _ := lastObj["kind"].(string); k == "" {
		return nil, errors.New("last applied configuration has no kind")
	}
	if meta.Object(lastObj).APIVersion() != apiVersion {
		return nil, errors.New("last applied configuration is of another version")
	}
	liveTV, err := m.typed.FromUnstructured(plain(live))
	if err != nil {
		return nil, err
	}
	lastTV, err := m.typed.FromUnstructured(lastObj)
	if err != nil {
		return nil, err
	}
	set, err := lastTV.ToFieldSet()
	if err != nil {
		return nil, err
	}
	cmp, err := lastTV.Compare(liveTV)
	if err != nil {
		return nil, err
	}
	return set.Difference(cmp.Modified).Difference(cmp.Added).Difference(cmp.Removed), nil
}

// conflictsOutside returns the conflicts whose path is not in allowed.
func conflictsOutside(conflicts merge.Conflicts, allowed *fieldpath.Set) merge.Conflicts {
	out := merge.Conflicts{}
	for _, c := range conflicts {
		if !allowed.Has(c.Path) {
			out = append(out, c)
		}
	}
	return out
}

// updateLastApplied keeps the last-applied annotation of obj (the result
// of an apply by kubectl) equal to the applied configuration, when obj
// carries one: the configuration without that annotation, as JSON with a
// trailing newline. When the annotations would exceed their size limit,
// the annotation is dropped instead. obj must be owned by the caller.
func updateLastApplied(obj, applied meta.Object) {
	if obj.Annotations()[LastAppliedAnnotation] == "" {
		return
	}
	cfg := applied.DeepCopy()
	if md := cfg.Metadata(); md != nil {
		switch a := md["annotations"].(type) {
		case nil:
		case map[string]any:
			delete(a, LastAppliedAnnotation)
		default:
			delete(md, "annotations")
		}
	}
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(map[string]any(cfg)); err != nil {
		return
	}
	annotations, _ := obj.MetadataForWrite()["annotations"].(map[string]any)
	if annotations == nil {
		annotations = map[string]any{}
		obj.MetadataForWrite()["annotations"] = annotations
	}
	annotations[LastAppliedAnnotation] = buf.String()
	size := 0
	for k, v := range annotations {
		s, _ := v.(string)
		size += len(k) + len(s)
	}
	if size > totalAnnotationSizeLimit {
		delete(annotations, LastAppliedAnnotation)
	}
}
