package cel

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// Validate runs the rules on obj, a whole custom resource, and returns
// kube's field errors for the rules that fail, and the warnings of
// failures that ratcheting forgave. old is the stored object on an
// update (nil on a create): transition rules (those reading oldSelf) run
// only where an old value correlates with the new one (same property,
// same key of a map or of a list of type map), unless they declare
// optionalOldSelf; and, as kube-apiserver 1.33 does, a failing rule that
// does not read oldSelf is forgiven (a warning) where its value is
// unchanged. Rules stop once they have cost RuntimeCostBudget in all,
// and each evaluation at PerCallLimit; ctx cancels evaluation.
func (v *Validator) Validate(ctx context.Context, obj, old map[string]any) (meta.FieldErrors, []string) {
	if v == nil || obj == nil {
		return nil, nil
	}
	r := &run{ctx: ctx, budget: RuntimeCostBudget, untracked: v.untracked}
	var c ratchet
	if old != nil {
		c.current = &correlation{value: obj, old: old, schema: v.root.schema}
	}
	r.node(v.root, "", obj, asAny(old), c)
	return r.errs, r.warnings
}

func asAny(m map[string]any) any {
	if m == nil {
		return nil
	}
	return m
}

type run struct {
	ctx       context.Context
	untracked bool
	budget    int64
	errs      meta.FieldErrors
	warnings  []string
}

// exhausted reports whether a previous step spent the budget.
func (r *run) exhausted() bool { return r.budget < 0 }

func fieldOf(path string) string {
	if path == "" {
		return "<nil>"
	}
	return path
}

func childPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func (r *run) node(n *node, path string, obj, old any, c ratchet) {
	if n == nil || obj == nil || r.exhausted() {
		return
	}
	r.rules(n, path, obj, old, c)
	if r.exhausted() {
		return
	}
	switch t := obj.(type) {
	case []any:
		if n.items == nil {
			return
		}
		oldList, _ := old.([]any)
		var byKey map[string]any
		if n.schema.XListType == "map" && oldList != nil {
			byKey = make(map[string]any, len(oldList))
			for _, e := range oldList {
				byKey[mapListKey(n.schema.XListMapKeys, e)] = e
			}
		}
		for i, e := range t {
			var oe any
			if byKey != nil {
				oe = byKey[mapListKey(n.schema.XListMapKeys, e)]
			}
			r.node(n.items, fmt.Sprintf("%s[%d]", path, i), e, oe, c.index(i))
			if r.exhausted() {
				return
			}
		}
	case map[string]any:
		r.object(n, path, t, old, c)
	case meta.Object:
		r.object(n, path, t, old, c)
	}
}

func (r *run) object(n *node, path string, m map[string]any, old any, c ratchet) {
	oldMap, _ := meta.AsMap(old)
	if n.additional != nil {
		for _, k := range sortedKeys(m) {
			var ov any
			if oldMap != nil {
				ov = oldMap[k]
			}
			r.node(n.additional, path+"["+k+"]", m[k], ov, c.key(k))
			if r.exhausted() {
				return
			}
		}
	}
	for _, k := range n.names {
		v, ok := m[k]
		if !ok {
			continue
		}
		var ov any
		if oldMap != nil {
			ov = oldMap[k]
		}
		r.node(n.properties[k], childPath(path, k), v, ov, c.key(k))
		if r.exhausted() {
			return
		}
	}
}

// mapListKey identifies an item of a list of type map by its keys.
func mapListKey(keys []string, e any) string {
	m, ok := meta.AsMap(e)
	if !ok {
		return "\x00"
	}
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%T:%v\x00", m[k], m[k])
	}
	return b.String()
}

// activation resolves self and oldSelf.
type activation struct {
	self, oldSelf ref.Val
	hasOldSelf    bool
}

func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case "self":
		return a.self, true
	case "oldSelf":
		return a.oldSelf, a.hasOldSelf
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }

