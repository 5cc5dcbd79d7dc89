package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/meta"
)

// Conversion calls a CustomResourceDefinition's conversion webhook
// (spec.conversion.strategy: Webhook) with ConversionReview v1, as
// apiextensions-apiserver does, and checks what it returns.
type Conversion struct {
	Clients *Clients
	Client  ClientConfig
	// ReviewAPIVersion is the ConversionReview version spoken: the first
	// of the CRD's conversionReviewVersions kube supports
	// ("apiextensions.k8s.io/v1" or "apiextensions.k8s.io/v1beta1", the
	// same shape); empty means v1.
	ReviewAPIVersion string
	// ValidateMetadata, when set, checks the labels or annotations
	// (field) a webhook changed, as kube validates them; its error is
	// kube's message.
	ValidateMetadata func(field string, m map[string]any) error
	// Timeout bounds each call; 0 means ConversionTimeout.
	Timeout time.Duration
}

// ConversionTimeout bounds a conversion webhook's call, as
// apiextensions-apiserver bounds it (a CRD names no timeout).
const ConversionTimeout = 30 * time.Second

var errClientTimeout = errors.New("conversion webhook timeout")

type conversionReview struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Response   *struct {
		UID              string           `json:"uid"`
		ConvertedObjects []map[string]any `json:"convertedObjects"`
		Result           struct {
			Status  string `json:"status"`
			Message string `json:"message"`
		} `json:"result"`
	} `json:"response"`
}

// Convert converts objects, all of the kind fromGVK names
// ("conv.example.com/v1, Kind=Paint", as kube's messages print it), to
// apiVersion to. Objects already there are not sent. Only what a
// conversion may change is taken from the answer: the metadata stays the
// original's, but for labels and annotations. Errors are worded as kube's
// ("conversion webhook for <fromGVK> failed: ...").
func (c *Conversion) Convert(ctx context.Context, objs []map[string]any, fromGVK, to string) ([]map[string]any, error) {
	var send []map[string]any
	var at []int
	for i, o := range objs {
		if av, _ := o["apiVersion"].(string); av != to {
			send = append(send, o)
			at = append(at, i)
		}
	}
	out := make([]map[string]any, len(objs))
	copy(out, objs)
	if len(send) == 0 {
		return out, nil
	}
	timeout := c.Timeout
	if timeout == 0 {
		timeout = ConversionTimeout
	}
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, errClientTimeout)
	defer cancel()
	uid := newUID()
	reviewVersion := c.ReviewAPIVersion
	if reviewVersion == "" {
		reviewVersion = "apiextensions.k8s.io/v1"
	}
	body, err := json.Marshal(map[string]any{"kind": "ConversionReview", "apiVersion": reviewVersion,
		"request": map[string]any{"uid": uid, "desiredAPIVersion": to, "objects": send}})
	if err != nil {
		return nil, err
	}
	failed := func(err error) error { return fmt.Errorf("conversion webhook for %s failed: %v", fromGVK, err) }
	var rv conversionReview
	if err := c.Clients.post(ctx, c.Client, body, &rv); err != nil {
		var ce *CallError
		if errors.As(err, &ce) {
			var ue *url.Error
			if errors.As(ce.Err, &ue) && context.Cause(ctx) == errClientTimeout {
				// kube's client times the call out itself (http.Client.Timeout)
				return nil, failed(fmt.Errorf("%s %q: context deadline exceeded (Client.Timeout exceeded while awaiting headers)", ue.Op, ue.URL))
			}
			return nil, failed(ce.Err)
		}
		return nil, failed(err)
	}
	r := rv.Response
	switch {
	case rv.APIVersion != "" && rv.Kind != "" && (rv.APIVersion != reviewVersion || rv.Kind != "ConversionReview"):
		// kube's decoder into the review type it asked for
		if rv.Kind == "ConversionReview" && (rv.APIVersion == "apiextensions.k8s.io/v1" || rv.APIVersion == "apiextensions.k8s.io/v1beta1") {
			return nil, failed(fmt.Errorf("converting (%s.ConversionReview) to (%s.ConversionReview): unknown conversion",
				versionOf(rv.APIVersion), versionOf(reviewVersion)))
		}
		return nil, failed(fmt.Errorf("no kind %q is registered for version %q in scheme \"pkg/runtime/scheme.go:110\"", rv.Kind, rv.APIVersion))
	case rv.APIVersion != reviewVersion || rv.Kind != "ConversionReview":
		return nil, failed(fmt.Errorf("expected webhook response of %s, Kind=ConversionReview, got %s", reviewVersion, gvkString(rv.APIVersion, rv.Kind)))
	case r == nil:
		return nil, failed(errors.New("no response provided"))
	case r.UID != uid:
		return nil, failed(fmt.Errorf("expected response.uid=%q, got %q", uid, r.UID))
	case r.Result.Status != "Success":
		if r.Result.Message != "" {
			return nil, failed(errors.New(r.Result.Message))
		}
		return nil, failed(fmt.Errorf("response.result.status was '%s', not 'Success'", r.Result.Status))
	case len(r.ConvertedObjects) != len(send):
		return nil, fmt.Errorf("conversion webhook for %s returned %d objects, expected %d", fromGVK, len(r.ConvertedObjects), len(send))
	}
	for i, conv := range r.ConvertedObjects {
		orig := send[i]
		if av, _ := conv["apiVersion"].(string); av != to {
			return nil, fmt.Errorf("conversion webhook for %s returned invalid object at index %v: invalid groupVersion (expected %v, received %v)", fromGVK, i, to, av)
		}
		if meta.AsString(conv["kind"]) != meta.AsString(orig["kind"]) {
			return nil, fmt.Errorf("conversion webhook for %s returned invalid object at index %v: invalid kind (expected %v, received %v)", fromGVK, i, meta.AsString(orig["kind"]), meta.AsString(conv["kind"]))
		}
		om, _ := orig["metadata"].(map[string]any)
		cm, _ := conv["metadata"].(map[string]any)
		for _, k := range []string{"name", "namespace", "uid"} {
			if meta.AsString(cm[k]) != meta.AsString(om[k]) {
				return nil, fmt.Errorf("conversion webhook for %s returned invalid object: must have the same %s: %v != %v",
					fromGVK, map[string]string{"name": "name", "namespace": "namespace", "uid": "UID"}[k], meta.AsString(om[k]), meta.AsString(cm[k]))
			}
		}
		// The answer is ours to change; the original's metadata is not (it
		// may be a stored object's): it is copied.
		conv = normalizeNumbers(conv).(map[string]any)
		md, err := restoreMetadata(om, conv["metadata"], c.ValidateMetadata)
		if err != nil {
			return nil, fmt.Errorf("conversion webhook for %s returned invalid metadata: %v", fromGVK, err)
		}
		conv["metadata"] = md
		out[at[i]] = conv
	}
	return out, nil
}

