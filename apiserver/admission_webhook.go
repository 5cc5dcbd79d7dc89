package apiserver

import (
	"context"
	"net/http"
	"sort"

	"github.com/kapi-dev/kapi/apiserver/webhook"
	"github.com/kapi-dev/kapi/meta"
)

// Admission webhooks (Mutating- and ValidatingWebhookConfigurations),
// called as kube's MutatingAdmissionWebhook and ValidatingAdmissionWebhook
// plugins call them: the mutating webhooks after the mutating admission
// plugins, the validating ones last, after the ValidatingAdmissionPolicies
// (Config.Webhooks turns them on). The configurations are read from the
// store as they change (watched), each parsed once.

// WebhookOptions configure the calls to webhooks (admission and CRD
// conversion).
type WebhookOptions struct {
	// ServiceResolver resolves a webhook's service reference to a URL:
	// kapi runs no pods. Nil resolves https://<service>.<namespace>.svc:<port>
	// (webhook.DefaultServiceResolver).
	ServiceResolver webhook.ServiceResolver
	// Transport, when set, is the base HTTP transport of the calls (its
	// TLS configuration is each webhook's own).
	Transport *http.Transport
}

var (
	mutatingWebhooksGR   = meta.GroupResource{Group: "admissionregistration.k8s.io", Resource: "mutatingwebhookconfigurations"}
	validatingWebhooksGR = meta.GroupResource{Group: "admissionregistration.k8s.io", Resource: "validatingwebhookconfigurations"}
)

// webhookSet is the webhooks in force, in kube's order: configurations by
// name, webhooks in the order each configuration lists them.
type webhookSet struct {
	mutating, validating []*webhook.Hook
}

// empty reports a set without any webhook.
func (w *webhookSet) empty() bool { return len(w.mutating)+len(w.validating) == 0 }

// newWebhookSource keeps the webhook configurations in force.
func newWebhookSource(s *Server) *watched {
	return newWatched(s, []meta.GroupResource{mutatingWebhooksGR, validatingWebhooksGR},
		func(kind int, obj map[string]any, _ any) any {
			return webhookConfig{name: meta.Object(obj).Name(), hooks: webhook.ParseConfiguration(obj, kind == 0)}
		},
		func(items []map[string]any) any {
			set := &webhookSet{}
			for kind, byKey := range items {
				configs := make([]webhookConfig, 0, len(byKey))
				for _, c := range byKey {
					configs = append(configs, c.(webhookConfig))
				}
				sort.Slice(configs, func(i, j int) bool { return configs[i].name < configs[j].name })
				for _, c := range configs {
					if kind == 0 {
						set.mutating = append(set.mutating, c.hooks...)
					} else {
						set.validating = append(set.validating, c.hooks...)
					}
				}
			}
			return set
		})
}

type webhookConfig struct {
	name  string
	hooks []*webhook.Hook
}

func (s *Server) webhookSet(ctx context.Context) (*webhookSet, error) {
	if s.webhooks == nil {
		return &webhookSet{}, nil
	}
	v, err := s.webhooks.current(ctx)
	if err != nil {
		return nil, meta.Internal(err)
	}
	return v.(*webhookSet), nil
}

// admitMutatingWebhooks calls the mutating webhooks; their patches change
// req.Object in place.
func (s *Server) admitMutatingWebhooks(ctx context.Context, req *AdmissionRequest) error {
	set, err := s.webhookSet(ctx)
	if err != nil || len(set.mutating) == 0 {
		return err
	}
	a := req.attributes()
	if err := s.webhookCalls.Mutate(ctx, set.mutating, admissionHost{s}, a, webhookReport(ctx)); err != nil {
		return err
	}
	if req.Object != nil && a.Object != nil {
		replaceContents(req.Object, a.Object)
	}
	return nil
}

// replaceContents makes obj hold what next holds (the pipeline keeps
// references to obj).
func replaceContents(obj meta.Object, next map[string]any) {
	for k := range obj {
		if _, ok := next[k]; !ok {
			delete(obj, k)
		}
	}
	for k, v := range next {
		obj[k] = v
	}
}

// admitValidatingWebhooks calls the validating webhooks.
func (s *Server) admitValidatingWebhooks(ctx context.Context, req *AdmissionRequest) error {
	set, err := s.webhookSet(ctx)
	if err != nil || len(set.validating) == 0 {
		return err
	}
	return s.webhookCalls.Validate(ctx, set.validating, admissionHost{s}, req.attributes(), webhookReport(ctx))
}

// webhookReport sends what webhooks answer besides their verdict to the
// request's warnings and audit annotations.
func webhookReport(ctx context.Context) webhook.Report {
	r := webhook.Report{Warn: func(w string) { AddWarning(ctx, w) }}
	if auditSinkFrom(ctx) != nil {
		r.Annotate = func(k, v string) { AddAuditAnnotation(ctx, k, v) }
	}
	return r
}
