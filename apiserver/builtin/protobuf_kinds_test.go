package builtin_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
	"github.com/kapi-dev/kapi/codec/protobuf"
	"github.com/kapi-dev/kapi/codec/protobuf/builtinproto"
	"github.com/kapi-dev/kapi/meta"
)

// TestEveryServedKindIsServedInProtobuf holds that each kind every release
// serves, and its list, has a protobuf descriptor in the library's data,
// as kube serves every built-in kind in protobuf: without one, client-go's
// typed clients and controller-runtime are answered 415.
func TestEveryServedKindIsServedInProtobuf(t *testing.T) {
	c := protobuf.New(builtinproto.Resolver())
	for _, r := range apiserver.Releases() {
		t.Run(string(r), func(t *testing.T) {
			for _, res := range builtin.ResourcesFor(r) {
				gvk := meta.GroupVersionKind{Group: res.Group, Version: res.Version, Kind: res.Kind}
				assert.Truef(t, c.SupportsKind(gvk), "%v (%s) has no protobuf descriptor", gvk, res.Plural)
				if res.Verbs != nil && !slices.Contains(res.Verbs, apiserver.VerbList) {
					continue // a review's or a Binding's kind has no list
				}
				list := gvk
				list.Kind += "List"
				assert.Truef(t, c.SupportsKind(list), "%v (%s) has no protobuf descriptor", list, res.Plural)
			}
		})
	}
}
