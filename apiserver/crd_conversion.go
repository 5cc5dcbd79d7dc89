package apiserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"

	"github.com/kapi-dev/kapi/apiserver/webhook"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/store"
)

// CRD conversion webhooks (spec.conversion.strategy: Webhook), called as
// apiextensions-apiserver calls them: custom resources are stored at the
// CRD's storage version, and every read and write at another version
// converts through the webhook (ConversionReview), as kube's storage codec
// does on each decode and encode. A write runs its whole pipeline
// (defaults, managedFields, admission, validation) at the request's
// version and is converted just before it is stored; a read converts what
// is stored, once per stored version and served version (cached with the
// stored object, as encodings are, so every watcher and reader shares
// one call; failures are not cached). Lists send their unconverted
// objects in one review. A stored object gets the new defaults of its own
// version's schema before it is sent, and what the webhook returns is
// pruned with the target version's schema, not defaulted (kube's storage
// codec). Managers recorded in managedFields at another version are
// compared at theirs, converted through the webhook (fieldmanager's
// Options.Convert). Failures answer 500 with kube's message,
// "conversion webhook for <group/version>, Kind=<Kind> failed: ...";
// a watch ends with that error as an ERROR event (kube's watch cache
// stops delivering instead). Config.Webhooks turns the calls on.

// crdConversion is one CRD generation's conversion webhook, shared by the
// registrations of its served versions.
type crdConversion struct {
	group, kind string
	// hook calls the webhook; its Clients are those of the server that
	// serves this copy (servedCRDOf: servers sharing a store share the
	// parsed CRD, each with its own webhook clients, or none).
	hook webhook.Conversion
	// schemas are the versions' schemas, by apiVersion: what a webhook
	// returns is pruned with its version's, as kube's storage codec
	// prunes it (and, as kube, not defaulted).
	schemas map[string]*schema.Schema
	// keys are the store.Object.Derived keys of the converted views, by
	// version; shared by the servers' copies, as the views are.
	keys *sync.Map
}

type conversionKey struct{ version string }

var (
	acceptedReviewVersions = []string{"v1", "v1beta1"}
	errNotCached           = errors.New("not cached")
	errConversionOff       = errors.New("conversion webhooks are not enabled on this server (apiserver.Config.Webhooks)")
)

// readConversion reads spec.conversion; nil unless its strategy is Webhook.
func readConversion(spec map[string]any, group, kind string) *crdConversion {
	conv, _ := spec["conversion"].(map[string]any)
	if str(conv, "strategy") != "Webhook" {
		return nil
	}
	wh, _ := conv["webhook"].(map[string]any)
	c := &crdConversion{group: group, kind: kind, schemas: map[string]*schema.Schema{}, keys: new(sync.Map)}
	c.hook.Client = webhook.ParseClientConfig(wh["clientConfig"])
	c.hook.ValidateMetadata = validateConvertedMetadata
	for _, v := range meta.AsStrings(wh["conversionReviewVersions"]) {
		if slices.Contains(acceptedReviewVersions, v) {
			c.hook.ReviewAPIVersion = "apiextensions.k8s.io/" + v
			break
		}
	}
	return c
}

