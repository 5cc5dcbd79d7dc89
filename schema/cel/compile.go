package cel

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// Rule is one entry of a schema node's x-kubernetes-validations.
type Rule struct {
	Rule              string
	Message           string
	MessageExpression string
	// Reason is FieldValueInvalid (the default), FieldValueForbidden,
	// FieldValueRequired or FieldValueDuplicate; nil when unset.
	Reason *string
	// FieldPath is where a failure is reported, relative to the node.
	FieldPath string
	// OptionalOldSelf lets a transition rule run on create too, with
	// oldSelf an optional.
	OptionalOldSelf *bool
}

// String renders the rule as kube's messages show its internal type.
func (r Rule) String() string {
	reason := "(*apiextensions.FieldValueErrorReason)(nil)"
	if r.Reason != nil {
		reason = fmt.Sprintf("(*apiextensions.FieldValueErrorReason)(%q)", *r.Reason)
	}
	oldSelf := "(*bool)(nil)"
	if r.OptionalOldSelf != nil {
		oldSelf = fmt.Sprintf("(*bool)(%v)", *r.OptionalOldSelf)
	}
	return fmt.Sprintf("apiextensions.ValidationRule{Rule:%q, Message:%q, MessageExpression:%q, Reason:%s, FieldPath:%q, OptionalOldSelf:%s}",
		r.Rule, r.Message, r.MessageExpression, reason, r.FieldPath, oldSelf)
}

// Rules reads a parsed schema node's x-kubernetes-validations.
func Rules(s *schema.Schema) []Rule {
	if s == nil {
		return nil
	}
	list, _ := s.Extensions["x-kubernetes-validations"].([]any)
	out := make([]Rule, 0, len(list))
	for _, e := range list {
		m, _ := e.(map[string]any)
		str := func(k string) string { v, _ := m[k].(string); return v }
		r := Rule{Rule: str("rule"), Message: str("message"), MessageExpression: str("messageExpression"),
			FieldPath: str("fieldPath")}
		if v, ok := m["reason"].(string); ok {
			r.Reason = &v
		}
		if v, ok := m["optionalOldSelf"].(bool); ok {
			r.OptionalOldSelf = &v
		}
		out = append(out, r)
	}
	return out
}

// HasRules reports whether s or any node below it has rules.
func HasRules(s *schema.Schema) bool { return hasRules(s, map[*schema.Schema]bool{}) }

func hasRules(s *schema.Schema, seen map[*schema.Schema]bool) bool {
	if s == nil || seen[s] {
		return false
	}
	seen[s] = true
	if len(Rules(s)) > 0 {
		return true
	}
	if hasRules(s.Items, seen) || hasRules(s.AdditionalPropertiesSchema(), seen) {
		return true
	}
	for _, p := range s.Properties {
		if hasRules(p, seen) {
			return true
		}
	}
	return false
}

// Options are how a CRD's rules are checked when it is written.
type Options struct {
	// FieldPath is the schema's path in the CRD
	// ("spec.versions[0].schema.openAPIV3Schema").
	FieldPath string
	// SuppressPerExpressionCost skips the per-rule cost limit, as kube
	// does for a version whose schema an update leaves unchanged.
	SuppressPerExpressionCost bool
}

// compiledRule is one rule ready to run.
type compiledRule struct {
	rule        Rule
	program     cel.Program
	usesOldSelf bool
	// maxCost is the estimated cost of one evaluation; maxCardinality
	// how many times the node can occur in a request.
	maxCost, maxCardinality uint64
	message                 cel.Program
	messageCost             uint64
	// fast and fastMessage run without cost tracking, for validators whose
	// worst case fits every limit (Validator.untracked).
	fast, fastMessage cel.Program
	env               *cel.Env
	ast, messageAST   *cel.Ast
	messageErr        string
	// fieldPath is Rule.FieldPath normalized ("spec.x", "labels[a.b]").
	fieldPath string
	// err is the compile error; the rule reports it when run.
	err string
}

