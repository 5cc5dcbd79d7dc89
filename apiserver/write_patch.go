package apiserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/kapi-dev/kapi/apiserver/strategicpatch"
	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// Patch media types.
const (
	jsonPatchType      = "application/json-patch+json"
	mergePatchType     = "application/merge-patch+json"
	strategicPatchType = "application/strategic-merge-patch+json"
	applyPatchType     = "application/apply-patch+yaml"
)

// patchTypes lists the patch types in the order kube-apiserver names them
// in its 415 answer.
var patchTypes = []string{jsonPatchType, mergePatchType, applyPatchType, strategicPatchType}

// patch answers PATCH on an object or its status: the patch is applied to
// the newest stored object, and re-applied if another write lands first,
// so no concurrent update is lost. A patch that sets
// metadata.resourceVersion only applies to that version (409 otherwise).
func (q *request) patch() {

	ct, _ := codec.ParseMediaType(q.r.Header.Get("Content-Type"))
	patchType := ct.MediaType()
	supported := q.supportedPatchTypes()
	if !contains(supported, patchType) {
		if q.res.customResource {
			q.fail(meta.UnsupportedMediaType(patchType, supported))
			return
		}
		q.fail(meta.UnsupportedPatchType())
		return
	}
	if err := q.checkAcceptable(); err != nil {
		q.fail(err)
		return
	}
	body, err := q.readBody()
	var wo writeOptions
	if err == nil {
		q.applying = patchType == applyPatchType
		wo, err = q.requestOptions("PatchOptions", q.applying)
	}
	if err == nil && q.s.kubeRelease.AtLeast(37) {
		err = checkPatchBody(patchType, body)
	}
	if err != nil {
		q.fail(err)
		return
	}
	// apply returns the patched object and, for the patch types other than
	// apply, what field validation reports problems against: the patched
	// JSON (whose document order the warnings follow) or, for strategic
	// merge, the patch. It is made only when there are problems.
	var apply func(cur *store.Object) (meta.Object, func() []byte, error)
	// duplicates are the patch's own duplicate keys that field validation
	// reports (a merge or strategic merge patch's: kube decodes them
	// strictly).
	var duplicates []codec.Field
	switch patchType {
	case jsonPatchType:
		patchBytes, err := jsonPatcher(body)
		if err != nil {
			apply = patchError(err)
			break
		}
		byPatch := q.bytePatch(patchBytes)
		apply = func(cur *store.Object) (meta.Object, func() []byte, error) {
			obj, patched, err := byPatch(cur)
			if patched != nil {
				doc := patched()
				patched = func() []byte { return patchedDocument(doc) }
			}
			return obj, patched, err
		}
	case mergePatchType:
		if d, err := (codec.JSONCodec{}).Decode(body); err == nil {
			duplicates = d.Duplicates
			// The usual case, a patch that is an object: merged into a
			// copy of the decoded object (see mergePatch).
			merge := func(cur *store.Object) meta.Object {
				obj := cur.Data().DeepCopy()
				mergePatch(obj, d.Object)
				return obj
			}
			apply = func(cur *store.Object) (meta.Object, func() []byte, error) {
				cur, err := q.res.present(q.r.Context(), cur)
				if err != nil {
					return nil, nil, err
				}
				// The merged document before pruning, as kube's library
				// writes it, made again when an answer quotes it.
				patched := func() []byte {
					current, err := encodeObject(codec.JSONCodec{}, cur)
					if err == nil {
						if b, err := mergedDocument(current, body); err == nil {
							return b
						}
					}
					b, _ := codec.JSONCodec{}.Encode(merge(cur))
					return b
				}
				return merge(cur), patched, nil
			}
			break
		}
		// Not an object: kube's decoder refuses what encoding/json cannot
		// read into a map, and hands the rest (null) to the library as bytes.
		var probe map[string]any
		if err := json.Unmarshal(body, &probe); err != nil {
			apply = patchError(meta.BadRequest(fmt.Sprintf("error decoding patch: %v", err)))
			break
		}
		apply = q.bytePatch(func(current []byte) ([]byte, error) {
			out, err := jsonpatch.MergePatch(current, body)
			if err != nil {
				return nil, meta.BadRequest(err.Error())
			}
			return out, nil
		})
	case strategicPatchType:
		patchObj, err := codec.JSONCodec{}.Decode(body)
		if err != nil {
			// kube words the error as encoding/json does, where it fails.
			var probe map[string]any
			if uerr := json.Unmarshal(body, &probe); uerr != nil {
				err = uerr
			}
			apply = patchError(meta.BadRequest(err.Error()))
			break
		}
		duplicates = patchObj.Duplicates
		apply = func(cur *store.Object) (meta.Object, func() []byte, error) {
			cur, err := q.res.present(q.r.Context(), cur)
			if err != nil {
				return nil, nil, err
			}
			current := cur.Data()
			// kube reports field problems of a strategic merge against the
			// patch itself, printed as a Go map, as its merge left it.
			patchDesc := func() []byte {
				return []byte(fmt.Sprint(strategicpatch.AfterMerge(current, patchObj.Object, patchSchema(q.res.Schema))))
			}
			out, err := q.s.strategicMerge(q.res, current, patchObj.Object)
			if err == nil {
				// kube converts the merged map to the type's Go struct,
				// which keeps no apiVersion or kind of its own.
				out["apiVersion"], out["kind"] = q.res.APIVersion(), q.res.Kind
			}
			return out, patchDesc, err
		}
	case applyPatchType:
		d, err := codec.YAMLCodec{}.Decode(body)
		if codec.IsNull(err) {
			d, err = codec.Decoded{Object: meta.Object{}}, nil // kube's map stays empty
		}
		if err != nil {
			apply = patchError(meta.BadRequest("error decoding YAML: " + applyYAMLError(err)))
			break
		}
		fm, err := q.s.fieldManager(q.res)
		if err != nil {
			q.fail(meta.Internal(err))
			return
		}
		apply = func(cur *store.Object) (meta.Object, func() []byte, error) {
			var live meta.Object
			if cur != nil {
				cur, err := q.res.present(q.r.Context(), cur)
				if err != nil {
					return nil, nil, err
				}
				live = cur.Data()
			}
			o := q.mo
			o.Now = q.s.now()
			out, err := fm.Apply(live, d.Object.DeepCopy(), o)
			return out, nil, err
		}
	default:
		q.fail(meta.UnsupportedPatchType())
		return
	}
	// Server-side apply creates what does not exist; other patches need
	// an object to patch.
	allowCreate := q.applying && q.info.Subresource == ""
	q.respondUpdate(q.updateObject(wo, allowCreate, func(cur *store.Object) (meta.Object, error) {
		if cur == nil && !allowCreate {
			return nil, store.ErrNotFound
		}
		obj, patched, err := apply(cur)
		if err != nil {
			return nil, err
		}
		q.warnings = nil // the patch may be applied again after a conflict
		if q.applying && wo.fieldValidation != "Ignore" {
			// kube decodes an apply body strictly once it has applied it.
			if problems, err := codec.YAMLStrictErrors(body); err != nil {
				if wo.fieldValidation == "Strict" {
					return nil, meta.BadRequest("error strict decoding YAML: " + err.Error())
				}
				q.warnings = append(q.warnings, problems...)
			}
		}
		// kube reports the patch's own duplicate keys first, then what the
		// patched object has that its type does not.
		problems := make([]string, 0, len(duplicates))
		for _, d := range duplicates {
			problems = append(problems, fmt.Sprintf("duplicate field %q", d.Path))
		}
		problems = append(problems, q.res.bodyProblems(obj, patched, nil)...)
		text := ""
		if len(problems) > 0 && patched != nil {
			text = string(patched())
		}
		if err := q.checkFields(wo, problems, text); err != nil {
			return nil, err
		}
		document := patched // what kube decodes: a JSON or merge patch's result
		if patchType != jsonPatchType && patchType != mergePatchType {
			document = nil
		}
		if err := q.checkKind(obj, document); err != nil {
			return nil, err
		}
		q.res.toStorage(obj)
		if err := q.checkName(obj); err != nil {
			return nil, err
		}
		if err := q.checkNamespace(obj); err != nil {
			return nil, err
		}
		if cur == nil {
			if uid := obj.UID(); uid != "" {
				// An apply that would create names a uid no object has.
				return nil, meta.Conflict(q.gr(), q.info.Name, fmt.Sprintf(
					"uid mismatch: the provided object specified uid %s, and no existing object was found", uid))
			}
			return obj, nil
		}
		if uid := obj.UID(); uid != "" && uid != cur.Data().UID() {
			// kube checks ObjectMeta's update twice (its registry, then the
			// kind's ValidateUpdate), so it reports the change twice.
			immutable := meta.FieldError{Type: meta.ErrorInvalid, Field: "metadata.uid", Value: uid, Detail: "field is immutable"}
			return nil, meta.Invalid(q.gk(), q.info.Name, meta.FieldErrors{immutable, immutable})
		}
		return obj, nil
	}))
}

