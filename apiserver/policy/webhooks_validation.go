package policy

import (
	"fmt"
	"net/url"
	"reflect"
	"strings"

	"github.com/google/cel-go/cel"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/selectors"
)

// What kube-apiserver's validation refuses (422 causes) in the webhooks of
// admissionregistration.k8s.io/v1 Mutating- and
// ValidatingWebhookConfigurations, in kube's order (each webhook's fields,
// then its admissionReviewVersions, then its name's uniqueness). The
// strategies of these kinds call ValidateWebhooks.

// admissionReviewVersions kapi (and kube 1.33) can send, in kube's order.
var admissionReviewVersions = []string{"v1", "v1beta1"}

// webhookOptions are the checks an update relaxes when the stored
// configuration already broke them (objects written by older servers).
type webhookOptions struct {
	skipMatchConditions bool // the update leaves every webhook's matchConditions as they were
	anySideEffects      bool // a stored webhook has sideEffects other than None/NoneOnDryRun
	anyReviewVersions   bool // a stored webhook names no version kube accepts
	duplicateNames      bool // the stored webhooks repeat a name
	anyLabelValues      bool // a stored selector holds an invalid label value
}

// ValidateWebhooks checks the webhooks of a webhook configuration (mutating
// adds reinvocationPolicy). On update, old is the stored configuration:
// each check it already failed is relaxed as kube relaxes it, and
// unchanged matchConditions are not compiled again; on create old is nil.
func ValidateWebhooks(obj, old map[string]any, mutating bool) meta.FieldErrors {
	var opts webhookOptions
	if old != nil {
		opts = relaxedWebhookOptions(meta.AsMaps(obj["webhooks"]), meta.AsMaps(old["webhooks"]))
	}
	var e errs
	names := map[string]bool{}
	for i, w := range meta.AsMaps(obj["webhooks"]) {
		at := fmt.Sprintf("webhooks[%d]", i)
		validateWebhook(&e, w, at, mutating, opts)
		validateReviewVersions(&e, w["admissionReviewVersions"], at+".admissionReviewVersions", !opts.anyReviewVersions)
		if name := str(w, "name"); name != "" && !opts.duplicateNames {
			if names[name] {
				e.add(meta.ErrorDuplicate, at+".name", name, "")
			}
			names[name] = true
		}
	}
	return e.list
}

// relaxedWebhookOptions is what kube lets an update keep of what the
// stored webhooks already had.
func relaxedWebhookOptions(hooks, oldHooks []map[string]any) webhookOptions {
	opts := webhookOptions{skipMatchConditions: len(hooks) == len(oldHooks)}
	for i := range oldHooks {
		if opts.skipMatchConditions && !reflect.DeepEqual(hooks[i]["matchConditions"], oldHooks[i]["matchConditions"]) {
			opts.skipMatchConditions = false
		}
	}
	names := map[string]bool{}
	for _, w := range oldHooks {
		switch str(w, "sideEffects") {
		case "None", "NoneOnDryRun":
		default:
			opts.anySideEffects = true
		}
		if versions := meta.AsStrings(w["admissionReviewVersions"]); len(versions) > 0 && !knownReviewVersion(versions) {
			opts.anyReviewVersions = true
		}
		if names[str(w, "name")] {
			opts.duplicateNames = true
		}
		names[str(w, "name")] = true
		for _, sel := range []string{"namespaceSelector", "objectSelector"} {
			if v, ok := w[sel]; ok && v != nil {
				var check errs
				validateLabelSelectorValues(&check, v, sel, true)
				opts.anyLabelValues = opts.anyLabelValues || len(check.list) > 0
			}
		}
	}
	return opts
}

func knownReviewVersion(versions []string) bool {
	for _, v := range versions {
		if contains(admissionReviewVersions, v) {
			return true
		}
	}
	return false
}