// node holds the compiled rules of one schema node and the nodes below
// it that have rules.
type node struct {
	schema *schema.Schema
	// self is the schema rules see the node's value with: at a resource's
	// root, with apiVersion, kind and metadata declared.
	self    *schema.Schema
	root    bool
	rules   []compiledRule
	usesOld bool
	// occurrences bounds how often the node occurs in one object.
	occurrences uint64
	items       *node
	additional  *node
	properties  map[string]*node
	names       []string // sorted keys of properties
}

// Validator runs the x-kubernetes-validations rules of a schema.
// Compile it once per schema (ValidatorFor keeps it with the parsed
// schema); it is immutable and safe for concurrent use.
type Validator struct {
	root *node
	// untracked: the estimated worst case of every rule is within
	// PerCallLimit and of all of them within RuntimeCostBudget, so no
	// object can reach a limit and the rules run as programs planned once,
	// without cost tracking (cel-go plans a cost-tracking program again
	// for every evaluation).
	untracked bool
}

type validatorKey struct{}

// ValidatorKey is the key ValidatorFor keeps a schema's validator under
// (schema.Schema.Derived), for a caller that compiled it already.
var ValidatorKey any = validatorKey{}

// ValidatorFor is the validator of a CRD version's parsed schema, built
// once and kept with it; nil when the schema has no rules.
func ValidatorFor(s *schema.Schema) *Validator {
	if s == nil {
		return nil
	}
	v, _ := s.Derived(ValidatorKey, func() any {
		v, _ := Compile(s, Options{})
		return v
	}).(*Validator)
	return v
}

// Compile compiles the rules of a CRD version's schema, the root of a
// custom resource, and returns its validator (nil without rules) with
// what kube-apiserver refuses in them when the CRD is written: empty or
// malformed rules, messages and field paths, rules that do not compile or
// are not boolean, transition rules where old values cannot be
// correlated, rules whose estimated cost is over budget, and the
// version's total over budget.
func Compile(s *schema.Schema, opts Options) (*Validator, meta.FieldErrors) {
	if !HasRules(s) {
		return nil, nil
	}
	base, err := baseEnv()
	if err != nil {
		return nil, meta.FieldErrors{{Type: meta.ErrorInternal, Field: opts.FieldPath, Detail: err.Error()}}
	}
	c := &compiler{base: base, opts: opts}
	one := uint64(1)
	root := c.node(s, typeOf(s, true), true, p(opts.FieldPath), &one, "")
	errs := append(c.schemaErrs, c.celErrs...)
	if c.total > StaticEstimatedCRDCostLimit {
		for _, e := range c.expensive {
			errs = append(errs, meta.FieldError{Type: meta.ErrorForbidden, Field: e.path,
				Detail: "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"})
		}
		errs = append(errs, meta.FieldError{Type: meta.ErrorForbidden, Field: opts.FieldPath,
			Detail: costMessage("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", c.total, StaticEstimatedCRDCostLimit)})
	}
	if root == nil {
		return nil, errs
	}
	v := &Validator{root: root}
	if worst, ok := worstCase(root); ok && worst <= RuntimeCostBudget {
		v.untracked = planUntracked(root)
	}
	return v, errs
}

// worstCase is the estimated cost of every rule of the tree evaluated as
// often as its node can occur; false when a rule could exceed the
// per-call limit or did not compile.
func worstCase(n *node) (uint64, bool) {
	if n == nil {
		return 0, true
	}
	var total uint64
	add := func(c uint64) {
		if math.MaxUint64-total < c {
			total = math.MaxUint64
		} else {
			total += c
		}
	}
	for _, r := range n.rules {
		if r.err != "" || r.maxCost > PerCallLimit || r.messageCost > PerCallLimit {
			return 0, false
		}
		add(mulNoOverflow(r.maxCost+r.messageCost, n.occurrences))
	}
	for _, ch := range append([]*node{n.items, n.additional}, mapValues(n.properties, n.names)...) {
		c, ok := worstCase(ch)
		if !ok {
			return 0, false
		}
		add(c)
	}
	return total, true
}

