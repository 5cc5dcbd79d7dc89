package policy

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"

	"github.com/kapi-dev/kapi/meta"
)

// Policy is a compiled ValidatingAdmissionPolicy: its expressions
// compiled once per version of the object.
type Policy struct {
	Name        string
	uid         string
	resourceVer string
	failIgnore  bool // failurePolicy Ignore
	failPolicy  string
	paramKind   *paramKind
	match       *MatchResources
	matchErr    error
	conditions  []namedCompiled
	variables   []namedCompiled
	validations []validation
	audits      []auditAnnotation
	configErr   error
	spec        any
	// namespace: some expression reads namespaceObject (otherwise the
	// request's namespace is not read for it); request: some expression
	// reads request (otherwise it is not built).
	namespace, request bool
}

// SameSpec reports whether obj, a version of the policy, has the spec it
// was compiled from (a status write leaves the compiled policy as it is).
func (p *Policy) SameSpec(obj map[string]any) bool {
	md, _ := obj["metadata"].(map[string]any)
	return str(md, "uid") == p.uid && meta.EqualValues(obj["spec"], p.spec)
}

type paramKind struct{ apiVersion, kind string }

type namedCompiled struct {
	name string
	compiled
}

type validation struct {
	compiled
	message string
	msgExpr *compiled
	reason  string
}

type auditAnnotation struct {
	key string
	compiled
}

// Binding is a ValidatingAdmissionPolicyBinding.
type Binding struct {
	Name        string
	PolicyName  string
	actions     []string
	paramRef    *paramRef
	match       *MatchResources
	matchErr    error
	resourceVer string
}

type paramRef struct {
	name, namespace string
	selector        *LabelSelector
	selectorErr     error
	denyNotFound    bool
}

// CompilePolicy compiles a ValidatingAdmissionPolicy object. Expressions
// that do not compile are kept with their error, which a request they
// apply to reports, as kube does for policies written before an upgrade.
func CompilePolicy(obj map[string]any) *Policy {
	md, _ := obj["metadata"].(map[string]any)
	spec, _ := obj["spec"].(map[string]any)
	p := &Policy{Name: str(md, "name"), uid: str(md, "uid"), resourceVer: str(md, "resourceVersion"), spec: obj["spec"]}
	p.failPolicy = str(spec, "failurePolicy")
	if p.failPolicy == "" {
		p.failPolicy = "Fail"
	}
	p.failIgnore = p.failPolicy == "Ignore"
	if pk, ok := spec["paramKind"].(map[string]any); ok {
		p.paramKind = &paramKind{apiVersion: str(pk, "apiVersion"), kind: str(pk, "kind")}
	}
	p.match, p.matchErr = ParseMatchResources(spec["matchConstraints"])
	env, err := admissionEnv(p.paramKind != nil)
	if err != nil {
		p.configErr = err
		return p
	}
	// Variables compile in order, each seeing the ones before it.
	var fields []variableField
	venv, err := variablesEnv(env, nil)
	if err != nil {
		p.configErr = err
		return p
	}
	for _, v := range meta.AsMaps(spec["variables"]) {
		c := compileExpr(venv, str(v, "expression"))
		p.variables = append(p.variables, namedCompiled{name: str(v, "name"), compiled: c})
		fields = append(fields, variableField{name: str(v, "name"), t: declaredType(c.out)})
		if venv, err = variablesEnv(env, fields); err != nil {
			p.configErr = err
			return p
		}
	}
	for _, mc := range meta.AsMaps(spec["matchConditions"]) {
		p.conditions = append(p.conditions, namedCompiled{name: str(mc, "name"), compiled: compileExpr(venv, str(mc, "expression"), cel.BoolType)})
	}
	for _, v := range meta.AsMaps(spec["validations"]) {
		val := validation{compiled: compileExpr(venv, str(v, "expression"), cel.BoolType), message: str(v, "message"),
			reason: str(v, "reason")}
		if me := str(v, "messageExpression"); me != "" {
			c := compileExpr(venv, me, cel.StringType)
			val.msgExpr = &c
		}
		p.validations = append(p.validations, val)
	}
	for _, a := range meta.AsMaps(spec["auditAnnotations"]) {
		p.audits = append(p.audits, auditAnnotation{key: str(a, "key"),
			compiled: compileExpr(venv, str(a, "valueExpression"), cel.StringType, cel.NullType)})
	}
	p.each(func(c *compiled) {
		p.namespace = p.namespace || c.namespace || c.err != ""
		p.request = p.request || c.request || c.err != ""
	})
	return p
}

