package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	protobufserializer "k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/features"
	clientfeaturestesting "k8s.io/client-go/features/testing"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/cache"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/examples/server/kapiserver"
)

const protobufMediaType = "application/vnd.kubernetes.protobuf"

// protobufMagic starts every Kubernetes protobuf body: "k8s\x00".
var protobufMagic = []byte{0x6b, 0x38, 0x73, 0x00}

// typedClient is what the typed clients of ConfigMaps, Secrets and
// Deployments have in common.
type typedClient[T runtime.Object, L runtime.Object] interface {
	Create(ctx context.Context, obj T, opts metav1.CreateOptions) (T, error)
	Get(ctx context.Context, name string, opts metav1.GetOptions) (T, error)
	List(ctx context.Context, opts metav1.ListOptions) (L, error)
	Update(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error)
	Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (T, error)
	Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error
}

// kindCase drives one kind through the protobuf/JSON comparison.
type kindCase[T runtime.Object, L runtime.Object] struct {
	clients   func(kubernetes.Interface) typedClient[T, L]
	newObject func(name string) T
	mutate    func(T) // an update's change
	patch     string  // a strategic merge patch
	items     func(L) []T
	informer  func(informers.SharedInformerFactory) cache.SharedIndexInformer
}

// compareProtobufWithJSON runs create/get/list/update/patch/delete and an
// informer through the protobuf clientset pb and checks every object it
// decodes against what the JSON clientset js reads back for the same
// object. The steps depend on each other: a failed one ends the test.
func compareProtobufWithJSON[T runtime.Object, L runtime.Object](t *testing.T, pb, js kubernetes.Interface, k kindCase[T, L]) {
	ctx := context.Background()
	p, j := k.clients(pb), k.clients(js)
	readBack := func(t *testing.T, name string) T {
		t.Helper()
		got, err := j.Get(ctx, name, metav1.GetOptions{})
		require.NoError(t, err)
		return got
	}
	step := func(name string, f func(t *testing.T)) {
		t.Helper()
		if !t.Run(name, f) {
			t.FailNow()
		}
	}

	step("create answers what JSON reads", func(t *testing.T) {
		created, err := p.Create(ctx, k.newObject("pb-1"), metav1.CreateOptions{})
		require.NoError(t, err)
		assertSemanticEqual(t, readBack(t, "pb-1"), created)
		_, err = p.Create(ctx, k.newObject("pb-2"), metav1.CreateOptions{})
		require.NoError(t, err)
	})
	step("get answers what JSON reads", func(t *testing.T) {
		got, err := p.Get(ctx, "pb-1", metav1.GetOptions{})
		require.NoError(t, err)
		assertSemanticEqual(t, readBack(t, "pb-1"), got)
	})
	t.Run("list answers what JSON lists", func(t *testing.T) {
		pbList, err := p.List(ctx, metav1.ListOptions{})
		require.NoError(t, err)
		jsList, err := j.List(ctx, metav1.ListOptions{})
		require.NoError(t, err)
		require.Len(t, k.items(pbList), 2)
		// 03-list-watch.md: the items of a JSON list "do not carry
		// kind/apiVersion" (nor can protobuf items). Everything else must
		// match; then the items' kind and apiVersion are checked.
		itemsCarryTypeMeta := false
		for _, item := range k.items(jsList) {
			if item.GetObjectKind().GroupVersionKind() != (schema.GroupVersionKind{}) {
				itemsCarryTypeMeta = true
				item.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
			}
		}
		assertSemanticEqual(t, jsList, pbList, "apart from the items' kind and apiVersion")
		assert.False(t, itemsCarryTypeMeta, "items of a JSON list of a built-in kind carry no kind and apiVersion, as kube's")
	})
	step("update answers what JSON reads", func(t *testing.T) {
		got, err := p.Get(ctx, "pb-1", metav1.GetOptions{})
		require.NoError(t, err)
		k.mutate(got)
		updated, err := p.Update(ctx, got, metav1.UpdateOptions{})
		require.NoError(t, err)
		assertSemanticEqual(t, readBack(t, "pb-1"), updated)

		_, err = p.Update(ctx, got, metav1.UpdateOptions{})
		assert.True(t, apierrors.IsConflict(err), "a stale protobuf update conflicts: %v", err)
	})
	step("strategic merge patch answers what JSON reads", func(t *testing.T) {
		patched, err := p.Patch(ctx, "pb-1", types.StrategicMergePatchType, []byte(k.patch), metav1.PatchOptions{})
		require.NoError(t, err)
		assertSemanticEqual(t, readBack(t, "pb-1"), patched)
	})
	step("delete with a uid precondition deletes", func(t *testing.T) {
		uid := objectUID(t, readBack(t, "pb-2"))
		require.NoError(t, p.Delete(ctx, "pb-2", metav1.DeleteOptions{Preconditions: metav1.NewUIDPreconditions(string(uid))}))
		_, err := j.Get(ctx, "pb-2", metav1.GetOptions{})
		assert.True(t, apierrors.IsNotFound(err), "%v", err)
		_, err = p.Get(ctx, "pb-2", metav1.GetOptions{})
		assert.True(t, apierrors.IsNotFound(err), "a protobuf client reads a 404 Status: %v", err)
	})
	for _, watchList := range []bool{false, true} {
		t.Run(fmt.Sprintf("an informer with WatchListClient=%v holds what JSON reads, from its list and from watch events", watchList), func(t *testing.T) {
			clientfeaturestesting.SetFeatureDuringTest(t, features.WatchListClient, watchList)
			name := fmt.Sprintf("inf-%v", watchList)
			_, err := p.Create(ctx, k.newObject(name), metav1.CreateOptions{})
			require.NoError(t, err)
			ctx, cancel := context.WithCancel(ctx)
			factory := informers.NewSharedInformerFactoryWithOptions(pb, 0, informers.WithNamespace("default"))
			inf := k.informer(factory)
			factory.Start(ctx.Done())
			defer func() { cancel(); factory.Shutdown() }()
			syncCtx, syncCancel := context.WithTimeout(ctx, 2*time.Minute)
			defer syncCancel()
			require.True(t, cache.WaitForCacheSync(syncCtx.Done(), inf.HasSynced), "the informer syncs")
			cached := func() (T, bool) {
				obj, exists, err := inf.GetStore().GetByKey("default/" + name)
				if err != nil || !exists {
					var zero T
					return zero, false
				}
				return obj.(T), true
			}
			initial, ok := cached()
			require.True(t, ok, "the informer lists %s", name)
			assertSemanticEqual(t, readBack(t, name), initial, "from the initial list")

			cur := readBack(t, name)
			k.mutate(cur)
			changed, err := j.Update(ctx, cur, metav1.UpdateOptions{})
			require.NoError(t, err)
			rv := resourceVersionOf(t, changed)
			require.Eventually(t, func() bool {
				obj, ok := cached()
				return ok && resourceVersionOf(t, obj) == rv
			}, 2*time.Minute, 10*time.Millisecond, "the informer sees the update")
			fromWatch, _ := cached()
			assertSemanticEqual(t, readBack(t, name), fromWatch, "from a watch event")

			require.NoError(t, j.Delete(ctx, name, metav1.DeleteOptions{}))
			require.Eventually(t, func() bool { _, ok := cached(); return !ok }, 2*time.Minute, 10*time.Millisecond, "the informer sees the delete")
		})
	}
}

