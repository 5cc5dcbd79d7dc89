package builtin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// decode reads JSON as kapi's codec does: integers int64, other numbers
// float64.
func decode(t testing.TB, src string) map[string]any {
	t.Helper()
	v, err := codec.DecodeValue([]byte(src))
	require.NoError(t, err)
	return v.(map[string]any)
}

var (
	deploymentGVK = meta.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	podGVK        = meta.GroupVersionKind{Version: "v1", Kind: "Pod"}
	serviceGVK    = meta.GroupVersionKind{Version: "v1", Kind: "Service"}
)

// Examples from the Kubernetes documentation (kubernetes.io/examples).
const (
	nginxDeployment = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"nginx-deployment","labels":{"app":"nginx"}},
		"spec":{"replicas":3,"selector":{"matchLabels":{"app":"nginx"}},
		"template":{"metadata":{"labels":{"app":"nginx"}},"spec":{"containers":[{"name":"nginx","image":"nginx:1.14.2","ports":[{"containerPort":80}]}]}}}}`
	simplePod = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"nginx"},
		"spec":{"containers":[{"name":"nginx","image":"nginx:1.14.2","ports":[{"containerPort":80}]}]}}`
	podWithResources = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"frontend"},"spec":{"containers":[
		{"name":"app","image":"images.my-company.example/app:v4","resources":{"requests":{"memory":"64Mi","cpu":"250m"},"limits":{"memory":"128Mi","cpu":0.5}}},
		{"name":"log-aggregator","image":"images.my-company.example/log-aggregator:v6","resources":{"requests":{"memory":"64Mi","cpu":"250m"},"limits":{"memory":"128Mi","cpu":"500m"}}}]}}`
	simpleService = `{"apiVersion":"v1","kind":"Service","metadata":{"name":"my-service"},
		"spec":{"selector":{"app.kubernetes.io/name":"MyApp"},"ports":[{"protocol":"TCP","port":80,"targetPort":9376}]}}`
	gameConfigMap = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"game-demo"},
		"data":{"player_initial_lives":"3","ui_properties_file_name":"user-interface.properties","game.properties":"enemy.types=aliens,monsters\nplayer.maximum-lives=5\n"}}`
	secretBasicAuth = `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"secret-basic-auth"},"type":"kubernetes.io/basic-auth",
		"stringData":{"username":"admin","password":"t0p-Secret"}}`
	lease = `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"my-lease","namespace":"default"},
		"spec":{"holderIdentity":"node-1","leaseDurationSeconds":40,"acquireTime":"2024-01-01T00:00:00.000000Z","renewTime":"2024-01-01T00:00:10.000000Z","leaseTransitions":1}}`
	namespace      = `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"development","labels":{"name":"development"}}}`
	serviceAccount = `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"build-robot"},"automountServiceAccountToken":false}`
	event          = `{"apiVersion":"v1","kind":"Event","metadata":{"name":"e1","namespace":"default"},"involvedObject":{"kind":"Pod","name":"nginx","namespace":"default"},
		"reason":"Started","message":"Started container","type":"Normal","count":1,"firstTimestamp":"2024-01-01T00:00:00Z","lastTimestamp":"2024-01-01T00:00:00Z","source":{"component":"kubelet"}}`
)

