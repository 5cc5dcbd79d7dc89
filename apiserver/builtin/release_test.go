package builtin_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
	"github.com/kapi-dev/kapi/meta"
)

// releaseServer is a server answering as release r with r's built-in
// kinds.
func releaseServer(t *testing.T, r apiserver.Release) *apiserver.Server {
	t.Helper()
	srv, err := apiserver.New(apiserver.Config{Release: r, Resources: builtin.ResourcesFor(r),
		OpenAPIComponents: builtin.OpenAPIComponentsFor(r)})
	require.NoError(t, err)
	return srv
}

// TestVersionIsTheRelease holds /version to what each release's
// kube-apiserver reports: its major and minor, emulated version and the
// minimum compatibility version (the release before), and the patch
// release kapi's data of it comes from.
func TestVersionIsTheRelease(t *testing.T) {
	cases := []struct {
		release                          apiserver.Release
		minor, minCompatibility, version string
	}{
		{"", "37", "36", "v1.37.2"},
		{apiserver.Release133, "33", "32", "v1.33.13"},
		{apiserver.Release135, "35", "34", "v1.35.4"},
		{apiserver.Release136, "36", "35", "v1.36.3"},
		{apiserver.Release137, "37", "36", "v1.37.2"},
	}
	for _, c := range cases {
		t.Run(string(c.release.OrDefault()), func(t *testing.T) {
			v := getJSON(t, releaseServer(t, c.release), "/version", "application/json").(map[string]any)
			assert.Equal(t, "1", v["major"])
			assert.Equal(t, c.minor, v["minor"])
			assert.Equal(t, c.minor, v["emulationMinor"])
			assert.Equal(t, c.minCompatibility, v["minCompatibilityMinor"])
			assert.Equal(t, c.version, v["gitVersion"])
		})
	}
}

func TestAReleaseKapiHasNoDataForIsRefused(t *testing.T) {
	_, err := apiserver.New(apiserver.Config{Release: "1.34"})
	require.ErrorContains(t, err, `release "1.34"`)
	_, err = apiserver.ParseRelease("1.40")
	require.Error(t, err)
	r, err := apiserver.ParseRelease("v1.37.2")
	require.NoError(t, err)
	assert.Equal(t, apiserver.Release137, r)
}

// TestEachReleaseServesItsKinds: the kinds new since 1.33 are served from
// the release that turned them on by default, with that release's schema.
func TestEachReleaseServesItsKinds(t *testing.T) {
	kinds := func(r apiserver.Release) []string {
		var out []string
		for _, res := range builtin.ResourcesFor(r) {
			require.NotNil(t, res.Schema, "%s %s has a schema", r, res.Kind)
			require.NotEmpty(t, res.OpenAPIComponent, "%s %s names its component", r, res.Kind)
			out = append(out, res.Group+"/"+res.Version+"/"+res.Plural)
		}
		return out
	}
	cases := []struct {
		resource string
		since    apiserver.Release
	}{
		{"resource.k8s.io/v1/deviceclasses", apiserver.Release135},
		{"resource.k8s.io/v1/resourceclaims", apiserver.Release135},
		{"resource.k8s.io/v1/resourceclaimtemplates", apiserver.Release135},
		{"resource.k8s.io/v1/resourceslices", apiserver.Release135},
		{"storage.k8s.io/v1/volumeattributesclasses", apiserver.Release135},
		{"admissionregistration.k8s.io/v1/mutatingadmissionpolicies", apiserver.Release136},
		{"admissionregistration.k8s.io/v1/mutatingadmissionpolicybindings", apiserver.Release136},
		{"storagemigration.k8s.io/v1/storageversionmigrations", apiserver.Release137},
		{"certificates.k8s.io/v1/clustertrustbundles", apiserver.Release137},
		{"certificates.k8s.io/v1/podcertificaterequests", apiserver.Release137},
		{"resource.k8s.io/v1/devicetaintrules", apiserver.Release137},
	}
	for _, r := range apiserver.Releases() {
		served := kinds(r)
		for _, c := range cases {
			assert.Equal(t, r.Minor() >= c.since.Minor(), slices.Contains(served, c.resource), "%s serves %s", r, c.resource)
		}
	}
}

