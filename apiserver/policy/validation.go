package policy

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/google/cel-go/cel"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/selectors"
)

// What kube-apiserver's validation of admissionregistration.k8s.io/v1
// objects refuses (422 causes) in the specs of ValidatingAdmissionPolicies
// and their bindings, in kube's order: its CEL expressions compiled in the
// environment a request would run them in. The strategies of these kinds
// call ValidatePolicy and ValidateBinding.

type errs struct{ list meta.FieldErrors }

func (e *errs) add(t meta.ErrorType, field string, value any, detail string) {
	e.list = append(e.list, meta.FieldError{Type: t, Field: field, Value: value, Detail: detail})
}

var newlines = regexp.MustCompile(`[\n\r]+`)

// ValidatePolicy checks a ValidatingAdmissionPolicy's spec.
func ValidatePolicy(obj map[string]any) meta.FieldErrors {
	var e errs
	md, _ := obj["metadata"].(map[string]any)
	spec, _ := obj["spec"].(map[string]any)
	name := str(md, "name")
	switch fp := str(spec, "failurePolicy"); fp {
	case "Fail", "Ignore":
	case "":
		e.add(meta.ErrorRequired, "spec.failurePolicy", nil, "")
	default:
		e.add(meta.ErrorNotSupported, "spec.failurePolicy", fp, `supported values: "Fail", "Ignore"`)
	}
	pk, hasParams := spec["paramKind"].(map[string]any)
	if hasParams {
		validateParamKind(&e, pk)
	}
	if mc, ok := spec["matchConstraints"].(map[string]any); !ok {
		e.add(meta.ErrorRequired, "spec.matchConstraints", nil, "")
	} else {
		validateMatchResources(&e, mc, "spec.matchConstraints")
		if len(meta.AsList(mc["resourceRules"])) == 0 {
			e.add(meta.ErrorRequired, "spec.matchConstraints.resourceRules", nil, "")
		}
	}
	env, err := admissionEnv(hasParams)
	if err != nil {
		e.add(meta.ErrorInternal, "spec", nil, err.Error())
		return e.list
	}
	venv, _ := variablesEnv(env, nil)
	conditionsEnv := venv
	validateMatchConditions(&e, spec["matchConditions"], "spec.matchConditions", func(expr string) compiled {
		return compileExpr(conditionsEnv, expr, cel.BoolType)
	})
	var fields []variableField
	for i, v := range meta.AsMaps(spec["variables"]) {
		at := fmt.Sprintf("spec.variables[%d]", i)
		vname, expr := str(v, "name"), str(v, "expression")
		if strings.TrimSpace(vname) == "" {
			e.add(meta.ErrorRequired, at+".name", nil, "name is not specified")
		} else if !isCELIdentifier(vname) {
			e.add(meta.ErrorInvalid, at+".name", vname, "name is not a valid CEL identifier")
		}
		if strings.TrimSpace(expr) == "" {
			e.add(meta.ErrorRequired, at+".expression", nil, "expression is not specified")
			continue
		}
		c := compileExpr(venv, expr)
		if c.err != "" {
			e.add(meta.ErrorInvalid, at+".expression", expr, c.err)
		}
		fields = append(fields, variableField{name: vname, t: declaredType(c.out)})
		venv, _ = variablesEnv(env, fields)
	}
	validations, audits := meta.AsMaps(spec["validations"]), meta.AsMaps(spec["auditAnnotations"])
	if len(validations) == 0 && len(audits) == 0 {
		e.add(meta.ErrorRequired, "spec.validations", nil, "validations or auditAnnotations must contain at least one item")
		e.add(meta.ErrorRequired, "spec.auditAnnotations", nil, "validations or auditAnnotations must contain at least one item")
		return e.list
	}
	for i, v := range validations {
		at := fmt.Sprintf("spec.validations[%d]", i)
		expr, msg, msgExpr := str(v, "expression"), str(v, "message"), str(v, "messageExpression")
		if strings.TrimSpace(expr) == "" {
			e.add(meta.ErrorRequired, at+".expression", nil, "expression is not specified")
		} else if c := compileExpr(venv, expr, cel.BoolType); c.err != "" {
			e.add(meta.ErrorInvalid, at+".expression", expr, c.err)
		}
		if msgExpr != "" && strings.TrimSpace(msgExpr) == "" {
			e.add(meta.ErrorInvalid, at+".messageExpression", msgExpr, "must be non-empty if specified")
		} else if strings.TrimSpace(msgExpr) != "" {
			if c := compileExpr(venv, msgExpr, cel.StringType); c.err != "" {
				e.add(meta.ErrorInvalid, at+".messageExpression", msgExpr, c.err)
			}
		}
		if msg != "" && strings.TrimSpace(msg) == "" {
			e.add(meta.ErrorInvalid, at+".message", msg, "message must be non-empty if specified")
		} else if newlines.MatchString(strings.TrimSpace(msg)) {
			e.add(meta.ErrorInvalid, at+".message", msg, "message must not contain line breaks")
		}
		if r, ok := v["reason"].(string); ok {
			switch r {
			case "Unauthorized", "Forbidden", "Invalid", "RequestEntityTooLarge":
			default:
				e.add(meta.ErrorNotSupported, at+".reason", r, `supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"`)
			}
		}
	}
	if len(audits) > 20 {
		e.add(meta.ErrorInvalid, "spec.auditAnnotations", audits, "must not have more than 20 auditAnnotations")
	}
	keys := map[string]bool{}
	for i, a := range audits {
		at := fmt.Sprintf("spec.auditAnnotations[%d]", i)
		key, expr := str(a, "key"), str(a, "valueExpression")
		if name != "" {
			for _, m := range selectors.QualifiedNameErrors(name + "/" + key) {
				e.add(meta.ErrorInvalid, at+".key", name+"/"+key, m)
			}
		} else {
			e.add(meta.ErrorInvalid, at+".key", key, "requires metadata.name be non-empty")
		}
		switch trimmed := strings.TrimSpace(expr); {
		case trimmed == "":
			e.add(meta.ErrorRequired, at+".valueExpression", nil, "valueExpression is not specified")
		case len(trimmed) > 5*1024:
			e.add(meta.ErrorRequired, at+".valueExpression", nil, fmt.Sprintf("must not exceed %d bytes in length", 5*1024))
		default:
			if c := compileExpr(venv, trimmed, cel.StringType, cel.NullType); c.err != "" {
				e.add(meta.ErrorInvalid, at+".valueExpression", expr, c.err)
			}
		}
		if keys[key] {
			e.add(meta.ErrorDuplicate, at+".key", key, "")
		}
		keys[key] = true
	}
	return e.list
}