// validateConversion checks spec.conversion as kube does; kube reports it
// at its internal paths (spec.conversion.webhookClientConfig and
// spec.conversion.conversionReviewVersions). requireKnown asks for a
// review version kube speaks (always on create; on update when the old
// CRD had one, or none).
func validateConversion(spec, oldSpec map[string]any) meta.FieldErrors {
	var errs meta.FieldErrors
	add := func(t meta.ErrorType, field string, value any, detail string) {
		errs = append(errs, meta.FieldError{Type: t, Field: field, Value: value, Detail: detail})
	}
	conv, _ := spec["conversion"].(map[string]any)
	if conv == nil {
		return nil
	}
	wh, _ := conv["webhook"].(map[string]any)
	cc, hasCC := wh["clientConfig"].(map[string]any)
	versions := meta.AsStrings(wh["conversionReviewVersions"])
	const base = "spec.conversion"
	strategy := str(conv, "strategy")
	switch strategy {
	case "None", "Webhook", "": // a missing strategy is the schema's error (required)
	default:
		add(meta.ErrorNotSupported, base+".strategy", strategy, `supported values: "None", "Webhook"`)
	}
	if strategy != "Webhook" {
		if hasCC {
			add(meta.ErrorForbidden, base+".webhookClientConfig", nil, "should not be set when strategy is not set to Webhook")
		}
		if len(versions) > 0 {
			add(meta.ErrorForbidden, base+".conversionReviewVersions", nil, "should not be set when strategy is not set to Webhook")
		}
		return errs
	}
	if !hasCC {
		add(meta.ErrorRequired, base+".webhookClientConfig", nil, "required when strategy is set to Webhook")
	} else {
		u, hasURL := cc["url"].(string)
		svc, hasSvc := cc["service"].(map[string]any)
		switch {
		case hasURL == hasSvc:
			add(meta.ErrorRequired, base+".webhookClientConfig", nil, "exactly one of url or service is required")
		case hasURL:
			errs = append(errs, webhook.ValidateURL(base+".webhookClientConfig.url", u, true)...)
		default:
			errs = append(errs, webhook.ValidateService(base+".webhookClientConfig.service", svc)...)
		}
	}
	requireKnown := true
	if oldSpec != nil {
		oldConv, _ := oldSpec["conversion"].(map[string]any)
		oldWH, _ := oldConv["webhook"].(map[string]any)
		old := meta.AsStrings(oldWH["conversionReviewVersions"])
		requireKnown = len(old) == 0 || slices.ContainsFunc(old, func(v string) bool { return slices.Contains(acceptedReviewVersions, v) })
	}
	if len(versions) == 0 {
		add(meta.ErrorRequired, base+".conversionReviewVersions", nil, "")
		return errs
	}
	seen, known := map[string]bool{}, false
	for i, v := range versions {
		path := fmt.Sprintf("%s.conversionReviewVersions[%d]", base, i)
		if seen[v] {
			add(meta.ErrorInvalid, path, v, "duplicate version")
			continue
		}
		seen[v] = true
		for _, m := range schema.DNS1035Label(v) {
			add(meta.ErrorInvalid, path, v, m)
		}
		known = known || slices.Contains(acceptedReviewVersions, v)
	}
	if requireKnown && !known {
		add(meta.ErrorInvalid, base+".conversionReviewVersions", versions, "must include at least one of v1, v1beta1")
	}
	return errs
}

// withClients is a copy of c that calls the webhook through clients.
func (c *crdConversion) withClients(clients *webhook.Clients) *crdConversion {
	cp := *c
	cp.hook.Clients = clients
	return &cp
}

// gvk names the kind at an apiVersion as kube's messages print it.
func (c *crdConversion) gvk(apiVersion string) string {
	gv := meta.ParseGroupVersion(apiVersion)
	return fmt.Sprintf("%s, Kind=%s", gv.String(), c.kind)
}

// convert converts objects (of one apiVersion each, or mixed) to apiVersion
// to in one review, failing as kube fails.
func (c *crdConversion) convert(ctx context.Context, objs []map[string]any, to string) ([]map[string]any, error) {
	from := ""
	for _, o := range objs {
		if av, _ := o["apiVersion"].(string); av != to {
			from = av
			break
		}
	}
	if from == "" {
		return objs, nil
	}
	if c.hook.Clients == nil {
		return nil, conversionError(fmt.Errorf("conversion webhook for %s failed: %w", c.gvk(from), errConversionOff))
	}
	out, err := c.hook.Convert(ctx, objs, c.gvk(from), to)
	if err != nil {
		return nil, conversionError(err)
	}
	if s := c.schemas[to]; s != nil {
		for i, o := range objs {
			if av, _ := o["apiVersion"].(string); av != to {
				s.Prune(out[i], true) // the webhook's answer: ours to change
			}
		}
	}
	return out, nil
}