// TestAPodWithReleaseFieldsIsKeptFrom137 is the example of the issue: a
// Pod written with k8s.io/api v0.37's fields (spec.hostnameOverride, a
// container's restartPolicy with restartPolicyRules) is stored with both
// by 1.37, and refused as kube 1.37.2 refuses it without the container's
// restartPolicy; 1.33 does not know the fields and drops them.
func TestAPodWithReleaseFieldsIsKeptFrom137(t *testing.T) {
	const withRules = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"hostnameOverride":"custom-host",
		"containers":[{"name":"c","image":"nginx","restartPolicy":"Never",
		"restartPolicyRules":[{"action":"Restart","exitCodes":{"operator":"In","values":[42]}}]}]}}`
	const rulesWithoutPolicy = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"q"},"spec":{
		"containers":[{"name":"c","image":"nginx",
		"restartPolicyRules":[{"action":"Restart","exitCodes":{"operator":"In","values":[42]}}]}]}}`
	const podsPath = "/api/v1/namespaces/default/pods"

	t.Run("1.37 keeps them", func(t *testing.T) {
		srv := releaseServer(t, apiserver.Release137)
		code, out := serve(t, srv, http.MethodPost, podsPath, "application/json", withRules)
		require.Equal(t, http.StatusCreated, code, out)
		pod := meta.Object(out)
		assert.Equal(t, "custom-host", field(pod, "spec", "hostnameOverride"))
		c := field(pod, "spec", "containers").([]any)[0].(map[string]any)
		assert.Equal(t, "Never", c["restartPolicy"])
		assert.Len(t, c["restartPolicyRules"], 1)
	})
	t.Run("1.37 wants a restartPolicy with rules", func(t *testing.T) {
		srv := releaseServer(t, apiserver.Release137)
		code, out := serve(t, srv, http.MethodPost, podsPath, "application/json", rulesWithoutPolicy)
		require.Equal(t, http.StatusUnprocessableEntity, code, out)
		assert.Equal(t, `Pod "q" is invalid: spec.containers[0].restartPolicy: Required value: must specify restartPolicy when restart rules are used`,
			out["message"])
	})
	t.Run("1.33 drops them", func(t *testing.T) {
		srv := releaseServer(t, apiserver.Release133)
		code, out := serve(t, srv, http.MethodPost, podsPath, "application/json", withRules)
		require.Equal(t, http.StatusCreated, code, out)
		pod := meta.Object(out)
		assert.Nil(t, field(pod, "spec", "hostnameOverride"))
		c := field(pod, "spec", "containers").([]any)[0].(map[string]any)
		assert.NotContains(t, c, "restartPolicyRules")
	})
}

// TestPodTemplatesCarryANullCreationTimestampUntil133: kube 1.34's
// ObjectMeta omits a zero creationTimestamp, so a Deployment's pod
// template no longer carries `creationTimestamp: null`.
func TestPodTemplatesCarryANullCreationTimestampUntil133(t *testing.T) {
	const deployment = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"selector":{"matchLabels":{"app":"d"}},
		"template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`
	for _, c := range []struct {
		release apiserver.Release
		null    bool
	}{{apiserver.Release133, true}, {apiserver.Release135, false}, {apiserver.Release137, false}} {
		t.Run(string(c.release), func(t *testing.T) {
			code, out := serve(t, releaseServer(t, c.release), http.MethodPost, "/apis/apps/v1/namespaces/default/deployments",
				"application/json", deployment)
			require.Equal(t, http.StatusCreated, code, out)
			md := field(meta.Object(out), "spec", "template", "metadata").(map[string]any)
			ts, has := md["creationTimestamp"]
			assert.Equal(t, c.null, has, "creationTimestamp in the template: %v", md)
			assert.Nil(t, ts)
		})
	}
}

// TestPrinterColumnsOfEachRelease: ServiceAccounts lost their Secrets
// column in 1.35, CustomResourceDefinitions gained Scope and Versions in
// 1.37.
func TestPrinterColumnsOfEachRelease(t *testing.T) {
	columns := func(r apiserver.Release, kind string) []string {
		for _, res := range builtin.ResourcesFor(r) {
			if res.Kind == kind {
				var names []string
				for _, c := range res.PrinterColumns {
					names = append(names, c.Name)
				}
				return names
			}
		}
		t.Fatalf("%s serves no %s", r, kind)
		return nil
	}
	assert.Equal(t, []string{"Secrets", "Age"}, columns(apiserver.Release133, "ServiceAccount"))
	assert.Equal(t, []string{"Age"}, columns(apiserver.Release135, "ServiceAccount")) // recorded from 1.35.4
	assert.Equal(t, []string{"Age"}, columns(apiserver.Release136, "ServiceAccount")) // recorded from 1.36.3
	assert.Empty(t, columns(apiserver.Release136, "CustomResourceDefinition"))
	assert.Equal(t, []string{"Scope", "Versions", "Created At", "Group", "Kind", "ShortNames", "Established"},
		columns(apiserver.Release137, "CustomResourceDefinition"))
}