func TestAnUnknownFieldInAContainerIsPrunedAndReported(t *testing.T) {
	s := Schema(deploymentGVK)
	require.NotNil(t, s)
	obj := decode(t, nginxDeployment)
	c := obj["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
	c["foo"] = "bar"

	unknown := s.Prune(obj, true)
	require.Equal(t, []string{"spec.template.spec.containers[0].foo"}, unknown)
	assert.Equal(t, `unknown field "spec.template.spec.containers[0].foo"`, fmt.Sprintf("unknown field %q", unknown[0]),
		"the warning kube-apiserver sends with fieldValidation=Warn")
	assert.NotContains(t, c, "foo")
}

func TestExamplesFromTheDocsAreValid(t *testing.T) {
	tests := []struct {
		name string
		gvk  meta.GroupVersionKind
		obj  string
	}{
		{"the nginx Deployment", deploymentGVK, nginxDeployment},
		{"the simple Pod", podGVK, simplePod},
		{"a Pod with resource quantities as strings and numbers", podGVK, podWithResources},
		{"the simple Service", serviceGVK, simpleService},
		{"the game ConfigMap", meta.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, gameConfigMap},
		{"a basic-auth Secret", meta.GroupVersionKind{Version: "v1", Kind: "Secret"}, secretBasicAuth},
		{"a Lease", meta.GroupVersionKind{Group: "coordination.k8s.io", Version: "v1", Kind: "Lease"}, lease},
		{"a Namespace", meta.GroupVersionKind{Version: "v1", Kind: "Namespace"}, namespace},
		{"a ServiceAccount", meta.GroupVersionKind{Version: "v1", Kind: "ServiceAccount"}, serviceAccount},
		{"an Event", meta.GroupVersionKind{Version: "v1", Kind: "Event"}, event},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Schema(tt.gvk)
			require.NotNil(t, s)
			obj := decode(t, tt.obj)
			assert.Empty(t, s.Prune(obj, true), "no unknown fields")
			s.Default(obj)
			assert.Empty(t, s.Validate(obj))
		})
	}
}

func TestDefaultsOfBuiltInsAreTheZeroValuesKubeEncodes(t *testing.T) {
	s := Schema(deploymentGVK)
	obj := decode(t, nginxDeployment)
	s.Default(obj)
	port := obj["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)["ports"].([]any)[0]
	assert.Equal(t, map[string]any{"containerPort": int64(80), "protocol": "TCP"}, port, "ContainerPort.protocol defaults to TCP")
	assert.Equal(t, map[string]any{}, obj["status"], "a non-pointer struct encodes as {}")
}

func TestContainersCarryTheirMergeKeysAndListType(t *testing.T) {
	for _, gvk := range []meta.GroupVersionKind{deploymentGVK, podGVK} {
		s := Schema(gvk)
		spec := s.Property("spec")
		if gvk == deploymentGVK {
			spec = spec.Property("template").Property("spec")
		}
		containers := spec.Property("containers")
		assert.Equal(t, "name", containers.PatchMergeKey(), gvk.Kind)
		assert.Equal(t, "merge", containers.PatchStrategy(), gvk.Kind)
		assert.Equal(t, "map", containers.ListType(), gvk.Kind)
		assert.Equal(t, []string{"name"}, containers.ListMapKeys(), gvk.Kind)
		ports := containers.ItemSchema().Property("ports")
		assert.Equal(t, []string{"containerPort", "protocol"}, ports.ListMapKeys())
	}
	d := Schema(deploymentGVK).Property("spec")
	assert.Equal(t, "retainKeys", d.Property("strategy").PatchStrategy(), "extensions next to a reference are kept")
	assert.True(t, d.Property("strategy").Property("rollingUpdate").Property("maxSurge").IsIntOrString())
	assert.True(t, Schema(deploymentGVK).Property("metadata").Property("managedFields").ItemSchema().Property("fieldsV1").PreservesUnknownFields())
	assert.Equal(t, "atomic", d.Property("selector").MapType())
}

func TestEveryServedKindAndItsListHasASchema(t *testing.T) {
	kinds := []meta.GroupVersionKind{{Version: "v1", Kind: "Namespace"}}
	listed := map[meta.GroupVersionKind]bool{kinds[0]: true}
	for _, r := range Resources() {
		kinds = append(kinds, r.GroupVersionKind())
		listed[r.GroupVersionKind()] = r.Verbs == nil || slices.Contains(r.Verbs, "list")
	}
	for _, gvk := range kinds {
		list := gvk
		list.Kind += "List"
		check := []meta.GroupVersionKind{gvk}
		if listed[gvk] {
			check = append(check, list)
		}
		for _, k := range check {
			assert.NotNil(t, Schema(k), "%v", k)
			assert.NotEmpty(t, ComponentName(k), "%v", k)
		}
	}
	assert.Equal(t, "io.k8s.api.apps.v1.Deployment", ComponentName(deploymentGVK))
	assert.Equal(t, "io.k8s.apimachinery.pkg.apis.meta.v1.Status", ComponentName(meta.GroupVersionKind{Version: "v1", Kind: "Status"}))
	assert.Nil(t, Schema(meta.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}))
}

