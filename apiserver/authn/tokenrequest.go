package authn

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/kapi-dev/kapi/meta"
)

var tokenRequestKind = meta.GroupKind{Group: "authentication.k8s.io", Kind: "TokenRequest"}

// TokenRequest answers a create of serviceaccounts/NAME/token in namespace
// (kube's TokenRequest API, what `kubectl create token` sends): req is the
// decoded authentication.k8s.io/v1 TokenRequest; the answer is req with
// metadata.name/namespace/creationTimestamp filled in, spec defaulted and
// status holding the token and its expiry. Errors are kube's: NotFound for
// a missing ServiceAccount or bound object, 422 for a lifetime under ten
// minutes or metadata that names another account, 400 for a pod running as
// another ServiceAccount or an object kind tokens cannot be bound to, 409
// for a bound object whose UID changed.
func (t *ServiceAccountTokens) TokenRequest(ctx context.Context, namespace, name string, req meta.Object) (meta.Object, error) {
	out := req.DeepCopy()
	md := out.MetadataForWrite()
	if n, _ := md["name"].(string); n != "" && n != name {
		return nil, meta.Invalid(tokenRequestKind, name, meta.FieldErrors{{Type: meta.ErrorInvalid, Field: "metadata.name",
			Value: n, Detail: "must match the service account name if specified"}})
	}
	if ns, _ := md["namespace"].(string); ns != "" && ns != namespace {
		return nil, meta.Invalid(tokenRequestKind, name, meta.FieldErrors{{Type: meta.ErrorInvalid, Field: "metadata.namespace",
			Value: ns, Detail: "must match the service account namespace if specified"}})
	}
	sa, err := t.cfg.Objects.GetObject(ctx, "serviceaccounts", namespace, name)
	if err != nil {
		return nil, err
	}
	spec, _ := out["spec"].(map[string]any)
	if spec == nil {
		spec = map[string]any{}
		out["spec"] = spec
	}
	auds := meta.AsStrings(spec["audiences"])
	if len(auds) == 0 {
		auds = t.APIAudiences()
		spec["audiences"] = toAnyList(auds)
	}
	seconds, ok := meta.AsInt64(spec["expirationSeconds"])
	if !ok {
		seconds = 3600
	}
	spec["expirationSeconds"] = seconds
	if _, ok := spec["boundObjectRef"]; !ok {
		spec["boundObjectRef"] = nil
	}
	now := t.cfg.Now()
	md["name"], md["namespace"] = name, namespace
	md["creationTimestamp"] = meta.FormatTime(now)
	delete(out, "status")

	switch {
	case seconds < int64((10 * time.Minute).Seconds()):
		return nil, meta.Invalid(tokenRequestKind, "", meta.FieldErrors{{Type: meta.ErrorInvalid, Field: "spec.expirationSeconds",
			Value: seconds, Detail: "may not specify a duration less than 10 minutes"}})
	case seconds > math.MaxUint32:
		return nil, meta.Invalid(tokenRequestKind, "", meta.FieldErrors{{Type: meta.ErrorInvalid, Field: "spec.expirationSeconds",
			Value: seconds, Detail: "may not specify a duration larger than 2^32 seconds"}})
	}

	tok := ServiceAccountToken{Namespace: namespace, ServiceAccountName: name, ServiceAccountUID: sa.UID(), Audiences: auds}
	if ref, _ := spec["boundObjectRef"].(map[string]any); ref != nil {
		kind, _ := ref["kind"].(string)
		apiVersion, _ := ref["apiVersion"].(string)
		refName, _ := ref["name"].(string)
		refUID, _ := ref["uid"].(string)
		gv := meta.ParseGroupVersion(apiVersion)
		var obj meta.Object
		switch {
		case gv.Group == "" && kind == "Pod":
			if obj, err = t.cfg.Objects.GetObject(ctx, "pods", namespace, refName); err != nil {
				return nil, err
			}
			if sa, _ := meta.NestedField(obj, "spec", "serviceAccountName"); sa != name {
				return nil, meta.BadRequest(fmt.Sprintf("cannot bind token for serviceaccount %q to pod running with different serviceaccount name.", name))
			}
			tok.Pod = &BoundObject{Name: refName, UID: obj.UID()}
			if node, _ := meta.NestedField(obj, "spec", "nodeName"); node != "" && node != nil {
				nodeName, _ := node.(string)
				tok.Node = &BoundObject{Name: nodeName}
				if n, err := t.cfg.Objects.GetObject(ctx, "nodes", "", nodeName); err == nil {
					tok.Node.UID = n.UID()
				}
			}
		case gv.Group == "" && kind == "Secret":
			if obj, err = t.cfg.Objects.GetObject(ctx, "secrets", namespace, refName); err != nil {
				return nil, err
			}
			tok.Secret = &BoundObject{Name: refName, UID: obj.UID()}
		case gv.Group == "" && kind == "Node":
			if obj, err = t.cfg.Objects.GetObject(ctx, "nodes", "", refName); err != nil {
				return nil, err
			}
			tok.Node = &BoundObject{Name: refName, UID: obj.UID()}
		default:
			return nil, meta.BadRequest(fmt.Sprintf("cannot bind token to object of type %s", gvkString(gv, kind)))
		}
		if refUID != "" && refUID != obj.UID() {
			return nil, meta.Conflict(meta.GroupResource{Group: gv.Group, Resource: kind}, refName, fmt.Sprintf(
				"the UID in the bound object reference (%s) does not match the UID in record. The object might have been deleted and then recreated", refUID))
		}
	}
	var warnings []string
	if max := int64(t.cfg.MaxExpiration.Seconds()); max > 0 && seconds > max {
		warnings = append(warnings, fmt.Sprintf("requested expiration of %d seconds shortened to %d seconds", seconds, max))
		seconds = max
		spec["expirationSeconds"] = seconds
	}
	tok.Expiration = time.Duration(seconds) * time.Second
	token, _, err := t.Issue(tok)
	if err != nil {
		return nil, meta.Internal(fmt.Errorf("failed to generate token: %v", err))
	}
	out["status"] = map[string]any{
		"token":               token,
		"expirationTimestamp": meta.FormatTime(now.Add(tok.Expiration)),
	}
	if len(warnings) > 0 {
		if w, ok := ctx.Value(warningsKey{}).(*[]string); ok {
			*w = append(*w, warnings...)
		}
	}
	return out, nil
}

// warningsKey lets a caller of TokenRequest collect its warnings
// (WithWarnings).
type warningsKey struct{}

// WithWarnings returns ctx in which TokenRequest appends the Warning
// messages kube would send (a shortened expiration) to *w.
func WithWarnings(ctx context.Context, w *[]string) context.Context {
	return context.WithValue(ctx, warningsKey{}, w)
}

func gvkString(gv meta.GroupVersion, kind string) string {
	// kube prints schema.GroupVersionKind: "group/version, Kind=kind".
	return fmt.Sprintf("%s/%s, Kind=%s", gv.Group, gv.Version, kind)
}

func toAnyList(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}
