package builtinproto_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/codec/protobuf"
	"github.com/kapi-dev/kapi/codec/protobuf/builtinproto"
	"github.com/kapi-dev/kapi/meta"
)

func TestEveryIndexedKindResolvesToItsMessage(t *testing.T) {
	mds, err := builtinproto.Descriptors()
	require.NoError(t, err)
	c := protobuf.New(builtinproto.Resolver())
	kinds := 0
	for gvk, md := range mds {
		kinds++
		assert.Truef(t, c.SupportsKind(gvk), "%v is served in protobuf", gvk)
		assert.Equalf(t, gvk.Kind, string(md.Name()), "%v's message is named after it", gvk)
	}
	assert.GreaterOrEqual(t, kinds, 100, "every built-in kind and its list")
	for _, gvk := range []meta.GroupVersionKind{
		{Version: "v1", Kind: "ConfigMap"},
		{Group: "apps", Version: "v1", Kind: "Deployment"},
		{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"},
		{Group: "apiregistration.k8s.io", Version: "v1", Kind: "APIService"},
		{Group: "autoscaling", Version: "v1", Kind: "Scale"},
		{Group: "authentication.k8s.io", Version: "v1", Kind: "TokenRequest"},
	} {
		assert.Containsf(t, mds, gvk, "%v is among the built-in kinds", gvk)
	}
	assert.Nil(t, builtinproto.Resolver()(meta.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}),
		"a kind that is not built in has no descriptor")
}

func TestAnObjectRoundTripsThroughTheEmbeddedDescriptors(t *testing.T) {
	c := protobuf.New(builtinproto.Resolver())
	in, err := codec.DecodeJSONValue([]byte(`{"apiVersion":"apps/v1","kind":"Deployment",
		"metadata":{"name":"web","namespace":"default","labels":{"app":"web"},"creationTimestamp":"2026-01-02T03:04:05Z"},
		"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
		 "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx",
		  "ports":[{"containerPort":80}],"resources":{"limits":{"cpu":"500m"}}}]}}}}`))
	require.NoError(t, err)
	b, err := c.Encode(meta.Object(in.(map[string]any)))
	require.NoError(t, err)
	out, err := c.Decode(b)
	require.NoError(t, err)
	spec := out.Object["spec"].(map[string]any)
	assert.Equal(t, int64(2), spec["replicas"])
	container := spec["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
	assert.Equal(t, "nginx", container["image"])
	assert.Equal(t, "500m", container["resources"].(map[string]any)["limits"].(map[string]any)["cpu"])
	assert.Equal(t, int64(80), container["ports"].([]any)[0].(map[string]any)["containerPort"])
	assert.Equal(t, "2026-01-02T03:04:05Z", out.Object["metadata"].(map[string]any)["creationTimestamp"])
}

func TestTheDataNamesTheK8sAPIItCameFrom(t *testing.T) {
	src := builtinproto.Source()
	require.NotEmpty(t, src)
	assert.Regexp(t, `^k8s\.io/api@v\d+\.\d+\.\d+`, src[0])
}

func TestTheFileDescriptorSetHoldsNoneOfTheLibrarysOwnFiles(t *testing.T) {
	set, err := builtinproto.FileDescriptorSet()
	require.NoError(t, err)
	require.NotEmpty(t, set.GetFile())
	for _, f := range set.GetFile() {
		assert.NotContainsf(t, f.GetName(), "kapi/builtin/", "%s is the library's own (protobuf.BuiltinFiles)", f.GetName())
	}
}
