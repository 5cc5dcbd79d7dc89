package kubeproto

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/codec/protobuf"
	"github.com/kapi-dev/kapi/meta"
)

func TestScratch(t *testing.T) {
	c := protobuf.New(Resolver())
	pod := &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", Labels: map[string]string{"a": "b"}},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{Name: "c", Image: "nginx",
				Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{"cpu": resource.MustParse("100m")}}}},
			Volumes: []corev1.Volume{{Name: "v", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}},
		},
	}
	raw, err := pod.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	d, err := c.Decode(protobuf.Envelope("v1", "Pod", raw))
	if err != nil {
		t.Fatal(err)
	}
	j, _ := json.Marshal(pod)
	want, _ := codec.DecodeJSONValue(j)
	if !reflect.DeepEqual(map[string]any(d.Object), want) {
		g, _ := json.Marshal(d.Object)
		t.Errorf("got  %s\nwant %s", g, j)
	}
	mine, err := c.EncodeMessage(meta.Object(want.(map[string]any)))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mine, raw) {
		t.Errorf("bytes differ:\n%x\n%x", mine, raw)
	}
}