func validateWebhook(e *errs, w map[string]any, at string, mutating bool, opts webhookOptions) {
	validateFullyQualifiedName(e, str(w, "name"), at+".name")
	for i, r := range meta.AsMaps(w["rules"]) {
		validateWebhookRule(e, r, fmt.Sprintf("%s.rules[%d]", at, i))
	}
	if fp, ok := w["failurePolicy"].(string); ok && fp != "Fail" && fp != "Ignore" {
		e.add(meta.ErrorNotSupported, at+".failurePolicy", fp, `supported values: "Fail", "Ignore"`)
	}
	if mp, ok := w["matchPolicy"].(string); ok && mp != "Exact" && mp != "Equivalent" {
		e.add(meta.ErrorNotSupported, at+".matchPolicy", mp, `supported values: "Equivalent", "Exact"`)
	}
	allowed, listed := []string{"None", "NoneOnDryRun"}, `"None", "NoneOnDryRun"`
	if opts.anySideEffects {
		allowed, listed = []string{"None", "NoneOnDryRun", "Some", "Unknown"}, `"None", "NoneOnDryRun", "Some", "Unknown"`
	}
	if se, ok := w["sideEffects"].(string); !ok {
		e.add(meta.ErrorRequired, at+".sideEffects", nil, "must specify one of "+strings.Join(allowed, ", "))
	} else if !contains(allowed, se) {
		e.add(meta.ErrorNotSupported, at+".sideEffects", se, "supported values: "+listed)
	}
	if t, ok := meta.AsInt64(w["timeoutSeconds"]); ok && (t < 1 || t > 30) {
		e.add(meta.ErrorInvalid, at+".timeoutSeconds", t, "the timeout value must be between 1 and 30 seconds")
	}
	for _, sel := range []string{"namespaceSelector", "objectSelector"} {
		if v, ok := w[sel]; ok && v != nil {
			validateLabelSelectorValues(e, v, at+"."+sel, !opts.anyLabelValues)
		}
	}
	if mutating {
		if rp, ok := w["reinvocationPolicy"].(string); ok && rp != "Never" && rp != "IfNeeded" {
			e.add(meta.ErrorNotSupported, at+".reinvocationPolicy", rp, `supported values: "IfNeeded", "Never"`)
		}
	}
	cc, _ := w["clientConfig"].(map[string]any)
	u, hasURL := cc["url"].(string)
	svc, hasService := cc["service"].(map[string]any)
	switch {
	case hasURL == hasService:
		e.add(meta.ErrorRequired, at+".clientConfig", nil, "exactly one of url or service is required")
	case hasURL:
		validateWebhookURL(e, u, at+".clientConfig.url")
	default:
		validateWebhookService(e, svc, at+".clientConfig.service")
	}
	if !opts.skipMatchConditions {
		validateMatchConditions(e, w["matchConditions"], at+".matchConditions", compileWebhookCondition)
	}
}

// compileWebhookCondition compiles a webhook's match condition in the
// environment the webhook runs it in: no params.
func compileWebhookCondition(expr string) compiled {
	env, err := admissionEnv(false)
	if err != nil {
		return compiled{expr: expr, err: err.Error()}
	}
	return compileExpr(env, expr, cel.BoolType)
}

// validateFullyQualifiedName: a DNS subdomain of at least three segments.
func validateFullyQualifiedName(e *errs, name, at string) {
	switch {
	case name == "":
		e.add(meta.ErrorRequired, at, nil, "")
	case len(schema.DNS1123Subdomain(name)) > 0:
		e.add(meta.ErrorInvalid, at, name, strings.Join(schema.DNS1123Subdomain(name), ","))
	case strings.Count(name, ".") < 2:
		e.add(meta.ErrorInvalid, at, name, "should be a domain with at least three segments separated by dots")
	}
}

// validateWebhookURL: an https URL with a host and no user information,
// query or fragment.
func validateWebhookURL(e *errs, raw, at string) {
	const form = "; desired format: https://host[/path]"
	u, err := url.Parse(raw)
	if err != nil {
		e.add(meta.ErrorRequired, at, nil, "url must be a valid URL: "+err.Error()+form)
		return
	}
	if u.Scheme != "https" {
		e.add(meta.ErrorInvalid, at, u.Scheme, "'https' is the only allowed URL scheme"+form)
	}
	if u.Host == "" {
		e.add(meta.ErrorInvalid, at, u.Host, "host must be specified"+form)
	}
	if u.User != nil {
		e.add(meta.ErrorInvalid, at, u.User.String(), "user information is not permitted in the URL")
	}
	if u.Fragment != "" {
		e.add(meta.ErrorInvalid, at, u.Fragment, "fragments are not permitted in the URL")
	}
	if u.RawQuery != "" {
		e.add(meta.ErrorInvalid, at, u.RawQuery, "query parameters are not permitted in the URL")
	}
}