func mapValues(m map[string]*node, names []string) []*node {
	out := make([]*node, 0, len(names))
	for _, k := range names {
		out = append(out, m[k])
	}
	return out
}

// planUntracked plans every rule again without cost tracking.
func planUntracked(n *node) bool {
	if n == nil {
		return true
	}
	opts := []cel.ProgramOption{cel.EvalOptions(cel.OptOptimize), cel.InterruptCheckFrequency(CheckFrequency)}
	for i := range n.rules {
		r := &n.rules[i]
		if r.ast == nil {
			continue
		}
		p, err := r.env.Program(r.ast, opts...)
		if err != nil {
			return false
		}
		r.fast = p
		if r.messageAST != nil {
			if r.fastMessage, err = r.env.Program(r.messageAST, opts...); err != nil {
				return false
			}
		}
	}
	for _, ch := range append([]*node{n.items, n.additional}, mapValues(n.properties, n.names)...) {
		if !planUntracked(ch) {
			return false
		}
	}
	return true
}

type p string

func (x p) child(name string) p { return x + "." + p(name) }
func (x p) key(k string) p      { return x + "[" + p(k) + "]" }
func (x p) index(i int) p       { return x + "[" + p(strconv.Itoa(i)) + "]" }

type ruleCost struct {
	path string
	cost uint64
}

type compiler struct {
	base       *cel.Env
	opts       Options
	schemaErrs meta.FieldErrors
	celErrs    meta.FieldErrors
	total      uint64
	expensive  []ruleCost
}

func (c *compiler) observe(path string, cost uint64) {
	if math.MaxUint64-c.total < cost {
		c.total = math.MaxUint64
	} else {
		c.total += cost
	}
	if cost < StaticEstimatedCRDCostLimit/100 {
		return
	}
	c.expensive = append(c.expensive, ruleCost{path, cost})
	sort.SliceStable(c.expensive, func(i, j int) bool { return c.expensive[i].cost > c.expensive[j].cost })
	if len(c.expensive) > 4 {
		c.expensive = c.expensive[:4]
	}
}

// node compiles the rules of s and below. t is s's CEL type (nil when
// rules cannot see it), cardinality how often s can occur (nil:
// unbounded), uncorrelatable the path of the outermost list or map above
// s whose old items cannot be matched with new ones ("": none).
func (c *compiler) node(s *schema.Schema, t *declType, root bool, at p, cardinality *uint64, uncorrelatable string) *node {
	if s == nil || !HasRules(s) {
		return nil
	}
	n := &node{schema: s, self: s, root: root}
	if root {
		n.self = withTypeAndObjectMeta(s)
	}
	if ap := s.AdditionalPropertiesSchema(); ap != nil {
		var et *declType
		if t != nil {
			et = t.elem
		}
		n.additional = c.node(ap, et, ap.XEmbeddedResource, at.child("additionalProperties"),
			childCardinality(s, cardinality), uncorrelatable)
	}
	for _, name := range s.PropertyNames() {
		prop := s.Properties[name]
		var ft *declType
		if escaped, ok := escapeName(name); ok {
			if t != nil {
				ft = t.fields[escaped]
			}
		} else {
			ft = typeOf(prop, prop.XEmbeddedResource)
		}
		if ft == nil {
			continue // kube leaves properties rules cannot see out of validation
		}
		if pn := c.node(prop, ft, prop.XEmbeddedResource, at.child("properties").key(name),
			childCardinality(s, cardinality), uncorrelatable); pn != nil {
			if n.properties == nil {
				n.properties = map[string]*node{}
			}
			n.properties[name] = pn
			n.names = append(n.names, name)
		}
	}
	if s.Items != nil {
		var et *declType
		if t != nil {
			et = t.elem
		}
		unc := uncorrelatable
		if unc == "" && s.XListType != "map" {
			unc = string(at)
		}
		n.items = c.node(s.Items, et, s.Items.XEmbeddedResource, at.child("items"), childCardinality(s, cardinality), unc)
	}
	if rules := Rules(s); len(rules) > 0 {
		n.rules = c.rules(s, rules, t, at, cardinality, uncorrelatable)
		n.occurrences = math.MaxUint64
		if cardinality != nil {
			n.occurrences = *cardinality
		} else if len(n.rules) > 0 {
			n.occurrences = n.rules[0].maxCardinality
		}
		for _, r := range n.rules {
			n.usesOld = n.usesOld || r.usesOldSelf
		}
	}
	if len(n.rules) == 0 && n.items == nil && n.additional == nil && len(n.properties) == 0 {
		return nil
	}
	return n
}

