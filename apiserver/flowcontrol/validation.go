package flowcontrol

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/kapi-dev/kapi/apiserver/flowcontrol/fairqueue"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// Validation of the configuration kinds, with kube's field paths and
// messages. The functions check what kube's flowcontrol validation checks
// beyond the generic ObjectMeta rules (name, labels, annotations), which the
// server applies to every kind. They take the object in its v1 (storage)
// form, defaulted: validate after DefaultPriorityLevel and ConvertToV1.

const maxQueues = 10_000_000

var (
	supportedVerbs = []string{"create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"}
	quotedVerbs    = quoteAll(supportedVerbs)
)

func quoteAll(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

type errList struct{ errs meta.FieldErrors }

func (l *errList) add(t meta.ErrorType, field string, value any, detail string) {
	l.errs = append(l.errs, meta.FieldError{Type: t, Field: field, Value: value, Detail: detail})
}

func (l *errList) invalid(field string, value any, detail string) {
	l.add(meta.ErrorInvalid, field, value, detail)
}

// decodeError is the error of an object whose fields have the wrong types,
// which the kind's schema normally refuses first.
func decodeError(err error) meta.FieldErrors {
	return meta.FieldErrors{{Type: meta.ErrorInvalid, Field: "spec", Value: meta.NoValue, Detail: err.Error()}}
}

// ValidatePriorityLevel checks a PriorityLevelConfiguration as kube does on
// create and update: the type matches the name ("exempt" is the only
// Exempt level), Limited and Exempt configurations are consistent and in
// range, queuing is present exactly for Queue and its shuffle sharding is
// possible, the mandatory levels keep their fixed spec, and status
// conditions have distinct types.
func ValidatePriorityLevel(obj meta.Object) meta.FieldErrors {
	pl, err := DecodePriorityLevel(obj)
	if err != nil {
		return decodeError(err)
	}
	var l errList
	if _, ok := pl.Annotations[PreserveZeroConcurrencySharesKey]; ok {
		l.add(meta.ErrorForbidden, "metadata.annotations", nil,
			fmt.Sprintf("annotation '%s' is forbidden", PreserveZeroConcurrencySharesKey))
	}
	validatePriorityLevelSpec(&l, pl)
	validateMandatoryPriorityLevel(&l, pl)
	validateConditions(&l, pl.Status.Conditions)
	return l.errs
}

// ValidatePriorityLevelStatus checks a write to a PriorityLevelConfiguration's
// status: condition types present and distinct.
func ValidatePriorityLevelStatus(obj meta.Object) meta.FieldErrors {
	pl, err := DecodePriorityLevel(obj)
	if err != nil {
		return decodeError(err)
	}
	var l errList
	validateConditions(&l, pl.Status.Conditions)
	return l.errs
}

func validatePriorityLevelSpec(l *errList, pl *PriorityLevelConfiguration) {
	spec := &pl.Spec
	if (pl.Name == PriorityLevelConfigurationNameExempt) != (spec.Type == PriorityLevelEnablementExempt) {
		l.invalid("spec.type", string(spec.Type), "type must be 'Exempt' if and only if name is 'exempt'")
	}
	switch spec.Type {
	case PriorityLevelEnablementExempt:
		if spec.Limited != nil {
			l.add(meta.ErrorForbidden, "spec.limited", nil, "must be nil if the type is not Limited")
		}
		if e := spec.Exempt; e != nil {
			if e.NominalConcurrencyShares != nil && *e.NominalConcurrencyShares < 0 {
				l.invalid("spec.exempt.nominalConcurrencyShares", *e.NominalConcurrencyShares, "must be a non-negative integer")
			}
			if e.LendablePercent != nil && (*e.LendablePercent < 0 || *e.LendablePercent > 100) {
				l.invalid("spec.exempt.lendablePercent", *e.LendablePercent, "must be between 0 and 100, inclusive")
			}
		}
	case PriorityLevelEnablementLimited:
		if spec.Exempt != nil {
			l.add(meta.ErrorForbidden, "spec.exempt", nil, "must be nil if the type is Limited")
		}
		if spec.Limited == nil {
			l.add(meta.ErrorRequired, "spec.limited", nil, "must not be empty when type is Limited")
		} else {
			validateLimited(l, spec.Limited)
		}
	default:
		l.add(meta.ErrorNotSupported, "spec.type", string(spec.Type), `supported values: "Exempt", "Limited"`)
	}
}

func validateLimited(l *errList, lim *LimitedPriorityLevelConfiguration) {
	if lim.NominalConcurrencyShares < 0 {
		l.invalid("spec.limited.nominalConcurrencyShares", lim.NominalConcurrencyShares, "must be a non-negative integer")
	}
	const lr = "spec.limited.limitResponse"
	switch lim.LimitResponse.Type {
	case LimitResponseTypeReject:
		if lim.LimitResponse.Queuing != nil {
			l.add(meta.ErrorForbidden, lr+".queuing", nil, "must be nil if limited.limitResponse.type is not Limited")
		}
	case LimitResponseTypeQueue:
		if q := lim.LimitResponse.Queuing; q == nil {
			l.add(meta.ErrorRequired, lr+".queuing", nil, "must not be empty if limited.limitResponse.type is Limited")
		} else {
			validateQueuing(l, q)
		}
	default:
		l.add(meta.ErrorNotSupported, lr+".type", string(lim.LimitResponse.Type), `supported values: "Queue", "Reject"`)
	}
	if p := lim.LendablePercent; p != nil && (*p < 0 || *p > 100) {
		l.invalid("spec.limited.lendablePercent", *p, "must be between 0 and 100, inclusive")
	}
	if p := lim.BorrowingLimitPercent; p != nil && *p < 0 {
		l.invalid("spec.limited.borrowingLimitPercent", *p, "if specified, must be a non-negative integer")
	}
}

func validateQueuing(l *errList, q *QueuingConfiguration) {
	const path = "spec.limited.limitResponse.queuing."
	if q.QueueLengthLimit <= 0 {
		l.invalid(path+"queueLengthLimit", q.QueueLengthLimit, "must be positive")
	}
	if q.Queues <= 0 {
		l.invalid(path+"queues", q.Queues, "must be positive")
	} else if q.Queues > maxQueues {
		l.invalid(path+"queues", q.Queues, fmt.Sprintf("must not be greater than %d", maxQueues))
	}
	switch {
	case q.HandSize <= 0:
		l.invalid(path+"handSize", q.HandSize, "must be positive")
	case q.HandSize > q.Queues:
		l.invalid(path+"handSize", q.HandSize, fmt.Sprintf("should not be greater than queues (%d)", q.Queues))
	case fairqueue.RequiredEntropyBits(int(q.Queues), int(q.HandSize)) > fairqueue.MaxHashBits:
		l.invalid(path+"handSize", q.HandSize, fmt.Sprintf("required entropy bits of deckSize %d and handSize %d should not be greater than %d",
			q.Queues, q.HandSize, fairqueue.MaxHashBits))
	}
}

func validateMandatoryPriorityLevel(l *errList, pl *PriorityLevelConfiguration) {
	mand := mandatoryPriorityLevel(pl.Name)
	if mand == nil {
		return
	}
	want := mand.Spec
	if pl.Name == PriorityLevelConfigurationNameExempt {
		// The exempt level's spec.exempt is the administrator's to change.
		want.Exempt = pl.Spec.Exempt
		if !reflect.DeepEqual(normalizePLSpec(want), normalizePLSpec(pl.Spec)) {
			l.invalid("spec", pl.Spec, fmt.Sprintf("spec of '%s' except the 'spec.exempt' field must equal the fixed value", pl.Name))
		}
		return
	}
	if !reflect.DeepEqual(normalizePLSpec(want), normalizePLSpec(pl.Spec)) {
		l.invalid("spec", pl.Spec, fmt.Sprintf("spec of '%s' must equal the fixed value", pl.Name))
	}
}

func validateConditions(l *errList, conds []Condition) {
	seen := map[string]bool{}
	for i, c := range conds {
		path := fmt.Sprintf("status.conditions[%d]", i)
		if seen[c.Type] {
			l.add(meta.ErrorDuplicate, path+".type", c.Type, "")
		}
		seen[c.Type] = true
		if c.Type == "" {
			l.add(meta.ErrorRequired, path+".type", nil, "must not be empty")
		}
	}
}

// ValidateFlowSchema checks a FlowSchema as kube does on create and update:
// matchingPrecedence in 1..10000 (1 for "exempt" only), a known
// distinguisher method, a valid priority level name, rules with subjects
// and resource or non-resource rules of known verbs, valid names and URL
// paths, the mandatory schemas' fixed specs, and distinct condition types.
func ValidateFlowSchema(obj meta.Object) meta.FieldErrors {
	fs, err := DecodeFlowSchema(obj)
	if err != nil {
		return decodeError(err)
	}
	var l errList
	spec := &fs.Spec
	switch {
	case spec.MatchingPrecedence <= 0:
		l.invalid("spec.matchingPrecedence", spec.MatchingPrecedence, "must be a positive value")
	case spec.MatchingPrecedence > FlowSchemaMaxMatchingPrecedence:
		l.invalid("spec.matchingPrecedence", spec.MatchingPrecedence,
			fmt.Sprintf("must not be greater than %d", FlowSchemaMaxMatchingPrecedence))
	}
	if spec.MatchingPrecedence == 1 && fs.Name != FlowSchemaNameExempt {
		l.invalid("spec.matchingPrecedence", spec.MatchingPrecedence, "only the schema named 'exempt' may have matchingPrecedence 1")
	}
	if dm := spec.DistinguisherMethod; dm != nil && dm.Type != FlowDistinguisherMethodByUserType && dm.Type != FlowDistinguisherMethodByNamespaceType {
		l.add(meta.ErrorNotSupported, "spec.distinguisherMethod.type", dm, `supported values: "ByNamespace", "ByUser"`)
	}
	if name := spec.PriorityLevelConfiguration.Name; name != "" {
		for _, msg := range schema.DNS1123Subdomain(name) {
			l.invalid("spec.priorityLevelConfiguration.name", name, msg)
		}
	} else {
		l.add(meta.ErrorRequired, "spec.priorityLevelConfiguration.name", nil, "must reference a priority level")
	}
	for i := range spec.Rules {
		validateRule(&l, &spec.Rules[i], fmt.Sprintf("spec.rules[%d]", i))
	}
	if mand := mandatoryFlowSchema(fs.Name); mand != nil && !reflect.DeepEqual(normalizeFSSpec(mand.Spec), normalizeFSSpec(fs.Spec)) {
		l.invalid("spec", fs.Spec, fmt.Sprintf("spec of '%s' must equal the fixed value", fs.Name))
	}
	validateConditions(&l, fs.Status.Conditions)
	return l.errs
}

// ValidateFlowSchemaStatus checks a write to a FlowSchema's status.
func ValidateFlowSchemaStatus(obj meta.Object) meta.FieldErrors {
	fs, err := DecodeFlowSchema(obj)
	if err != nil {
		return decodeError(err)
	}
	var l errList
	validateConditions(&l, fs.Status.Conditions)
	return l.errs
}

func validateRule(l *errList, rule *PolicyRulesWithSubjects, path string) {
	if len(rule.Subjects) == 0 {
		l.add(meta.ErrorRequired, path+".subjects", nil, "subjects must contain at least one value")
	}
	for i := range rule.Subjects {
		validateSubject(l, &rule.Subjects[i], fmt.Sprintf("%s.subjects[%d]", path, i))
	}
	if len(rule.ResourceRules) == 0 && len(rule.NonResourceRules) == 0 {
		l.add(meta.ErrorRequired, path, nil, "at least one of resourceRules and nonResourceRules has to be non-empty")
	}
	for i := range rule.ResourceRules {
		validateResourceRule(l, &rule.ResourceRules[i], fmt.Sprintf("%s.resourceRules[%d]", path, i))
	}
	for i := range rule.NonResourceRules {
		validateNonResourceRule(l, &rule.NonResourceRules[i], fmt.Sprintf("%s.nonResourceRules[%d]", path, i))
	}
}

func validateSubject(l *errList, s *Subject, path string) {
	forbidUser := func() {
		if s.User != nil {
			l.add(meta.ErrorForbidden, path+".user", nil, "user is forbidden when subject kind is not 'User'")
		}
	}
	forbidGroup := func() {
		if s.Group != nil {
			l.add(meta.ErrorForbidden, path+".group", nil, "group is forbidden when subject kind is not 'Group'")
		}
	}
	forbidSA := func() {
		if s.ServiceAccount != nil {
			l.add(meta.ErrorForbidden, path+".serviceAccount", nil, "serviceAccount is forbidden when subject kind is not 'ServiceAccount'")
		}
	}
	switch s.Kind {
	case SubjectKindServiceAccount:
		if sa := s.ServiceAccount; sa == nil {
			l.add(meta.ErrorRequired, path+".serviceAccount", nil, "serviceAccount is required when subject kind is 'ServiceAccount'")
		} else {
			if sa.Name == "" {
				l.add(meta.ErrorRequired, path+".serviceAccount.name", nil, "")
			} else if sa.Name != NameAll {
				for _, msg := range schema.DNS1123Subdomain(sa.Name) {
					l.invalid(path+".serviceAccount.name", sa.Name, msg)
				}
			}
			if sa.Namespace == "" {
				l.add(meta.ErrorRequired, path+".serviceAccount.namespace", nil, "must specify namespace for service account")
			} else {
				for _, msg := range schema.DNS1123Label(sa.Namespace) {
					l.invalid(path+".serviceAccount.namespace", sa.Namespace, msg)
				}
			}
		}
		forbidUser()
		forbidGroup()
	case SubjectKindUser:
		if s.User == nil {
			l.add(meta.ErrorRequired, path+".user", nil, "user is required when subject kind is 'User'")
		} else if s.User.Name == "" {
			l.add(meta.ErrorRequired, path+".user.name", nil, "")
		}
		forbidSA()
		forbidGroup()
	case SubjectKindGroup:
		if s.Group == nil {
			l.add(meta.ErrorRequired, path+".group", nil, "group is required when subject kind is 'Group'")
		} else if s.Group.Name == "" {
			l.add(meta.ErrorRequired, path+".group.name", nil, "")
		}
		forbidSA()
		forbidUser()
	default:
		l.add(meta.ErrorNotSupported, path+".kind", string(s.Kind), `supported values: "Group", "ServiceAccount", "User"`)
	}
}

// validateVerbs checks a rule's verbs: present, "*" alone, or known ones.
func validateVerbs(l *errList, verbs []string, path string) {
	switch {
	case len(verbs) == 0:
		l.add(meta.ErrorRequired, path, nil, "verbs must contain at least one value")
	case slices.Contains(verbs, VerbAll):
		if len(verbs) > 1 {
			l.invalid(path, verbs, "if '*' is present, must not specify other verbs")
		}
	default:
		for _, v := range verbs {
			if !slices.Contains(supportedVerbs, v) {
				l.add(meta.ErrorNotSupported, path, verbs, "supported values: "+quotedVerbs)
				break
			}
		}
	}
}

const nsErrIntro = "each member of this list must be '*' or a DNS-1123 label; "

func validateResourceRule(l *errList, r *ResourcePolicyRule, path string) {
	validateVerbs(l, r.Verbs, path+".verbs")
	if len(r.APIGroups) == 0 {
		l.add(meta.ErrorRequired, path+".apiGroups", nil, "resource rules must supply at least one api group")
	} else if len(r.APIGroups) > 1 && slices.Contains(r.APIGroups, APIGroupAll) {
		l.invalid(path+".apiGroups", r.APIGroups, "if '*' is present, must not specify other api groups")
	}
	if len(r.Resources) == 0 {
		l.add(meta.ErrorRequired, path+".resources", nil, "resource rules must supply at least one resource")
	} else if len(r.Resources) > 1 && slices.Contains(r.Resources, ResourceAll) {
		l.invalid(path+".resources", r.Resources, "if '*' is present, must not specify other resources")
	}
	switch {
	case len(r.Namespaces) == 0 && !r.ClusterScope:
		l.add(meta.ErrorRequired, path+".namespaces", nil, "resource rules that are not cluster scoped must supply at least one namespace")
	case slices.Contains(r.Namespaces, NamespaceEvery):
		if len(r.Namespaces) > 1 {
			l.invalid(path+".namespaces", r.Namespaces, "if '*' is present, must not specify other namespaces")
		}
	default:
		for i, ns := range r.Namespaces {
			for _, msg := range schema.DNS1123Label(ns) {
				l.invalid(fmt.Sprintf("%s.namespaces[%d]", path, i), ns, nsErrIntro+msg)
			}
		}
	}
}

func validateNonResourceRule(l *errList, r *NonResourcePolicyRule, path string) {
	validateVerbs(l, r.Verbs, path+".verbs")
	switch {
	case len(r.NonResourceURLs) == 0:
		l.add(meta.ErrorRequired, path+".nonResourceURLs", nil, "nonResourceURLs must contain at least one value")
	case slices.Contains(r.NonResourceURLs, NonResourceAll):
		if len(r.NonResourceURLs) > 1 {
			l.invalid(path+".nonResourceURLs", r.NonResourceURLs, "if '*' is present, must not specify other non-resource URLs")
		}
	default:
		for i, u := range r.NonResourceURLs {
			if msg := nonResourceURLError(u); msg != "" {
				l.invalid(fmt.Sprintf("%s.nonResourceURLs[%d]", path, i), u, msg)
			}
		}
	}
}

// nonResourceURLError checks a rule's URL path: it starts with a slash,
// has no white space or double slash, and a "*" only as a last "/*".
func nonResourceURLError(p string) string {
	switch {
	case p == "":
		return "must not be empty"
	case p == "/":
		return ""
	case !strings.HasPrefix(p, "/"):
		return "must start with slash"
	case strings.Contains(p, " "):
		return "must not contain white-space"
	case strings.Contains(p, "//"):
		return "must not contain double slash"
	}
	if n := strings.Count(p, "*"); n > 1 || n == 1 && !strings.HasSuffix(p, "/*") {
		return "wildcard can only do suffix matching"
	}
	return ""
}

// normalizePLSpec and normalizeFSSpec make empty and nil slices compare
// equal, as kube's semantic equality does.
func normalizePLSpec(s PriorityLevelConfigurationSpec) PriorityLevelConfigurationSpec { return s }

func normalizeFSSpec(s FlowSchemaSpec) FlowSchemaSpec {
	if len(s.Rules) == 0 {
		s.Rules = nil
		return s
	}
	rules := make([]PolicyRulesWithSubjects, len(s.Rules))
	for i, r := range s.Rules {
		rules[i] = PolicyRulesWithSubjects{Subjects: nilIfEmpty(r.Subjects)}
		for _, rr := range r.ResourceRules {
			rr.Verbs, rr.APIGroups, rr.Resources, rr.Namespaces = nilIfEmpty(rr.Verbs), nilIfEmpty(rr.APIGroups), nilIfEmpty(rr.Resources), nilIfEmpty(rr.Namespaces)
			rules[i].ResourceRules = append(rules[i].ResourceRules, rr)
		}
		for _, nr := range r.NonResourceRules {
			nr.Verbs, nr.NonResourceURLs = nilIfEmpty(nr.Verbs), nilIfEmpty(nr.NonResourceURLs)
			rules[i].NonResourceRules = append(rules[i].NonResourceRules, nr)
		}
	}
	s.Rules = rules
	return s
}

func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}