func objectUID(t *testing.T, obj runtime.Object) types.UID {
	t.Helper()
	m, err := apimeta.Accessor(obj)
	require.NoError(t, err)
	return m.GetUID()
}

func resourceVersionOf(t *testing.T, obj runtime.Object) string {
	m, err := apimeta.Accessor(obj)
	require.NoError(t, err)
	return m.GetResourceVersion()
}

// TestProtobufClientsetReadsWhatJSONReads: a typed clientset speaking
// protobuf (client-go's default for built-in kinds) decodes every answer
// to the same Go object as a JSON clientset. Not parallel: the informer
// steps set a client-go feature gate.
func TestProtobufClientsetReadsWhatJSONReads(t *testing.T) {
	t.Run("configmaps", func(t *testing.T) {
		c := startCluster(t)
		compareProtobufWithJSON(t, clientsetFor(t, c, protobufMediaType), clientsetFor(t, c, "application/json"), kindCase[*corev1.ConfigMap, *corev1.ConfigMapList]{
			clients: func(cs kubernetes.Interface) typedClient[*corev1.ConfigMap, *corev1.ConfigMapList] {
				return cs.CoreV1().ConfigMaps("default")
			},
			newObject: func(name string) *corev1.ConfigMap {
				return &corev1.ConfigMap{
					ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"a": "b"}, Annotations: map[string]string{"note": "x"}, Finalizers: []string{}},
					Data:       map[string]string{"k": "v", "empty": ""},
					BinaryData: map[string][]byte{"bin": {0, 1, 2, 0xff}},
				}
			},
			mutate: func(cm *corev1.ConfigMap) { cm.Data["k"] = cm.Data["k"] + "+"; cm.Labels["updated"] = "yes" },
			patch:  `{"data":{"patched":"yes"},"metadata":{"labels":{"a":null}}}`,
			items:  func(l *corev1.ConfigMapList) []*corev1.ConfigMap { return ptrs(l.Items) },
			informer: func(f informers.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Core().V1().ConfigMaps().Informer()
			},
		})
	})
	t.Run("secrets", func(t *testing.T) {
		c := startCluster(t)
		compareProtobufWithJSON(t, clientsetFor(t, c, protobufMediaType), clientsetFor(t, c, "application/json"), kindCase[*corev1.Secret, *corev1.SecretList]{
			clients: func(cs kubernetes.Interface) typedClient[*corev1.Secret, *corev1.SecretList] {
				return cs.CoreV1().Secrets("default")
			},
			newObject: func(name string) *corev1.Secret {
				return &corev1.Secret{
					ObjectMeta: metav1.ObjectMeta{Name: name},
					Type:       corev1.SecretTypeOpaque,
					Data:       map[string][]byte{"password": []byte("s3cr3t"), "raw": {0, 0xfe}},
					StringData: map[string]string{"user": "admin"},
				}
			},
			mutate: func(s *corev1.Secret) {
				s.Data["password"] = []byte("changed")
				s.Immutable = ptr(false)
			},
			patch: `{"data":{"token":"dG9rZW4="}}`,
			items: func(l *corev1.SecretList) []*corev1.Secret { return ptrs(l.Items) },
			informer: func(f informers.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Core().V1().Secrets().Informer()
			},
		})
	})
	t.Run("deployments", func(t *testing.T) {
		c := startCluster(t)
		compareProtobufWithJSON(t, clientsetFor(t, c, protobufMediaType), clientsetFor(t, c, "application/json"), kindCase[*appsv1.Deployment, *appsv1.DeploymentList]{
			clients: func(cs kubernetes.Interface) typedClient[*appsv1.Deployment, *appsv1.DeploymentList] {
				return cs.AppsV1().Deployments("default")
			},
			newObject: func(name string) *appsv1.Deployment {
				d := twoContainerDeployment(name)
				d.Spec.Template.Spec.Containers[0].Ports = []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}}
				d.Spec.Template.Spec.Containers[0].Resources = corev1.ResourceRequirements{Limits: corev1.ResourceList{
					corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("128Mi"),
				}}
				d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType}
				return d
			},
			mutate: func(d *appsv1.Deployment) {
				d.Spec.Template.Spec.Containers[1].Image += "-next"
				d.Spec.Replicas = ptr(*d.Spec.Replicas + 1)
			},
			patch: `{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"nginx:patched"}]}}}}`,
			items: func(l *appsv1.DeploymentList) []*appsv1.Deployment { return ptrs(l.Items) },
			informer: func(f informers.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Apps().V1().Deployments().Informer()
			},
		})
	})
}