// validateWebhookService checks a service reference. kube names the
// fields the other way round (a missing namespace is reported on name, a
// missing name on namespace); kapi reports as kube does.
func validateWebhookService(e *errs, svc map[string]any, at string) {
	if str(svc, "namespace") == "" {
		e.add(meta.ErrorRequired, at+".name", nil, "service name is required")
	}
	if str(svc, "name") == "" {
		e.add(meta.ErrorRequired, at+".namespace", nil, "service namespace is required")
	}
	port, ok := meta.AsInt64(svc["port"])
	if !ok {
		port = 0
		if svc["port"] == nil {
			port = 443
		}
	}
	if port < 1 || port > 65535 {
		e.add(meta.ErrorInvalid, at+".port", port, "port is not valid: must be between 1 and 65535, inclusive")
	}
	path, ok := svc["path"].(string)
	if !ok || path == "" || path == "/" {
		return
	}
	if path == "//" {
		e.add(meta.ErrorInvalid, at+".path", path, "segment[0] may not be empty")
		return
	}
	if !strings.HasPrefix(path, "/") {
		e.add(meta.ErrorInvalid, at+".path", path, "must start with a '/'")
	}
	segments := strings.Split(strings.TrimSuffix(path[1:], "/"), "/")
	for i, s := range segments {
		if s == "" {
			e.add(meta.ErrorInvalid, at+".path", path, fmt.Sprintf("segment[%d] may not be empty", i))
			continue
		}
		for _, m := range schema.DNS1123Subdomain(s) {
			e.add(meta.ErrorInvalid, at+".path", path, fmt.Sprintf("segment[%d]: %s", i, m))
		}
	}
}

// validateReviewVersions: at least one version, none repeated, each a
// DNS-1035 label, and (unless the stored webhooks already lacked one) one
// that kube knows.
func validateReviewVersions(e *errs, v any, at string, requireKnown bool) {
	versions := meta.AsStrings(v)
	if len(versions) == 0 {
		e.add(meta.ErrorRequired, at, nil, "must specify one of "+strings.Join(admissionReviewVersions, ", "))
		return
	}
	seen := map[string]bool{}
	for i, ver := range versions {
		vat := fmt.Sprintf("%s[%d]", at, i)
		if seen[ver] {
			e.add(meta.ErrorInvalid, vat, ver, "duplicate version")
			continue
		}
		seen[ver] = true
		for _, m := range schema.DNS1035Label(ver) {
			e.add(meta.ErrorInvalid, vat, ver, m)
		}
	}
	if requireKnown && !knownReviewVersion(versions) {
		e.add(meta.ErrorInvalid, at, versions, "must include at least one of "+strings.Join(admissionReviewVersions, ", "))
	}
}

// validateWebhookRule checks one rule: operations, then the group,
// version and resource lists (subresources allowed), then the scope.
func validateWebhookRule(e *errs, r map[string]any, at string) {
	validateOperations(e, meta.AsStrings(r["operations"]), at)
	groups := meta.AsStrings(r["apiGroups"])
	if len(groups) == 0 {
		e.add(meta.ErrorRequired, at+".apiGroups", nil, "")
	}
	if len(groups) > 1 && contains(groups, "*") {
		e.add(meta.ErrorInvalid, at+".apiGroups", groups, "if '*' is present, must not specify other API groups")
	}
	versions := meta.AsStrings(r["apiVersions"])
	if len(versions) == 0 {
		e.add(meta.ErrorRequired, at+".apiVersions", nil, "")
	}
	if len(versions) > 1 && contains(versions, "*") {
		e.add(meta.ErrorInvalid, at+".apiVersions", versions, "if '*' is present, must not specify other API versions")
	}
	for i, v := range versions {
		if v == "" {
			e.add(meta.ErrorRequired, fmt.Sprintf("%s.apiVersions[%d]", at, i), nil, "")
		}
	}
	validateRuleResources(e, meta.AsStrings(r["resources"]), at+".resources")
	if s, ok := r["scope"].(string); ok {
		switch s {
		case "*", "Cluster", "Namespaced":
		default:
			e.add(meta.ErrorNotSupported, at+".scope", s, `supported values: "*", "Cluster", "Namespaced"`)
		}
	}
}

