package rbac

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"time"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// AggregationManager is the field manager kube's ClusterRole aggregation
// controller applies rules with.
const AggregationManager = "clusterrole-aggregation-controller"

// RunAggregation fills in the rules of aggregated ClusterRoles (those with
// an aggregationRule) as kube-controller-manager's ClusterRole aggregation
// controller does, until ctx is done: an aggregated role's rules are the
// rules of every other ClusterRole its selectors match, by role name, each
// rule once. It follows the ClusterRoles through a store watch and writes
// an aggregated role only when its rules change, recording the write in
// managedFields as the controller's server-side apply does. now is the
// clock (nil: time.Now).
func RunAggregation(ctx context.Context, st store.Store, now func() time.Time) error {
	if now == nil {
		now = time.Now
	}
	prefix := KeyPrefix(ResourceClusterRoles)
	for {
		list, err := st.List(ctx, prefix, store.ListOptions{})
		if err != nil {
			return err
		}
		if err := aggregate(ctx, st, list.Items, now); err != nil && ctx.Err() == nil {
			return err
		}
		w, err := st.Watch(ctx, prefix, store.WatchOptions{Revision: list.Revision})
		if err != nil {
			return err
		}
		err = followAggregation(ctx, st, w, now)
		w.Stop()
		if ctx.Err() != nil {
			return nil
		}
		var expired *store.ExpiredError
		if !errors.As(err, &expired) {
			return err
		}
		// Overtaken by the history window: list again.
	}
}

func followAggregation(ctx context.Context, st store.Store, w store.Watcher, now func() time.Time) error {
	for {
		if _, err := w.Next(ctx); err != nil {
			return err
		}
		list, err := st.List(ctx, KeyPrefix(ResourceClusterRoles), store.ListOptions{})
		if err != nil {
			return err
		}
		if err := aggregate(ctx, st, list.Items, now); err != nil {
			return err
		}
	}
}

// AggregateOnce brings every aggregated ClusterRole of st up to date once.
func AggregateOnce(ctx context.Context, st store.Store, now func() time.Time) error {
	if now == nil {
		now = time.Now
	}
	list, err := st.List(ctx, KeyPrefix(ResourceClusterRoles), store.ListOptions{})
	if err != nil {
		return err
	}
	return aggregate(ctx, st, list.Items, now)
}

func aggregate(ctx context.Context, st store.Store, items []*store.Object, now func() time.Time) error {
	roles := make([]*role, 0, len(items))
	for _, it := range items {
		roles = append(roles, parseRole(it.Data()))
	}
	slices.SortFunc(roles, func(a, b *role) int { return compareStrings(a.name, b.name) })
	// Aggregated roles may aggregate one another (admin takes edit, which
	// takes view): repeat until nothing changes, as the controller reaches
	// the same state through the watch events its own writes cause.
	for pass := 0; pass <= len(roles); pass++ {
		changed := false
		for _, r := range roles {
			if r.selectors == nil {
				continue
			}
			want := aggregatedRules(r, roles)
			if rulesEqual(want, r.rules) {
				continue
			}
			if err := writeAggregated(ctx, st, r.name, want, now()); err != nil && !errors.Is(err, store.ErrNotFound) {
				return err
			}
			r.rules, changed = want, true
		}
		if !changed {
			return nil
		}
	}
	return nil
}

// aggregatedRules computes an aggregated role's rules from the others.
func aggregatedRules(target *role, roles []*role) []Rule {
	rules := []Rule{}
	for _, sel := range target.selectors {
		for _, r := range roles {
			if r.name == target.name || !sel.Matches(r.labels) {
				continue
			}
			for _, rule := range r.rules {
				if !slices.ContainsFunc(rules, func(x Rule) bool { return ruleEqual(x, rule) }) {
					rules = append(rules, rule)
				}
			}
		}
	}
	return rules
}

func ruleEqual(a, b Rule) bool { return reflect.DeepEqual(a, b) }

func rulesEqual(a, b []Rule) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !ruleEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}

// writeAggregated sets a ClusterRole's rules and its managedFields entry
// for the aggregation controller, as a forced apply of rules would: the
// controller's Apply entry owns f:rules, no other entry does.
func writeAggregated(ctx context.Context, st store.Store, name string, rules []Rule, t time.Time) error {
	list := make([]any, len(rules))
	for i, r := range rules {
		list[i] = r.object()
	}
	_, err := st.Update(ctx, Key(ResourceClusterRoles, "", name), store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
		obj := cur.Data().DeepCopy()
		if rulesEqual(parseRules(obj["rules"]), rules) {
			return nil, store.ErrNoChange
		}
		obj["rules"] = list
		md := obj.MetadataForWrite()
		entries, _ := md["managedFields"].([]any)
		kept := []any{map[string]any{
			"manager": AggregationManager, "operation": "Apply", "apiVersion": Group + "/v1",
			"time": meta.FormatTime(t), "fieldsType": "FieldsV1",
			"fieldsV1": map[string]any{"f:rules": map[string]any{}},
		}}
		for _, e := range entries {
			m, _ := e.(map[string]any)
			if m["manager"] == AggregationManager && m["operation"] == "Apply" {
				continue
			}
			if f, ok := m["fieldsV1"].(map[string]any); ok {
				if _, owns := f["f:rules"]; owns {
					delete(f, "f:rules")
					if len(f) == 0 {
						continue
					}
				}
			}
			kept = append(kept, m)
		}
		md["managedFields"] = kept
		return obj, nil
	})
	return err
}