func (r *run) rules(n *node, path string, obj, old any, c ratchet) {
	if len(n.rules) == 0 {
		return
	}
	if r.budget <= 0 {
		r.fail(path, n.schema.Type, "validation failed due to running out of cost budget, no further validation rules will be run")
		r.budget = -1
		return
	}
	s := n.self
	act := &activation{self: valueOf(obj, s)}
	optAct := &activation{self: act.self, hasOldSelf: true, oldSelf: types.OptionalNone}
	if n.usesOld && old != nil {
		act.oldSelf, act.hasOldSelf = valueOf(old, s), true
		optAct.oldSelf = types.OptionalOf(act.oldSelf)
	}
	for _, cr := range n.rules {
		if cr.err != "" {
			r.fail(path, s.Type, "rule compile error: "+cr.err)
			continue
		}
		if cr.program == nil {
			continue
		}
		optional := cr.rule.OptionalOldSelf != nil && *cr.rule.OptionalOldSelf
		if cr.usesOldSelf && old == nil && !optional {
			continue // transition rules need an old value
		}
		a := act
		if optional {
			a = optAct
		}
		if r.untracked {
			val, _, err := cr.fast.ContextEval(r.ctx, a)
			if err == nil && val == types.True {
				continue
			}
			// A failure is rare: run it again with cost tracking, so that
			// what follows (messages, budget) is exactly kube's.
		}
		val, details, err := cr.program.ContextEval(r.ctx, a)
		if details == nil || details.ActualCost() == nil {
			r.fail(path, s.Type, fmt.Sprintf("runtime cost could not be calculated for validation rule: %v, no further validation rules will be run", ruleText(cr.rule)))
			r.budget = -1
			return
		}
		cost := *details.ActualCost()
		if cost > math.MaxInt64 || int64(cost) > r.budget {
			r.fail(path, s.Type, "validation failed due to running out of cost budget, no further validation rules will be run")
			r.budget = -1
			return
		}
		r.budget -= int64(cost)
		if err != nil {
			switch msg := err.Error(); {
			case strings.HasPrefix(msg, "no such overload"):
				r.fail(path, s.Type, fmt.Sprintf("'%v': call arguments did not match a supported operator, function or macro signature for rule: %v", err, ruleText(cr.rule)))
			case strings.HasPrefix(msg, "operation cancelled: actual cost limit exceeded"):
				r.fail(path, s.Type, fmt.Sprintf("'%v': no further validation rules will be run due to call cost exceeds limit for rule: %v", err, ruleText(cr.rule)))
				r.budget = -1
				return
			default:
				r.fail(path, s.Type, fmt.Sprintf("%v evaluating rule: %v", err, ruleText(cr.rule)))
			}
			continue
		}
		if val == types.True {
			continue
		}
		at := path
		if cr.fieldPath != "" {
			at = childPath(path, cr.fieldPath)
		}
		add := func(e meta.FieldError) {
			if !cr.usesOldSelf && c.unchanged() {
				r.warnings = append(r.warnings, e.Error())
				return
			}
			r.errs = append(r.errs, e)
		}
		if cr.message == nil {
			add(reasonError(at, s.Type, defaultMessage(cr.rule), cr.rule.Reason))
			continue
		}
		msg, kind, detail := r.message(cr, act)
		switch kind {
		case msgInternal:
			add(meta.FieldError{Type: meta.ErrorInternal, Field: fieldOf(at), Detail: detail})
			r.budget = -1
			return
		case msgInvalid:
			add(meta.FieldError{Type: meta.ErrorInvalid, Field: fieldOf(at), Value: s.Type, Detail: detail})
			r.budget = -1
			return
		case msgFailed:
			add(reasonError(at, s.Type, defaultMessage(cr.rule), cr.rule.Reason))
		default:
			add(reasonError(at, s.Type, msg, cr.rule.Reason))
		}
	}
}

func (r *run) fail(path, typ, detail string) {
	r.errs = append(r.errs, meta.FieldError{Type: meta.ErrorInvalid, Field: fieldOf(path), Value: typ, Detail: detail})
}

type msgKind int

const (
	msgOK msgKind = iota
	msgFailed
	msgInvalid
	msgInternal
)

// message evaluates a messageExpression: the message, or how it failed
// (kube falls back to the rule's message for an ordinary failure and
// stops validating when the budget runs out).
func (r *run) message(cr compiledRule, act *activation) (string, msgKind, string) {
	val, details, err := cr.message.ContextEval(r.ctx, act)
	if details == nil || details.ActualCost() == nil {
		return "", msgInternal, fmt.Sprintf("runtime cost could not be calculated for messageExpression: %q", cr.rule.MessageExpression)
	}
	cost := *details.ActualCost()
	if cost > math.MaxInt64 || int64(cost) > r.budget {
		return "", msgInvalid, "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run"
	}
	if err != nil {
		if strings.HasPrefix(err.Error(), "operation cancelled: actual cost limit exceeded") {
			return "", msgInvalid, fmt.Sprintf("no further validation rules will be run due to call cost exceeds limit for messageExpression: %q", cr.rule.MessageExpression)
		}
		r.budget -= int64(cost)
		return "", msgFailed, ""
	}
	r.budget -= int64(cost)
	s, ok := val.Value().(string)
	if !ok {
		return "", msgFailed, ""
	}
	s = strings.TrimSpace(s)
	if len(s) > MaxMessageExpressionBytes || strings.Contains(s, "\n") || s == "" {
		return "", msgFailed, ""
	}
	return s, msgOK, ""
}

