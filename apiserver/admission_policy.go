package apiserver

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kapi-dev/kapi/apiserver/policy"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/store"
)

// ValidatingAdmissionPolicies and their bindings, enforced as kube's
// ValidatingAdmissionPolicy admission plugin enforces them, after the
// validating admission plugins (Config.ValidatingAdmissionPolicy turns it
// on). The policies are read from the store as they change: a watch
// cursor per kind (no goroutine, no polling) is advanced before a request
// is admitted whenever the store has moved, so a policy or binding is in
// force as soon as its write is answered; each policy version is compiled
// once (policy.CompilePolicy).

var (
	policiesGR = meta.GroupResource{Group: "admissionregistration.k8s.io", Resource: "validatingadmissionpolicies"}
	bindingsGR = meta.GroupResource{Group: "admissionregistration.k8s.io", Resource: "validatingadmissionpolicybindings"}
)

// policySource keeps the compiled policies and bindings in force.
type policySource struct {
	s *Server

	mu       sync.Mutex
	watchers [2]store.Watcher // policies, bindings; nil until served
	policies map[string]*policy.Policy
	bindings map[string]*policy.Binding

	set    atomic.Pointer[policy.Set]
	synced atomic.Int64 // the store revision the set reflects
}

func newPolicySource(s *Server) *policySource {
	ps := &policySource{s: s}
	ps.set.Store(policy.NewSet(nil, nil))
	return ps
}

