// Package kapi is the Kubernetes API as an embeddable Go library: an
// http.Handler that serves the Kubernetes REST API from memory, answering
// as kube-apiserver 1.33 does (status codes, Status bodies, headers, JSON,
// YAML and protobuf), so that kubectl, client-go and controller-runtime
// talk to it as to a cluster. This package holds no code; the library is
// in its sub-packages:
//
//   - github.com/kapi-dev/kapi/apiserver: the handler (apiserver.New), the
//     generic request pipeline, CRDs, and the Strategy each kind implements;
//   - github.com/kapi-dev/kapi/apiserver/builtin: kube's built-in kinds;
//   - github.com/kapi-dev/kapi/apiserver/authn, apiserver/authz:
//     authentication and authorization (RBAC) as kube-apiserver's;
//   - github.com/kapi-dev/kapi/store, store/memory: the storage interface
//     and the in-memory copy-on-write store;
//   - github.com/kapi-dev/kapi/codec, codec/protobuf: the wire formats.
//
// To test a controller, use the test kit, a module of its own
// (github.com/kapi-dev/kapi/kapitest): a real API server per test in one
// line, in-process, with every built-in kind, your CRDs, fault injection
// and a test clock; its kapitest/envtest package stands in for
// controller-runtime's envtest by changing one import line:
//
//	srv := kapitest.Start(t, kapitest.WithCRDPaths("config/crd/bases"))
//	mgr, err := ctrl.NewManager(srv.Config, ctrl.Options{...})
//
// To embed the API in a Go service, mount apiserver.New's handler on a mux:
//
//	kube, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(),
//		OpenAPIComponents: builtin.OpenAPIComponents()})
//	mux.Handle("/kube/", http.StripPrefix("/kube", kube))
//
// The repository's README.md shows both, with the example server
// (examples/server) that kubectl can use; docs/design.md describes the
// design and docs/testing.md the test kit.
package kapi