// restoreMetadata is the converted object's metadata as kube keeps it: the
// original's, with the labels and annotations the webhook returned
// (checked by validate when they changed).
func restoreMetadata(orig map[string]any, returned any, validate func(field string, m map[string]any) error) (map[string]any, error) {
	if returned == nil {
		return nil, errors.New("missing metadata in converted object")
	}
	rm, ok := returned.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("invalid metadata of type %s in converted object", goType(returned))
	}
	md := map[string]any(meta.Object(orig).DeepCopy())
	if md == nil {
		md = map[string]any{}
	}
	for _, f := range []string{"labels", "annotations"} {
		v, found := rm[f]
		if !found || v == nil {
			delete(md, f)
			continue
		}
		field, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("invalid metadata.%s of type %s in converted object", f, goType(v))
		}
		before, _ := md[f].(map[string]any)
		changed := len(before) != len(field)
		for k, e := range field {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("metadata.%s[%s] must be a string, but is %s in converted object", f, k, goType(e))
			}
			if b, ok := before[k].(string); !ok || b != s {
				changed = true
			}
		}
		if changed && validate != nil {
			if err := validate(f, field); err != nil {
				return nil, err
			}
		}
		md[f] = field
	}
	return md, nil
}

// goType names a JSON value's Go type as kube's messages print it (%T).
func goType(v any) string {
	switch v.(type) {
	case map[string]any:
		return "map[string]interface {}"
	case []any:
		return "[]interface {}"
	case string:
		return "string"
	case bool:
		return "bool"
	case nil:
		return "<nil>"
	}
	return "int64" // kube decodes JSON integers as int64 (float64 otherwise)
}

// gvkString prints a kind as kube's GroupVersionKind.String does.
func gvkString(apiVersion, kind string) string {
	group, version := "", apiVersion
	if i := strings.IndexByte(apiVersion, '/'); i >= 0 {
		group, version = apiVersion[:i], apiVersion[i+1:]
	}
	return group + "/" + version + ", Kind=" + kind
}

func versionOf(apiVersion string) string { return apiVersion[strings.IndexByte(apiVersion, '/')+1:] }
