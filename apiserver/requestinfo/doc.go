// Package requestinfo parses what a Kubernetes API request is about from
// its path and method alone, before any body is read: the verb (get, list,
// watch, create, update, patch, delete, deletecollection), the group,
// version, resource, subresource, namespace and name, or, for discovery,
// health and the other fixed paths, that it is a non-resource request.
//
// The handler and every filter in front of it (authentication,
// impersonation, flow control, authorization) read the same Info: the
// outermost one parses it once and stores it in the request's context
// (With); the others take it from there (From).
//
//	info := requestinfo.Parse(r) // GET /api/v1/namespaces/ns/pods/p/status
//	// info.Verb "get", info.Resource "pods", info.Namespace "ns",
//	// info.Name "p", info.Subresource "status"
package requestinfo
