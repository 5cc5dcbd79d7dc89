package e2e

import (
	"context"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
)

// The answers these tests expect are kube-apiserver 1.33.13's to the same
// commands (docs/kube-behaviour/12-policy.md).

func widgetYAML(name, spec string) string {
	return "apiVersion: cel.example.com/v1\nkind: Widget\nmetadata: {name: " + name + "}\nspec: " + spec + "\n"
}

// sortedLines sorts the "* cause" lines of a kubectl error, whose order
// kube leaves to Go's map iteration.
func sortedLines(out string) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	var head, causes []string
	for _, l := range lines {
		if strings.HasPrefix(l, "* ") {
			causes = append(causes, l)
		} else {
			head = append(head, l)
		}
	}
	sort.Strings(causes)
	return strings.Join(append(head, causes...), "\n")
}

func TestKubectlCELRulesAnswerAsKube(t *testing.T) {
	c := startCluster(t)
	crd, err := os.ReadFile("testdata/policy/widgets.yaml")
	require.NoError(t, err)
	for _, v := range []string{"1.33", "1.27"} {
		t.Run("kubectl "+v, func(t *testing.T) {
			out, err := c.kubectlStdin(v, string(crd), "apply", "-f", "-")
			require.NoError(t, err, out)
			require.Eventually(t, func() bool {
				_, err := c.kubectl(v, "get", "widgets")
				return err == nil
			}, 2*time.Minute, 50*time.Millisecond)
			steps := []struct {
				name, stdin string
				args        []string
				want        string
				fails       bool
			}{
				{"a valid widget", widgetYAML("w5", `{name: a, replicas: 2, minReplicas: 1, maxReplicas: 3, tags: [ok], limits: {cpu: 500Mi}, ip: "10.0.0.1", url: "https://x/y", label: "ok", counter: 5, mode: m, items: [{key: a, value: 1}]}`),
					[]string{"create", "-f", "-"}, "widget.cel.example.com/w5 created", false},
				{"a root rule", widgetYAML("x1", `{name: a, replicas: 2, minReplicas: 1, maxReplicas: 3}`), []string{"create", "-f", "-"},
					`The Widget "x1" is invalid: <nil>: Invalid value: "object": name must start with w`, true},
				{"fieldPath", widgetYAML("w2", `{name: a, replicas: 0, minReplicas: 1, maxReplicas: 3}`), []string{"create", "-f", "-"},
					`The Widget "w2" is invalid: spec.replicas: Invalid value: "object": replicas should be greater than or equal to minReplicas`, true},
				{"messageExpression and reason", widgetYAML("w3", `{name: a, replicas: 5, minReplicas: 1, maxReplicas: 3}`), []string{"create", "-f", "-"},
					`The Widget "w3" is invalid: spec: Forbidden: replicas of a must be at most maxReplicas`, true},
				{"kube's libraries", widgetYAML("w4", `{name: a, replicas: 2, minReplicas: 1, maxReplicas: 3, tags: [ok, Bad], limits: {cpu: 2Gi, mem: "x"}, ip: "::1", url: "http://x", label: "Not_A_Label", items: [{key: a, value: 1}]}`),
					[]string{"create", "-f", "-"}, `The Widget "w4" is invalid: 
* spec.ip: Invalid value: "string": must be an IPv4 address
* spec.label: Invalid value: "string": must be a DNS label
* spec.limits[cpu]: Invalid value: "string": must be a quantity under 1Gi
* spec.limits[mem]: Invalid value: "string": must be a quantity under 1Gi
* spec.tags: Invalid value: "array": failed rule: self.all(t, t.matches('^[a-z]+$'))
* spec.url: Invalid value: "string": bad url http://x`, true},
				{"a transition rule", "", []string{"patch", "widget", "w5", "--type", "merge", "-p", `{"spec":{"name":"b"}}`},
					`The Widget "w5" is invalid: spec: Invalid value: "object": name is immutable`, true},
				{"optionalOldSelf", "", []string{"patch", "widget", "w5", "--type", "merge", "-p", `{"spec":{"counter":3}}`},
					`The Widget "w5" is invalid: spec.counter: Invalid value: "integer": counter cannot decrease`, true},
				{"a map list's items correlate by key", "", []string{"patch", "widget", "w5", "--type", "json", "-p",
					`[{"op":"replace","path":"/spec/items","value":[{"key":"b","value":0},{"key":"a","value":0}]}]`},
					`The Widget "w5" is invalid: spec.items[1].value: Invalid value: "integer": value cannot decrease`, true},
				{"a passing update", "", []string{"patch", "widget", "w5", "--type", "merge", "-p", `{"spec":{"counter":7}}`},
					"widget.cel.example.com/w5 patched", false},
			}
			for _, s := range steps {
				t.Run(s.name, func(t *testing.T) {
					out, err := c.kubectlStdin(v, s.stdin, s.args...)
					if s.fails {
						require.Error(t, err)
						assert.Equal(t, s.want, sortedLines(out))
					} else {
						require.NoError(t, err, out)
						assert.Equal(t, s.want, strings.TrimSpace(out))
					}
				})
			}
			c.mustKubectl(v, "delete", "widgets", "--all")
			c.mustKubectl(v, "delete", "crd", "widgets.cel.example.com")
			require.Eventually(t, func() bool {
				_, err := c.kubectl(v, "get", "crd", "widgets.cel.example.com")
				return err != nil
			}, 2*time.Minute, 50*time.Millisecond)
		})
	}
}

