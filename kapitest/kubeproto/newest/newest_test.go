//go:build kubeproto_newest

package newest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"

	"github.com/kapi-dev/kapi/codec/protobuf/builtinproto"
	"github.com/kapi-dev/kapi/kapitest/kubeproto"
	"github.com/kapi-dev/kapi/kapitest/kubeproto/newest"
)

// TestTheNewKindsEmbeddedDescriptorsAreThoseOfTheirGoTypes: with the kinds
// new since 1.34 added, the embedded data has a kind for every Go type and
// no other, and each new kind's message is the one its Go type makes.
func TestTheNewKindsEmbeddedDescriptorsAreThoseOfTheirGoTypes(t *testing.T) {
	for gvk, typ := range newest.Types() {
		kubeproto.Types[gvk] = typ
	}
	fromGo, err := kubeproto.FromGoTypes()
	require.NoError(t, err)
	embedded, err := builtinproto.Descriptors()
	require.NoError(t, err)
	require.Len(t, embedded, len(fromGo), "the embedded data has a kind for every Go type, and no other")
	for gvk := range newest.Types() {
		want, got := fromGo[gvk], embedded[gvk]
		if !assert.NotNil(t, got, "%v has no embedded descriptor", gvk) {
			continue
		}
		assert.True(t, proto.Equal(protodesc.ToDescriptorProto(want), protodesc.ToDescriptorProto(got)), "%v's message differs", gvk)
	}
}
