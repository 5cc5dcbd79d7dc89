package kubeproto

import (
	"bytes"
	"io"
	"net/http"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8sprotobuf "k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/framer"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/scheme"
	restclientwatch "k8s.io/client-go/rest/watch"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/kapi-dev/kapi/codec/protobuf"
	"github.com/kapi-dev/kapi/meta"
)

// TestStatus: kapi's Status errors encode byte for byte as Kubernetes
// encodes the same apierrors, and Kubernetes' Status bytes decode to the
// Status JSON.
func TestStatus(t *testing.T) {
	c := protobuf.New(Resolver())
	gr := schema.GroupResource{Group: "apps", Resource: "deployments"}
	tests := []struct {
		kapi *meta.Status
		kube *apierrors.StatusError
	}{
		{meta.NotFound(meta.GroupResource{Group: "apps", Resource: "deployments"}, "web"), apierrors.NewNotFound(gr, "web")},
		{meta.AlreadyExists(meta.GroupResource{Resource: "configmaps"}, "x"), apierrors.NewAlreadyExists(schema.GroupResource{Resource: "configmaps"}, "x")},
		{meta.ConflictModified(meta.GroupResource{Group: "apps", Resource: "deployments"}, "web"),
			apierrors.NewConflict(gr, "web", errString("the object has been modified; please apply your changes to the latest version and try again"))},
		{meta.BadRequest("bad"), apierrors.NewBadRequest("bad")},
		{meta.Expired("too old resource version: 1 (2)"), apierrors.NewResourceExpired("too old resource version: 1 (2)")},
		{meta.TooManyRequests("slow down", 3), apierrors.NewTooManyRequests("slow down", 3)},
	}
	for _, tt := range tests {
		kube := tt.kube.ErrStatus
		kube.TypeMeta = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
		kb := kubeEncode(t, &kube)
		mine, err := c.Encode(tt.kapi)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(mine, kb) {
			t.Errorf("%s: Status bytes differ\n got %x\nwant %x", tt.kapi.Reason, mine, kb)
		}
		d, err := c.Decode(kb)
		if err != nil {
			t.Fatal(err)
		}
		if want := jsonMap(t, &kube); !reflect.DeepEqual(map[string]any(d.Object), want) {
			t.Errorf("decoded Status:\n got %s\nwant %s", js(d.Object), js(want))
		}
		// client-go reads the Status from an error response body.
		got, _, err := kubeSerializer.Decode(mine, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if st, ok := got.(*metav1.Status); !ok || st.Reason != tt.kube.ErrStatus.Reason || st.Code != tt.kube.ErrStatus.Code {
			t.Errorf("Kubernetes decodes %#v", got)
		}
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// TestList: a list assembled from cached item messages is byte for byte a
// Kubernetes list, and decodes to its JSON.
func TestList(t *testing.T) {
	c := protobuf.New(Resolver())
	var items []corev1.ConfigMap
	var msgs [][]byte
	for _, o := range objects() {
		if cm, ok := o.(*corev1.ConfigMap); ok {
			item := *cm
			item.TypeMeta = metav1.TypeMeta{}
			items = append(items, item)
			msg, err := c.EncodeMessage(jsonMap(t, cm))
			if err != nil {
				t.Fatal(err)
			}
			msgs = append(msgs, msg)
		}
	}
	remaining := int64(7)
	list := &corev1.ConfigMapList{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMapList"},
		ListMeta: metav1.ListMeta{ResourceVersion: "4243", Continue: "eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ", RemainingItemCount: &remaining},
		Items:    items,
	}
	kb := kubeEncode(t, list)
	mine := c.EncodeList("v1", "ConfigMapList", meta.ListMeta{ResourceVersion: "4243", Continue: list.Continue, RemainingItemCount: &remaining}, msgs)
	if !bytes.Equal(mine, kb) {
		t.Fatalf("list bytes differ\n got %x\nwant %x", mine, kb)
	}
	d, err := c.Decode(kb)
	if err != nil {
		t.Fatal(err)
	}
	if want := jsonMap(t, list); !reflect.DeepEqual(map[string]any(d.Object), want) {
		t.Fatalf("decoded list:\n got %s\nwant %s", js(d.Object), js(want))
	}
	// The generic list path (no ConfigMapList descriptor) gives the same.
	generic := protobuf.New(func(gvk meta.GroupVersionKind) protoreflect.MessageDescriptor {
		if gvk.Kind == "ConfigMap" {
			return Resolver()(gvk)
		}
		return nil
	})
	d2, err := generic.Decode(kb)
	if err != nil || !reflect.DeepEqual(d2.Object, d.Object) {
		t.Fatalf("generic list: %v", err)
	}
	if enc, err := generic.Encode(d.Object); err != nil || !bytes.Equal(enc, kb) {
		t.Fatalf("generic list encode: %v", err)
	}
	// An empty list.
	empty := &corev1.PodList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PodList"}, ListMeta: metav1.ListMeta{ResourceVersion: "1"}}
	if mine, kb := c.EncodeList("v1", "PodList", meta.ListMeta{ResourceVersion: "1"}, nil), kubeEncode(t, empty); !bytes.Equal(mine, kb) {
		t.Fatalf("empty list bytes differ\n got %x\nwant %x", mine, kb)
	}
}

// TestWatchStream: a framed stream of EncodeWatchEvent is what
// kube-apiserver writes, and client-go's watch decoder reads it.
func TestWatchStream(t *testing.T) {
	c := protobuf.New(Resolver())
	var objs []*corev1.ConfigMap
	for _, o := range objects() {
		if cm, ok := o.(*corev1.ConfigMap); ok {
			objs = append(objs, cm)
		}
	}
	types := []watch.EventType{watch.Added, watch.Modified}

	// kube-apiserver: the object enveloped by the protobuf serializer, the
	// event by the raw serializer, framed by length.
	var kube bytes.Buffer
	fw := framer.NewLengthDelimitedFrameWriter(&kube)
	raw := k8sprotobuf.NewRawSerializer(scheme.Scheme, scheme.Scheme)
	var mine bytes.Buffer
	for i, cm := range objs {
		ev := &metav1.WatchEvent{Type: string(types[i]), Object: runtime.RawExtension{Raw: kubeEncode(t, cm)}}
		var buf bytes.Buffer
		if err := raw.Encode(ev, &buf); err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write(buf.Bytes()); err != nil {
			t.Fatal(err)
		}
		obj, err := c.Encode(jsonMap(t, cm))
		if err != nil {
			t.Fatal(err)
		}
		mine.Write(protobuf.Frame(protobuf.EncodeWatchEvent(string(types[i]), obj)))
	}
	// An ERROR event carries a Status.
	st := apierrors.NewResourceExpired("too old resource version: 1 (5)").ErrStatus
	st.TypeMeta = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
	ev := &metav1.WatchEvent{Type: string(watch.Error), Object: runtime.RawExtension{Raw: kubeEncode(t, &st)}}
	var buf bytes.Buffer
	if err := raw.Encode(ev, &buf); err != nil {
		t.Fatal(err)
	}
	fw.Write(buf.Bytes())
	stb, err := c.Encode(meta.Expired("too old resource version: 1 (5)"))
	if err != nil {
		t.Fatal(err)
	}
	mine.Write(protobuf.Frame(protobuf.EncodeWatchEvent("ERROR", stb)))

	if !bytes.Equal(mine.Bytes(), kube.Bytes()) {
		t.Fatalf("watch stream differs\n got %x\nwant %x", mine.Bytes(), kube.Bytes())
	}

	// client-go's decoding of a protobuf watch response.
	info, ok := runtimeSerializerInfo(protobuf.MediaType)
	if !ok {
		t.Fatal("no protobuf serializer in client-go's scheme")
	}
	frames := info.StreamSerializer.Framer.NewFrameReader(io.NopCloser(&mine))
	dec := restclientwatch.NewDecoder(streaming.NewDecoder(frames, info.StreamSerializer.Serializer), scheme.Codecs.UniversalDeserializer())
	for i, cm := range objs {
		typ, obj, err := dec.Decode()
		if err != nil {
			t.Fatal(err)
		}
		got, ok := obj.(*corev1.ConfigMap)
		if typ != types[i] || !ok {
			t.Fatalf("event %d: %s %T", i, typ, obj)
		}
		want := unmarshalled(t, cm, mustMarshal(t, cm)).(*corev1.ConfigMap)
		if !apiequality.Semantic.DeepEqual(got, want) {
			t.Fatalf("event %d object:\n got %s\nwant %s", i, js(got), js(want))
		}
	}
	typ, obj, err := dec.Decode()
	if err != nil || typ != watch.Error {
		t.Fatalf("error event: %s %v", typ, err)
	}
	if st, ok := obj.(*metav1.Status); !ok || st.Reason != metav1.StatusReasonExpired || st.Code != http.StatusGone {
		t.Fatalf("error event object %#v", obj)
	}
	if _, _, err := dec.Decode(); err != io.EOF {
		t.Fatalf("end of stream: %v", err)
	}

	// The codec decodes a Kubernetes watch event too (enveloped as kind
	// WatchEvent, which kube-apiserver never does on the wire).
	first := kube.Bytes()[4:]
	n := int(kube.Bytes()[3]) | int(kube.Bytes()[2])<<8
	d, err := c.Decode(protobuf.Envelope("v1", "WatchEvent", first[:n]))
	if err != nil {
		t.Fatal(err)
	}
	wantObj := jsonMap(t, objs[0])
	if d.Object["type"] != "ADDED" || !reflect.DeepEqual(d.Object["object"], wantObj) {
		t.Fatalf("decoded WatchEvent %s", js(d.Object))
	}
}

func mustMarshal(t *testing.T, o protoObject) []byte {
	t.Helper()
	b, err := o.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func runtimeSerializerInfo(mediaType string) (runtime.SerializerInfo, bool) {
	return runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), mediaType)
}

// TestDeleteOptions: DeleteOptions bodies as client-go sends them (in the
// group version of the resource) decode, and encode back byte for byte.
func TestDeleteOptions(t *testing.T) {
	c := protobuf.New(Resolver())
	grace := int64(0)
	policy := metav1.DeletePropagationForeground
	uid := "8d9c6a4e"
	rv := "42"
	for _, gv := range []schema.GroupVersion{{Version: "v1"}, {Group: "apps", Version: "v1"}, {Group: "meta.k8s.io", Version: "v1"}} {
		opts := &metav1.DeleteOptions{
			TypeMeta:           metav1.TypeMeta{APIVersion: gv.String(), Kind: "DeleteOptions"},
			GracePeriodSeconds: &grace, Preconditions: &metav1.Preconditions{UID: (*types.UID)(&uid), ResourceVersion: &rv},
			OrphanDependents: new(bool), PropagationPolicy: &policy, DryRun: []string{metav1.DryRunAll},
			IgnoreStoreReadErrorWithClusterBreakingPotential: new(bool),
		}
		var body []byte
		if gv.Group == "meta.k8s.io" {
			// As clients with metav1's scheme send them.
			body = kubeEncode(t, opts)
		} else {
			// As client-go's REST client encodes a request body.
			enc := scheme.Codecs.EncoderForVersion(runtimeSerializer(t), gv)
			var err error
			if body, err = runtime.Encode(enc, opts); err != nil {
				t.Fatal(err)
			}
		}
		d, err := c.Decode(body)
		if err != nil {
			t.Fatal(err)
		}
		if want := jsonMap(t, opts); !reflect.DeepEqual(map[string]any(d.Object), want) {
			t.Fatalf("%v:\n got %s\nwant %s", gv, js(d.Object), js(want))
		}
		mine, err := c.Encode(d.Object)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(mine, body) {
			t.Fatalf("%v: DeleteOptions bytes differ\n got %x\nwant %x", gv, mine, body)
		}
	}
	// Empty options (kubectl delete without flags).
	body := kubeEncode(t, &metav1.DeleteOptions{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "DeleteOptions"}})
	d, err := c.Decode(body)
	if err != nil || js(d.Object) != `{"apiVersion":"v1","kind":"DeleteOptions"}` {
		t.Fatalf("empty DeleteOptions: %v %s", err, js(d.Object))
	}
}

func runtimeSerializer(t *testing.T) runtime.Serializer {
	info, ok := runtimeSerializerInfo(protobuf.MediaType)
	if !ok {
		t.Fatal("no protobuf serializer")
	}
	return info.Serializer
}
