// Command webhookrt measures a validating admission webhook's round trip
// on an API server, kapi or kube-apiserver alike: it serves an allowing
// webhook on loopback TLS, registers it for ConfigMaps labelled hook=on,
// times N dry-run creates without the label and N with, alternating, over
// one keep-alive client, and prints the medians and their difference:
//
//	go run -C hack ./webhookrt http://127.0.0.1:8080 - 500          # kapi -insecure
//	go run -C hack ./webhookrt https://127.0.0.1:16443 TOKEN 500    # the reference
package main

import (
	"bytes"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strconv"
	"time"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: webhookrt SERVER-URL BEARER-TOKEN|- N")
		os.Exit(2)
	}
	base, token := os.Args[1], os.Args[2]
	n, err := strconv.Atoi(os.Args[3])
	if err != nil || n < 1 {
		fmt.Fprintln(os.Stderr, "N must be a positive number")
		os.Exit(2)
	}
	hooks := http.NewServeMux()
	hooks.HandleFunc("/allow", func(w http.ResponseWriter, r *http.Request) {
		var review struct {
			Request struct {
				UID string `json:"uid"`
			} `json:"request"`
		}
		_ = json.NewDecoder(r.Body).Decode(&review)
		fmt.Fprintf(w, `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":%q,"allowed":true}}`, review.Request.UID)
	})
	hs := httptest.NewUnstartedServer(hooks)
	hs.EnableHTTP2 = true
	hs.StartTLS()
	ca := base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: hs.Certificate().Raw}))
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, MaxIdleConnsPerHost: 4}}
	do := func(method, path string, body []byte) int {
		req, _ := http.NewRequest(method, base+path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if token != "-" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := client.Do(req)
		if err != nil {
			panic(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	cfg := `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingWebhookConfiguration","metadata":{"name":"rt"},
"webhooks":[{"name":"rt.example.com","clientConfig":{"url":"` + hs.URL + `/allow","caBundle":"` + ca + `"},
"rules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["configmaps"]}],
"objectSelector":{"matchLabels":{"hook":"on"}},"sideEffects":"None","admissionReviewVersions":["v1"]}]}`
	do("DELETE", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/rt", nil)
	if code := do("POST", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations", []byte(cfg)); code != 201 {
		panic(code)
	}
	time.Sleep(2 * time.Second) // kube's informers
	stamp := time.Now().UnixNano()
	var without, with []time.Duration
	for i := 0; i < n; i++ {
		for _, hook := range []bool{false, true} {
			labels := ""
			if hook {
				labels = `,"labels":{"hook":"on"}`
			}
			body := fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"rt-%d-%d-%v"%s},"data":{"a":"b"}}`, stamp, i, hook, labels)
			t0 := time.Now()
			if code := do("POST", "/api/v1/namespaces/default/configmaps?dryRun=All", []byte(body)); code != 201 {
				panic(code)
			}
			if hook {
				with = append(with, time.Since(t0))
			} else {
				without = append(without, time.Since(t0))
			}
		}
	}
	do("DELETE", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/rt", nil)
	med := func(d []time.Duration) time.Duration {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return d[len(d)/2]
	}
	fmt.Printf("without %v  with webhook %v  round trip %v (medians of %d)\n", med(without), med(with), med(with)-med(without), n)
}
