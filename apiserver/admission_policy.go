package apiserver

import (
	"context"
	"errors"
	"sort"
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

// watched keeps the objects of some kinds parsed, in step with the
// store: a watch cursor per kind is advanced, without waiting, whenever a
// request asks for the current value and the store has moved since, and
// the value is rebuilt from the parsed objects when they changed. No
// goroutine, no polling; a write of one of the kinds is in force for the
// next request. A cursor that falls out of the store's history reads
// everything again.
type watched struct {
	s   *Server
	grs []meta.GroupResource
	// parse reads one object of kind i (prev: its previous parse, nil).
	parse func(kind int, obj map[string]any, prev any) any
	// build makes the value from every parsed object, by kind and key.
	build func(items []map[string]any) any

	mu       sync.Mutex
	watchers []store.Watcher
	items    []map[string]any

	value  atomic.Pointer[any]
	synced atomic.Int64 // the store revision the value reflects
}

func newWatched(s *Server, grs []meta.GroupResource, parse func(int, map[string]any, any) any, build func([]map[string]any) any) *watched {
	w := &watched{s: s, grs: grs, parse: parse, build: build}
	empty := build(make([]map[string]any, len(grs)))
	w.value.Store(&empty)
	return w
}

// current is the value at the store's current revision.
func (w *watched) current(ctx context.Context) (any, error) {
	rev := w.s.store.Revision()
	if w.synced.Load() >= rev {
		return *w.value.Load(), nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.synced.Load() >= rev {
		return *w.value.Load(), nil
	}
	if err := w.syncLocked(ctx); err != nil {
		return nil, err
	}
	return *w.value.Load(), nil
}

func (w *watched) syncLocked(ctx context.Context) error {
	if w.watchers == nil {
		return w.relistLocked(ctx)
	}
	changed := false
	done, cancel := context.WithCancel(ctx)
	cancel() // a done context drains what is available without waiting
	synced := int64(-1)
	for i, wt := range w.watchers {
		for {
			events, err := wt.Next(done)
			for _, ev := range events {
				changed = true
				w.applyLocked(i, ev)
			}
			if err != nil {
				var expired *store.ExpiredError
				if errors.As(err, &expired) {
					return w.relistLocked(ctx)
				}
				break // no more events now
			}
		}
		if r := wt.Revision(); synced < 0 || r < synced {
			synced = r
		}
	}
	if changed {
		v := w.build(w.items)
		w.value.Store(&v)
	}
	w.synced.Store(synced)
	return nil
}

func (w *watched) applyLocked(kind int, ev store.Event) {
	key := ev.Object.Key()
	if ev.Type == store.Deleted {
		delete(w.items[kind], key)
		return
	}
	w.items[kind][key] = w.parse(kind, map[string]any(ev.Object.Data()), w.items[kind][key])
}

// relistLocked reads every object of the kinds and watches from there.
func (w *watched) relistLocked(ctx context.Context) error {
	for _, wt := range w.watchers {
		wt.Stop()
	}
	w.watchers = nil
	w.items = make([]map[string]any, len(w.grs))
	rev := w.s.store.Revision()
	var watchers []store.Watcher
	for i, gr := range w.grs {
		w.items[i] = map[string]any{}
		prefix := w.prefix(gr)
		page, err := w.s.store.List(ctx, prefix, store.ListOptions{Revision: rev})
		if err != nil {
			return err
		}
		for _, it := range page.Items {
			w.applyLocked(i, store.Event{Type: store.Added, Object: it})
		}
		wt, err := w.s.store.Watch(ctx, prefix, store.WatchOptions{Revision: page.Revision})
		if err != nil {
			for _, o := range watchers {
				o.Stop()
			}
			return err
		}
		watchers = append(watchers, wt)
	}
	w.watchers = watchers
	v := w.build(w.items)
	w.value.Store(&v)
	w.synced.Store(rev)
	return nil
}

// prefix is where a kind's objects are stored (their default prefix when
// the kind is not served: nothing is stored there).
func (w *watched) prefix(gr meta.GroupResource) string {
	if res, err := w.s.served(gr); err == nil {
		return res.collectionPrefix("")
	}
	return "/" + gr.String() + "/"
}

// newPolicySource keeps the compiled ValidatingAdmissionPolicies and
// bindings in force (each policy version compiled once; a status write
// keeps the compiled policy).
func newPolicySource(s *Server) *watched {
	return newWatched(s, []meta.GroupResource{policiesGR, bindingsGR},
		func(kind int, obj map[string]any, prev any) any {
			if kind == 1 {
				return policy.CompileBinding(obj)
			}
			if p, ok := prev.(*policy.Policy); ok && p.SameSpec(obj) {
				return p
			}
			return policy.CompilePolicy(obj)
		},
		func(items []map[string]any) any {
			var policies []*policy.Policy
			var bindings []*policy.Binding
			if len(items) == 2 {
				for _, p := range items[0] {
					policies = append(policies, p.(*policy.Policy))
				}
				for _, b := range items[1] {
					bindings = append(bindings, b.(*policy.Binding))
				}
			}
			return policy.NewSet(policies, bindings)
		})
}

// admitPolicies applies the policies in force to one admission request:
// a denial is the error, Warn failures become Warning headers.
func (s *Server) admitPolicies(ctx context.Context, req *AdmissionRequest, res *Resource) error {
	if s.policies == nil {
		return nil
	}
	v, err := s.policies.current(ctx)
	if err != nil {
		return meta.Internal(err)
	}
	set := v.(*policy.Set)
	if set.Empty() {
		return nil
	}
	out := set.Validate(ctx, admissionHost{s}, req.attributes(), res.GroupResource())
	for _, w := range out.Warnings {
		AddWarning(ctx, w)
	}
	keys := make([]string, 0, len(out.AuditAnnotations))
	for k := range out.AuditAnnotations {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		AddAuditAnnotation(ctx, k, out.AuditAnnotations[k])
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
	if obj, err = res.present(ctx, obj); err != nil {
		return nil, err
	}
	return obj.Data(), nil
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
		if !sel.Matches(it.Data().Labels()) {
			continue // labels are the same at every version
		}
		v, err := res.present(ctx, it)
		if err != nil {
			return nil, err
		}
		if d := v.Data(); sel.Matches(d.Labels()) {
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
	if from, _ := obj["apiVersion"].(string); from != apiVersion {
		// A custom resource whose CRD converts through a webhook is
		// converted by it, as kube converts for an equivalent match.
		kind, _ := obj["kind"].(string)
		if rk, ok := h.ResourceForKind(apiVersion, kind); ok {
			if res, err := h.resource(rk); err == nil && res.conversion != nil {
				out, err := res.conversion.convert(ctx, []map[string]any{obj}, apiVersion)
				if err != nil {
					return nil, err
				}
				return out[0], nil
			}
		}
	}
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
