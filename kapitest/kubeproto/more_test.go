package kubeproto

import (
	"bytes"
	"reflect"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kapi-dev/kapi/codec/protobuf"
	"github.com/kapi-dev/kapi/meta"
)

// TestNamedSlices covers named slice types, messages {repeated items = 1}
// shown in JSON as arrays: ExtraValue as a map value, Verbs as a field
// (and a reflected meta/v1 file next to the library's).
func TestNamedSlices(t *testing.T) {
	objs := []runtime.Object{
		&authenticationv1.TokenReview{
			TypeMeta: metav1.TypeMeta{APIVersion: "authentication.k8s.io/v1", Kind: "TokenReview"},
			Spec:     authenticationv1.TokenReviewSpec{Token: "t", Audiences: []string{"api"}},
			Status: authenticationv1.TokenReviewStatus{Authenticated: true, User: authenticationv1.UserInfo{
				Username: "alice", UID: "1", Groups: []string{"dev"},
				Extra: map[string]authenticationv1.ExtraValue{"scopes": {"a", "b"}, "none": {}, "one": {""}},
			}},
		},
		&authorizationv1.SubjectAccessReview{
			TypeMeta: metav1.TypeMeta{APIVersion: "authorization.k8s.io/v1", Kind: "SubjectAccessReview"},
			Spec: authorizationv1.SubjectAccessReviewSpec{
				ResourceAttributes: &authorizationv1.ResourceAttributes{Verb: "get", Resource: "pods"},
				User:               "alice", Extra: map[string]authorizationv1.ExtraValue{"k": {"v"}},
			},
			Status: authorizationv1.SubjectAccessReviewStatus{Allowed: true},
		},
		&metav1.APIResourceList{
			TypeMeta:     metav1.TypeMeta{APIVersion: "v1", Kind: "APIResourceList"},
			GroupVersion: "v1",
			APIResources: []metav1.APIResource{
				{Name: "pods", Namespaced: true, Kind: "Pod", Verbs: metav1.Verbs{"get", "list"}, ShortNames: []string{"po"}},
				{Name: "bindings", Namespaced: true, Kind: "Binding", Verbs: metav1.Verbs{}},
				{Name: "nothing", Kind: "Nothing"},
			},
		},
	}
	types := make([]reflect.Type, len(objs))
	for i, o := range objs {
		types[i] = reflect.TypeOf(o)
	}
	mds, err := protobuf.DescriptorsFromGoTypes(types...)
	if err != nil {
		t.Fatal(err)
	}
	c := protobuf.New(func(gvk meta.GroupVersionKind) protoreflect.MessageDescriptor {
		for i, o := range objs {
			k := o.GetObjectKind().GroupVersionKind()
			if k.Group == gvk.Group && k.Version == gvk.Version && k.Kind == gvk.Kind {
				return mds[i]
			}
		}
		return nil
	})
	for _, o := range objs {
		obj := o.(protoObject)
		raw := mustMarshal(t, obj)
		canonical := unmarshalled(t, obj, raw)
		d, err := c.Decode(kubeEncode(t, obj))
		if err != nil {
			t.Fatal(err)
		}
		if want := jsonMap(t, canonical); !reflect.DeepEqual(map[string]any(d.Object), want) {
			t.Fatalf("decoded:\n got %s\nwant %s", js(d.Object), js(want))
		}
		// From the JSON of the original: [] and null differ in JSON,
		// not on the wire (Verbs{} is written, nil is not).
		mine, err := c.EncodeMessage(jsonMap(t, obj))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(mine, raw) {
			t.Errorf("%T not byte-identical\n got %x\nwant %x", obj, mine, raw)
		}
		if back := unmarshalled(t, obj, mine); !reflect.DeepEqual(back, canonical) {
			t.Errorf("%T: Unmarshal of our bytes:\n got %s\nwant %s", obj, js(back), js(canonical))
		}
	}
}
