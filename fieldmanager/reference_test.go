package fieldmanager_test

import (
	"bytes"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
)

// The reference run: with FIELDMANAGER_REFERENCE_URL set to a real
// kube-apiserver (shared/reference-server; token in
// FIELDMANAGER_REFERENCE_TOKEN, default "reference-admin-token"), every
// scenario is replayed there over HTTP instead of against this package,
// and the server's managedFields, conflicts and object are compared with
// the scenario's expectations. Times are compared by presence only (the
// real clock does not tick once per operation), so entries are compared
// as a set. kapi's tests never need it; it is how the expectations were
// checked:
//
//	FIELDMANAGER_REFERENCE_URL=https://127.0.0.1:16443 go test ./fieldmanager -run Scenario
var referenceURL = os.Getenv("FIELDMANAGER_REFERENCE_URL")

type refClient struct {
	http  *http.Client
	token string
	ns    string
}

var (
	refOnce sync.Once
	ref     *refClient
	refErr  error
)

func reference(t *testing.T) *refClient {
	t.Helper()
	refOnce.Do(func() {
		token := os.Getenv("FIELDMANAGER_REFERENCE_TOKEN")
		if token == "" {
			token = "reference-admin-token"
		}
		c := &refClient{
			http:  &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}},
			token: token,
			ns:    fmt.Sprintf("fm-%d", time.Now().UnixNano()),
		}
		refErr = c.setup(t)
		ref = c
	})
	require.NoError(t, refErr)
	return ref
}

func (c *refClient) do(method, path, contentType string, body any) (int, map[string]any, error) {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, referenceURL+path, r)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("User-Agent", "")
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, err
	}
	v, err := codec.DecodeValue(b)
	if err != nil {
		return resp.StatusCode, nil, fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	m, _ := v.(map[string]any)
	return resp.StatusCode, m, nil
}