// applyJSONPatch applies a JSON patch as kube's library
// (evanphx/json-patch v4) does. Where v4 parts from v5, it reads a member
// an object lacks as null instead of failing: a replace of it adds it, a
// copy from it copies null, and a test of it for null passes. The patch is
// applied whole first; only when that fails and it has such an operation
// is it applied again operation by operation, each of those as v4 does it.
// jsonPatcher decodes a JSON patch as kube does and returns what applies
// it to a JSON document, failing as kube fails.
func jsonPatcher(body []byte) (func(current []byte) ([]byte, error), error) {
	p, err := jsonpatch.DecodePatch(body)
	if err != nil {
		if syntaxErr := jsonSyntaxError(body); syntaxErr != nil {
			return nil, meta.BadRequest(fmt.Sprintf("error decoding patch: %v", syntaxErr))
		}
		// A list of operations the library refuses (an unknown op, a
		// missing path): kube's decoder takes any, and applying it fails.
		return nil, patchFailed(err)
	}
	return func(current []byte) (out []byte, err error) {
		// The JSON patch library panics on some malformed operations (a
		// test without value at the root): answer as for any patch that
		// does not apply.
		defer func() {
			if r := recover(); r != nil {
				out, err = nil, patchFailed(fmt.Errorf("%v", r))
			}
		}()
		if out, err = applyJSONPatch(p, current); err != nil {
			return nil, patchFailed(err)
		}
		return out, nil
	}, nil
}

