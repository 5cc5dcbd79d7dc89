package benchkit

import "fmt"

// The shape of kube-apiserver's watch-cache list benchmark
// (BenchmarkStoreList in k8s.io/apiserver/pkg/storage/cacher), which the
// store's and the handler's upstream benchmarks reproduce.
const (
	UpstreamNamespaces = 50
	UpstreamPods       = 150_000
	UpstreamNodes      = 5_000
)

// UpstreamNamespace is pod i's namespace.
func UpstreamNamespace(i int) string { return fmt.Sprintf("ns-%02d", i%UpstreamNamespaces) }

// UpstreamNode is pod i's node: nodes spread over the pods.
func UpstreamNode(i int) string { return fmt.Sprintf("node-%04d", i*7919%UpstreamNodes) }