func ptrs[T any](items []T) []*T {
	out := make([]*T, len(items))
	for i := range items {
		out[i] = &items[i]
	}
	return out
}

// rawGet sends one GET with an Accept header.
func rawGet(t *testing.T, url, accept string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	req.Header.Set("Accept", accept)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, body
}

func TestARawProtobufGetStartsWithTheKubernetesMagic(t *testing.T) {
	c := startCluster(t)
	cs := clientsetFor(t, c, "application/json")
	_, err := cs.CoreV1().ConfigMaps("default").Create(context.Background(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm1"}, Data: map[string]string{"k": "v"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	createDeployment(t, cs, twoContainerDeployment("d1"))

	for _, tc := range []struct {
		path string
		code int
		// check inspects the decoded body.
		check func(t *testing.T, obj runtime.Object)
	}{
		{"/api/v1/namespaces/default/configmaps/cm1", http.StatusOK, func(t *testing.T, obj runtime.Object) {
			require.IsType(t, &corev1.ConfigMap{}, obj)
			assert.Equal(t, "cm1", obj.(*corev1.ConfigMap).Name)
			assert.Equal(t, map[string]string{"k": "v"}, obj.(*corev1.ConfigMap).Data)
		}},
		{"/api/v1/namespaces/default/configmaps", http.StatusOK, func(t *testing.T, obj runtime.Object) {
			require.IsType(t, &corev1.ConfigMapList{}, obj)
			require.Len(t, obj.(*corev1.ConfigMapList).Items, 1)
			assert.Equal(t, "cm1", obj.(*corev1.ConfigMapList).Items[0].Name)
		}},
		{"/apis/apps/v1/namespaces/default/deployments/d1", http.StatusOK, func(t *testing.T, obj runtime.Object) {
			require.IsType(t, &appsv1.Deployment{}, obj)
			assert.Equal(t, []string{"a", "b"}, containerNames(obj.(*appsv1.Deployment)))
		}},
		{"/api/v1/namespaces/default/configmaps/missing", http.StatusNotFound, func(t *testing.T, obj runtime.Object) {
			require.IsType(t, &metav1.Status{}, obj)
			assert.Equal(t, metav1.StatusReasonNotFound, obj.(*metav1.Status).Reason)
			assert.Equal(t, `configmaps "missing" not found`, obj.(*metav1.Status).Message)
		}},
	} {
		t.Run(tc.path, func(t *testing.T) {
			resp, body := rawGet(t, c.url+tc.path, protobufMediaType)
			assert.Equal(t, tc.code, resp.StatusCode)
			assert.Equal(t, protobufMediaType, resp.Header.Get("Content-Type"))
			require.GreaterOrEqual(t, len(body), 4)
			require.Equal(t, protobufMagic, body[:4], "% x", body[:min(len(body), 16)])
			obj, _, err := protobufserializer.NewSerializer(scheme.Scheme, scheme.Scheme).Decode(body, nil, nil)
			require.NoError(t, err)
			tc.check(t, obj)
		})
	}
}

// gadgetResource is a kind registered with the server for which the
// example server's protobuf codec has no message descriptor.
var gadgetResource = apiserver.Resource{Group: "example.com", Version: "v1", Kind: "Gadget", Plural: "gadgets", Namespaced: true}

// TestAKindWithoutProtobufFallsBackToJSON: client-go's default Accept for
// built-ins, "application/vnd.kubernetes.protobuf,application/json", gets
// JSON for a kind without protobuf (06-protobuf.md "CR with Accept:
// application/vnd.kubernetes.protobuf, application/json"): a custom resource,
// and a kind the server was configured with but has no descriptor for.
func TestAKindWithoutProtobufFallsBackToJSON(t *testing.T) {
	cfg := kapiserver.Config()
	cfg.Resources = append(cfg.Resources, gadgetResource)
	c := startClusterWith(t, cfg)
	dc, err := dynamic.NewForConfig(restConfigFor(t, c, "application/json"))
	require.NoError(t, err)
	ctx := context.Background()
	_, err = dc.Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}).
		Create(ctx, mustYAMLObject(t, widgetCRD), metav1.CreateOptions{})
	require.NoError(t, err)

	for _, kind := range []struct{ kind, plural string }{{"Widget", "widgets"}, {"Gadget", "gadgets"}} {
		t.Run(kind.kind, func(t *testing.T) {
			objects := dc.Resource(schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: kind.plural}).Namespace("default")
			obj := &unstructured.Unstructured{Object: map[string]any{
				"apiVersion": "example.com/v1", "kind": kind.kind, "metadata": map[string]any{"name": "x1"}, "spec": map[string]any{"size": int64(3)},
			}}
			require.EventuallyWithT(t, func(c *assert.CollectT) {
				_, err := objects.Create(ctx, obj, metav1.CreateOptions{})
				assert.NoError(c, err)
			}, 2*time.Minute, 20*time.Millisecond, "the kind is served")
			base := c.url + "/apis/example.com/v1/namespaces/default/" + kind.plural

			for _, accept := range []string{protobufMediaType + ", application/json", protobufMediaType + ",application/json"} {
				t.Run("get with Accept: "+accept+" answers JSON", func(t *testing.T) {
					resp, body := rawGet(t, base+"/x1", accept)
					require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
					assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
					var got unstructured.Unstructured
					require.NoError(t, json.Unmarshal(body, &got.Object), string(body))
					assert.Equal(t, kind.kind, got.GetKind())
					assert.Equal(t, "x1", got.GetName())
				})
				t.Run("list with Accept: "+accept+" answers JSON", func(t *testing.T) {
					resp, body := rawGet(t, base, accept)
					require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
					assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
					var l unstructured.UnstructuredList
					require.NoError(t, l.UnmarshalJSON(body), string(body))
					assert.Equal(t, kind.kind+"List", l.GetKind())
					require.Len(t, l.Items, 1)
					assert.Equal(t, "x1", l.Items[0].GetName())
				})
			}
			t.Run("watch with Accept: protobuf;stream=watch, application/json answers JSON", func(t *testing.T) {
				req, err := http.NewRequest(http.MethodGet, base+"?watch=true&timeoutSeconds=30", nil)
				require.NoError(t, err)
				req.Header.Set("Accept", protobufMediaType+";stream=watch, application/json")
				resp, err := http.DefaultClient.Do(req)
				require.NoError(t, err)
				defer resp.Body.Close()
				require.Equal(t, http.StatusOK, resp.StatusCode)
				assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
				// The first event is on its own line; the stream stays open.
				line, err := bufio.NewReader(resp.Body).ReadBytes('\n')
				require.NoError(t, err, string(line))
				var ev struct {
					Type   string         `json:"type"`
					Object map[string]any `json:"object"`
				}
				require.NoError(t, json.Unmarshal(line, &ev), string(line))
				assert.Equal(t, "ADDED", ev.Type)
				assert.Equal(t, kind.kind, ev.Object["kind"])
			})
			t.Run("protobuf only is 406 Not Acceptable", func(t *testing.T) {
				resp, body := rawGet(t, base+"/x1", protobufMediaType)
				require.Equal(t, http.StatusNotAcceptable, resp.StatusCode)
				status := decodeStatus(t, resp.Header.Get("Content-Type"), body)
				assert.Equal(t, metav1.StatusReasonNotAcceptable, status.Reason)
				assert.Equal(t, int32(http.StatusNotAcceptable), status.Code)
				if kind.kind != "Widget" {
					return
				}
				// 06-protobuf.md "CR with protobuf-only Accept": the Status
				// itself is protobuf, with this message (sic) and no details.
				assert.Equal(t, protobufMediaType, resp.Header.Get("Content-Type"))
				assert.Equal(t, "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf", status.Message)
				assert.Nil(t, status.Details)
			})
		})
	}
}

