package apiserver

import "github.com/kapi-dev/kapi/meta"

// JSON merge patch (RFC 7386) on decoded objects. kube-apiserver applies
// merge patches with evanphx/json-patch's MergePatch on JSON bytes; this
// applies the same rules to the decoded object, which saves encoding the
// current object, parsing both documents, and encoding and decoding the
// result on every patch. It keeps that library's rules where they go
// beyond the RFC (FuzzMergePatchMatchesTheLibrary holds it to them):
//
//   - a null in the patch removes the key;
//   - an object in the patch merges into an object in the target;
//   - any other patch value replaces the target's value: inserted into a
//     key that was absent, null or not an object, it first loses its
//     null-valued keys at every depth (arrays keep their null elements);
//     replacing an object, it is inserted as it is.

// mergePatch merges patch into doc, which it modifies: doc must be the
// caller's own copy. patch is not modified and shares nothing with the
// result.
func mergePatch(doc, patch map[string]any) {
	for k, v := range patch {
		if v == nil {
			delete(doc, k)
			continue
		}
		cur, ok := doc[k]
		if !ok || cur == nil {
			doc[k] = withoutNulls(v)
			continue
		}
		doc[k] = mergeValue(cur, v)
	}
}

func mergeValue(cur, patch any) any {
	curObj, ok := meta.AsMap(cur)
	if !ok {
		return withoutNulls(patch)
	}
	patchObj, ok := meta.AsMap(patch)
	if !ok {
		return meta.DeepCopyValue(patch)
	}
	mergePatch(curObj, patchObj)
	return curObj
}

// withoutNulls copies v without the null-valued keys of its objects.
func withoutNulls(v any) any {
	if m, ok := meta.AsMap(v); ok {
		out := make(map[string]any, len(m))
		for k, e := range m {
			if e != nil {
				out[k] = withoutNulls(e)
			}
		}
		return out
	}
	if a, ok := v.([]any); ok {
		out := make([]any, len(a))
		for i, e := range a {
			if e != nil {
				out[i] = withoutNulls(e)
			}
		}
		return out
	}
	return v
}