// current is the set in force at the store's current revision.
func (ps *policySource) current(ctx context.Context) (*policy.Set, error) {
	rev := ps.s.store.Revision()
	if ps.synced.Load() >= rev {
		return ps.set.Load(), nil
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.synced.Load() >= rev {
		return ps.set.Load(), nil
	}
	if err := ps.syncLocked(ctx); err != nil {
		return nil, err
	}
	return ps.set.Load(), nil
}

func (ps *policySource) syncLocked(ctx context.Context) error {
	if ps.watchers[0] == nil {
		return ps.relistLocked(ctx)
	}
	changed := false
	done, cancel := context.WithCancel(ctx)
	cancel() // a done context drains what is available without waiting
	for i, w := range ps.watchers {
		for {
			events, err := w.Next(done)
			for _, ev := range events {
				changed = true
				ps.applyLocked(i, ev)
			}
			if err != nil {
				var expired *store.ExpiredError
				if errors.As(err, &expired) {
					return ps.relistLocked(ctx)
				}
				break // no more events now
			}
		}
	}
	if changed {
		ps.publishLocked()
	}
	ps.synced.Store(min(ps.watchers[0].Revision(), ps.watchers[1].Revision()))
	return nil
}

func (ps *policySource) applyLocked(kind int, ev store.Event) {
	key := ev.Object.Key()
	if ev.Type == store.Deleted {
		if kind == 0 {
			delete(ps.policies, key)
		} else {
			delete(ps.bindings, key)
		}
		return
	}
	data := map[string]any(ev.Object.Data())
	if kind == 0 {
		ps.policies[key] = ps.compilePolicy(key, data)
	} else {
		ps.bindings[key] = policy.CompileBinding(data)
	}
}

// compilePolicy compiles a policy version, reusing the previous compile
// when only the status or metadata changed.
func (ps *policySource) compilePolicy(key string, data map[string]any) *policy.Policy {
	if prev := ps.policies[key]; prev != nil && prev.SameSpec(data) {
		return prev
	}
	return policy.CompilePolicy(data)
}

// relistLocked reads every policy and binding and watches from there.
func (ps *policySource) relistLocked(ctx context.Context) error {
	for _, w := range ps.watchers {
		if w != nil {
			w.Stop()
		}
	}
	ps.watchers = [2]store.Watcher{}
	ps.policies, ps.bindings = map[string]*policy.Policy{}, map[string]*policy.Binding{}
	rev := ps.s.store.Revision()
	for i, gr := range []meta.GroupResource{policiesGR, bindingsGR} {
		prefix := ps.prefix(gr)
		page, err := ps.s.store.List(ctx, prefix, store.ListOptions{Revision: rev})
		if err != nil {
			return err
		}
		for _, it := range page.Items {
			ps.applyLocked(i, store.Event{Type: store.Added, Object: it})
		}
		w, err := ps.s.store.Watch(ctx, prefix, store.WatchOptions{Revision: page.Revision})
		if err != nil {
			return err
		}
		ps.watchers[i] = w
	}
	ps.publishLocked()
	ps.synced.Store(rev)
	return nil
}

// prefix is where a kind's objects are stored (their default prefix when
// the kind is not served: nothing is stored there).
func (ps *policySource) prefix(gr meta.GroupResource) string {
	if res, err := ps.s.served(gr); err == nil {
		return res.collectionPrefix("")
	}
	return "/" + gr.String() + "/"
}

func (ps *policySource) publishLocked() {
	policies := make([]*policy.Policy, 0, len(ps.policies))
	for _, p := range ps.policies {
		policies = append(policies, p)
	}
	bindings := make([]*policy.Binding, 0, len(ps.bindings))
	for _, b := range ps.bindings {
		bindings = append(bindings, b)
	}
	ps.set.Store(policy.NewSet(policies, bindings))
}

// admitPolicies applies the policies in force to one admission request:
// a denial is the error, Warn failures become Warning headers.
func (s *Server) admitPolicies(ctx context.Context, req *AdmissionRequest, res *Resource) error {
	if s.policies == nil {
		return nil
	}
	set, err := s.policies.current(ctx)
	if err != nil {
		return meta.Internal(err)
	}
	if set.Empty() {
		return nil
	}
	out := set.Validate(ctx, admissionHost{s}, req.attributes(), res.GroupResource())
	for _, w := range out.Warnings {
		AddWarning(ctx, w)
	}
	return out.Denied
}

// attributes are the request as package policy sees it.
func (req *AdmissionRequest) attributes() *policy.Attributes {
	a := &policy.Attributes{Operation: string(req.Operation), Kind: req.Kind, Resource: req.Resource,
		Subresource: req.Subresource, Namespace: req.Namespace, Name: req.Name, DryRun: req.DryRun,
		User:    policy.User{Username: req.User.Username, UID: req.User.UID, Groups: req.User.Groups, Extra: req.User.Extra},
		Options: req.Options}
	if req.Object != nil {
		a.Object = map[string]any(req.Object)
	}
	if req.OldObject != nil {
		a.OldObject = map[string]any(req.OldObject)
	}
	if req.Resource.Group == "" && req.Resource.Resource == "namespaces" {
		a.Namespace = req.Name // kube's attributes of a namespace name it as their namespace
	}
	return a
}

// admissionHost is what admission reads from the server.
type admissionHost struct{ s *Server }

func (h admissionHost) Namespace(ctx context.Context, name string) (map[string]any, error) {
	res, err := h.s.served(meta.GroupResource{Resource: "namespaces"})
	if err != nil {
		return nil, nil
	}
	obj, err := h.s.store.Get(ctx, res.key("", name))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return obj.Data(), nil
}

func (h admissionHost) ResourceForKind(apiVersion, kind string) (policy.ResourceKind, bool) {
	group, version, found := strings.Cut(apiVersion, "/")
	if !found {
		group, version = "", apiVersion
	}
	for gvr, r := range h.s.registry.Load().byGVR {
		if gvr.Group == group && gvr.Version == version && r.Kind == kind {
			return policy.ResourceKind{Resource: gvr, Kind: r.GroupVersionKind(), Namespaced: r.Namespaced}, true
		}
	}
	return policy.ResourceKind{}, false
}

func (h admissionHost) resource(r policy.ResourceKind) (*Resource, error) {
	res := h.s.registry.Load().lookup(r.Resource.Group, r.Resource.Version, r.Resource.Resource)
	if res == nil {
		return nil, meta.NotFound(meta.GroupResource{Group: r.Resource.Group, Resource: r.Resource.Resource}, "")
	}
	return res, nil
}

func (h admissionHost) Get(ctx context.Context, r policy.ResourceKind, namespace, name string) (map[string]any, error) {
	res, err := h.resource(r)
	if err != nil {
		return nil, err
	}
	obj, err := h.s.store.Get(ctx, res.key(namespace, name))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return res.present(obj).Data(), nil
}

func (h admissionHost) List(ctx context.Context, r policy.ResourceKind, namespace string, sel policy.LabelSelector) ([]map[string]any, error) {
	res, err := h.resource(r)
	if err != nil {
		return nil, err
	}
	page, err := h.s.store.List(ctx, res.collectionPrefix(namespace), store.ListOptions{})
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for _, it := range page.Items {
		d := res.present(it).Data()
		if sel.Matches(d.Labels()) {
			out = append(out, d)
		}
	}
	return out, nil
}

func (h admissionHost) Equivalents(gvr meta.GroupVersionResource) []policy.ResourceKind {
	var out []policy.ResourceKind
	for other, r := range h.s.registry.Load().byGVR {
		if other.Group == gvr.Group && other.Resource == gvr.Resource {
			out = append(out, policy.ResourceKind{Resource: other, Kind: r.GroupVersionKind(), Namespaced: r.Namespaced})
		}
	}
	return out
}

func (h admissionHost) Convert(ctx context.Context, obj map[string]any, apiVersion string) (map[string]any, error) {
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		out[k] = v
	}
	out["apiVersion"] = apiVersion
	return out, nil
}

