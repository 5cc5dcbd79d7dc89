package rbac

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// bootstrapJSON is kube-apiserver 1.33's bootstrap RBAC policy, as a real
// kube-apiserver 1.33.13 serves it right after start (every ClusterRole,
// ClusterRoleBinding, Role and RoleBinding labelled
// kubernetes.io/bootstrapping=rbac-defaults, in creation order, with uid,
// resourceVersion and creationTimestamp left out and managedFields times
// written "BOOTSTRAP"): data, recorded, not code.
//
//go:embed bootstrap.json
var bootstrapJSON []byte

var bootstrapObjects = sync.OnceValue(func() []meta.Object {
	var objs []meta.Object
	if err := json.Unmarshal(bootstrapJSON, &objs); err != nil {
		panic("rbac: embedded bootstrap.json: " + err.Error())
	}
	return objs
})

// BootstrapPolicy returns a copy of kube's bootstrap RBAC objects
// (cluster-admin, admin, edit, view, the system: roles and their bindings,
// system:masters bound to cluster-admin), as they are stored (without uid,
// resourceVersion and creationTimestamp).
func BootstrapPolicy() []meta.Object {
	src := bootstrapObjects()
	out := make([]meta.Object, len(src))
	for i, o := range src {
		out[i] = o.DeepCopy()
	}
	return out
}

func resourceOfKind(kind string) string {
	switch kind {
	case "Role":
		return ResourceRoles
	case "ClusterRole":
		return ResourceClusterRoles
	case "RoleBinding":
		return ResourceRoleBindings
	case "ClusterRoleBinding":
		return ResourceClusterRoleBindings
	}
	return ""
}

// EnsureBootstrapPolicy writes kube's bootstrap policy into st as
// kube-apiserver does at every start: a missing object is created (with a
// new uid and the time now); an existing one annotated
// rbac.authorization.kubernetes.io/autoupdate=true gets back the rules
// (and, for bindings, the subjects) it lost, and keeps what was added to
// it; one annotated false is left alone.
func EnsureBootstrapPolicy(ctx context.Context, st store.Store, now time.Time) error {
	ts := meta.FormatTime(now)
	for _, obj := range BootstrapPolicy() {
		res := resourceOfKind(obj.Kind())
		key := Key(res, obj.Namespace(), obj.Name())
		md := obj.MetadataForWrite()
		md["uid"] = newUID()
		md["creationTimestamp"] = ts
		if mf, ok := md["managedFields"].([]any); ok {
			for _, e := range mf {
				if m, ok := e.(map[string]any); ok {
					m["time"] = ts
				}
			}
		}
		_, err := st.Create(ctx, key, obj)
		if err == nil {
			continue
		}
		if !errors.Is(err, store.ErrExists) {
			return fmt.Errorf("rbac: bootstrap %s %s: %w", obj.Kind(), obj.Name(), err)
		}
		if err := reconcile(ctx, st, key, res, obj); err != nil {
			return fmt.Errorf("rbac: bootstrap %s %s: %w", obj.Kind(), obj.Name(), err)
		}
	}
	return nil
}

// reconcile adds back what a bootstrap object lost, as kube's
// reconciliation does for objects that allow auto-update.
func reconcile(ctx context.Context, st store.Store, key, res string, want meta.Object) error {
	_, err := st.Update(ctx, key, store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
		have := cur.Data()
		if have.Annotations()[autoupdateAnnotation] == "false" {
			return nil, store.ErrNoChange
		}
		out := have.DeepCopy()
		changed := false
		switch res {
		case ResourceRoles, ResourceClusterRoles:
			missing := Uncovered(parseRules(have["rules"]), parseRules(want["rules"]))
			if len(missing) > 0 {
				rules, _ := out["rules"].([]any)
				for _, r := range missing {
					rules = append(rules, r.object())
				}
				out["rules"] = rules
				changed = true
			}
		default:
			subs, _ := out["subjects"].([]any)
			wanted, _ := want["subjects"].([]any)
			for _, s := range wanted {
				if !slices.ContainsFunc(subs, func(x any) bool { return jsonEqual(x, s) }) {
					subs = append(subs, s)
					changed = true
				}
			}
			out["subjects"] = subs
		}
		if !changed {
			return nil, store.ErrNoChange
		}
		return out, nil
	})
	return err
}

func jsonEqual(a, b any) bool {
	ab, _ := json.Marshal(a)
	bb, _ := json.Marshal(b)
	return string(ab) == string(bb)
}

// newUID returns a random RFC 4122 version 4 UUID.
func newUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