func (c *refClient) setup(t *testing.T) error {
	if code, body, err := c.do("POST", "/api/v1/namespaces", "application/json",
		map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": c.ns}}); err != nil || code != 201 {
		return fmt.Errorf("creating namespace: %d %v %v", code, body, err)
	}
	for _, f := range []string{"testdata/widget-crd.yaml", "testdata/gizmo-crd.yaml"} {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		crd, err := parseObject(b)
		if err != nil {
			return err
		}
		code, body, err := c.do("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "application/json", crd)
		if err != nil || (code != 201 && code != 409) {
			return fmt.Errorf("creating %s: %d %v %v", f, code, body, err)
		}
	}
	for _, p := range []string{"/apis/example.com/v1/widgets", "/apis/example.com/v2/widgets", "/apis/example.com/v1/gizmos"} {
		deadline := time.Now().Add(30 * time.Second)
		for {
			code, _, _ := c.do("GET", p, "", nil)
			if code == 200 {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("%s never served", p)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	return nil
}

func (c *refClient) collection(kind, apiVersion string) string {
	switch kind {
	case configMap:
		return "/api/" + or(apiVersion, "v1") + "/namespaces/" + c.ns + "/configmaps"
	case deployment:
		return "/apis/" + or(apiVersion, "apps/v1") + "/namespaces/" + c.ns + "/deployments"
	case widget:
		return "/apis/" + or(apiVersion, "example.com/v1") + "/namespaces/" + c.ns + "/widgets"
	case gizmo:
		return "/apis/" + or(apiVersion, "example.com/v1") + "/namespaces/" + c.ns + "/gizmos"
	}
	panic(kind)
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

var nonName = regexp.MustCompile(`[^a-z0-9]+`)

func objectName(scenario string) string {
	h := sha256.Sum256([]byte(scenario))
	n := strings.Trim(nonName.ReplaceAllString(strings.ToLower(scenario), "-"), "-")
	if len(n) > 40 {
		n = n[:40]
	}
	return strings.Trim(n, "-") + "-" + hex.EncodeToString(h[:4])
}

func runReference(t *testing.T, name string, sc scenario) {
	c := reference(t)
	objName := objectName(name)
	var live meta.Object
	for i, o := range sc.Ops {
		step := i + 1
		switch o := o.(type) {
		case Update:
			body := parse(t, o.Object)
			body.SetMetadataField("name", objName)
			body.SetMetadataField("namespace", c.ns)
			q := url.Values{}
			if o.Manager != "" {
				q.Set("fieldManager", o.Manager)
			}
			var code int
			var out map[string]any
			var err error
			if live == nil {
				code, out, err = c.do("POST", c.collection(sc.Kind, o.APIVersion)+"?"+q.Encode(), "application/json", body)
			} else {
				body.SetMetadataField("resourceVersion", live.ResourceVersion())
				p := c.collection(sc.Kind, o.APIVersion) + "/" + objName
				if o.Subresource != "" {
					p += "/" + o.Subresource
				}
				code, out, err = c.do("PUT", p+"?"+q.Encode(), "application/json", body)
			}
			require.NoError(t, err)
			require.Contains(t, []int{200, 201}, code, "step %d: %v", step, out)
			live = out
		case Apply:
			body := parse(t, o.Object)
			origName := body.Name()
			if origName != "" {
				body.SetMetadataField("name", objName)
			}

			q := url.Values{"fieldManager": {o.Manager}}
			if o.Force {
				q.Set("force", "true")
			}
			p := c.collection(sc.Kind, o.APIVersion) + "/" + objName
			if o.Subresource != "" {
				p += "/" + o.Subresource
			}
			code, out, err := c.do("PATCH", p+"?"+q.Encode(), "application/apply-patch+yaml", body)
			require.NoError(t, err)
			if msg, ok := out["message"].(string); ok && origName != "" {
				out["message"] = strings.ReplaceAll(msg, objName, origName)
			}
			switch {
			case o.Conflict != "":
				require.Equal(t, 409, code, "step %d: %v", step, out)
				assert.Equal(t, o.Conflict, out["message"], "step %d", step)
				if o.Causes != nil {
					var got []cause
					for _, x := range out["details"].(map[string]any)["causes"].([]any) {
						m := x.(map[string]any)
						got = append(got, cause{Field: str(m["field"]), Message: str(m["message"])})
					}
					assert.ElementsMatch(t, o.Causes, got, "step %d", step)
				}
			case o.Error != "":
				require.NotContains(t, []int{200, 201}, code, "step %d: %v", step, out)
				assert.Equal(t, o.Error, out["message"], "step %d", step)
			default:
				require.Contains(t, []int{200, 201}, code, "step %d: %v", step, out)
				live = out
			}
		default:
			t.Fatalf("unknown op %T", o)
		}
	}
	if live == nil {
		assert.Empty(t, sc.Managed)
		return
	}
	code, out, err := c.do("GET", c.collection(sc.Kind, "")+"/"+objName, "", nil)
	require.NoError(t, err)
	require.Equal(t, 200, code)
	got := entriesOf(t, out)
	for i := range got {
		if got[i].Time != 0 {
			got[i].Time = 1 // present or not
		}
	}
	want := slices.Clone(sc.Managed)
	for i := range want {
		if want[i].Time != 0 {
			want[i].Time = 1
		}
		want[i].Fields = canonicalJSON(t, want[i].Fields)
	}
	assert.ElementsMatch(t, want, got, "managedFields")
	if sc.Object != "" && sc.Kind != deployment {
		exp := parse(t, sc.Object)
		for k, v := range exp {
			if k == "apiVersion" {
				continue // the reference answers in its storage version
			}
			if k == "metadata" {
				for _, f := range []string{"labels", "finalizers", "ownerReferences"} {
					assert.Equal(t, v.(map[string]any)[f], meta.Object(out).Metadata()[f], "metadata.%s", f)
				}
				continue
			}
			assert.Equal(t, v, out[k], "%s", k)
		}
	}
}