// decodeStatus decodes a Status body of the given Content-Type.
func decodeStatus(t *testing.T, contentType string, body []byte) *metav1.Status {
	t.Helper()
	status := &metav1.Status{}
	switch contentType {
	case protobufMediaType:
		require.True(t, bytes.HasPrefix(body, protobufMagic), "% x", body)
		_, _, err := protobufserializer.NewSerializer(scheme.Scheme, scheme.Scheme).Decode(body, nil, status)
		require.NoError(t, err)
	case "application/json":
		require.NoError(t, json.Unmarshal(body, status), string(body))
	default:
		require.Failf(t, "unexpected Content-Type", "%q: %s", contentType, body)
	}
	assert.Equal(t, "Status", status.Kind)
	return status
}

// deleteBodyRecorder records the Content-Type and body of every DELETE a
// client sends.
type deleteBodyRecorder struct {
	next http.RoundTripper
	mu   sync.Mutex
	sent []recordedRequest
}

type recordedRequest struct {
	contentType string
	body        []byte
}

func (r *deleteBodyRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodDelete && req.Body != nil {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		_ = req.Body.Close()
		req.Body = io.NopCloser(bytes.NewReader(body))
		r.mu.Lock()
		r.sent = append(r.sent, recordedRequest{contentType: req.Header.Get("Content-Type"), body: body})
		r.mu.Unlock()
	}
	return r.next.RoundTrip(req)
}