type warningSinkKey struct{}

type warningSink struct {
	mu   sync.Mutex
	list *[]string
}

// withWarningSink lets AddWarning add to a request's warnings.
func withWarningSink(ctx context.Context, list *[]string) context.Context {
	return context.WithValue(ctx, warningSinkKey{}, &warningSink{list: list})
}

// AddWarning adds a Warning header (`299 - "text"`) to the answer of the
// request whose context ctx is, once per text, as kube's warning
// recorder does. Admission plugins warn through it.
func AddWarning(ctx context.Context, text string) {
	sink, _ := ctx.Value(warningSinkKey{}).(*warningSink)
	if sink == nil {
		return
	}
	sink.mu.Lock()
	defer sink.mu.Unlock()
	for _, w := range *sink.list {
		if w == text {
			return
		}
	}
	*sink.list = append(*sink.list, text)
}

// WritePolicyStatus type-checks a stored ValidatingAdmissionPolicy
// against the schemas of the kinds it matches and writes its status
// (observedGeneration, typeChecking.expressionWarnings) as kube's
// validatingadmissionpolicy-status-controller does, returning the version
// to answer with. A ValidatingAdmissionPolicy strategy's AfterWrite calls
// it, so that the status is there once the write is answered (kube's
// controller writes it moments later).
func WritePolicyStatus(w *Write, stored *store.Object) (*store.Object, error) {
	data := stored.Data()
	if data.DeletionTimestamp() != "" {
		return stored, nil
	}
	status, _ := data["status"].(map[string]any)
	if g, ok := meta.AsInt64(status["observedGeneration"]); ok && g == data.Generation() {
		return stored, nil
	}
	warnings := policy.TypeCheck(map[string]any(data), policySchemas{w.s})
	out, err := w.s.store.Update(w.Context, stored.Key(), store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
		d := cur.Data()
		if d.Generation() != data.Generation() {
			return nil, store.ErrNoChange // a newer spec: its own write checks it
		}
		next := d.DeepCopy()
		tc := map[string]any{}
		if len(warnings) > 0 {
			list := make([]any, len(warnings))
			for i, w := range warnings {
				list[i] = map[string]any{"fieldRef": w.FieldRef, "warning": w.Warning}
			}
			tc["expressionWarnings"] = list
		}
		st, _ := next["status"].(map[string]any)
		if st == nil {
			st = map[string]any{}
		}
		st["observedGeneration"] = d.Generation()
		st["typeChecking"] = tc
		next["status"] = st
		return next, nil
	})
	if errors.Is(err, store.ErrNoChange) || errors.Is(err, store.ErrNotFound) {
		return stored, nil
	}
	return out, err
}

// policySchemas resolves kinds and schemas from the registry.
type policySchemas struct{ s *Server }

func (p policySchemas) KindsFor(gvr meta.GroupVersionResource) []meta.GroupVersionKind {
	if r := p.s.registry.Load().lookup(gvr.Group, gvr.Version, gvr.Resource); r != nil {
		return []meta.GroupVersionKind{r.GroupVersionKind()}
	}
	return nil
}

func (p policySchemas) SchemaFor(gvk meta.GroupVersionKind) *schema.Schema {
	for gvr, r := range p.s.registry.Load().byGVR {
		if gvr.Group == gvk.Group && gvr.Version == gvk.Version && r.Kind == gvk.Kind {
			return r.Schema
		}
	}
	return nil
}