// reasonError is a failed rule's error, of the rule's reason's type.
func reasonError(path, typ, detail string, reason *string) meta.FieldError {
	f := fieldOf(path)
	if reason != nil {
		switch *reason {
		case "FieldValueForbidden":
			return meta.FieldError{Type: meta.ErrorForbidden, Field: f, Detail: detail}
		case "FieldValueRequired":
			return meta.FieldError{Type: meta.ErrorRequired, Field: f, Detail: detail}
		case "FieldValueDuplicate":
			return meta.FieldError{Type: meta.ErrorDuplicate, Field: f, Value: typ}
		}
	}
	return meta.FieldError{Type: meta.ErrorInvalid, Field: f, Value: typ, Detail: detail}
}

func defaultMessage(r Rule) string {
	if r.Message == "" {
		return "failed rule: " + ruleText(r)
	}
	return strings.TrimSpace(r.Message)
}

func ruleText(r Rule) string {
	if r.Message != "" {
		return strings.TrimSpace(r.Message)
	}
	return strings.TrimSpace(r.Rule)
}

// correlation pairs a new value with the old value at the same place,
// for ratcheting: whether they are equal is computed once.
type correlation struct {
	value, old any
	schema     *schema.Schema
	equal      *bool
	byKey      map[string]any // a map list's old items by key
	children   map[any]*correlation
}

// ratchet is where a node stands for ratcheting: its correlation, or the
// nearest correlated ancestor's when it has none.
type ratchet struct {
	current, parent *correlation
}

func (c ratchet) unchanged() bool {
	if c.current != nil {
		return c.current.unchanged()
	}
	return c.parent.unchanged()
}

func (c ratchet) key(k string) ratchet {
	if c.current == nil {
		return c
	}
	if c.parent == nil && (k == "apiVersion" || k == "kind") {
		return ratchet{}
	}
	return ratchet{current: c.current.key(k), parent: c.current}
}

func (c ratchet) index(i int) ratchet {
	if c.current == nil {
		return c
	}
	return ratchet{current: c.current.index(i), parent: c.current}
}

func (c *correlation) key(k string) *correlation {
	if c == nil || c.schema == nil {
		return nil
	}
	if ch, ok := c.children[k]; ok {
		return ch
	}
	nm, ok1 := meta.AsMap(c.value)
	om, ok2 := meta.AsMap(c.old)
	if !ok1 || !ok2 {
		return nil
	}
	nv, ok1 := nm[k]
	ov, ok2 := om[k]
	if !ok1 || !ok2 {
		return nil
	}
	ps := c.schema.Properties[k]
	if ps == nil {
		ps = c.schema.AdditionalPropertiesSchema()
	}
	if ps == nil {
		return nil
	}
	ch := &correlation{value: nv, old: ov, schema: ps}
	if c.children == nil {
		c.children = map[any]*correlation{}
	}
	c.children[k] = ch
	return ch
}

func (c *correlation) index(i int) *correlation {
	if c == nil || c.schema == nil || c.schema.XListType != "map" || c.schema.Items == nil {
		return nil
	}
	if ch, ok := c.children[i]; ok {
		return ch
	}
	list, ok := c.value.([]any)
	oldList, ok2 := c.old.([]any)
	if !ok || !ok2 || i >= len(list) {
		return nil
	}
	if c.byKey == nil {
		c.byKey = make(map[string]any, len(oldList))
		for _, e := range oldList {
			c.byKey[mapListKey(c.schema.XListMapKeys, e)] = e
		}
	}
	ov, found := c.byKey[mapListKey(c.schema.XListMapKeys, list[i])]
	if !found || ov == nil {
		return nil
	}
	ch := &correlation{value: list[i], old: ov, schema: c.schema.Items}
	if c.children == nil {
		c.children = map[any]*correlation{}
	}
	c.children[i] = ch
	return ch
}

// unchanged is kube's CachedDeepEqual: lists of type map compare by key,
// other lists by position, maps by key.
func (c *correlation) unchanged() (res bool) {
	if c == nil {
		return false
	}
	if c.equal != nil {
		return *c.equal
	}
	defer func() { c.equal = &res }()
	if c.value == nil && c.old == nil {
		return true
	}
	if c.value == nil || c.old == nil {
		return false
	}
	nl, nIsList := c.value.([]any)
	ol, oIsList := c.old.([]any)
	nm, nIsMap := meta.AsMap(c.value)
	om, oIsMap := meta.AsMap(c.old)
	if nIsList != oIsList || nIsMap != oIsMap {
		return false
	}
	switch {
	case nIsList:
		if len(nl) != len(ol) {
			return false
		}
		if c.schema.XListType != "map" {
			return meta.EqualValues(c.value, c.old)
		}
		for i := range nl {
			ch := c.index(i)
			if ch == nil || !ch.unchanged() {
				return false
			}
		}
		return true
	case nIsMap:
		if len(nm) != len(om) {
			return false
		}
		for k := range nm {
			ch := c.key(k)
			if ch == nil || !ch.unchanged() {
				return false
			}
		}
		return true
	}
	return meta.EqualValues(c.value, c.old)
}