func applyJSONPatch(p jsonpatch.Patch, doc []byte) ([]byte, error) {
	out, err := p.Apply(doc)
	lenient := func(op jsonpatch.Operation) bool {
		k := op.Kind()
		return k == "replace" || k == "copy" || k == "test"
	}
	if err == nil || !slices.ContainsFunc(p, lenient) {
		return out, err
	}
	for _, op := range p {
		next, err := jsonpatch.Patch{op}.Apply(doc)
		if err != nil && lenient(op) {
			switch path, _ := op.Path(); op.Kind() {
			case "replace":
				if missingObjectMember(doc, path) {
					next, err = jsonpatch.Patch{withOp(op, "add", nil)}.Apply(doc)
				}
			case "copy":
				if from, ferr := op.From(); ferr == nil && missingObjectMember(doc, from) {
					null := json.RawMessage("null")
					next, err = jsonpatch.Patch{withOp(op, "add", &null)}.Apply(doc)
				}
			case "test":
				if v, ok := op["value"]; missingObjectMember(doc, path) && (!ok || v == nil || string(*v) == "null") {
					next, err = doc, nil
				}
			}
		}
		if err != nil {
			return nil, err
		}
		doc = next
	}
	return doc, nil
}

// withOp is op as another operation kind, with another value when value
// is not nil.
func withOp(op jsonpatch.Operation, kind string, value *json.RawMessage) jsonpatch.Operation {
	out := maps.Clone(op)
	k := json.RawMessage(strconv.Quote(kind))
	out["op"] = &k
	delete(out, "from")
	if value != nil {
		out["value"] = value
	}
	return out
}

// missingObjectMember reports whether path names a member missing
// from an object of doc, finding the object as kube's JSON patch library
// does (the path's first segment is dropped, so "data/k1" names the top
// level's k1).
func missingObjectMember(doc []byte, path string) bool {
	segments := strings.Split(path, "/")
	if len(segments) < 2 {
		return false
	}
	cur, err := codec.DecodeValue(doc)
	if err != nil {
		return false
	}
	unescape := strings.NewReplacer("~1", "/", "~0", "~")
	for _, seg := range segments[1 : len(segments)-1] {
		seg = unescape.Replace(seg)
		switch c := cur.(type) {
		case map[string]any:
			cur = c[seg]
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(c) {
				return false
			}
			cur = c[i]
		default:
			return false
		}
	}
	obj, ok := cur.(map[string]any)
	if !ok {
		return false
	}
	_, exists := obj[unescape.Replace(segments[len(segments)-1])]
	return !exists
}