// conversionError is kube's answer to a failed conversion: a 500 with the
// converter's message, no reason.
func conversionError(err error) error {
	return &meta.Status{Kind: "Status", APIVersion: "v1", Status: "Failure", Code: http.StatusInternalServerError, Message: err.Error()}
}

// toStorage converts an object written at r's version to the storage
// version, just before it is stored.
func (c *crdConversion) toStorage(ctx context.Context, r *Resource, obj meta.Object) (meta.Object, error) {
	if obj.APIVersion() == r.storageVersion {
		return obj, nil
	}
	out, err := c.convert(ctx, []map[string]any{obj}, r.storageVersion)
	if err != nil {
		return nil, err
	}
	return meta.Object(out[0]), nil
}

// key is the Derived key of the view at r's version.
func (c *crdConversion) key(r *Resource) *conversionKey {
	if k, ok := c.keys.Load(r.Version); ok { // allocates nothing: every read of a converted object asks
		return k.(*conversionKey)
	}
	k, _ := c.keys.LoadOrStore(r.Version, &conversionKey{version: r.Version})
	return k.(*conversionKey)
}

// view returns a stored object converted to r's version, cached with the
// stored object. The webhook is called without holding the object's
// cache (a slow webhook delays no other reader of the object); two
// concurrent first readers may both call it, the first answer is kept.
func (c *crdConversion) view(ctx context.Context, r *Resource, obj *store.Object) (*store.Object, error) {
	k := c.key(r)
	if v, err := obj.Derived(k, func(meta.Object) (any, error) { return nil, errNotCached }); err == nil {
		return v.(*store.Object), nil
	}
	out, err := c.convert(ctx, []map[string]any{c.decoded(r, obj)}, r.APIVersion())
	if err != nil {
		return nil, err
	}
	converted := store.NewObject(obj.Key(), obj.Revision(), meta.Object(out[0]))
	v, _ := obj.Derived(k, func(meta.Object) (any, error) { return converted, nil })
	return v.(*store.Object), nil
}

// decoded is a stored object as kube decodes it before converting: with
// the defaults of its version's schema when the schema is newer than the
// object.
func (c *crdConversion) decoded(r *Resource, obj *store.Object) map[string]any {
	data := obj.Data()
	if obj.Revision() >= r.schemaRevision {
		return data
	}
	s := c.schemas[data.APIVersion()]
	if s == nil {
		return data
	}
	defaulted := data.DeepCopy()
	s.Default(defaulted)
	return defaulted
}

// prefetch converts, in one review, the objects of a page not yet
// converted to r's version, and caches each with its stored object.
func (c *crdConversion) prefetch(ctx context.Context, r *Resource, items []*store.Object) error {
	k := c.key(r)
	var todo []*store.Object
	var objs []map[string]any
	for _, it := range items {
		if it.Data().APIVersion() == r.APIVersion() {
			continue
		}
		if _, err := it.Derived(k, func(meta.Object) (any, error) { return nil, errNotCached }); err == nil {
			continue // converted before
		}
		todo = append(todo, it)
		objs = append(objs, c.decoded(r, it))
	}
	if len(todo) < 2 {
		return nil // one object converts on its own
	}
	out, err := c.convert(ctx, objs, r.APIVersion())
	if err != nil {
		return err
	}
	for i, it := range todo {
		converted := store.NewObject(it.Key(), it.Revision(), meta.Object(out[i]))
		_, _ = it.Derived(k, func(meta.Object) (any, error) { return converted, nil })
	}
	return nil
}

// validateConvertedMetadata checks labels or annotations a conversion
// webhook changed, as kube does (annotations at kube's path,
// "metadata.annotation").
func validateConvertedMetadata(field string, m map[string]any) error {
	errs := labelAndAnnotationErrors(meta.Object{"metadata": map[string]any{field: m}})
	if len(errs) == 0 {
		return nil
	}
	for i := range errs {
		if errs[i].Field == "metadata.annotations" {
			errs[i].Field = "metadata.annotation"
		}
	}
	return errs
}