// each visits every compiled expression of the policy.
func (p *Policy) each(fn func(*compiled)) {
	for i := range p.variables {
		fn(&p.variables[i].compiled)
	}
	for i := range p.conditions {
		fn(&p.conditions[i].compiled)
	}
	for i := range p.validations {
		fn(&p.validations[i].compiled)
		if p.validations[i].msgExpr != nil {
			fn(p.validations[i].msgExpr)
		}
	}
	for i := range p.audits {
		fn(&p.audits[i].compiled)
	}
}

// declaredType is how a variable's type is declared to later
// expressions: scalars as themselves, lists and maps of them, anything
// else dyn (kube's conversion of a CEL type to a declared type).
func declaredType(t *cel.Type) *cel.Type {
	if t == nil {
		return cel.DynType
	}
	switch t.Kind() {
	case types.BoolKind, types.BytesKind, types.DoubleKind, types.DurationKind, types.IntKind, types.NullTypeKind,
		types.StringKind, types.TimestampKind, types.UintKind, types.AnyKind, types.DynKind:
		return t
	case types.ListKind:
		return cel.ListType(declaredType(t.Parameters()[0]))
	case types.MapKind:
		return cel.MapType(declaredType(t.Parameters()[0]), declaredType(t.Parameters()[1]))
	}
	return cel.DynType
}

// CompileBinding reads a ValidatingAdmissionPolicyBinding object.
func CompileBinding(obj map[string]any) *Binding {
	md, _ := obj["metadata"].(map[string]any)
	spec, _ := obj["spec"].(map[string]any)
	b := &Binding{Name: str(md, "name"), PolicyName: str(spec, "policyName"), actions: meta.AsStrings(spec["validationActions"]),
		resourceVer: str(md, "resourceVersion")}
	b.match, b.matchErr = ParseMatchResources(spec["matchResources"])
	if pr, ok := spec["paramRef"].(map[string]any); ok {
		b.paramRef = &paramRef{name: str(pr, "name"), namespace: str(pr, "namespace"),
			denyNotFound: str(pr, "parameterNotFoundAction") == "Deny"}
		if sel, ok := pr["selector"]; ok && sel != nil {
			s, err := ParseLabelSelector(sel)
			b.paramRef.selector, b.paramRef.selectorErr = &s, err
		}
	}
	return b
}

// Set is the policies and bindings in force, each compiled once; it is
// immutable (a new Set replaces it when they change) and safe for
// concurrent use.
type Set struct {
	policies []*policyHook
}

type policyHook struct {
	policy   *Policy
	bindings []*Binding
}

// NewSet pairs policies with their bindings, in name order (kube's
// informers list them so).
func NewSet(policies []*Policy, bindings []*Binding) *Set {
	byName := map[string]*policyHook{}
	s := &Set{}
	sorted := slices.Clone(policies)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	for _, p := range sorted {
		h := &policyHook{policy: p}
		byName[p.Name] = h
		s.policies = append(s.policies, h)
	}
	bs := slices.Clone(bindings)
	sort.Slice(bs, func(i, j int) bool { return bs[i].Name < bs[j].Name })
	for _, b := range bs {
		if h := byName[b.PolicyName]; h != nil {
			h.bindings = append(h.bindings, b)
		}
	}
	kept := s.policies[:0]
	for _, h := range s.policies {
		if len(h.bindings) > 0 {
			kept = append(kept, h)
		}
	}
	s.policies = kept
	return s
}