// childCardinality is how often a child of s can occur: s's bound times
// maxItems or maxProperties, unbounded when any is missing.
func childCardinality(s *schema.Schema, cardinality *uint64) *uint64 {
	if cardinality == nil {
		return nil
	}
	var factor uint64 = 1
	switch s.Type {
	case "object":
		if s.AdditionalProperties != nil {
			if s.MaxProperties == nil {
				return nil
			}
			factor = uint64(max(*s.MaxProperties, 0))
		}
	case "array":
		if s.MaxItems == nil {
			return nil
		}
		factor = uint64(max(*s.MaxItems, 0))
	}
	v := mulNoOverflow(*cardinality, factor)
	return &v
}

func mulNoOverflow(a, b uint64) uint64 {
	if a == 0 {
		return 0
	}
	if math.MaxUint64/a < b {
		return math.MaxUint64
	}
	return a * b
}

var newlines = regexp.MustCompile(`[\n\r]+`)

var reasons = map[string]bool{"FieldValueRequired": true, "FieldValueForbidden": true, "FieldValueInvalid": true,
	"FieldValueDuplicate": true}

var selfTypes atomic.Uint64

// ruleEnvs are the environments of one node's rules: self and oldSelf
// of the node's type, and oldSelf an optional of it.
type ruleEnvs struct {
	plain, optional *cel.Env
	sizes           *costEstimator
	minSize         int64
}

func (c *compiler) envs(t *declType) (*ruleEnvs, error) {
	scoped := t.named(fmt.Sprintf("selfType%d", selfTypes.Add(1)))
	prov := newProvider(c.base.CELTypeProvider(), scoped)
	plain, err := c.base.Extend(append(prov.envOptions(),
		cel.Variable("self", scoped.celType), cel.Variable("oldSelf", scoped.celType))...)
	if err != nil {
		return nil, err
	}
	optional, err := c.base.Extend(append(prov.envOptions(),
		cel.Variable("self", scoped.celType), cel.Variable("oldSelf", types.NewOptionalType(scoped.celType)))...)
	if err != nil {
		return nil, err
	}
	return &ruleEnvs{plain: plain, optional: optional, sizes: &costEstimator{sizes: &schemaSizes{root: t}},
		minSize: t.minSize}, nil
}

