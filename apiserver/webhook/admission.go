package webhook

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"time"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/kapi-dev/kapi/apiserver/policy"
	"github.com/kapi-dev/kapi/meta"
)

// Hook is one webhook of a Mutating- or ValidatingWebhookConfiguration,
// read once per version of the configuration.
type Hook struct {
	Name string
	// Configuration is the name of the configuration it belongs to.
	Configuration string
	Mutating      bool
	Client        ClientConfig
	match         *policy.MatchResources
	matchErr      error
	conditions    *policy.Conditions
	failIgnore    bool
	sideEffects   string
	timeout       time.Duration
	reinvoke      bool
}

// ParseConfiguration reads the webhooks of a MutatingWebhookConfiguration
// (mutating) or a ValidatingWebhookConfiguration, with kube's defaults
// for what is unset.
func ParseConfiguration(obj map[string]any, mutating bool) []*Hook {
	md, _ := obj["metadata"].(map[string]any)
	config, _ := md["name"].(string)
	list, _ := obj["webhooks"].([]any)
	hooks := make([]*Hook, 0, len(list))
	for _, e := range list {
		w, _ := e.(map[string]any)
		if w == nil {
			continue
		}
		h := &Hook{Configuration: config, Mutating: mutating, Client: ParseClientConfig(w["clientConfig"]), timeout: 10 * time.Second}
		h.Name, _ = w["name"].(string)
		h.failIgnore = w["failurePolicy"] == "Ignore"
		h.sideEffects, _ = w["sideEffects"].(string)
		h.reinvoke = w["reinvocationPolicy"] == "IfNeeded"
		switch t := w["timeoutSeconds"].(type) {
		case int64:
			h.timeout = time.Duration(t) * time.Second
		case float64:
			h.timeout = time.Duration(t) * time.Second
		}
		// The rules, selectors and matchPolicy are a MatchResources.
		h.match, h.matchErr = policy.ParseMatchResources(map[string]any{
			"resourceRules": w["rules"], "namespaceSelector": w["namespaceSelector"],
			"objectSelector": w["objectSelector"], "matchPolicy": w["matchPolicy"]})
		h.conditions = policy.CompileConditions(w["matchConditions"])
		hooks = append(hooks, h)
	}
	return hooks
}

// Dispatcher calls admission webhooks as kube's MutatingAdmissionWebhook
// and ValidatingAdmissionWebhook plugins do.
type Dispatcher struct {
	Clients *Clients
}

// review is admission.k8s.io/v1 AdmissionReview.
type review struct {
	APIVersion string    `json:"apiVersion"`
	Kind       string    `json:"kind"`
	Response   *response `json:"response"`
}

type response struct {
	UID              string            `json:"uid"`
	Allowed          bool              `json:"allowed"`
	Status           *status           `json:"status"`
	Patch            string            `json:"patch"`
	PatchType        *string           `json:"patchType"`
	AuditAnnotations map[string]string `json:"auditAnnotations"`
	Warnings         []string          `json:"warnings"`
}

type status struct {
	Status  string              `json:"status,omitempty"`
	Message string              `json:"message,omitempty"`
	Reason  string              `json:"reason,omitempty"`
	Details *meta.StatusDetails `json:"details,omitempty"`
	Code    int32               `json:"code,omitempty"`
}

func newUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// request is the AdmissionReview sent for a request.
func request(uid string, a *policy.Attributes, m policy.Match, object, oldObject map[string]any) []byte {
	gvk := func(g meta.GroupVersionKind) map[string]any {
		return map[string]any{"group": g.Group, "version": g.Version, "kind": g.Kind}
	}
	gvr := func(g meta.GroupVersionResource) map[string]any {
		return map[string]any{"group": g.Group, "version": g.Version, "resource": g.Resource}
	}
	user := map[string]any{}
	if a.User.Username != "" {
		user["username"] = a.User.Username
	}
	if a.User.UID != "" {
		user["uid"] = a.User.UID
	}
	if len(a.User.Groups) > 0 {
		user["groups"] = a.User.Groups
	}
	if len(a.User.Extra) > 0 {
		user["extra"] = a.User.Extra
	}
	req := map[string]any{
		"uid": uid, "kind": gvk(m.Kind), "resource": gvr(m.Resource), "requestKind": gvk(a.Kind),
		"requestResource": gvr(a.Resource), "operation": a.Operation, "userInfo": user,
		"object": nullable(object), "oldObject": nullable(oldObject), "dryRun": a.DryRun, "options": nullable(a.Options),
	}
	if a.Subresource != "" {
		req["subResource"], req["requestSubResource"] = a.Subresource, a.Subresource
	}
	if a.Name != "" {
		req["name"] = a.Name
	}
	if a.Namespace != "" {
		req["namespace"] = a.Namespace
	}
	b, _ := json.Marshal(map[string]any{"kind": "AdmissionReview", "apiVersion": "admission.k8s.io/v1", "request": req})
	return b
}

