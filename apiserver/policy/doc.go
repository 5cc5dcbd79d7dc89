// Package policy is kube-apiserver 1.33's ValidatingAdmissionPolicy
// (admissionregistration.k8s.io/v1) and the matching machinery admission
// webhooks share with it, without any server: what it reads of the
// server (namespaces, parameter objects, equivalent resources, version
// conversion) comes through the Host interface, which package apiserver
// implements.
//
// # What it does
//
//   - [ValidatePolicy] and [ValidateBinding] are kube's validation of the
//     two specs, with its field paths and messages (422 causes);
//     [ValidateWebhooks] is kube's validation of the webhooks of
//     Mutating- and ValidatingWebhookConfigurations, on create and on
//     update (relaxing what the stored configuration already broke).
//   - [CompilePolicy] and [CompileBinding] compile a stored version once:
//     matchConstraints, matchConditions, variables, validations with
//     message, messageExpression and reason, auditAnnotations, paramKind
//     and paramRef (name, namespace, selector, parameterNotFoundAction),
//     validationActions and failurePolicy, in kube 1.33's CEL environment
//     (schema/cel's libraries and cost limits). A spec that does not
//     compile is kept with its error: it fails the requests it matches
//     (or not, under failurePolicy Ignore), as in kube.
//   - [Set.Validate] applies every bound policy to one request
//     ([Attributes]), as kube's plugin: it returns the first Deny as
//     kube's 422 or 403 *meta.Status, the Warn failures as Warning texts,
//     and the Audit failures and audit annotations.
//   - [TypeCheck] checks a policy's expressions against the schemas of the
//     kinds it matches, for status.typeChecking, as kube's status
//     controller writes it.
//   - [ParseMatchResources], [CompileConditions], [ParseLabelSelector] and
//     [Exempt] are the rules, selectors, matchPolicy (Exact or
//     Equivalent) and matchConditions that admission webhooks use too.
//
// # Contract
//
// Compile once per stored version, never per request; a [Set] is
// immutable and safe for concurrent use (a new one replaces it when
// policies or bindings change). Evaluation never panics on any
// JSON-shaped object or spec (fuzzed: FuzzPolicySpecs, FuzzValidateWebhooks), stops each
// expression at kube's per-call cost limit and all of a request's at its
// budget, and honours the context's cancellation. Objects passed in are
// never modified.
package policy
