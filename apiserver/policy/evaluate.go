package policy

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// decision is one validation's outcome that is not an admission.
type decision struct {
	index   int
	message string
	reason  string
	// errored: the validation could not be evaluated (failurePolicy Fail);
	// it denies whatever the binding's actions are.
	errored bool
}

const maxAuditAnnotationValueLength = 10 * 1024

// evaluate runs a policy's matchConditions, validations and audit
// annotations for one parameter, as kube's validator does, returning the
// validations that failed and the audit annotations that could not be
// evaluated (failurePolicy Fail: they deny). Audit annotation values are
// added to audits.
func (p *Policy) evaluate(ctx context.Context, a *Attributes, m Match, object, oldObject, param, namespace map[string]any,
	audits map[string][]string) ([]decision, []string) {
	decisions, auditErrs, retry := p.evaluateOnce(ctx, a, m, object, oldObject, param, namespace, audits, false)
	if retry {
		decisions, auditErrs, _ = p.evaluateOnce(ctx, a, m, object, oldObject, param, namespace, audits, true)
	}
	return decisions, auditErrs
}

// evaluateOnce is evaluate with untracked expressions charged their
// estimates (exact false) or every cost measured; retry reports that the
// budget ran out where estimates were charged, so the evaluation must run
// again exactly.
func (p *Policy) evaluateOnce(ctx context.Context, a *Attributes, m Match, object, oldObject, param, namespace map[string]any,
	audits map[string][]string, exact bool) (_ []decision, _ []string, retry bool) {
	act := newActivation(a, m, object, oldObject, param, namespace, p.paramKind != nil, p.request)
	if len(p.variables) > 0 {
		names := make(map[string]int, len(p.variables))
		vars := make([]compiled, len(p.variables))
		for i, v := range p.variables {
			names[v.name], vars[i] = i, v.compiled
		}
		act.variables = &lazyVariables{ctx: ctx, act: act, vars: vars, names: names, values: make([]ref.Val, len(vars))}
	}
	failed := func(msg string) []decision {
		if p.failIgnore {
			return nil
		}
		return []decision{{message: msg, errored: true}}
	}
	newEval := func() *evaluation {
		return &evaluation{ctx: ctx, act: act, budget: runtimeCostBudget, exact: exact}
	}
	// matchConditions: all must hold; an error decides by failurePolicy.
	if len(p.conditions) > 0 {
		e := newEval()
		var condErr error
		for _, c := range p.conditions {
			r, err := e.run(c.compiled)
			if err == errRetryExact {
				return nil, nil, true
			}
			if err != nil {
				return failed(err.Error()), nil, false
			}
			if r.err != "" {
				if condErr == nil {
					condErr = fmt.Errorf("%s", r.err)
				}
				continue
			}
			if r.val != types.True {
				return nil, nil, false
			}
		}
		if condErr != nil {
			return failed(condErr.Error()), nil, false
		}
	}
	if act.variables != nil { // each evaluation pass sees fresh variable costs
		act.variables.takeCost()
	}
	e := newEval()
	results := make([]result, len(p.validations))
	for i, v := range p.validations {
		r, err := e.run(v.compiled)
		if err == errRetryExact {
			return nil, nil, true
		}
		if err != nil {
			return failed(err.Error()), nil, false
		}
		results[i] = r
	}
	// messageExpressions run on what the validations left of the budget,
	// with params but not the authorizer.
	var msgErr error
	messages := make([]string, len(p.validations))
	for i, v := range p.validations {
		if v.msgExpr == nil {
			continue
		}
		r, err := e.run(*v.msgExpr)
		if err == errRetryExact {
			return nil, nil, true
		}
		if err != nil {
			msgErr = err
			break
		}
		if r.err == "" {
			if s, ok := r.val.Value().(string); ok {
				messages[i] = s
			}
		}
	}
	var decisions []decision
	for i, v := range p.validations {
		r := results[i]
		switch {
		case r.err != "":
			if !p.failIgnore {
				decisions = append(decisions, decision{index: i, message: r.err, errored: true})
			}
		case msgErr != nil && errors.As(msgErr, new(*evalError)):
			if !p.failIgnore {
				decisions = append(decisions, decision{index: i, message: fmt.Sprintf("failed messageExpression: %s", msgErr), errored: true})
			}
		case r.val != types.True:
			d := decision{index: i, reason: v.reason}
			msg := strings.TrimSpace(messages[i])
			if len(msg) > MaxMessageExpressionBytes || strings.Contains(msg, "\n") {
				msg = ""
			}
			if msg == "" && v.message != "" {
				msg = strings.TrimSpace(v.message)
			}
			if msg == "" {
				msg = fmt.Sprintf("failed expression: %v", strings.TrimSpace(v.expr))
			}
			d.message = msg
			decisions = append(decisions, d)
		}
	}
	var auditErrs []string
	ae := newEval()
	for _, an := range p.audits {
		r, err := ae.run(an.compiled)
		if err == errRetryExact {
			return nil, nil, true
		}
		if err != nil {
			return append(decisions, failed(err.Error())...), auditErrs, false
		}
		if r.err != "" {
			if !p.failIgnore {
				auditErrs = append(auditErrs, r.err)
			}
			continue
		}
		switch r.val.Type() {
		case types.StringType:
			value := strings.TrimSpace(r.val.Value().(string))
			if value == "" {
				continue
			}
			if len(value) > maxAuditAnnotationValueLength {
				value = value[:maxAuditAnnotationValueLength]
			}
			if !contains(audits[an.key], value) {
				audits[an.key] = append(audits[an.key], value)
			}
		case types.NullType:
		default:
			auditErrs = append(auditErrs, fmt.Sprintf("valueExpression '%v' resulted in unsupported return type: %v. "+
				"Return type must be either string or null.", an.expr, r.val.Type()))
		}
	}
	return decisions, auditErrs, false
}

