package e2e

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/examples/server/kapiserver"
)

const unauthorizedBody = `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}` + "\n"

// TestHostileCredentials: malformed Authorization headers, huge tokens,
// forged, foreign and expired JWTs each get kube's 401, whose body says
// nothing about why, and never echo the credential; impersonation headers
// get kube's answers.
func TestHostileCredentials(t *testing.T) {
	keyFile := filepath.Join(t.TempDir(), "sa.key")
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	der, err := x509.MarshalECPrivateKey(key)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}), 0o600))
	c := startSecureCluster(t, kapiserver.Options{ServiceAccountSigningKeyFile: keyFile})
	ctx := context.Background()
	admin := clientset(t, c.restConfig())
	sa, err := admin.CoreV1().ServiceAccounts("default").Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "victim"}}, metav1.CreateOptions{})
	require.NoError(t, err)

	// Tokens signed with the server's own key but from the past, or by
	// another key.
	issue := func(signing *ecdsa.PrivateKey, now time.Time, issuer string) string {
		tokens, err := authn.NewServiceAccountTokens(authn.ServiceAccountConfig{Issuers: []string{issuer}, SigningKey: signing,
			Objects: authn.StoreGetter(c.sec.Config.Store), Now: func() time.Time { return now }})
		require.NoError(t, err)
		tok, _, err := tokens.Issue(authn.ServiceAccountToken{Namespace: "default", ServiceAccountName: "victim",
			ServiceAccountUID: string(sa.UID), Expiration: 10 * time.Minute})
		require.NoError(t, err)
		return tok
	}
	const issuer = "https://kubernetes.default.svc.cluster.local"
	valid := issue(key, time.Now(), issuer)
	other, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	parts := strings.Split(valid, ".")
	adminClaims := base64.RawURLEncoding.EncodeToString([]byte(`{"aud":["` + issuer + `"],"iss":"` + issuer +
		`","kubernetes.io":{"namespace":"kube-system","serviceaccount":{"name":"admin","uid":"x"}},"sub":"system:serviceaccount:kube-system:admin"}`))

	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: rootCAs(t, c.sec.CAData)}}}
	get := func(headers map[string]string, path ...string) (*http.Response, string) {
		p := "/api/v1/namespaces/default/configmaps"
		if len(path) > 0 {
			p = path[0]
		}
		req, err := http.NewRequest("GET", c.url+p, nil)
		require.NoError(t, err)
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		resp, err := client.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp, string(body)
	}
	require.Equal(t, http.StatusOK, must(get(map[string]string{"Authorization": "Bearer " + valid}, "/api")).StatusCode, "the genuine token works")

	unauthorized := map[string]string{
		"an unknown bearer token":            "Bearer not-a-token",
		"an empty bearer token":              "Bearer ",
		"a scheme without a token":           "Bearer",
		"two spaces before the token":        "Bearer  alice-token",
		"basic credentials":                  "Basic YWxpY2U6cGFzc3dvcmQ=",
		"a token of garbage bytes":           "Bearer \xff\xfe\x80ab",
		"a 512 KiB token":                    "Bearer " + strings.Repeat("A", 512<<10),
		"a JWT with a changed signature":     "Bearer " + parts[0] + "." + parts[1] + "." + strings.Repeat("A", len(parts[2])),
		"a JWT with forged claims":           "Bearer " + parts[0] + "." + adminClaims + "." + parts[2],
		"a JWT signed by another key":        "Bearer " + issue(other, time.Now(), issuer),
		"an expired JWT":                     "Bearer " + issue(key, time.Now().Add(-time.Hour), issuer),
		"a JWT not valid yet":                "Bearer " + issue(key, time.Now().Add(time.Hour), issuer),
		"a JWT of another issuer":            "Bearer " + issue(key, time.Now(), "https://evil.example.com"),
		"an unsigned JWT":                    "Bearer " + base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none"}`)) + "." + parts[1] + ".",
		"a JWT with three thousand segments": "Bearer " + strings.Repeat("a.", 3000),
	}
	for name, header := range unauthorized {
		t.Run(name+" is kube's 401", func(t *testing.T) {
			resp, body := get(map[string]string{"Authorization": header})
			assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
			assert.Equal(t, unauthorizedBody, body)
			for k, vs := range resp.Header {
				for _, v := range vs {
					if len(header) > 12 {
						assert.NotContains(t, v, header[7:], "header %s echoes the credential", k)
					}
				}
			}
		})
	}
	t.Run("a deleted ServiceAccount's token stops working at once", func(t *testing.T) {
		tok := issue(key, time.Now(), issuer)
		require.Equal(t, http.StatusOK, must(get(map[string]string{"Authorization": "Bearer " + tok}, "/api")).StatusCode)
		require.NoError(t, admin.CoreV1().ServiceAccounts("default").Delete(ctx, "victim", metav1.DeleteOptions{}))
		resp, body := get(map[string]string{"Authorization": "Bearer " + tok}, "/api")
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
		assert.Equal(t, unauthorizedBody, body)
	})

	t.Run("impersonation headers get kube's answers", func(t *testing.T) {
		cases := []struct {
			name    string
			headers map[string]string
			code    int
			body    string
		}{
			{"an unknown Impersonate- header is ignored", map[string]string{"Authorization": "Bearer alice-token", "Impersonate-Foo": "x"}, 403,
				`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps is forbidden: User \"alice\" cannot list resource \"configmaps\" in API group \"\" in the namespace \"default\"","reason":"Forbidden","details":{"kind":"configmaps"},"code":403}` + "\n"},
			{"a user alice may not impersonate", map[string]string{"Authorization": "Bearer alice-token", "Impersonate-User": "bob"}, 403,
				`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"users \"bob\" is forbidden: User \"alice\" cannot impersonate resource \"users\" in API group \"\" at the cluster scope","reason":"Forbidden","details":{"name":"bob","kind":"users"},"code":403}` + "\n"},
			{"a group without a user", map[string]string{"Authorization": "Bearer alice-token", "Impersonate-Group": "system:masters"}, 500,
				"Internal Server Error: \"/api/v1/namespaces/default/configmaps\": requested [{Group  system:masters    }] without impersonating a user\n"},
			{"impersonation without credentials", map[string]string{"Impersonate-User": "kapi-admin"}, 401, unauthorizedBody},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				resp, body := get(tc.headers)
				assert.Equal(t, tc.code, resp.StatusCode)
				assert.Equal(t, tc.body, body)
			})
		}
	})
}

func must(resp *http.Response, _ string) *http.Response { return resp }

func rootCAs(t *testing.T, pemData []byte) *x509.CertPool {
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(pemData))
	return pool
}