// ValidateBinding checks a ValidatingAdmissionPolicyBinding's spec.
func ValidateBinding(obj map[string]any) meta.FieldErrors {
	var e errs
	spec, _ := obj["spec"].(map[string]any)
	if pn := str(spec, "policyName"); pn == "" {
		e.add(meta.ErrorRequired, "spec.policyName", nil, "")
	} else {
		for _, m := range schema.DNS1123Subdomain(pn) {
			e.add(meta.ErrorInvalid, "spec.policyName", pn, m)
		}
	}
	if pr, ok := spec["paramRef"].(map[string]any); ok {
		name, sel := str(pr, "name"), pr["selector"]
		if name != "" {
			for _, m := range schema.PathSegmentName(name, false) {
				e.add(meta.ErrorInvalid, "spec.paramRef.name", name, m)
			}
			if sel != nil {
				e.add(meta.ErrorForbidden, "spec.paramRef.name", nil, "name and selector are mutually exclusive")
			}
		}
		if sel != nil {
			validateLabelSelector(&e, sel, "spec.paramRef.selector")
			if name != "" {
				e.add(meta.ErrorForbidden, "spec.paramRef.selector", nil, "name and selector are mutually exclusive")
			}
		}
		if name == "" && sel == nil {
			e.add(meta.ErrorRequired, "spec.paramRef", nil, "one of name or selector must be specified")
		}
		switch a := str(pr, "parameterNotFoundAction"); a {
		case "Deny", "Allow":
		case "":
			e.add(meta.ErrorRequired, "spec.paramRef.parameterNotFoundAction", nil, "")
		default:
			e.add(meta.ErrorNotSupported, "spec.paramRef.parameterNotFoundAction", a, `supported values: "Deny", "Allow"`)
		}
	}
	if mr, ok := spec["matchResources"].(map[string]any); ok {
		validateMatchResources(&e, mr, "spec.matchResources")
	}
	actions := meta.AsStrings(spec["validationActions"])
	seen := map[string]bool{}
	for i, a := range actions {
		at := fmt.Sprintf("spec.validationActions[%d]", i)
		switch a {
		case "Deny", "Warn", "Audit":
		default:
			e.add(meta.ErrorNotSupported, at, a, `supported values: "Audit", "Deny", "Warn"`)
		}
		if seen[a] {
			e.add(meta.ErrorDuplicate, at, a, "")
		}
		seen[a] = true
	}
	if seen["Deny"] && seen["Warn"] {
		e.add(meta.ErrorInvalid, "spec.validationActions", goStrings(actions),
			"must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)")
	}
	if len(seen) == 0 {
		e.add(meta.ErrorRequired, "spec.validationActions", nil, "at least one validation action is required")
	}
	return e.list
}