// MaxMessageExpressionBytes bounds an evaluated messageExpression.
const MaxMessageExpressionBytes = 5 * 1024

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// params collects a binding's parameters, as kube's CollectParams: none
// needed (one nil parameter), one by name, or those a selector picks;
// parameterNotFoundAction Deny refuses the request when there are none.
func (p *Policy) params(ctx context.Context, h Host, b *Binding, namespace string) ([]map[string]any, error) {
	if p.paramKind == nil || b.paramRef == nil {
		return []map[string]any{nil}, nil
	}
	pk, pr := p.paramKind, b.paramRef
	r, ok := h.ResourceForKind(pk.apiVersion, pk.kind)
	if !ok {
		return nil, fmt.Errorf("paramKind kind `%v` not known", paramKindString(pk))
	}
	ns := ""
	if r.Namespaced {
		ns = namespace
		if pr.namespace != "" {
			ns = pr.namespace
		} else if ns == "" {
			return nil, fmt.Errorf("cannot use namespaced paramRef in policy binding that matches cluster-scoped resources")
		}
	}
	var params []map[string]any
	switch {
	case pr.namespace != "" && !r.Namespaced:
		return nil, fmt.Errorf("paramRef.namespace must not be provided for a cluster-scoped `paramKind`")
	case pr.name != "":
		if pr.selector != nil {
			return nil, fmt.Errorf("paramRef.name and paramRef.selector are mutually exclusive")
		}
		obj, err := h.Get(ctx, r, ns, pr.name)
		if err != nil {
			return nil, err
		}
		if obj != nil {
			params = []map[string]any{obj}
		}
	case pr.selector != nil:
		if pr.selectorErr != nil {
			return nil, pr.selectorErr
		}
		list, err := h.List(ctx, r, ns, *pr.selector)
		if err != nil {
			return nil, err
		}
		params = list
	default:
		return nil, fmt.Errorf("one of name or selector must be provided")
	}
	if len(params) == 0 && pr.denyNotFound {
		return nil, errors.New("no params found for policy binding with `Deny` parameterNotFoundAction")
	}
	return params, nil
}

// paramKindString is kube's ParamKind String().
func paramKindString(pk *paramKind) string {
	return fmt.Sprintf("&ParamKind{APIVersion:%s,Kind:%s,}", pk.apiVersion, pk.kind)
}