// Empty reports whether no policy is bound.
func (s *Set) Empty() bool { return s == nil || len(s.policies) == 0 }

// Outcome is what the policies decided about one request.
type Outcome struct {
	// Denied is kube's error when a Deny binding failed (a *meta.Status).
	Denied error
	// Warnings are the Warn bindings' failures, as Warning headers.
	Warnings []string
	// AuditAnnotations are the Audit failures and the policies' audit
	// annotations (kube writes them to the audit log).
	AuditAnnotations map[string]string
}

type denial struct {
	policy, binding string
	message, reason string
}

// Validate applies every bound policy to a request, as kube's
// ValidatingAdmissionPolicy plugin: policy and binding matching, params,
// matchConditions, validations with their actions, audit annotations;
// failurePolicy decides what a configuration or evaluation error does.
// The first denial is the answer.
func (s *Set) Validate(ctx context.Context, h Host, a *Attributes, gr meta.GroupResource) Outcome {
	var out Outcome
	if s.Empty() || Exempt(a) {
		return out
	}
	var denials []denial
	ns := &NamespaceCache{Host: h}
	configError := func(p *Policy, b *Binding, err error) {
		switch p.failPolicy {
		case "Ignore":
			return
		case "Fail":
			msg := "failed to configure policy: " + err.Error()
			bn := ""
			if b != nil {
				msg, bn = "failed to configure binding: "+err.Error(), b.Name
			}
			denials = append(denials, denial{policy: p.Name, binding: bn, message: msg})
		default:
			bn := ""
			if b != nil {
				bn = b.Name
			}
			denials = append(denials, denial{policy: p.Name, binding: bn, message: fmt.Sprintf("unrecognized failure policy: '%v'", p.failPolicy)})
		}
	}
	for _, hook := range s.policies {
		p := hook.policy
		if p.match == nil {
			if p.matchErr != nil {
				configError(p, nil, p.matchErr)
			} else {
				configError(p, nil, fmt.Errorf("policy contained no match constraints, a required field"))
			}
			continue
		}
		ok, m, err := p.match.Matches(ctx, h, a, ns)
		if err != nil {
			configError(p, nil, err)
			continue
		}
		if !ok {
			continue
		}
		if p.configErr != nil {
			configError(p, nil, p.configErr)
			continue
		}
		audits := map[string][]string{}
		for _, b := range hook.bindings {
			if b.match != nil {
				ok, _, err := b.match.Matches(ctx, h, a, ns)
				if err != nil {
					configError(p, b, err)
					continue
				}
				if !ok {
					continue
				}
			} else if b.matchErr != nil {
				configError(p, b, b.matchErr)
				continue
			}
			params, err := p.params(ctx, h, b, a.Namespace)
			if err != nil {
				configError(p, b, err)
				continue
			}
			var namespace map[string]any
			nsName := a.Namespace
			if a.Kind.Group == "" && a.Kind.Version == "v1" && a.Kind.Kind == "Namespace" {
				nsName = ""
			}
			if nsName != "" && p.namespace {
				if namespace, err = ns.Get(ctx, nsName); err != nil {
					out.Denied = meta.Internal(err)
					return out
				}
			}
			object, oldObject := a.Object, a.OldObject
			if m.Kind != a.Kind && (object != nil || oldObject != nil) {
				apiVersion := m.Kind.Version
				if m.Kind.Group != "" {
					apiVersion = m.Kind.Group + "/" + m.Kind.Version
				}
				if object != nil {
					if object, err = h.Convert(ctx, object, apiVersion); err != nil {
						configError(p, b, fmt.Errorf("failed to convert object version: %w", err))
						continue
					}
				}
				if oldObject != nil {
					if oldObject, err = h.Convert(ctx, oldObject, apiVersion); err != nil {
						configError(p, b, fmt.Errorf("failed to convert object version: %w", err))
						continue
					}
				}
			}
			for _, param := range params {
				decisions, auditErrs := p.evaluate(ctx, a, m, object, oldObject, param, namespace, audits)
				for _, d := range decisions {
					if d.errored {
						// An evaluation error under failurePolicy Fail
						// denies whatever the binding's actions.
						denials = append(denials, denial{policy: p.Name, binding: b.Name, message: d.message})
						continue
					}
					for _, action := range b.actions {
						switch action {
						case "Deny":
							denials = append(denials, denial{policy: p.Name, binding: b.Name, message: d.message, reason: d.reason})
						case "Warn":
							out.Warnings = append(out.Warnings, fmt.Sprintf("Validation failed for ValidatingAdmissionPolicy '%s' with binding '%s': %s", p.Name, b.Name, d.message))
						case "Audit":
							if out.AuditAnnotations == nil {
								out.AuditAnnotations = map[string]string{}
							}
							// kube's audit event keeps the first failure:
							// its admission annotations are not overridden.
							const key = "validation.policy.admission.k8s.io/validation_failure"
							if _, ok := out.AuditAnnotations[key]; !ok {
								v, _ := json.Marshal([]validationFailure{{Message: d.message, Policy: p.Name, Binding: b.Name,
									ExpressionIndex: d.index, ValidationActions: b.actions}})
								out.AuditAnnotations[key] = string(v)
							}
						}
					}
				}
				for _, msg := range auditErrs {
					denials = append(denials, denial{policy: p.Name, binding: b.Name, message: msg})
				}
			}
		}
		for key, values := range audits {
			if out.AuditAnnotations == nil {
				out.AuditAnnotations = map[string]string{}
			}
			out.AuditAnnotations[p.Name+"/"+key] = strings.Join(values, ", ")
		}
	}
	if len(denials) > 0 {
		d := denials[0]
		msg := fmt.Sprintf("ValidatingAdmissionPolicy '%s' denied request: %s", d.policy, d.message)
		if d.binding != "" {
			msg = fmt.Sprintf("ValidatingAdmissionPolicy '%s' with binding '%s' denied request: %s", d.policy, d.binding, d.message)
		}
		name := deniedName(a)
		st := meta.Forbidden(gr, name, msg)
		reason := d.reason
		if reason == "" {
			reason = "Invalid"
		}
		st.Reason = meta.Reason(reason)
		st.Code = int32(reasonCode(reason))
		if st.Details == nil {
			st.Details = &meta.StatusDetails{Name: name, Kind: gr.Resource, Group: gr.Group}
		}
		st.Details.Causes = append(st.Details.Causes, meta.StatusCause{Message: msg})
		out.Denied = st
	}
	return out
}

// validationFailure is the value of kube's validation_failure audit
// annotation, its fields in kube's order.
type validationFailure struct {
	Message           string   `json:"message"`
	Policy            string   `json:"policy"`
	Binding           string   `json:"binding"`
	ExpressionIndex   int      `json:"expressionIndex"`
	ValidationActions []string `json:"validationActions"`
}

// deniedName is the name a denial names, as kube's admission errors find
// it: the request's, else the object's name or generateName, else
// "Unknown" (the deletes of a deletecollection name none).
func deniedName(a *Attributes) string {
	if a.Name != "" {
		return a.Name
	}
	md, _ := a.Object["metadata"].(map[string]any)
	if n, _ := md["name"].(string); n != "" {
		return n
	}
	if n, _ := md["generateName"].(string); n != "" {
		return n
	}
	return "Unknown"
}

// reasonCode is kube's status code of a validation's reason.
func reasonCode(reason string) int {
	switch reason {
	case "Forbidden":
		return 403
	case "Unauthorized":
		return 401
	case "RequestEntityTooLarge":
		return 413
	case "Invalid":
		return 422
	}
	return 500
}