// goStrings prints as kube prints a []ValidationAction value.
type goStrings []string

func (g goStrings) String() string {
	return "[]admissionregistration.ValidationAction{\"" + strings.Join(g, "\", \"") + "\"}"
}

func validateParamKind(e *errs, pk map[string]any) {
	av, kind := str(pk, "apiVersion"), str(pk, "kind")
	switch {
	case av == "":
		e.add(meta.ErrorRequired, "spec.paramKind.apiVersion", nil, "")
	case strings.Count(av, "/") > 1:
		e.add(meta.ErrorInvalid, "spec.paramKind.apiVersion", av, "unexpected GroupVersion string: "+av)
	default:
		group, version, found := strings.Cut(av, "/")
		if !found {
			group, version = "", av
		}
		if group != "" {
			if m := schema.DNS1123Subdomain(group); len(m) > 0 {
				e.add(meta.ErrorInvalid, "spec.paramKind.apiVersion", group, strings.Join(m, ","))
			}
		}
		if version == "" {
			e.add(meta.ErrorInvalid, "spec.paramKind.apiVersion", av, "version must be specified")
		} else if m := schema.DNS1035Label(version); len(m) > 0 {
			e.add(meta.ErrorInvalid, "spec.paramKind.apiVersion", version, strings.Join(m, ","))
		}
	}
	if kind == "" {
		e.add(meta.ErrorRequired, "spec.paramKind.kind", nil, "")
	} else if m := schema.DNS1035Label(strings.ToLower(kind)); len(m) > 0 {
		e.add(meta.ErrorInvalid, "spec.paramKind.kind", kind, "may have mixed case, but should otherwise match: "+strings.Join(m, ","))
	}
}

func validateMatchResources(e *errs, mr map[string]any, at string) {
	switch mp := str(mr, "matchPolicy"); mp {
	case "Exact", "Equivalent":
	case "":
		e.add(meta.ErrorRequired, at+".matchPolicy", nil, "")
	default:
		e.add(meta.ErrorNotSupported, at+".matchPolicy", mp, `supported values: "Equivalent", "Exact"`)
	}
	for _, sel := range []string{"namespaceSelector", "objectSelector"} {
		if v, ok := mr[sel]; !ok || v == nil {
			e.add(meta.ErrorRequired, at+"."+sel, nil, "")
		} else {
			validateLabelSelector(e, v, at+"."+sel)
		}
	}
	for _, list := range []string{"resourceRules", "excludeResourceRules"} {
		for i, r := range meta.AsMaps(mr[list]) {
			validateRule(e, r, fmt.Sprintf("%s.%s[%d]", at, list, i))
		}
	}
}