// validateRuleResources checks resources and their subresources: a
// wildcard covers what it names, so naming it again is refused.
func validateRuleResources(e *errs, resources []string, at string) {
	if len(resources) == 0 {
		e.add(meta.ErrorRequired, at, nil, "")
	}
	wildSub := map[string]bool{} // "x/*"
	wildRes := map[string]bool{} // "*/x"
	double, single, plain := false, false, false
	for i, rs := range resources {
		iat := fmt.Sprintf("%s[%d]", at, i)
		if rs == "" {
			e.add(meta.ErrorRequired, iat, nil, "")
			continue
		}
		double = double || rs == "*/*"
		single = single || rs == "*"
		res, sub, found := strings.Cut(rs, "/")
		if !found {
			plain = rs != "*"
			continue
		}
		if wildSub[res] {
			e.add(meta.ErrorInvalid, iat, rs, fmt.Sprintf("if '%s/*' is present, must not specify %s", res, rs))
		}
		if wildRes[sub] {
			e.add(meta.ErrorInvalid, iat, rs, fmt.Sprintf("if '*/%s' is present, must not specify %s", sub, rs))
		}
		if sub == "*" {
			wildSub[res] = true
		}
		if res == "*" {
			wildRes[sub] = true
		}
	}
	if len(resources) > 1 && double {
		e.add(meta.ErrorInvalid, at, resources, "if '*/*' is present, must not specify other resources")
	}
	if single && plain {
		e.add(meta.ErrorInvalid, at, resources, "if '*' is present, must not specify other resources without subresources")
	}
}

// validateLabelSelectorValues is validateLabelSelector, the values of
// matchExpressions checked as label values unless an update keeps
// selectors that already held invalid ones.
func validateLabelSelectorValues(e *errs, v any, at string, checkValues bool) {
	m, _ := v.(map[string]any)
	for k, val := range asMapAny(m["matchLabels"]) {
		for _, msg := range selectors.QualifiedNameErrors(k) {
			e.add(meta.ErrorInvalid, at+".matchLabels", k, msg)
		}
		s, _ := val.(string)
		for _, msg := range selectors.LabelValueErrors(s) {
			e.add(meta.ErrorInvalid, at+".matchLabels", s, msg)
		}
	}
	for i, x := range meta.AsMaps(m["matchExpressions"]) {
		xat := fmt.Sprintf("%s.matchExpressions[%d]", at, i)
		vals := meta.AsStrings(x["values"])
		switch op := str(x, "operator"); op {
		case "In", "NotIn":
			if len(vals) == 0 {
				e.add(meta.ErrorRequired, xat+".values", nil, "must be specified when `operator` is 'In' or 'NotIn'")
			}
		case "Exists", "DoesNotExist":
			if len(vals) > 0 {
				e.add(meta.ErrorForbidden, xat+".values", nil, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")
			}
		default:
			e.add(meta.ErrorInvalid, xat+".operator", op, "not a valid selector operator")
		}
		for _, msg := range selectors.QualifiedNameErrors(str(x, "key")) {
			e.add(meta.ErrorInvalid, xat+".key", str(x, "key"), msg)
		}
		if !checkValues {
			continue
		}
		for j, val := range vals {
			for _, msg := range selectors.LabelValueErrors(val) {
				e.add(meta.ErrorInvalid, fmt.Sprintf("%s.values[%d]", xat, j), val, msg)
			}
		}
	}
}
