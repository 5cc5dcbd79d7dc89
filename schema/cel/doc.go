// Package cel runs the x-kubernetes-validations rules of CRD schemas as
// kube-apiserver 1.33 does, with the same engine (github.com/google/cel-go)
// and the same environment: the CEL standard library with kube's settings,
// cel-go's strings (version 2), sets, optional types and two-variable
// comprehensions, and kapi's own implementations of kube's libraries
// (lists: isSorted, sum, min, max, indexOf, lastIndexOf; regex: find,
// findAll; URLs; quantities; IP and CIDR; named formats). Semver, which
// kube 1.33 only accepts in rules stored before, is not declared, so a new
// rule using it fails to compile as on kube.
//
// # What it does
//
//   - [Compile] reads a CRD version's parsed schema (a custom resource's
//     root) and compiles every rule, at every node, with self (and
//     oldSelf) typed from the schema as kube types them: objects are
//     messages whose fields are the properties a rule can name (escaped:
//     self.__namespace__ or self.namespace), maps and lists of their value
//     types, date-time strings timestamps, int-or-string dyn. It returns
//     kube's refusals when a CRD is written: empty or malformed rules,
//     compile errors, non-boolean rules, a messageExpression that is no
//     string, transition rules below a list that is not of type map,
//     optionalOldSelf without oldSelf, and cost: each rule's estimated
//     cost (from maxLength, maxItems, maxProperties, or what fits in a 3
//     MiB request) times how often its node can occur, against kube's
//     per-rule and per-CRD limits, worded with kube's factors.
//   - [Validator.Validate] runs the rules on a create or an update: a
//     failure is kube's field error (Invalid by default, or the rule's
//     reason, at its fieldPath, with its message or messageExpression);
//     transition rules run where old and new values correlate (or with
//     optionalOldSelf); each evaluation stops at [PerCallLimit] and all of
//     an object's at [RuntimeCostBudget], with kube's messages. On update,
//     a failure where the value did not change is ratcheted into a warning.
//   - [Ratchet] drops the schema errors kube 1.33 forgives on an update
//     (validation ratcheting: errors of unchanged, correlated values).
//
// # Contract
//
// Compile once per parsed schema ([ValidatorFor] keeps the validator with
// the schema, through schema.Schema.Derived): programs are never compiled
// per request. A Validator is immutable and safe for concurrent use. When
// every rule's estimated worst case fits the per-call limit and all of
// them together the budget, rules run as programs planned once without
// cost tracking (no object can reach a limit); a failing rule runs again
// tracked, so its error is exactly kube's. Validate never panics on any
// JSON-shaped data, whatever its types against the schema (fuzzed), and
// evaluation honours the context's cancellation.
//
//	v, errs := cel.Compile(parsed, cel.Options{FieldPath: "spec.validation.openAPIV3Schema"})
//	// errs: 422 causes for the CRD write
//	ruleErrs, warnings := v.Validate(ctx, obj, old) // old nil on create
package cel