func (c *compiler) rules(s *schema.Schema, rules []Rule, t *declType, at p, cardinality *uint64, uncorrelatable string) []compiledRule {
	rulesAt := at.child("x-kubernetes-validations")
	schemaErrs := len(c.schemaErrs)
	for i, r := range rules {
		rp := rulesAt.index(i)
		rule, msg := strings.TrimSpace(r.Rule), strings.TrimSpace(r.Message)
		switch {
		case rule == "":
			c.schemaErrs = append(c.schemaErrs, meta.FieldError{Type: meta.ErrorRequired, Field: string(rp.child("rule")), Detail: "rule is not specified"})
		case r.Message != "" && msg == "":
			c.schemaErrs = append(c.schemaErrs, meta.FieldError{Type: meta.ErrorInvalid, Field: string(rp.child("message")), Value: r.Message, Detail: "message must be non-empty if specified"})
		case newlines.MatchString(msg):
			c.schemaErrs = append(c.schemaErrs, meta.FieldError{Type: meta.ErrorInvalid, Field: string(rp.child("message")), Value: r.Message, Detail: "message must not contain line breaks"})
		case newlines.MatchString(rule) && msg == "":
			c.schemaErrs = append(c.schemaErrs, meta.FieldError{Type: meta.ErrorRequired, Field: string(rp.child("message")), Detail: "message must be specified if rule contains line breaks"})
		}
		if r.MessageExpression != "" && strings.TrimSpace(r.MessageExpression) == "" {
			c.schemaErrs = append(c.schemaErrs, meta.FieldError{Type: meta.ErrorRequired, Field: string(rp.child("messageExpression")), Detail: "messageExpression must be non-empty if specified"})
		}
		if r.Reason != nil && !reasons[*r.Reason] {
			c.schemaErrs = append(c.schemaErrs, meta.FieldError{Type: meta.ErrorNotSupported, Field: string(rp.child("reason")), Value: *r.Reason,
				Detail: `supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`})
		}
		if r.FieldPath != "" && strings.TrimSpace(r.FieldPath) == "" {
			c.schemaErrs = append(c.schemaErrs, meta.FieldError{Type: meta.ErrorInvalid, Field: string(rp.child("fieldPath")), Value: r.FieldPath, Detail: "fieldPath must be non-empty if specified"})
		}
		if newlines.MatchString(r.FieldPath) {
			c.schemaErrs = append(c.schemaErrs, meta.FieldError{Type: meta.ErrorInvalid, Field: string(rp.child("fieldPath")), Value: r.FieldPath, Detail: "fieldPath must not contain line breaks"})
		}
		if r.FieldPath != "" {
			if _, err := ValidFieldPath(r.FieldPath, s); err != nil {
				c.schemaErrs = append(c.schemaErrs, meta.FieldError{Type: meta.ErrorInvalid, Field: string(rp.child("fieldPath")), Value: r.FieldPath, Detail: "fieldPath must be a valid path"})
			}
		}
	}
	out := make([]compiledRule, len(rules))
	if t == nil {
		for i := range rules {
			out[i] = compiledRule{rule: rules[i], err: "failed to convert to declType for CEL validation rules"}
		}
		return out
	}
	envs, err := c.envs(t)
	if err != nil {
		c.celErrs = append(c.celErrs, meta.FieldError{Type: meta.ErrorInternal, Field: string(rulesAt), Detail: err.Error()})
		return out
	}
	skipErrs := len(c.schemaErrs) > schemaErrs // kube skips CEL where the schema is wrong
	maxCardinality := uint64(maxRequestSizeBytes / (envs.minSize + 1))
	for i, r := range rules {
		rp := rulesAt.index(i)
		cr := c.compileRule(r, envs, s)
		cr.maxCardinality = maxCardinality
		out[i] = cr
		if skipErrs {
			continue
		}
		cost := cr.maxCost
		if cardinality != nil {
			cost = mulNoOverflow(cost, *cardinality)
		} else {
			cost = mulNoOverflow(cost, maxCardinality)
		}
		if !c.opts.SuppressPerExpressionCost && cost > StaticEstimatedCostLimit {
			c.celErrs = append(c.celErrs, meta.FieldError{Type: meta.ErrorForbidden, Field: string(rp.child("rule")),
				Detail: costMessage("estimated rule cost", cost, StaticEstimatedCostLimit)})
		}
		c.observe(string(rp.child("rule")), cost)
		if cr.err != "" {
			c.celErrs = append(c.celErrs, meta.FieldError{Type: meta.ErrorInvalid, Field: string(rp.child("rule")), Value: r, Detail: cr.err})
		}
		if cr.messageErr != "" {
			c.celErrs = append(c.celErrs, meta.FieldError{Type: meta.ErrorInvalid, Field: string(rp.child("messageExpression")), Value: r, Detail: cr.messageErr})
		} else if cr.message != nil {
			if !c.opts.SuppressPerExpressionCost && cr.messageCost > StaticEstimatedCostLimit {
				c.celErrs = append(c.celErrs, meta.FieldError{Type: meta.ErrorForbidden, Field: string(rp.child("messageExpression")),
					Detail: costMessage("estimated messageExpression cost", cr.messageCost, StaticEstimatedCostLimit)})
			}
			c.observe(string(rp.child("messageExpression")), cr.messageCost)
		}
		if cr.usesOldSelf {
			if uncorrelatable != "" {
				c.celErrs = append(c.celErrs, meta.FieldError{Type: meta.ErrorInvalid, Field: string(rp.child("rule")), Value: r.Rule,
					Detail: "oldSelf cannot be used on the uncorrelatable portion of the schema within " + uncorrelatable})
			}
		} else if r.OptionalOldSelf != nil {
			c.celErrs = append(c.celErrs, meta.FieldError{Type: meta.ErrorInvalid, Field: string(rp.child("optionalOldSelf")), Value: *r.OptionalOldSelf,
				Detail: "may not be set if oldSelf is not used in rule"})
		}
	}
	return out
}