// patchError is the apply of a patch body that cannot be decoded: kube
// decodes the body when it applies it to the object it has read, so the
// error comes after the object's lookup (a 404 first).
func patchError(err error) func(cur *store.Object) (meta.Object, func() []byte, error) {
	return func(*store.Object) (meta.Object, func() []byte, error) { return nil, nil, err }
}

// bytePatch applies a patch that works on JSON bytes: to the current
// object's encoding, whose result is decoded again and is also the
// document field validation reports against.
func (q *request) bytePatch(patchBytes func(current []byte) ([]byte, error)) func(cur *store.Object) (meta.Object, func() []byte, error) {
	return func(cur *store.Object) (meta.Object, func() []byte, error) {
		cur, err := q.res.present(q.r.Context(), cur)
		if err != nil {
			return nil, nil, err
		}
		current, err := encodeObject(codec.JSONCodec{}, cur)
		if err != nil {
			return nil, nil, meta.Internal(err)
		}
		patched, err := patchBytes(current)
		if err != nil {
			return nil, nil, err
		}
		d, err := codec.JSONCodec{}.Decode(patched)
		if err != nil {
			return nil, nil, meta.Invalid(meta.GroupKind{}, "", meta.FieldErrors{{
				Type: meta.ErrorInvalid, Field: "patch", Value: string(patched), Detail: err.Error()}})
		}
		return d.Object, func() []byte { return patched }, nil
	}
}

// supportedPatchTypes are the patch types a type accepts: strategic merge
// needs the patch metadata of a schema, which custom resources lack.
func (q *request) supportedPatchTypes() []string {
	if q.res.customResource {
		return []string{jsonPatchType, mergePatchType, applyPatchType}
	}
	return patchTypes
}

// patchFailed is kube-apiserver's answer to a JSON patch that does not
// apply (a failed test, a missing path): a generic 422 that drops the
// patch library's error text.
func patchFailed(error) error {
	return &meta.Status{
		Kind: "Status", APIVersion: "v1", Status: "Failure", Code: http.StatusUnprocessableEntity,
		Reason:  meta.ReasonInvalid,
		Message: "the server rejected our request due to an error in our request",
		Details: &meta.StatusDetails{},
	}
}

// jsonSyntaxError is how kube's decoder words a JSON patch document that
// is not a list of operations; nil when it is one.
func jsonSyntaxError(body []byte) error {
	var ops []map[string]any
	if err := json.Unmarshal(body, &ops); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			target := "[]handlers.jsonPatchOp" // the document is not a list
			if typeErr.Type.Kind() == reflect.Map {
				target = "handlers.jsonPatchOp" // an element is not an operation
			}
			return fmt.Errorf("json: cannot unmarshal %s into Go value of type %s", typeErr.Value, target)
		}
		return err
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// checkPatchBody is kube 1.37's look at a patch body after the options'
// checks and before the object is read (to record valid JSON for audit):
// a body of the JSON patch types that is not JSON is a 400 "invalid JSON
// patch", even for an object that does not exist; an apply body not
// written as a JSON object is converted from YAML, and a YAML syntax error
// is a 400 "error encoding patch". kube 1.33 reads the object first and
// words the errors as its patchers do.
func checkPatchBody(patchType string, body []byte) error {
	if patchType != applyPatchType {
		if !json.Valid(body) {
			return meta.BadRequest("invalid JSON patch")
		}
		return nil
	}
	if trimmed := bytes.TrimLeft(body, " \t\r\n"); len(trimmed) > 0 && trimmed[0] == '{' {
		return nil // kube hands a JSON-looking body on as it is
	}
	var fe *codec.FormatError
	if _, err := (codec.YAMLCodec{}).Decode(body); errors.As(err, &fe) {
		return meta.BadRequest("error encoding patch: " + fe.Msg)
	}
	return nil
}

// applyYAMLError words an apply body's decoding error as kube's reading of
// it into a map (sigs.k8s.io/yaml's Unmarshal) does.
func applyYAMLError(err error) string {
	var fe *codec.FormatError
	var noe *codec.NotObjectError
	switch {
	case errors.As(err, &fe):
		return "error converting YAML to JSON: " + fe.Msg
	case errors.As(err, &noe):
		return "error unmarshaling JSON: while decoding JSON: json: cannot unmarshal " + noe.Type +
			" into Go value of type map[string]interface {}"
	}
	return err.Error()
}