func nullable(m map[string]any) any {
	if m == nil {
		return nil
	}
	return m
}

// outcome is one call's result.
type outcome struct {
	resp *response
	err  error // a *CallError, or a rejection (*meta.Status)
}

// call sends the review to one webhook and checks its answer.
func (d *Dispatcher) call(ctx context.Context, h *Hook, a *policy.Attributes, m policy.Match, object, oldObject map[string]any) outcome {
	if a.DryRun && h.sideEffects != "None" && h.sideEffects != "NoneOnDryRun" {
		return outcome{err: meta.BadRequest(fmt.Sprintf("admission webhook %q does not support dry run", h.Name))}
	}
	ctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	uid := newUID()
	var rv review
	if err := d.Clients.post(ctx, h.Client, request(uid, a, m, object, oldObject), &rv); err != nil {
		return outcome{err: err}
	}
	invalid := func(format string, args ...any) outcome {
		return outcome{err: &CallError{Err: fmt.Errorf(format, args...), Invalid: true}}
	}
	r := rv.Response
	switch {
	case r == nil:
		return invalid("webhook response was absent")
	case r.UID != uid:
		return invalid("expected response.uid=%q, got %q", uid, r.UID)
	case rv.APIVersion != "admission.k8s.io/v1" || rv.Kind != "AdmissionReview":
		got := rv.APIVersion + ", Kind=" + rv.Kind
		if rv.APIVersion == "" {
			got = "/, Kind=" + rv.Kind
		}
		return invalid("expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got %s", got)
	}
	if h.Mutating {
		switch {
		case r.Patch != "" && r.PatchType == nil:
			return invalid("webhook returned response.patch but not response.patchType")
		case r.Patch == "" && r.PatchType != nil:
			return invalid("webhook returned response.patchType but not response.patch")
		case r.PatchType != nil && *r.PatchType == "":
			return invalid("webhook returned invalid response.patchType of %q", "")
		}
	} else {
		if r.Patch != "" {
			return invalid("validating webhook may not return response.patch")
		}
		if r.PatchType != nil {
			return invalid("validating webhook may not return response.patchType")
		}
	}
	return outcome{resp: r}
}

// rejection is kube's error for a webhook's denial.
func rejection(name string, st *status) *meta.Status {
	out := &meta.Status{Kind: "Status", APIVersion: "v1", Status: "Failure"}
	if st != nil {
		out.Message, out.Reason, out.Code, out.Details = st.Message, meta.Reason(st.Reason), st.Code, st.Details
		if st.Status != "" && st.Status != "Success" {
			out.Status = st.Status
		}
	}
	if out.Code < http.StatusBadRequest {
		out.Code = http.StatusBadRequest
	}
	deniedBy := fmt.Sprintf("admission webhook %q denied the request", name)
	switch {
	case out.Message != "":
		out.Message = deniedBy + ": " + out.Message
	case out.Reason != "":
		out.Message = deniedBy + ": " + string(out.Reason)
	default:
		out.Message = deniedBy + " without explanation"
	}
	return out
}

// callError is kube's answer to a webhook it could not use under
// failurePolicy Fail: 500 with the call's error.
func callError(name string, err error) *meta.Status {
	return meta.Internal(fmt.Errorf("failed calling webhook %q: %w", name, err))
}

// applies reports whether a webhook is called for a request, and through
// which resource (matchPolicy Equivalent). A selector's or condition's
// error under failurePolicy Fail is the request's.
func applies(ctx context.Context, h *Hook, host policy.Host, a *policy.Attributes, ns *policy.NamespaceCache) (bool, policy.Match, error) {
	if h.match == nil {
		if h.matchErr != nil {
			return false, policy.Match{}, meta.Internal(h.matchErr)
		}
		return false, policy.Match{}, nil
	}
	ok, m, err := h.match.Matches(ctx, host, a, ns)
	if err != nil || !ok {
		return false, m, err
	}
	object, oldObject := a.Object, a.OldObject
	matched, err := h.conditions.Match(ctx, a, object, oldObject)
	if err != nil {
		if h.failIgnore {
			return false, m, nil
		}
		return false, m, callError(h.Name, err)
	}
	return matched, m, nil
}