func (r *deleteBodyRecorder) last() recordedRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.sent) == 0 {
		return recordedRequest{}
	}
	return r.sent[len(r.sent)-1]
}

// TestADeleteWithAProtobufDeleteOptionsBodyHonoursItsPreconditions sends
// DeleteOptions the way controller-runtime does: a protobuf REST client
// with the options as the request body.
func TestADeleteWithAProtobufDeleteOptionsBodyHonoursItsPreconditions(t *testing.T) {
	c := startCluster(t)
	js := clientsetFor(t, c, "application/json")
	recorder := &deleteBodyRecorder{}
	cfg := restConfigFor(t, c, protobufMediaType)
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { recorder.next = rt; return recorder }
	pb := clientsetWithConfig(t, cfg)
	ctx := context.Background()

	for _, tc := range []struct {
		name     string
		create   func(name string) (types.UID, error)
		delete   func(name string, opts *metav1.DeleteOptions) error
		exists   func(name string) error
		conflict string
	}{
		{
			name: "a ConfigMap",
			create: func(name string) (types.UID, error) {
				cm, err := js.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
				if err != nil {
					return "", err
				}
				return cm.UID, nil
			},
			delete: func(name string, opts *metav1.DeleteOptions) error {
				return pb.CoreV1().RESTClient().Delete().Namespace("default").Resource("configmaps").Name(name).Body(opts).Do(ctx).Error()
			},
			exists: func(name string) error {
				_, err := js.CoreV1().ConfigMaps("default").Get(ctx, name, metav1.GetOptions{})
				return err
			},
			conflict: `Operation cannot be fulfilled on ConfigMap "%s": the UID in the precondition (wrong) does not match the UID in record (%s). The object might have been deleted and then recreated`,
		},
		{
			name: "a Deployment",
			create: func(name string) (types.UID, error) {
				d, err := js.AppsV1().Deployments("default").Create(ctx, twoContainerDeployment(name), metav1.CreateOptions{})
				if err != nil {
					return "", err
				}
				return d.UID, nil
			},
			delete: func(name string, opts *metav1.DeleteOptions) error {
				return pb.AppsV1().RESTClient().Delete().Namespace("default").Resource("deployments").Name(name).Body(opts).Do(ctx).Error()
			},
			exists: func(name string) error {
				_, err := js.AppsV1().Deployments("default").Get(ctx, name, metav1.GetOptions{})
				return err
			},
			conflict: `Operation cannot be fulfilled on Deployment.apps "%s": the UID in the precondition (wrong) does not match the UID in record (%s). The object might have been deleted and then recreated`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := "pre-" + strings.ToLower(strings.TrimPrefix(tc.name, "a "))
			uid, err := tc.create(name)
			require.NoError(t, err)

			err = tc.delete(name, &metav1.DeleteOptions{Preconditions: metav1.NewUIDPreconditions("wrong")})
			sent := recorder.last()
			assert.Equal(t, protobufMediaType, sent.contentType)
			require.GreaterOrEqual(t, len(sent.body), 4)
			assert.Equal(t, protobufMagic, sent.body[:4], "the DeleteOptions went as protobuf")
			require.True(t, apierrors.IsConflict(err), "a wrong uid precondition conflicts: %v", err)
			assert.Equal(t, fmt.Sprintf(tc.conflict, name, uid), err.Error())
			require.NoError(t, tc.exists(name), "the object survives")

			require.NoError(t, tc.delete(name, &metav1.DeleteOptions{Preconditions: metav1.NewUIDPreconditions(string(uid))}))
			assert.True(t, apierrors.IsNotFound(tc.exists(name)), "the matching precondition deletes")
		})
	}
}
