package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver/policy"
	"github.com/kapi-dev/kapi/meta"
)

// answering is a webhook server whose answer is the fuzzer's bytes, with
// $UID replaced by the uid of the review it was sent (so answers reach
// past the uid check).
func answering(t testing.TB) (url string, set func([]byte)) {
	var answer []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var rv struct {
			Request struct {
				UID string `json:"uid"`
			} `json:"request"`
		}
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &rv)
		_, _ = w.Write(bytes.ReplaceAll(answer, []byte("$UID"), []byte(rv.Request.UID)))
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func(b []byte) { answer = b }
}

// noHost is a server with no namespaces and no other resources.
type noHost struct{}

func (noHost) Namespace(context.Context, string) (map[string]any, error) { return nil, nil }
func (noHost) ResourceForKind(string, string) (policy.ResourceKind, bool) {
	return policy.ResourceKind{}, false
}
func (noHost) Get(context.Context, policy.ResourceKind, string, string) (map[string]any, error) {
	return nil, nil
}
func (noHost) List(context.Context, policy.ResourceKind, string, policy.LabelSelector) ([]map[string]any, error) {
	return nil, nil
}
func (noHost) Equivalents(meta.GroupVersionResource) []policy.ResourceKind { return nil }
func (noHost) Convert(_ context.Context, obj map[string]any, _ string) (map[string]any, error) {
	return obj, nil
}

// Whatever an admission webhook answers, a mutating and a validating call
// end in an allowed request (a mutated object that is still an object) or
// a kube-shaped *meta.Status, never a panic.
func FuzzAdmissionAnswers(f *testing.F) {
	for _, seed := range []string{
		`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"$UID","allowed":true}}`,
		`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"$UID","allowed":true,"warnings":["w"],"patchType":"JSONPatch","patch":"W3sib3AiOiJhZGQiLCJwYXRoIjoiL21ldGFkYXRhL2xhYmVscyIsInZhbHVlIjp7Im0iOiJ5In19XQ=="}}`,
		`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"$UID","allowed":true,"patchType":"JSONPatch","patch":"W3sib3AiOiJyZXBsYWNlIiwicGF0aCI6IiIsInZhbHVlIjo1fV0="}}`,
		`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"$UID","allowed":false,"status":{"code":200,"reason":"Nope","details":{"causes":[{}]}}}}`,
		`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"$UID","allowed":true,"patchType":"","patch":"x"}}`,
		`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"other"}}`,
		`[1,2]`, `null`, `this is not json`, `kind: AdmissionReview`,
	} {
		f.Add([]byte(seed))
	}
	url, set := answering(f)
	config := func(kind string) map[string]any {
		return map[string]any{"metadata": map[string]any{"name": "fuzz"}, "webhooks": []any{map[string]any{
			"name": "fuzz.example.com", "clientConfig": map[string]any{"url": url}, "sideEffects": "None", "timeoutSeconds": int64(5),
			"reinvocationPolicy": "IfNeeded",
			"rules":              []any{map[string]any{"operations": []any{"*"}, "apiGroups": []any{""}, "apiVersions": []any{"v1"}, "resources": []any{"configmaps"}}},
		}}}
	}
	mutating, validating := ParseConfiguration(config("Mutating"), true), ParseConfiguration(config("Validating"), false)
	d := &Dispatcher{Clients: &Clients{}}
	f.Fuzz(func(t *testing.T, answer []byte) {
		set(answer)
		a := &policy.Attributes{Operation: "CREATE", Kind: meta.GroupVersionKind{Version: "v1", Kind: "ConfigMap"},
			Resource: meta.GroupVersionResource{Version: "v1", Resource: "configmaps"}, Namespace: "default", Name: "cm",
			Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "cm", "namespace": "default"}}}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		checkStatus := func(err error) {
			if err == nil {
				return
			}
			var st *meta.Status
			require.True(t, errors.As(err, &st), "%T %v", err, err)
			require.GreaterOrEqual(t, st.Code, int32(400), "%v", st)
		}
		checkStatus(d.Mutate(ctx, mutating, noHost{}, a, Report{}))
		require.NotNil(t, a.Object, "a mutation leaves an object")
		_, err := json.Marshal(a.Object)
		require.NoError(t, err)
		checkStatus(d.Validate(ctx, validating, noHost{}, a, Report{}))
	})
}

// Whatever a conversion webhook answers, Convert returns as many objects
// as it was given, each of the version asked for with the original's
// name, namespace and uid, or an error, never a panic.
func FuzzConversionAnswers(f *testing.F) {
	for _, seed := range []string{
		`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","response":{"uid":"$UID","result":{"status":"Success"},"convertedObjects":[{"apiVersion":"conv.example.com/v2","kind":"Paint","metadata":{"name":"p","namespace":"ns","uid":"u","labels":{"a":"b"}},"spec":{"colour":"red"}}]}}`,
		`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","response":{"uid":"$UID","result":{"status":"Success"},"convertedObjects":[{"apiVersion":"conv.example.com/v2","kind":"Paint","metadata":{"name":"p","namespace":"ns","uid":"u","annotations":{"a":1}}}]}}`,
		`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","response":{"uid":"$UID","result":{"status":"Success"},"convertedObjects":[{"apiVersion":"conv.example.com/v2","kind":"Paint","metadata":"x"}]}}`,
		`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","response":{"uid":"$UID","result":{"status":"Failure","message":"no"}}}`,
		`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","response":{"uid":"$UID","result":{"status":"Success"},"convertedObjects":[1]}}`,
		`{"apiVersion":"apiextensions.k8s.io/v1beta1","kind":"ConversionReview"}`,
		`{"kind":"ConversionReview"}`, `[]`, `"s"`, `this is not json`,
	} {
		f.Add([]byte(seed))
	}
	url, set := answering(f)
	c := &Conversion{Clients: &Clients{}, Client: ClientConfig{URL: url}, Timeout: 5 * time.Second,
		ValidateMetadata: func(string, map[string]any) error { return nil }}
	f.Fuzz(func(t *testing.T, answer []byte) {
		set(answer)
		in := []map[string]any{{"apiVersion": "conv.example.com/v1", "kind": "Paint",
			"metadata": map[string]any{"name": "p", "namespace": "ns", "uid": "u"}, "spec": map[string]any{"color": "red"}}}
		out, err := c.Convert(context.Background(), in, "conv.example.com/v1, Kind=Paint", "conv.example.com/v2")
		if err != nil {
			require.NotEmpty(t, err.Error())
			return
		}
		require.Len(t, out, 1)
		require.Equal(t, "conv.example.com/v2", out[0]["apiVersion"])
		md, ok := out[0]["metadata"].(map[string]any)
		require.True(t, ok)
		for _, k := range []string{"name", "namespace", "uid"} {
			require.Equal(t, in[0]["metadata"].(map[string]any)[k], md[k])
		}
		_, err = json.Marshal(out[0])
		require.NoError(t, err)
	})
}
