package builtin_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/authz"
	"github.com/kapi-dev/kapi/apiserver/builtin"
	"github.com/kapi-dev/kapi/store"
)

const (
	services    = "/api/v1/namespaces/default/services"
	ipAddresses = "/apis/networking.k8s.io/v1/ipaddresses"
)

// newClusterServer is a server with the built-in kinds allocated from o's
// ranges and the post-start hooks run, serving IPAddresses.
func newClusterServer(t *testing.T, o builtin.Options) *apiserver.Server {
	t.Helper()
	return newClusterServerOn(t, o, nil)
}

// newClusterServerOn is newClusterServer over st (nil: a store of its own).
// Its requests pass the authentication and authorization filters, as a
// served server's do (the example server's, kapitest's): the request info
// those filters put in the context must not leak into the requests an
// allocation sends itself (a Service's IPAddress).
func newClusterServerOn(t *testing.T, o builtin.Options, st store.Store) *apiserver.Server {
	t.Helper()
	return newClusterServerAt(t, apiserver.DefaultRelease, o, st)
}

// newClusterServerAt is newClusterServerOn answering as release r.
func newClusterServerAt(t *testing.T, r apiserver.Release, o builtin.Options, st store.Store) *apiserver.Server {
	t.Helper()
	rs, err := builtin.ResourcesWith(r, o)
	require.NoError(t, err)
	served := false
	for _, r := range rs {
		served = served || r.Group == "networking.k8s.io" && r.Plural == "ipaddresses"
	}
	if !served {
		rs = append(rs, apiserver.Resource{Group: "networking.k8s.io", Version: "v1", Kind: "IPAddress", Plural: "ipaddresses",
			WithoutGeneration: true})
	}
	hooks, err := builtin.PostStartHooks(o)
	require.NoError(t, err)
	srv, err := apiserver.New(apiserver.Config{Release: r, Resources: rs, OpenAPIComponents: builtin.OpenAPIComponentsFor(r), PostStartHooks: hooks,
		Store: st, Authenticator: authn.New(true), Authorizer: authz.AlwaysAllow()})
	require.NoError(t, err)
	return srv
}

func spec(o map[string]any) map[string]any { return o["spec"].(map[string]any) }

// ipAddressNames lists the IPAddress objects.
func ipAddressNames(t *testing.T, srv http.Handler) []string {
	t.Helper()
	code, list := serve(t, srv, "GET", ipAddresses, "", "")
	require.Equal(t, http.StatusOK, code)
	var names []string
	for _, it := range list["items"].([]any) {
		names = append(names, it.(map[string]any)["metadata"].(map[string]any)["name"].(string))
	}
	return names
}

func TestTheKubernetesServiceExistsAtStart(t *testing.T) {
	srv := newClusterServer(t, builtin.Options{})
	code, svc := serve(t, srv, "GET", services+"/kubernetes", "", "")
	require.Equal(t, http.StatusOK, code, svc)
	md := svc["metadata"].(map[string]any)
	assert.Equal(t, map[string]any{"component": "apiserver", "provider": "kubernetes"}, md["labels"])
	assert.Equal(t, map[string]any{
		"clusterIP": "10.96.0.1", "clusterIPs": []any{"10.96.0.1"}, "internalTrafficPolicy": "Cluster",
		"ipFamilies": []any{"IPv4"}, "ipFamilyPolicy": "SingleStack", "sessionAffinity": "None", "type": "ClusterIP",
		"ports": []any{map[string]any{"name": "https", "port": float64(443), "protocol": "TCP", "targetPort": float64(6443)}},
	}, svc["spec"])
	mf := md["managedFields"].([]any)[0].(map[string]any)
	assert.Equal(t, "kube-apiserver", mf["manager"])
	assert.Equal(t, map[string]any{"f:clusterIP": map[string]any{}, "f:internalTrafficPolicy": map[string]any{},
		"f:ipFamilyPolicy": map[string]any{}, "f:sessionAffinity": map[string]any{}, "f:type": map[string]any{},
		"f:ports": map[string]any{".": map[string]any{}, `k:{"port":443,"protocol":"TCP"}`: map[string]any{".": map[string]any{},
			"f:name": map[string]any{}, "f:port": map[string]any{}, "f:protocol": map[string]any{}, "f:targetPort": map[string]any{}}},
	}, mf["fieldsV1"].(map[string]any)["f:spec"], "what kube's bootstrap controller sends, as the reference records it")

	code, ip := serve(t, srv, "GET", ipAddresses+"/10.96.0.1", "", "")
	require.Equal(t, http.StatusOK, code, ip)
	assert.Equal(t, map[string]any{"ipaddress.kubernetes.io/ip-family": "IPv4", "ipaddress.kubernetes.io/managed-by": "ipallocator.k8s.io"},
		ip["metadata"].(map[string]any)["labels"])
	assert.Equal(t, map[string]any{"parentRef": map[string]any{"resource": "services", "namespace": "default", "name": "kubernetes"}}, ip["spec"])
	assert.Equal(t, "kube-apiserver", ip["metadata"].(map[string]any)["managedFields"].([]any)[0].(map[string]any)["manager"])
}

