// Command convrt measures reads of a custom resource through a CRD
// conversion webhook on an API server, kapi or kube-apiserver alike: it
// serves a conversion webhook on loopback TLS (spec.color at v1,
// spec.colour at v2), creates a CRD storing v1 and serving v2 through it,
// creates M objects at v1, then times N rounds of a GET and a LIST (all M
// objects) at each version, and a GET at v2 just after the object was
// written at v1 (the conversion of a new stored version), over one
// keep-alive client. It prints the medians and the webhook's reviews and
// objects per request:
//
//	go run -C hack ./convrt http://127.0.0.1:8080 - 300 100          # kapi -insecure
//	go run -C hack ./convrt https://127.0.0.1:16443 TOKEN 300 100    # the reference
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
	"strings"
	"sync/atomic"
	"time"
)

const (
	group   = "convrt.example.com"
	crdName = "rtpaints." + group
	v1Path  = "/apis/" + group + "/v1/namespaces/default/rtpaints"
	v2Path  = "/apis/" + group + "/v2/namespaces/default/rtpaints"
)

var reviews, objects atomic.Int64

// convert is the conversion webhook: spec.color (v1) is spec.colour (v2).
func convert(w http.ResponseWriter, r *http.Request) {
	reviews.Add(1)
	var review struct {
		Request struct {
			UID               string           `json:"uid"`
			DesiredAPIVersion string           `json:"desiredAPIVersion"`
			Objects           []map[string]any `json:"objects"`
		} `json:"request"`
	}
	_ = json.NewDecoder(r.Body).Decode(&review)
	objects.Add(int64(len(review.Request.Objects)))
	from, into := "colour", "color"
	if strings.HasSuffix(review.Request.DesiredAPIVersion, "/v2") {
		from, into = "color", "colour"
	}
	for _, o := range review.Request.Objects {
		if spec, ok := o["spec"].(map[string]any); ok {
			if c, ok := spec[from]; ok {
				spec[into] = c
				delete(spec, from)
			}
		}
		o["apiVersion"] = review.Request.DesiredAPIVersion
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
		"response": map[string]any{"uid": review.Request.UID, "result": map[string]any{"status": "Success"},
			"convertedObjects": review.Request.Objects}})
}

func main() {
	if len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: convrt SERVER-URL BEARER-TOKEN|- N OBJECTS")
		os.Exit(2)
	}
	base, token := os.Args[1], os.Args[2]
	n, err1 := strconv.Atoi(os.Args[3])
	m, err2 := strconv.Atoi(os.Args[4])
	if err1 != nil || err2 != nil || n < 1 || m < 1 {
		fmt.Fprintln(os.Stderr, "N and OBJECTS must be positive numbers")
		os.Exit(2)
	}
	hs := httptest.NewUnstartedServer(http.HandlerFunc(convert))
	hs.EnableHTTP2 = true
	hs.StartTLS()
	defer hs.Close()
	ca := base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: hs.Certificate().Raw}))
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, MaxIdleConnsPerHost: 4}}
	do := func(method, path, contentType string, body []byte) (int, []byte) {
		req, _ := http.NewRequest(method, base+path, bytes.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		if token != "-" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := client.Do(req)
		if err != nil {
			panic(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, out
	}
	must := func(code int, method, path string, body []byte) []byte {
		got, out := do(method, path, "application/json", body)
		if got != code {
			panic(fmt.Sprintf("%s %s: %d, want %d: %s", method, path, got, code, out))
		}
		return out
	}

	const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	if code, _ := do("DELETE", crds+"/"+crdName, "application/json", nil); code == 200 {
		for i := 0; ; i++ {
			if code, _ := do("GET", crds+"/"+crdName, "", nil); code == 404 {
				break
			}
			if i > 300 {
				panic("the previous CRD is not gone")
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	schema := func(field string) string {
		return `{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"` + field + `":{"type":"string"},"n":{"type":"integer"}}}}}}`
	}
	must(201, "POST", crds, []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"`+crdName+`"},
"spec":{"group":"`+group+`","scope":"Namespaced","names":{"plural":"rtpaints","kind":"RTPaint"},
"conversion":{"strategy":"Webhook","webhook":{"conversionReviewVersions":["v1"],"clientConfig":{"url":"`+hs.URL+`/convert","caBundle":"`+ca+`"}}},
"versions":[{"name":"v1","served":true,"storage":true,"schema":`+schema("color")+`},{"name":"v2","served":true,"storage":false,"schema":`+schema("colour")+`}]}}`))
	defer do("DELETE", crds+"/"+crdName, "application/json", nil)
	for i := 0; ; i++ { // established and served
		if code, _ := do("GET", v2Path, "", nil); code == 200 {
			break
		}
		if i > 300 {
			panic("the CRD is not served")
		}
		time.Sleep(100 * time.Millisecond)
	}
	for i := 0; i < m; i++ {
		must(201, "POST", v1Path, []byte(fmt.Sprintf(`{"apiVersion":"%s/v1","kind":"RTPaint","metadata":{"name":"p%d"},"spec":{"color":"red","n":0}}`, group, i)))
	}
	time.Sleep(2 * time.Second) // kube's watch cache catches up
	if out := must(200, "GET", v2Path, nil); bytes.Count(out, []byte(`"colour":"red"`)) != m {
		panic("the list at v2 is not converted")
	}

	type op struct {
		name    string
		times   []time.Duration
		reviews int64
		objects int64
	}
	ops := []*op{{name: "GET v1"}, {name: "GET v2"}, {name: "LIST v1"}, {name: "LIST v2"}, {name: "GET v2 after a write"}}
	timed := func(o *op, path string) {
		r0, o0 := reviews.Load(), objects.Load()
		t0 := time.Now()
		must(200, "GET", path, nil)
		o.times = append(o.times, time.Since(t0))
		o.reviews += reviews.Load() - r0
		o.objects += objects.Load() - o0
	}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("/p%d", i%m)
		timed(ops[0], v1Path+name)
		timed(ops[1], v2Path+name)
		timed(ops[2], v1Path)
		timed(ops[3], v2Path)
		if code, out := do("PATCH", v1Path+name, "application/merge-patch+json", []byte(fmt.Sprintf(`{"spec":{"n":%d}}`, i+1))); code != 200 {
			panic(fmt.Sprintf("patch: %d %s", code, out))
		}
		timed(ops[4], v2Path+name)
	}
	med := func(d []time.Duration) time.Duration {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return d[len(d)/2]
	}
	fmt.Printf("%d objects, medians of %d:\n", m, n)
	for _, o := range ops {
		fmt.Printf("  %-22s %10v  webhook: %.2f reviews, %.1f objects per request\n", o.name, med(o.times),
			float64(o.reviews)/float64(n), float64(o.objects)/float64(n))
	}
}