func TestClientGoCELRulesAndRatcheting(t *testing.T) {
	c := startCluster(t)
	crd, err := os.ReadFile("testdata/policy/widgets.yaml")
	require.NoError(t, err)
	c.mustKubectlStdin("1.33", string(crd), "create", "-f", "-")
	dc, err := dynamic.NewForConfig(c.restConfig())
	require.NoError(t, err)
	ctx := context.Background()
	widgets := dc.Resource(schema.GroupVersionResource{Group: "cel.example.com", Version: "v1", Resource: "widgets"}).Namespace("default")
	require.Eventually(t, func() bool {
		_, err := widgets.List(ctx, metav1.ListOptions{})
		return err == nil
	}, 2*time.Minute, 50*time.Millisecond)

	obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "cel.example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w3"}, "spec": map[string]any{"name": "a", "replicas": int64(5), "minReplicas": int64(1), "maxReplicas": int64(3)}}}
	_, err = widgets.Create(ctx, obj, metav1.CreateOptions{})
	require.True(t, apierrors.IsInvalid(err), "%v", err)
	st := err.(apierrors.APIStatus).Status()
	require.Len(t, st.Details.Causes, 1)
	assert.Equal(t, metav1.StatusCause{Type: metav1.CauseType("FieldValueForbidden"), Field: "spec",
		Message: "Forbidden: replicas of a must be at most maxReplicas"}, st.Details.Causes[0])

	_, err = widgets.Create(ctx, &unstructured.Unstructured{Object: map[string]any{"apiVersion": "cel.example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w6"}, "spec": map[string]any{"name": "abcdef", "replicas": int64(2), "minReplicas": int64(1),
			"maxReplicas": int64(3), "tags": []any{"ok"}}}}, metav1.CreateOptions{})
	require.NoError(t, err)

	// Tighten the CRD: the stored widget is now invalid in two places.
	tight, err := os.ReadFile("testdata/policy/widgets-tightened.yaml")
	require.NoError(t, err)
	c.mustKubectlStdin("1.33", string(tight), "apply", "-f", "-")
	time.Sleep(100 * time.Millisecond)

	warnings := &warningRecorder{}
	cfg := c.restConfig()
	cfg.WarningHandler = warnings
	dcw, err := dynamic.NewForConfig(cfg)
	require.NoError(t, err)
	widgetsW := dcw.Resource(schema.GroupVersionResource{Group: "cel.example.com", Version: "v1", Resource: "widgets"}).Namespace("default")
	_, err = widgetsW.Patch(ctx, "w6", types.MergePatchType, []byte(`{"spec":{"replicas":3}}`), metav1.PatchOptions{})
	require.NoError(t, err, "unchanged invalid fields are ratcheted")
	assert.Equal(t, []string{`spec.tags: Invalid value: "array": need more tags`}, warnings.warnings)

	_, err = widgetsW.Patch(ctx, "w6", types.MergePatchType, []byte(`{"spec":{"tags":["ok","no"]}}`), metav1.PatchOptions{})
	require.True(t, apierrors.IsInvalid(err), "%v", err)
	assert.Equal(t, `Widget.cel.example.com "w6" is invalid: spec.tags: Invalid value: "array": need more tags`, err.Error())
}

// mustKubectlStdin runs kubectl with stdin and fails the test on error.
func (c *cluster) mustKubectlStdin(version, stdin string, args ...string) string {
	c.t.Helper()
	out, err := c.kubectlStdin(version, stdin, args...)
	require.NoError(c.t, err, "kubectl %s: %s", strings.Join(args, " "), out)
	return out
}