// TestServiceAllocationAnswersAsKube replays what kube-apiserver 1.33
// answered (docs/kube-behaviour/09-services-pods.md), each case on a fresh
// server holding only the kubernetes Service (10.96.0.1) and a NodePort
// Service "taken" on node port 30080.
func TestServiceAllocationAnswersAsKube(t *testing.T) {
	cases := []struct {
		name, body string
		code       int
		message    string                                  // of a failure
		check      func(t *testing.T, spec map[string]any) // of a success
	}{
		{name: "a ClusterIP service gets a random address above the range's first 256",
			body: `{"metadata":{"name":"s"},"spec":{"ports":[{"port":80}]}}`, code: 201,
			check: func(t *testing.T, spec map[string]any) {
				ip := netip.MustParseAddr(spec["clusterIP"].(string))
				assert.True(t, netip.MustParsePrefix("10.96.0.0/16").Contains(ip), ip)
				assert.True(t, ip.Compare(netip.MustParseAddr("10.96.1.0")) >= 0, ip)
				assert.Equal(t, []any{spec["clusterIP"]}, spec["clusterIPs"])
				assert.Equal(t, []any{"IPv4"}, spec["ipFamilies"])
				assert.Equal(t, "SingleStack", spec["ipFamilyPolicy"])
			}},
		{name: "an address asked for is given",
			body: `{"metadata":{"name":"s"},"spec":{"clusterIP":"10.96.0.10","ports":[{"port":80}]}}`, code: 201,
			check: func(t *testing.T, spec map[string]any) {
				assert.Equal(t, "10.96.0.10", spec["clusterIP"])
				assert.Equal(t, []any{"10.96.0.10"}, spec["clusterIPs"])
			}},
		{name: "clusterIPs alone sets clusterIP",
			body: `{"metadata":{"name":"s"},"spec":{"clusterIPs":["10.96.0.11"],"ports":[{"port":80}]}}`, code: 201,
			check: func(t *testing.T, spec map[string]any) { assert.Equal(t, "10.96.0.11", spec["clusterIP"]) }},
		{name: "a taken address is refused",
			body: `{"metadata":{"name":"s"},"spec":{"clusterIP":"10.96.0.1","ports":[{"port":80}]}}`, code: 422,
			message: `Service "s" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.1"}: failed to allocate IP 10.96.0.1: provided IP is already allocated`},
		{name: "an address outside the range is refused",
			body: `{"metadata":{"name":"s"},"spec":{"clusterIP":"10.97.0.1","ports":[{"port":80}]}}`, code: 422,
			message: `Service "s" is invalid: spec.clusterIPs: Invalid value: []string{"10.97.0.1"}: failed to allocate IP 10.97.0.1: the provided network does not match the current range`},
		{name: "something not an address is refused",
			body: `{"metadata":{"name":"s"},"spec":{"clusterIP":"abc","ports":[{"port":80}]}}`, code: 422,
			message: `Service "s" is invalid: spec.clusterIPs[0]: Invalid value: "abc": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`},
		{name: "a headless service gets no address",
			body: `{"metadata":{"name":"s"},"spec":{"clusterIP":"None","ports":[{"port":80}]}}`, code: 201,
			check: func(t *testing.T, spec map[string]any) {
				assert.Equal(t, "None", spec["clusterIP"])
				assert.Equal(t, []any{"None"}, spec["clusterIPs"])
			}},
		{name: "an ExternalName service gets no address nor IP family",
			body: `{"metadata":{"name":"s"},"spec":{"type":"ExternalName","externalName":"x.example.com"}}`, code: 201,
			check: func(t *testing.T, spec map[string]any) {
				assert.Nil(t, spec["clusterIP"])
				assert.Nil(t, spec["ipFamilies"])
			}},
		{name: "a NodePort service gets a node port in 30000-32767",
			body: `{"metadata":{"name":"s"},"spec":{"type":"NodePort","ports":[{"port":80,"name":"a"},{"port":81,"name":"b"}]}}`, code: 201,
			check: func(t *testing.T, spec map[string]any) {
				ports := spec["ports"].([]any)
				a, b := ports[0].(map[string]any)["nodePort"].(float64), ports[1].(map[string]any)["nodePort"].(float64)
				assert.True(t, a >= 30000 && a <= 32767 && b >= 30000 && b <= 32767, "%v %v", a, b)
				assert.NotEqual(t, a, b)
			}},
		{name: "a taken node port is refused",
			body: `{"metadata":{"name":"s"},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30080}]}}`, code: 422,
			message: `Service "s" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated`},
		{name: "a node port outside the range is refused",
			body: `{"metadata":{"name":"s"},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":80}]}}`, code: 422,
			message: `Service "s" is invalid: spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767`},
		{name: "a load balancer with the Local policy gets a health check node port",
			body: `{"metadata":{"name":"s"},"spec":{"type":"LoadBalancer","externalTrafficPolicy":"Local","ports":[{"port":80}]}}`, code: 201,
			check: func(t *testing.T, spec map[string]any) {
				hc := spec["healthCheckNodePort"].(float64)
				np := spec["ports"].([]any)[0].(map[string]any)["nodePort"].(float64)
				assert.True(t, hc >= 30000 && hc <= 32767, hc)
				assert.NotEqual(t, hc, np)
			}},
		{name: "a load balancer without node ports gets none",
			body: `{"metadata":{"name":"s"},"spec":{"type":"LoadBalancer","allocateLoadBalancerNodePorts":false,"ports":[{"port":80}]}}`, code: 201,
			check: func(t *testing.T, spec map[string]any) {
				assert.Nil(t, spec["ports"].([]any)[0].(map[string]any)["nodePort"])
			}},
		{name: "a second IP family is refused on a single-stack cluster",
			body: `{"metadata":{"name":"s"},"spec":{"ipFamilies":["IPv6"],"ports":[{"port":80}]}}`, code: 422,
			message: `Service "s" is invalid: spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := newClusterServer(t, builtin.Options{})
			code, _ := serve(t, srv, "POST", services, "application/json",
				`{"metadata":{"name":"taken"},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30080}]}}`)
			require.Equal(t, http.StatusCreated, code)
			code, out := serve(t, srv, "POST", services, "application/json", c.body)
			require.Equal(t, c.code, code, out)
			if c.message != "" {
				assert.Equal(t, c.message, out["message"])
				return
			}
			c.check(t, spec(out))
		})
	}
}

func TestServiceAllocationMakesOneIPAddressPerAddress(t *testing.T) {
	srv := newClusterServer(t, builtin.Options{})
	code, out := serve(t, srv, "POST", services, "application/json", `{"metadata":{"name":"s"},"spec":{"ports":[{"port":80}]}}`)
	require.Equal(t, http.StatusCreated, code)
	ip := spec(out)["clusterIP"].(string)
	assert.ElementsMatch(t, []string{"10.96.0.1", ip}, ipAddressNames(t, srv))
	code, obj := serve(t, srv, "GET", ipAddresses+"/"+ip, "", "")
	require.Equal(t, http.StatusOK, code)
	assert.Equal(t, map[string]any{"resource": "services", "namespace": "default", "name": "s"},
		spec(obj)["parentRef"])

	t.Run("an IPAddress created by hand takes its address", func(t *testing.T) {
		code, _ := serve(t, srv, "POST", ipAddresses, "application/json",
			`{"metadata":{"name":"10.96.0.20"},"spec":{"parentRef":{"resource":"services","namespace":"default","name":"other"}}}`)
		require.Equal(t, http.StatusCreated, code)
		code, out := serve(t, srv, "POST", services, "application/json",
			`{"metadata":{"name":"t"},"spec":{"clusterIP":"10.96.0.20","ports":[{"port":80}]}}`)
		assert.Equal(t, http.StatusUnprocessableEntity, code)
		assert.Contains(t, out["message"], "provided IP is already allocated")
	})
}

func TestDryRunAllocatesNothing(t *testing.T) {
	srv := newClusterServer(t, builtin.Options{})
	code, out := serve(t, srv, "POST", services+"?dryRun=All", "application/json",
		`{"metadata":{"name":"s"},"spec":{"type":"NodePort","ports":[{"port":80,"name":"a"},{"port":81,"name":"b"}]}}`)
	require.Equal(t, http.StatusCreated, code, out)
	assert.Equal(t, "10.96.0.0", spec(out)["clusterIP"], "kube's dry run answers the range's network address")
	ports := spec(out)["ports"].([]any)
	assert.Equal(t, float64(32769), ports[0].(map[string]any)["nodePort"], "and node ports from 32769 on")
	assert.Equal(t, float64(32770), ports[1].(map[string]any)["nodePort"])
	assert.Equal(t, []string{"10.96.0.1"}, ipAddressNames(t, srv))

	code, out = serve(t, srv, "POST", services+"?dryRun=All", "application/json",
		`{"metadata":{"name":"s"},"spec":{"clusterIP":"10.96.0.1","ports":[{"port":80}]}}`)
	assert.Equal(t, http.StatusUnprocessableEntity, code, "a dry run still refuses a taken address")
	assert.Contains(t, out["message"], "provided IP is already allocated")
}

// TestAllocationsAreGivenBack: whatever a write took is free again once
// the write fails or its Service goes.
func TestAllocationsAreGivenBack(t *testing.T) {
	type req struct{ method, path, body string }
	cases := []struct {
		name  string
		setup []req
	}{
		{name: "when its Service is deleted", setup: []req{
			{"POST", services, `{"metadata":{"name":"a"},"spec":{"type":"NodePort","clusterIP":"10.96.0.50","ports":[{"port":80,"nodePort":30500}]}}`},
			{"DELETE", services + "/a", ""},
		}},
		{name: "when the create fails validation after allocating", setup: []req{
			{"POST", services, `{"metadata":{"name":"Bad_Name"},"spec":{"type":"NodePort","clusterIP":"10.96.0.50","ports":[{"port":80,"nodePort":30500}]}}`},
		}},
		{name: "when the name is taken", setup: []req{
			{"POST", services, `{"metadata":{"name":"a"},"spec":{"ports":[{"port":80}]}}`},
			{"POST", services, `{"metadata":{"name":"a"},"spec":{"type":"NodePort","clusterIP":"10.96.0.50","ports":[{"port":80,"nodePort":30500}]}}`},
		}},
		{name: "when an update leaves the node port type", setup: []req{
			{"POST", services, `{"metadata":{"name":"a"},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30500}]}}`},
			{"PATCH", services + "/a", `{"spec":{"type":"ClusterIP","ports":[{"port":80,"nodePort":null}]}}`},
		}},
		{name: "when an update becomes an ExternalName", setup: []req{
			{"POST", services, `{"metadata":{"name":"a"},"spec":{"clusterIP":"10.96.0.50","ports":[{"port":80}]}}`},
			{"PATCH", services + "/a", `{"spec":{"type":"ExternalName","externalName":"a.b","clusterIP":"","clusterIPs":null}}`},
		}},
		{name: "when an update fails after allocating", setup: []req{
			{"POST", services, `{"metadata":{"name":"a"},"spec":{"ports":[{"port":80}]}}`},
			{"PATCH", services + "/a", `{"metadata":{"labels":{"bad label":"x"}},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30500}]}}`},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := newClusterServer(t, builtin.Options{})
			for _, r := range c.setup {
				ct := "application/json"
				if r.method == "PATCH" {
					ct = "application/merge-patch+json"
				}
				serveNoT(srv, r.method, r.path, ct, r.body)
			}
			code, out := serve(t, srv, "POST", services, "application/json",
				`{"metadata":{"name":"b"},"spec":{"type":"NodePort","clusterIP":"10.96.0.50","ports":[{"port":80,"nodePort":30500}]}}`)
			assert.Equal(t, http.StatusCreated, code, "the address and the node port are free: %v", out)
			names := ipAddressNames(t, srv)
			for _, svcIP := range names {
				code, ip := serve(t, srv, "GET", ipAddresses+"/"+svcIP, "", "")
				require.Equal(t, http.StatusOK, code)
				ref := spec(ip)["parentRef"].(map[string]any)
				code, _ = serve(t, srv, "GET", services+"/"+ref["name"].(string), "", "")
				assert.Equal(t, http.StatusOK, code, "IPAddress %s is left behind by %v", svcIP, ref)
			}
		})
	}
}

func TestServiceUpdatesKeepWhatWasAllocated(t *testing.T) {
	srv := newClusterServer(t, builtin.Options{})
	code, out := serve(t, srv, "POST", services, "application/json",
		`{"metadata":{"name":"np"},"spec":{"type":"NodePort","ports":[{"port":80}]}}`)
	require.Equal(t, http.StatusCreated, code)
	ip, np := spec(out)["clusterIP"], spec(out)["ports"].([]any)[0].(map[string]any)["nodePort"]

	code, out = serve(t, srv, "PUT", services+"/np", "application/json",
		`{"metadata":{"name":"np"},"spec":{"type":"NodePort","ports":[{"port":80}]}}`)
	require.Equal(t, http.StatusOK, code, out)
	assert.Equal(t, ip, spec(out)["clusterIP"], "a PUT without clusterIP keeps it")
	assert.Equal(t, np, spec(out)["ports"].([]any)[0].(map[string]any)["nodePort"], "and the node port of the same port name")

	code, out = serve(t, srv, "PATCH", services+"/np", "application/merge-patch+json",
		`{"spec":{"clusterIP":"10.96.5.5","clusterIPs":["10.96.5.5"]}}`)
	assert.Equal(t, http.StatusUnprocessableEntity, code)
	assert.Equal(t, `Service "np" is invalid: spec.clusterIPs[0]: Invalid value: ["10.96.5.5"]: may not change once set`, out["message"])

	code, out = serve(t, srv, "PATCH", services+"/np", "application/merge-patch+json",
		`{"spec":{"type":"ExternalName","externalName":"a.b","clusterIP":"","clusterIPs":null,"ports":[{"port":80,"nodePort":null}]}}`)
	require.Equal(t, http.StatusOK, code, out)
	assert.Equal(t, []string{"10.96.0.1"}, ipAddressNames(t, srv), "becoming an ExternalName releases the address")
}

// TestConcurrentAllocationsNeverCollide: many Services created at once get
// distinct addresses and node ports, and of the writers asking for the
// same ones exactly one wins. The address and node port asked for are in
// their ranges' static bands (below the 16th address and port), which
// free ones are taken from only when the rest of the range is full, so
// the writers that take any free one never take them.
func TestConcurrentAllocationsNeverCollide(t *testing.T) {
	srv := newClusterServer(t, builtin.Options{ServiceClusterIPRange: "10.0.0.0/26", ServiceNodePortRange: "30000-30099"})
	const n = 40
	var wg sync.WaitGroup
	codes := make([]int, n)
	outs := make([]map[string]any, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := fmt.Sprintf(`{"metadata":{"name":"s%d"},"spec":{"type":"NodePort","ports":[{"port":80}]}}`, i)
			if i%4 == 0 {
				body = fmt.Sprintf(`{"metadata":{"name":"s%d"},"spec":{"type":"NodePort","clusterIP":"10.0.0.10","ports":[{"port":80,"nodePort":30010}]}}`, i)
			}
			codes[i], outs[i] = serveNoT(srv, "POST", services, "application/json", body)
		}()
	}
	wg.Wait()
	ips, ports := map[string]bool{"10.0.0.1": true}, map[float64]bool{}
	won := 0
	for i := 0; i < n; i++ {
		if i%4 == 0 {
			if codes[i] == http.StatusCreated {
				won++
			} else {
				assert.Equal(t, http.StatusUnprocessableEntity, codes[i], outs[i])
			}
		} else {
			require.Equal(t, http.StatusCreated, codes[i], outs[i])
		}
		if codes[i] != http.StatusCreated {
			continue
		}
		ip := spec(outs[i])["clusterIP"].(string)
		port := spec(outs[i])["ports"].([]any)[0].(map[string]any)["nodePort"].(float64)
		assert.False(t, ips[ip], "address %s given twice", ip)
		assert.False(t, ports[port], "node port %v given twice", port)
		ips[ip], ports[port] = true, true
	}
	assert.Equal(t, 1, won, "one of the writers asking for 10.0.0.10 and 30010 wins")
	assert.Len(t, ipAddressNames(t, srv), len(ips), "one IPAddress per address given")
}

// serveNoT is serve for goroutines: no assertions.
func serveNoT(h http.Handler, method, path, contentType, body string) (int, map[string]any) {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec.Code, out
}

func TestOptionsAreChecked(t *testing.T) {
	for _, o := range []builtin.Options{
		{ServiceClusterIPRange: "10.96.0.1/16"}, {ServiceClusterIPRange: "x"}, {ServiceClusterIPRange: "10.0.0.0/8"},
		{ServiceNodePortRange: "30000"}, {ServiceNodePortRange: "2-1"}, {ServiceNodePortRange: "1-70000"},
	} {
		_, err := builtin.ResourcesWith(apiserver.DefaultRelease, o)
		assert.Error(t, err, "%+v", o)
	}
}

// TestAServiceIsCreatedByEveryWrite: a Service that needs a cluster IP is
// created by a POST, by a server-side apply and by a PUT that creates, each
// allocating its IPAddress (the allocation's own request is served as a
// create of an IPAddress whatever the write that sends it).
func TestAServiceIsCreatedByEveryWrite(t *testing.T) {
	cases := []struct{ name, method, path, contentType, body string }{
		{name: "a create", method: "POST", path: services, contentType: "application/json",
			body: `{"metadata":{"name":"s"},"spec":{"ports":[{"port":80}]}}`},
		{name: "a create with its cluster IP", method: "POST", path: services, contentType: "application/json",
			body: `{"metadata":{"name":"s"},"spec":{"clusterIP":"10.96.0.50","ports":[{"port":80}]}}`},
		{name: "a server-side apply", method: "PATCH", path: services + "/s?fieldManager=kubectl", contentType: "application/apply-patch+yaml",
			body: `{"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},"spec":{"ports":[{"port":80}]}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := newClusterServer(t, builtin.Options{})
			code, out := serve(t, srv, c.method, c.path, c.contentType, c.body)
			require.Equal(t, http.StatusCreated, code, out)
			ip := spec(out)["clusterIP"].(string)
			assert.Contains(t, ipAddressNames(t, srv), ip)
			code, _ = serve(t, srv, "DELETE", services+"/s", "", "")
			require.Equal(t, http.StatusOK, code)
			assert.NotContains(t, ipAddressNames(t, srv), ip, "deleting the Service frees its address")
		})
	}
}
