// Package depversions holds the repository's modules to one version of each dependency they share.
//
// The examples module builds the library, store/etcd and kapitest together, so the versions it selects
// (`go list -m all` there) are the versions that run. Every module's go.mod must require a shared dependency at
// exactly that version, so that each module's own tests run what the examples run and each go.mod says what is
// used. Two documented exceptions allow a lower requirement:
//
//   - The library (the repository's root module) states the minimum versions it needs for the services that embed
//     it: its go directive stays at an older Go, and its CEL is kube-apiserver 1.33's cel-go. A service or module
//     that requires it may select newer versions of these.
//   - kapitest requires the oldest k8s.io modules and controller-runtime it supports, so that a controller's test
//     suite can use kapitest without upgrading its Kubernetes libraries. Its requirements on k8s.io/* modules,
//     sigs.k8s.io/controller-runtime, the library, and every module reachable from them may be lower than what examples
//     selects.
//
// The check is TestEveryModuleRequiresTheVersionsExamplesSelects, part of `make test`.
package depversions