func (c *compiler) compileRule(r Rule, envs *ruleEnvs, s *schema.Schema) compiledRule {
	cr := compiledRule{rule: r}
	if strings.TrimSpace(r.Rule) == "" {
		return cr
	}
	env := envs.plain
	if r.OptionalOldSelf != nil && *r.OptionalOldSelf {
		env = envs.optional
	}
	ast, iss := env.Compile(r.Rule)
	if iss != nil && iss.Err() != nil {
		cr.err = "compilation failed: " + iss.String()
		return cr
	}
	if ast.OutputType() != cel.BoolType {
		cr.err = "cel expression must evaluate to a bool"
		return cr
	}
	cr.usesOldSelf = referencesOldSelf(ast)
	prog, err := env.Program(ast, programOptions(envs.sizes)...)
	if err != nil {
		cr.err = "program instantiation failed: " + err.Error()
		return cr
	}
	est, err := env.EstimateCost(ast, envs.sizes)
	if err != nil {
		cr.err = "cost estimation failed: " + err.Error()
		return cr
	}
	cr.program, cr.maxCost, cr.env, cr.ast = prog, est.Max, env, ast
	if r.MessageExpression != "" {
		mast, iss := env.Compile(r.MessageExpression)
		switch {
		case iss != nil && iss.Err() != nil:
			cr.messageErr = "messageExpression compilation failed: " + iss.String()
		case mast.OutputType() != cel.StringType:
			cr.messageErr = "messageExpression must evaluate to a string"
		default:
			mprog, err := env.Program(mast, programOptions(envs.sizes)...)
			if err != nil {
				cr.messageErr = "messageExpression instantiation failed: " + err.Error()
				break
			}
			mest, err := env.EstimateCost(mast, envs.sizes)
			if err != nil {
				cr.messageErr = "cost estimation failed for messageExpression: " + err.Error()
				break
			}
			cr.message, cr.messageCost, cr.messageAST = mprog, mest.Max, mast
		}
	}
	if r.FieldPath != "" {
		if fp, err := ValidFieldPath(r.FieldPath, s); err == nil {
			cr.fieldPath = fp
		}
	}
	return cr
}

// referencesOldSelf reports whether a checked rule reads oldSelf.
func referencesOldSelf(ast *cel.Ast) bool {
	checked, err := cel.AstToCheckedExpr(ast)
	if err != nil {
		return false
	}
	for _, ref := range checked.GetReferenceMap() {
		if ref.GetName() == "oldSelf" {
			return true
		}
	}
	return false
}

// costMessage is kube's refusal of a cost over its limit.
func costMessage(what string, cost, limit uint64) string {
	factor := float64(cost) / float64(limit)
	var f string
	switch {
	case factor > 100.0:
		f = "more than 100x"
	case factor < 1.5:
		f = fmt.Sprintf("%fx", factor)
	default:
		f = fmt.Sprintf("%.1fx", factor)
	}
	return fmt.Sprintf("%s exceeds budget by factor of %s (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)", what, f)
}