// Report receives what webhooks answer besides their verdict: warnings for
// the client, and the audit annotations kube-apiserver writes into the
// request's audit event: "<webhook>/<key>" for each of a webhook's
// auditAnnotations, "mutation.webhook.admission.k8s.io/round_<r>_index_<i>"
// (the configuration, the webhook and whether it changed the object) for
// each mutating webhook called, and "failed-open.…" ones naming a webhook
// whose failure was ignored (failurePolicy Ignore). Either func may be nil.
type Report struct {
	Warn     func(text string)
	Annotate func(key, value string)
}

func (r Report) warn(text string) {
	if r.Warn != nil {
		r.Warn(text)
	}
}

func (r Report) annotate(key, value string) {
	if r.Annotate != nil {
		r.Annotate(key, value)
	}
}

// annotateResponse reports a webhook's own audit annotations.
func (r Report) annotateResponse(h *Hook, resp *response) {
	keys := make([]string, 0, len(resp.AuditAnnotations))
	for k := range resp.AuditAnnotations {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		r.annotate(h.Name+"/"+k, resp.AuditAnnotations[k])
	}
}

// Mutate calls the mutating webhooks that apply, in order, applying their
// JSON patches to a.Object (replaced by the patched object), and calls
// again, once, those with reinvocationPolicy IfNeeded that a later
// webhook's change followed. Warnings and audit annotations go to report.
// A denial, or a failure under failurePolicy Fail, is the error (a
// *meta.Status).
func (d *Dispatcher) Mutate(ctx context.Context, hooks []*Hook, host policy.Host, a *policy.Attributes, report Report) error {
	if policy.Exempt(a) {
		return nil
	}
	ns := &policy.NamespaceCache{Host: host}
	invoked := map[*Hook]bool{}  // IfNeeded hooks called so far
	reinvoke := map[*Hook]bool{} // to call again
	for round := 0; round < 2; round++ {
		if round == 1 && len(reinvoke) == 0 {
			break
		}
		for i, h := range hooks {
			if round == 1 && !reinvoke[h] {
				continue
			}
			ok, m, err := applies(ctx, h, host, a, ns)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			changed, err := d.mutateOne(ctx, h, host, a, m, report)
			mutated, _ := json.Marshal(struct {
				Configuration string `json:"configuration"`
				Webhook       string `json:"webhook"`
				Mutated       bool   `json:"mutated"`
			}{h.Configuration, h.Name, changed})
			report.annotate(fmt.Sprintf("mutation.webhook.admission.k8s.io/round_%d_index_%d", round, i), string(mutated))
			if errors.Is(err, errFailedOpen) {
				report.annotate(fmt.Sprintf("failed-open.mutation.webhook.admission.k8s.io/round_%d_index_%d", round, i), h.Name)
				err = nil
			}
			if err != nil {
				return err
			}
			if changed && round == 0 {
				for prev := range invoked {
					reinvoke[prev] = true
				}
			}
			if h.reinvoke && round == 0 {
				invoked[h] = true
			}
		}
	}
	return nil
}

// errFailedOpen is mutateOne's word for a call that failed under
// failurePolicy Ignore.
var errFailedOpen = errors.New("failed open")

