package kubeproto

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"
	k8sprotobuf "k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/codec/protobuf"
	"github.com/kapi-dev/kapi/meta"
)

// protoObject is what the k8s.io/api types implement.
type protoObject interface {
	runtime.Object
	Marshal() ([]byte, error)
	Unmarshal([]byte) error
}

// kubeSerializer is the real protobuf serializer of Kubernetes.
var kubeSerializer = k8sprotobuf.NewSerializer(scheme.Scheme, scheme.Scheme)

func kubeEncode(t *testing.T, obj runtime.Object) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := kubeSerializer.Encode(obj, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// jsonMap is json.Marshal of v in kapi's object model, as k8s.io/api
// v0.34 and later marshal it: without the "creationTimestamp": null that
// older releases write for a zero metav1.Time (the kit is tested against
// both ends of its supported range).
func jsonMap(t *testing.T, v any) map[string]any {
	t.Helper()
	j, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	m, err := codec.DecodeJSONValue(j)
	if err != nil {
		t.Fatal(err)
	}
	dropNullCreationTimestamps(m)
	return m.(map[string]any)
}

// dropNullCreationTimestamps removes every metadata's null
// creationTimestamp under v.
func dropNullCreationTimestamps(v any) {
	switch v := v.(type) {
	case map[string]any:
		if md, ok := v["metadata"].(map[string]any); ok {
			if ts, ok := md["creationTimestamp"]; ok && ts == nil {
				delete(md, "creationTimestamp")
			}
		}
		for _, e := range v {
			dropNullCreationTimestamps(e)
		}
	case []any:
		for _, e := range v {
			dropNullCreationTimestamps(e)
		}
	}
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// unmarshalled returns a new object of obj's type read from raw by the
// generated Unmarshal, with obj's TypeMeta.
func unmarshalled(t *testing.T, obj protoObject, raw []byte) protoObject {
	t.Helper()
	out := reflect.New(reflect.TypeOf(obj).Elem()).Interface().(protoObject)
	if err := out.Unmarshal(raw); err != nil {
		t.Fatalf("Unmarshal: %v", err)
	}
	out.GetObjectKind().SetGroupVersionKind(obj.GetObjectKind().GroupVersionKind())
	return out
}

// newestObjects are the objects of the kinds only the newest k8s.io/api
// has (none now: a test of this package may not import them, see package newest).
var newestObjects func() []runtime.Object

// TestKinds checks, for a realistic object of every kind, against the
// k8s.io/api types and Kubernetes' serializer:
//
//  1. Kubernetes' bytes decode to json.Marshal of the object;
//  2. encoding that JSON gives the bytes of the object's Marshal, which
//     Unmarshal reads back to an equal object, and Kubernetes' serializer
//     decodes our enveloped bytes;
//  3. the envelope is byte for byte Kubernetes'.
func TestKinds(t *testing.T) {
	requireGoTypesOfTheData(t)
	c := protobuf.New(Resolver())
	seen := map[string]bool{}
	all := append(append(objects(), unstoredObjects()...), recordedObjects(t)...)
	if newestObjects != nil {
		all = append(all, newestObjects()...)
	}
	for i, o := range all {
		obj := o.(protoObject)
		gvk := obj.GetObjectKind().GroupVersionKind()
		seen[gvk.Kind] = true
		t.Run(fmt.Sprintf("%d-%s", i, gvk.Kind), func(t *testing.T) {
			raw, err := obj.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			canonical := unmarshalled(t, obj, raw)
			want := jsonMap(t, canonical)
			// The test objects survive protobuf unchanged, so the oracle
			// is json.Marshal of the object itself.
			if js(want) != js(jsonMap(t, obj)) {
				t.Fatalf("test object is not canonical:\n%s\n%s", js(want), js(jsonMap(t, obj)))
			}

			// 1. Decode Kubernetes' bytes.
			kube := kubeEncode(t, obj)
			if env := protobuf.Envelope(gvk.GroupVersion().String(), gvk.Kind, raw); !bytes.Equal(env, kube) {
				t.Fatalf("Envelope differs from Kubernetes' serializer:\n%x\n%x", env, kube)
			}
			d, err := c.Decode(kube)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(map[string]any(d.Object), want) {
				t.Fatalf("decoded:\n got %s\nwant %s", js(d.Object), js(want))
			}

			// 2. Encode the JSON map (as a JSON client would have sent it).
			mine, err := c.EncodeMessage(meta.Object(jsonMap(t, obj)))
			if err != nil {
				t.Fatal(err)
			}
			back := unmarshalled(t, obj, mine)
			if !apiequality.Semantic.DeepEqual(back, canonical) || !reflect.DeepEqual(back, canonical) {
				t.Fatalf("Unmarshal of our bytes differs:\n got %s\nwant %s", js(back), js(canonical))
			}
			if !bytes.Equal(mine, raw) {
				t.Errorf("not byte-identical to Marshal (%d vs %d bytes)\n got %x\nwant %x", len(mine), len(raw), mine, raw)
			}
			env, err := c.Encode(d.Object)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(env, kube) {
				t.Errorf("Encode differs from Kubernetes' serializer")
			}
			got, _, err := kubeSerializer.Decode(env, nil, nil)
			if err != nil {
				t.Fatalf("Kubernetes' serializer cannot decode our bytes: %v", err)
			}
			if !apiequality.Semantic.DeepEqual(got, canonical) {
				t.Fatalf("Kubernetes' serializer decodes:\n got %s\nwant %s", js(got), js(canonical))
			}
		})
	}
	for gvk := range Types {
		if !seen[gvk.Kind] && !bytes.HasSuffix([]byte(gvk.Kind), []byte("List")) && gvk.Kind != "APIService" {
			t.Errorf("no test object of kind %s", gvk.Kind)
		}
	}
}

// TestResolver checks that every kind resolves and is supported.
func TestResolver(t *testing.T) {
	mds, err := Descriptors()
	if err != nil {
		t.Fatal(err)
	}
	c := protobuf.New(Resolver())
	for gvk, md := range mds {
		if !c.SupportsKind(gvk) {
			t.Errorf("%v not supported", gvk)
		}
		goType, ok := Types[gvk]
		if !ok {
			continue // a kind k8s.io/api v0.33 lacks: in Types with the tag kubeproto_newest only
		}
		if want := reflect.TypeOf(goType).Elem(); string(md.Name()) != want.Name() {
			t.Errorf("%v: descriptor %s for %v", gvk, md.FullName(), want)
		}
	}
	if md := mds[meta.GroupVersionKind{Version: "v1", Kind: "Pod"}]; md.FullName() != "k8s.io.api.core.v1.Pod" {
		t.Errorf("Pod descriptor %s", md.FullName())
	}
	if !c.SupportsKind(meta.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}) {
		t.Error("CRD not supported: kube-apiserver serves CustomResourceDefinitions in protobuf")
	}
}
