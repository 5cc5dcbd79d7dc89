// Package webhook calls the webhooks of kube-apiserver 1.33 as it calls
// them: admission webhooks (Mutating- and ValidatingWebhookConfiguration,
// admissionregistration.k8s.io/v1) and CRD conversion webhooks
// (spec.conversion.strategy: Webhook). It knows nothing of the server it
// runs in: package apiserver decides when to call and gives what the
// matching needs through policy.Host.
//
// # What it does
//
//   - [Clients] reaches a webhook's clientConfig: a URL, or a service
//     through a [ServiceResolver] (kapi runs no pods; the default resolves
//     https://<name>.<namespace>.svc:<port>), over TLS verified by the
//     caBundle (the system roots without one). It keeps one HTTP client per
//     CA bundle, so connections are reused, and tells the webhook the time
//     left as ?timeout=Ns, as kube's client does.
//   - [ParseConfiguration] reads a configuration's webhooks (rules,
//     namespace and object selectors, matchPolicy, matchConditions,
//     failurePolicy, sideEffects, timeoutSeconds, reinvocationPolicy) with
//     kube's defaults; [Dispatcher.Mutate] and [Dispatcher.Validate] call
//     those that match a request with AdmissionReview v1, apply JSON patches
//     (reinvoking IfNeeded webhooks once after a later change), gather
//     warnings, and answer denials, timeouts, unreachable webhooks, bad
//     certificates and malformed answers with kube's *meta.Status, or let
//     the request through under failurePolicy Ignore. A webhook with side
//     effects refuses dry runs.
//   - [Conversion.Convert] sends objects to a conversion webhook in one
//     ConversionReview (v1 or v1beta1) and checks the answer as
//     apiextensions-apiserver does (uid, count, apiVersion, kind, identity,
//     labels and annotations; the rest of the metadata is restored), with
//     kube's messages ("conversion webhook for <gvk> failed: ...").
//   - [ValidateURL] and [ValidateService] are kube's checks of a
//     clientConfig, shared by both kinds of configuration.
//
// # Contract
//
// Every call is bounded by its webhook's timeout (a conversion webhook's
// by [ConversionTimeout], 30 s, as kube) and by the request's context: a
// webhook that hangs holds only the request that called it, and a client
// that goes away cancels the call. No answer, however malformed, panics
// or yields anything but an allowed request or a kube-shaped error
// (fuzzed: FuzzAdmissionAnswers, FuzzConversionAnswers). Answers are
// read up to 3 MiB. Clients, Dispatcher and Conversion are safe for
// concurrent use; objects passed in are never modified.
package webhook
