package kubeproto

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/kapi-dev/kapi/codec/protobuf/builtinproto"
)

// TestEmbeddedDescriptorsEqualThoseOfTheGoTypes holds the library's
// embedded descriptors (builtinproto, what Resolver serves) to those built
// from the k8s.io/api types of this module's go.mod: the same kinds, and
// for each message reachable from them the same fields (numbers, names,
// types, labels, JSON specs, message types) and map entries. A failure
// after raising k8s.io/api means the data is stale: run go generate in
// kapitest/kubeproto.
func TestEmbeddedDescriptorsEqualThoseOfTheGoTypes(t *testing.T) {
	requireGoTypesOfTheData(t)
	fromGo, err := FromGoTypes()
	require.NoError(t, err)
	embedded, err := builtinproto.Descriptors()
	require.NoError(t, err)
	// The embedded data also has the kinds new since 1.34, whose Go types
	// only package newest may import; its test compares them and holds the
	// data to no other kinds.
	require.GreaterOrEqual(t, len(embedded), len(fromGo), "the embedded data has a kind for every Go type")

	seen := map[protoreflect.FullName]bool{}
	var compare func(want, got protoreflect.MessageDescriptor)
	compare = func(want, got protoreflect.MessageDescriptor) {
		if seen[want.FullName()] {
			return
		}
		seen[want.FullName()] = true
		wp, gp := protodesc.ToDescriptorProto(want), protodesc.ToDescriptorProto(got)
		if !assert.Truef(t, proto.Equal(wp, gp), "message %s differs:\nfrom the Go types: %v\nembedded: %v", want.FullName(), wp, gp) {
			return
		}
		fields := want.Fields()
		for i := 0; i < fields.Len(); i++ {
			if wm := fields.Get(i).Message(); wm != nil {
				compare(wm, got.Fields().ByNumber(fields.Get(i).Number()).Message())
			}
		}
	}
	for gvk, want := range fromGo {
		got, ok := embedded[gvk]
		if !assert.Truef(t, ok, "%v has no embedded descriptor", gvk) {
			continue
		}
		assert.Equalf(t, want.FullName(), got.FullName(), "%v", gvk)
		compare(want, got)
	}
	assert.Greater(t, len(seen), len(fromGo), "messages under the kinds were compared too")
}

// TestEmbeddedDescriptorsNameTheModulesOfTheNewestSet checks that the data
// says it was generated from the k8s.io/api the kit is tested with at the
// newest end of its range (compat/test.sh newest): after raising that
// set, go generate ./kubeproto there.
func TestEmbeddedDescriptorsNameTheModulesOfTheNewestSet(t *testing.T) {
	requireGoTypesOfTheData(t)
	assert.Contains(t, builtinproto.Source(), "k8s.io/api@"+goTypesVersion(t))
}