func validateRule(e *errs, r map[string]any, at string) {
	names := map[string]bool{}
	for i, n := range meta.AsStrings(r["resourceNames"]) {
		for _, m := range schema.PathSegmentName(n, false) {
			e.add(meta.ErrorInvalid, fmt.Sprintf("%s.resourceNames[%d]", at, i), n, m)
		}
		if names[n] {
			e.add(meta.ErrorDuplicate, fmt.Sprintf("%s.resourceNames[%d]", at, i), n, "")
		}
		names[n] = true
	}
	validateOperations(e, meta.AsStrings(r["operations"]), at)
	if len(meta.AsStrings(r["apiGroups"])) == 0 {
		e.add(meta.ErrorRequired, at+".apiGroups", nil, "")
	}
	if len(meta.AsStrings(r["apiVersions"])) == 0 {
		e.add(meta.ErrorRequired, at+".apiVersions", nil, "")
	}
	if len(meta.AsStrings(r["resources"])) == 0 {
		e.add(meta.ErrorRequired, at+".resources", nil, "")
	}
	if s, ok := r["scope"].(string); ok {
		switch s {
		case "*", "Cluster", "Namespaced":
		default:
			e.add(meta.ErrorNotSupported, at+".scope", s, `supported values: "*", "Cluster", "Namespaced"`)
		}
	}
}

type goOps []string

func (g goOps) String() string {
	return "[]admissionregistration.OperationType{\"" + strings.Join(g, "\", \"") + "\"}"
}

// validateLabelSelector checks a selector strictly (its values too).
func validateLabelSelector(e *errs, v any, at string) {
	validateLabelSelectorValues(e, v, at, true)
}

func asMapAny(v any) map[string]any { m, _ := v.(map[string]any); return m }

// validateMatchConditions checks matchConditions (at most 64, named,
// unique, boolean expressions).
func validateMatchConditions(e *errs, v any, at string, compile func(string) compiled) {
	conds := meta.AsMaps(v)
	if len(conds) > 64 {
		e.add(meta.ErrorTooMany, at, len(conds), "must have at most 64 items")
	}
	names := map[string]bool{}
	for i, c := range conds {
		cat := fmt.Sprintf("%s[%d]", at, i)
		expr, name := strings.TrimSpace(str(c, "expression")), str(c, "name")
		if expr == "" {
			e.add(meta.ErrorRequired, cat+".expression", nil, "")
		} else if cc := compile(expr); cc.err != "" {
			e.add(meta.ErrorInvalid, cat+".expression", expr, cc.err)
		}
		if name == "" {
			e.add(meta.ErrorRequired, cat+".name", nil, "")
		} else {
			for _, m := range selectors.QualifiedNameErrors(name) {
				e.add(meta.ErrorInvalid, cat+".name", name, m)
			}
		}
		if name != "" {
			if names[name] {
				e.add(meta.ErrorDuplicate, cat+".name", name, "")
			}
			names[name] = true
		}
	}
}

var celIdentifier = regexp.MustCompile(`^[_a-zA-Z][_a-zA-Z0-9]*$`)

// isCELIdentifier: a CEL identifier that is not a reserved word.
func isCELIdentifier(name string) bool {
	if !celIdentifier.MatchString(name) {
		return false
	}
	switch name {
	case "true", "false", "null", "in", "as", "break", "const", "continue", "else", "for", "function", "if",
		"import", "let", "loop", "package", "namespace", "return", "var", "void", "while":
		return false
	}
	return true
}

// validateOperations checks a rule's operations, as kube checks a policy's
// and a webhook's: required, '*' alone, each a known operation.
func validateOperations(e *errs, ops []string, at string) {
	if len(ops) == 0 {
		e.add(meta.ErrorRequired, at+".operations", nil, "")
	}
	if len(ops) > 1 && contains(ops, "*") {
		e.add(meta.ErrorInvalid, at+".operations", goOps(ops), "if '*' is present, must not specify other operations")
	}
	for i, op := range ops {
		switch op {
		case "*", "CREATE", "UPDATE", "DELETE", "CONNECT":
		default:
			e.add(meta.ErrorNotSupported, fmt.Sprintf("%s.operations[%d]", at, i), op, `supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"`)
		}
	}
}
