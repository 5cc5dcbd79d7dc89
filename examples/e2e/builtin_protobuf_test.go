package e2e

// Every built-in kind through client-go's typed machinery in
// protobuf, and `kubectl explain` of every kind.

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
)

// builtinScheme knows every built-in kind client-go knows, and CRDs.
var builtinScheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(apiextensionsv1.AddToScheme(s))
	return s
}()

// protoRESTClient is a REST client of one group version speaking protobuf,
// decoding into the k8s.io/api types, as client-go's typed clients do.
func protoRESTClient(t *testing.T, c *cluster, gv schema.GroupVersion) rest.Interface {
	t.Helper()
	cfg := restConfigFor(t, c, runtime.ContentTypeProtobuf)
	cfg.AcceptContentTypes = runtime.ContentTypeProtobuf
	cfg.GroupVersion = &gv
	cfg.APIPath = "/apis"
	if gv.Group == "" {
		cfg.APIPath = "/api"
	}
	cfg.NegotiatedSerializer = serializer.NewCodecFactory(builtinScheme).WithoutConversion()
	rc, err := rest.RESTClientFor(cfg)
	require.NoError(t, err)
	return rc
}

// TestEveryBuiltInKindRoundTripsThroughProtobuf creates the object the
// reference stored for each manifest through a protobuf client (decoded
// into its k8s.io/api type first, as a typed client holds it), reads it
// back in protobuf, and compares it with the same object read as JSON:
// both wire forms of every kind carry the same object.
func TestEveryBuiltInKindRoundTripsThroughProtobuf(t *testing.T) {
	c := startCluster(t)
	ctx := context.Background()
	files, err := filepath.Glob(filepath.Join(builtinDir, "stored", "*.json"))
	require.NoError(t, err)
	sort.SliceStable(files, func(i, j int) bool { // namespaces first
		return strings.Contains(files[i], "core_namespace") && !strings.Contains(files[j], "core_namespace")
	})
	for _, f := range files {
		if strings.Contains(f, ".via-") {
			continue // views of objects created from their own manifest
		}
		raws := readJSONFile(t, f).([]any)
		for _, raw := range raws {
			obj := raw.(map[string]any)
			apiVersion, kind := obj["apiVersion"].(string), obj["kind"].(string)
			gv, err := schema.ParseGroupVersion(apiVersion)
			require.NoError(t, err)
			name := kind + " " + obj["metadata"].(map[string]any)["name"].(string)
			t.Run(name, func(t *testing.T) {
				if _, ok := builtinScheme.AllKnownTypes()[gv.WithKind(kind)]; !ok {
					t.Skipf("%s has no Go type in client-go (kube-aggregator's APIService: kubeproto's codec test holds it to kube's bytes)", kind)
				}
				md := obj["metadata"].(map[string]any)
				for _, k := range []string{"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields", "finalizers"} {
					delete(md, k)
				}
				if kind == "Job" {
					// kube generates a Job's selector and pod labels from its uid and
					// refuses ones naming another (10-validation.md): a Job read back
					// is created again without them.
					spec := obj["spec"].(map[string]any)
					delete(spec, "selector")
					labels := spec["template"].(map[string]any)["metadata"].(map[string]any)["labels"].(map[string]any)
					for _, k := range []string{"controller-uid", "batch.kubernetes.io/controller-uid", "job-name", "batch.kubernetes.io/job-name"} {
						delete(labels, k)
					}
				}
				typed, err := builtinScheme.New(gv.WithKind(kind))
				require.NoError(t, err)
				b, _ := json.Marshal(obj)
				require.NoError(t, json.Unmarshal(b, typed))

				rc := protoRESTClient(t, c, gv)
				req := rc.Post()
				if n, ok := md["namespace"].(string); ok {
					req = req.Namespace(n)
				}
				plural := pluralOf(apiVersion, kind)
				created, err := builtinScheme.New(gv.WithKind(kind))
				require.NoError(t, err)
				require.NoError(t, req.Resource(plural).Body(typed).Do(ctx).Into(created), "create %s in protobuf", name)

				get := rc.Get().Resource(plural).Name(md["name"].(string))
				if n, ok := md["namespace"].(string); ok {
					get = get.Namespace(n)
				}
				viaProto, err := builtinScheme.New(gv.WithKind(kind))
				require.NoError(t, err)
				require.NoError(t, get.Do(ctx).Into(viaProto), "get %s in protobuf", name)

				viaJSON, err := builtinScheme.New(gv.WithKind(kind))
				require.NoError(t, err)
				path := objectPath(map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": md})
				require.NoError(t, json.Unmarshal(httpGet(t, c.url+path, "application/json"), viaJSON))
				viaJSON.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
				viaProto.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
				if sts, ok := viaJSON.(*appsv1.StatefulSet); ok {
					// Protobuf carries no TypeMeta: kube's own protobuf answers
					// lose the claim templates' apiVersion and kind too.
					for i := range sts.Spec.VolumeClaimTemplates {
						sts.Spec.VolumeClaimTemplates[i].TypeMeta = metav1.TypeMeta{}
					}
				}
				assert.True(t, equality.Semantic.DeepEqual(viaJSON, viaProto), "%s:\n json  %+v\n proto %+v", name, viaJSON, viaProto)
				assert.Equal(t, created.(metav1.Object).GetUID(), viaProto.(metav1.Object).GetUID())
			})
		}
	}
}

// TestKubectlExplainsEveryBuiltInKind runs `kubectl explain` for every
// resource kube serves (as kubectl api-resources named them against the
// reference), and for a field of each, as against kube.
func TestKubectlExplainsEveryBuiltInKind(t *testing.T) {
	c := startCluster(t)
	k := kubectlFor(t, c, "1.33")
	b, err := os.ReadFile(filepath.Join(builtinDir, "api-resources", "kubectl-1.33.txt"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")[1:]
	for _, l := range lines {
		f := strings.Fields(l)
		resource, apiVersion := f[0], f[len(f)-3]
		kind := f[len(f)-1]
		t.Run(resource+"."+apiVersion, func(t *testing.T) {
			t.Parallel()
			out := k.forTest(t).must("explain", resource, "--api-version="+apiVersion)
			assert.Contains(t, out, "KIND:       "+kind)
			assert.Contains(t, out, "VERSION:    "+strings.TrimPrefix(apiVersion[strings.LastIndex(apiVersion, "/")+1:], "/"))
			assert.Contains(t, out, "FIELDS:")
			out = k.forTest(t).must("explain", resource+".metadata.name", "--api-version="+apiVersion)
			assert.Contains(t, out, "FIELD: name <string>")
		})
	}
}