func TestOpenAPIComponentsAreSelfContained(t *testing.T) {
	comps := OpenAPIComponents()
	for name, s := range comps {
		b, err := json.Marshal(s)
		require.NoError(t, err)
		for _, part := range bytes.Split(b, []byte(`"$ref":"`))[1:] {
			ref := string(part[:bytes.IndexByte(part, '"')])
			target := strings.TrimPrefix(ref, schema.ComponentRefPrefix)
			assert.Contains(t, comps, target, "%s refers to %s", name, ref)
		}
	}
	assert.Equal(t, reflect.ValueOf(comps).UnsafePointer(), reflect.ValueOf(OpenAPIComponents()).UnsafePointer(),
		"servers share one read-only map instead of copying it at start-up")
}

func TestBuiltInValidationWording(t *testing.T) {
	s := Schema(deploymentGVK)
	obj := decode(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","creationTimestamp":null},"spec":{"replicas":"3","selector":{},
		"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":[{"image":"x","ports":[{"containerPort":"80"}]}]}}}}`)
	assert.Empty(t, s.Prune(obj, true))
	s.PruneNulls(obj)
	assert.Equal(t, []string{
		`spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`,
		`spec.template.spec.containers[0].ports[0].containerPort: Invalid value: "string": spec.template.spec.containers[0].ports[0].containerPort in body must be of type integer: "string"`,
		`spec.template.spec.containers[0].name: Required value`,
	}, messagesOf(s.Validate(obj)), "kube rejects such built-in objects while decoding (400); the schema wording is the custom-resource one")

	s.Default(obj)
	assert.Len(t, s.Validate(obj), 2, "the zero-value default of name (\"\") satisfies required: validate built-ins before defaulting them")
}

func messagesOf(errs meta.FieldErrors) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Error()
	}
	return out
}

func BenchmarkPruneDefaultValidateDeployment(b *testing.B) {
	s := Schema(deploymentGVK)
	orig := meta.Object(decode(b, nginxDeployment))
	b.ReportAllocs()
	for b.Loop() {
		obj := orig.DeepCopy()
		s.Prune(obj, true)
		s.Default(obj)
		if errs := s.Validate(obj); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

// BenchmarkDeepCopyDeployment is the copy the benchmark above includes.
func BenchmarkDeepCopyDeployment(b *testing.B) {
	orig := meta.Object(decode(b, nginxDeployment))
	b.ReportAllocs()
	for b.Loop() {
		_ = orig.DeepCopy()
	}
}

func BenchmarkSchemaLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if c := loadCatalog(apiserver.DefaultRelease); len(c.parsed) == 0 {
			b.Fatal("empty")
		}
	}
}

func TestBuiltInListTypesAreNotUniquenessChecks(t *testing.T) {
	obj := decode(t, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dupfin","finalizers":["a.io/x","a.io/x"],
		"ownerReferences":[{"apiVersion":"v1","kind":"X","name":"a","uid":"1"},{"apiVersion":"v1","kind":"Y","name":"b","uid":"1"}]}}`)
	assert.Empty(t, Schema(meta.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}).Validate(obj),
		"kube-apiserver 1.33 accepts duplicate finalizers and owner references")
}