// field reads a nested field of an object.
func field(o meta.Object, path ...string) any {
	var v any = map[string]any(o)
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

// TestPodFieldsOfGatesOffByDefaultAreDropped: a container's
// lifecycle.stopSignal (ContainerStopSignals, alpha in every release kapi
// serves) is dropped from a new pod as kube drops it, its emptied
// lifecycle with it.
func TestPodFieldsOfGatesOffByDefaultAreDropped(t *testing.T) {
	const pod = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"s"},"spec":{
		"containers":[{"name":"c","image":"nginx","lifecycle":{"stopSignal":"SIGUSR1"}}]}}`
	for _, r := range []apiserver.Release{apiserver.Release133, apiserver.Release137} {
		t.Run(string(r), func(t *testing.T) {
			code, out := serve(t, releaseServer(t, r), http.MethodPost, "/api/v1/namespaces/default/pods", "application/json", pod)
			require.Equal(t, http.StatusCreated, code, out)
			c := field(meta.Object(out), "spec", "containers").([]any)[0].(map[string]any)
			assert.NotContains(t, c, "lifecycle")
		})
	}
}

// TestDefaultsNewIn137 holds what kube-apiserver 1.37.2 stores for a
// StatefulSet, a CSIDriver and a HorizontalPodAutoscaler created as
// docs/kube-behaviour/builtin/manifests has them
// (docs/kube-behaviour/19-releases.md): a rolling update's maxUnavailable
// of 1, preventPodSchedulingIfMissing false, a generation of 1; 1.33,
// 1.35.4 and 1.36.3 (19-releases/1.3x/builtin/stored) store none of them.
func TestDefaultsNewIn137(t *testing.T) {
	cases := []struct {
		name, path, body string
		field            []string
		want             any
	}{
		{"a statefulset's rolling update may have one pod unavailable", "/apis/apps/v1/namespaces/default/statefulsets",
			`{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"s"},"spec":{"serviceName":"s",
			"selector":{"matchLabels":{"app":"s"}},"template":{"metadata":{"labels":{"app":"s"}},
			"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`,
			[]string{"spec", "updateStrategy", "rollingUpdate", "maxUnavailable"}, int64(1)},
		{"a CSI driver does not keep pods from scheduling", "/apis/storage.k8s.io/v1/csidrivers",
			`{"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver","metadata":{"name":"csi.example.com"},"spec":{}}`,
			[]string{"spec", "preventPodSchedulingIfMissing"}, false},
		{"an autoscaler has a generation", "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers",
			`{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"h"},"spec":{"maxReplicas":3,
			"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"}}}`,
			[]string{"metadata", "generation"}, int64(1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, r := range []apiserver.Release{apiserver.Release133, apiserver.Release135, apiserver.Release136, apiserver.Release137} {
				code, out := serve(t, releaseServer(t, r), http.MethodPost, c.path, "application/json", c.body)
				require.Equal(t, http.StatusCreated, code, out)
				got := field(meta.Object(out), c.field...)
				if n, ok := meta.AsInt64(got); ok {
					got = n
				}
				if r == apiserver.Release137 {
					assert.Equal(t, c.want, got, r)
				} else {
					assert.Nil(t, got, r)
				}
			}
		})
	}
}

// TestTheDefaultIngressClassIsMarkedFrom136: kube 1.36.3 and 1.37.2 print
// the NAME of the IngressClass annotated as the default as "nginx
// (default)" (19-releases/1.3x/builtin/tables/networking_ingressclass.json);
// 1.33 and 1.35.4 print the name alone.
func TestTheDefaultIngressClassIsMarkedFrom136(t *testing.T) {
	const class = `{"apiVersion":"networking.k8s.io/v1","kind":"IngressClass","metadata":{"name":"nginx",
		"annotations":{"ingressclass.kubernetes.io/is-default-class":"true"}},"spec":{"controller":"k8s.io/ingress-nginx"}}`
	for r, want := range map[apiserver.Release]string{apiserver.Release133: "nginx", apiserver.Release135: "nginx",
		apiserver.Release136: "nginx (default)", apiserver.Release137: "nginx (default)"} {
		srv := releaseServer(t, r)
		code, out := serve(t, srv, http.MethodPost, "/apis/networking.k8s.io/v1/ingressclasses", "application/json", class)
		require.Equal(t, http.StatusCreated, code, out)
		table := getJSON(t, srv, "/apis/networking.k8s.io/v1/ingressclasses/nginx", "application/json;as=Table;v=v1;g=meta.k8s.io").(map[string]any)
		cells := table["rows"].([]any)[0].(map[string]any)["cells"].([]any)
		assert.Equal(t, want, cells[0], r)
		assert.Equal(t, "k8s.io/ingress-nginx", cells[1], r)
	}
}