func (d *Dispatcher) mutateOne(ctx context.Context, h *Hook, host policy.Host, a *policy.Attributes, m policy.Match, report Report) (bool, error) {
	object := a.Object
	if m.Kind != a.Kind && object != nil {
		converted, err := host.Convert(ctx, object, apiVersionOf(m.Kind))
		if err != nil {
			return false, meta.Internal(err)
		}
		object = converted
	}
	out := d.call(ctx, h, a, m, object, a.OldObject)
	if out.err != nil {
		var st *meta.Status
		if errors.As(out.err, &st) {
			return false, st
		}
		if h.failIgnore {
			if ctx.Err() != nil {
				return false, meta.Timeout("request did not complete within requested timeout", 0)
			}
			return false, errFailedOpen
		}
		return false, callError(h.Name, out.err)
	}
	r := out.resp
	report.annotateResponse(h, r)
	for _, w := range r.Warnings {
		report.warn(w)
	}
	if !r.Allowed {
		return false, rejection(h.Name, r.Status)
	}
	if r.Patch == "" {
		return false, nil
	}
	raw, err := base64.StdEncoding.DecodeString(r.Patch)
	if err != nil {
		return false, meta.Internal(err)
	}
	patch, err := jsonpatch.DecodePatch(raw)
	if err != nil {
		return false, meta.Internal(err)
	}
	if len(patch) == 0 {
		return false, nil
	}
	if a.Object == nil {
		return false, meta.Internal(fmt.Errorf("admission webhook %q attempted to modify the object, which is not supported for this operation", h.Name))
	}
	if *r.PatchType != "JSONPatch" {
		return false, callError(h.Name, fmt.Errorf("unsupported patch type %q", *r.PatchType))
	}
	doc, err := json.Marshal(object)
	if err != nil {
		return false, meta.Internal(err)
	}
	patched, err := patch.Apply(doc)
	if err != nil {
		return false, meta.Internal(err)
	}
	var next map[string]any
	if err := json.Unmarshal(patched, &next); err != nil {
		return false, meta.Internal(err)
	}
	next = normalizeNumbers(next).(map[string]any)
	if m.Kind != a.Kind {
		if next, err = host.Convert(ctx, next, apiVersionOf(a.Kind)); err != nil {
			return false, meta.Internal(err)
		}
	}
	changed := !meta.EqualValues(next, a.Object)
	a.Object = next
	return changed, nil
}

func apiVersionOf(g meta.GroupVersionKind) string {
	if g.Group == "" {
		return g.Version
	}
	return g.Group + "/" + g.Version
}

// normalizeNumbers turns decoded JSON numbers into the int64 and float64
// kapi keeps.
func normalizeNumbers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = normalizeNumbers(e)
		}
	case []any:
		for i, e := range t {
			t[i] = normalizeNumbers(e)
		}
	case float64:
		if i := int64(t); float64(i) == t && t < 1<<53 && t > -(1<<53) {
			return i
		}
	}
	return v
}

// Validate calls the validating webhooks that apply, concurrently, as
// kube does; the first in order that denies or fails (failurePolicy
// Fail) is the answer. Warnings and audit annotations go to report, in the
// webhooks' order.
func (d *Dispatcher) Validate(ctx context.Context, hooks []*Hook, host policy.Host, a *policy.Attributes, report Report) error {
	if policy.Exempt(a) {
		return nil
	}
	ns := &policy.NamespaceCache{Host: host}
	type call struct {
		h *Hook
		m policy.Match
	}
	var calls []call
	for _, h := range hooks {
		ok, m, err := applies(ctx, h, host, a, ns)
		if err != nil {
			return err
		}
		if ok {
			calls = append(calls, call{h, m})
		}
	}
	if len(calls) == 0 {
		return nil
	}
	errs := make([]error, len(calls))
	responses := make([]*response, len(calls))
	failedOpen := make([]bool, len(calls))
	var wg sync.WaitGroup
	for i, c := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			object, oldObject := a.Object, a.OldObject
			if c.m.Kind != a.Kind {
				var err error
				if object != nil {
					if object, err = host.Convert(ctx, object, apiVersionOf(c.m.Kind)); err != nil {
						errs[i] = meta.Internal(err)
						return
					}
				}
				if oldObject != nil {
					if oldObject, err = host.Convert(ctx, oldObject, apiVersionOf(c.m.Kind)); err != nil {
						errs[i] = meta.Internal(err)
						return
					}
				}
			}
			out := d.call(ctx, c.h, a, c.m, object, oldObject)
			if out.err != nil {
				var st *meta.Status
				switch {
				case errors.As(out.err, &st):
					errs[i] = st
				case c.h.failIgnore:
					failedOpen[i] = true
				default:
					errs[i] = callError(c.h.Name, out.err)
				}
				return
			}
			responses[i] = out.resp
			if !out.resp.Allowed {
				errs[i] = rejection(c.h.Name, out.resp.Status)
			}
		}()
	}
	wg.Wait()
	for i, r := range responses {
		if failedOpen[i] {
			report.annotate(fmt.Sprintf("failed-open.validating.webhook.admission.k8s.io/round_0_index_%d", i), calls[i].h.Name)
		}
		if r == nil {
			continue
		}
		report.annotateResponse(calls[i].h, r)
		for _, w := range r.Warnings {
			report.warn(w)
		}
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
