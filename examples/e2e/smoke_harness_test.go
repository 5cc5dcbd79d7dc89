package e2e

// The smoke test's harness: the example server started in-process as
// `go run ./server` starts it with its default flags, a kubectl runner that
// takes any binary, and the manifests of testdata/smoke matched to the
// kinds the server's discovery lists.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/controllers"
	"github.com/kapi-dev/kapi/examples/server/kapiserver"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/discovery"
	"sigs.k8s.io/yaml"
)

// startShippedServer starts the example server in-process with what
// examples/server/main.go builds from its default flags: kapiserver.NewSecure
// (HTTPS, client certificates, tokens, RBAC, anonymous requests allowed as
// -anonymous-auth defaults to), kapiserver.Serving at the address it
// serves on (API Priority and Fairness at the default limits, the webhook
// service resolver), and every controller (-controllers '*'). It returns
// the kinds that configuration registers, as a check on its discovery.
func startShippedServer(t *testing.T) (*cluster, []apiserver.Resource) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	srv := httptest.NewUnstartedServer(nil)
	t.Cleanup(func() {
		srv.Close()
		cancel()
	})
	sec, err := kapiserver.NewSecure(ctx, kapiserver.Options{AnonymousAuth: true})
	require.NoError(t, err)
	serving := kapiserver.Serving{Addr: srv.Listener.Addr().String(), FlowControl: kapiserver.DefaultFlowControl(ctx)}
	require.NoError(t, serving.Apply(&sec.Config))
	handler, err := apiserver.New(sec.Config)
	require.NoError(t, err)
	selected, err := controllers.ParseControllers("*")
	require.NoError(t, err)
	m, err := controllers.Start(ctx, handler, controllers.Options{Controllers: selected, RootCA: sec.CAData})
	require.NoError(t, err)
	srv.Config.Handler = handler
	srv.TLS = sec.TLS
	srv.StartTLS()
	t.Cleanup(func() {
		srv.Close()
		cancel()
		select {
		case <-m.Done():
		case <-time.After(10 * time.Second):
			t.Error("the controllers did not stop")
		}
	})
	path := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, sec.WriteKubeconfig(path, srv.URL))
	return &cluster{t: t, url: srv.URL, kubeconfig: path}, sec.Config.Resources
}

// smokeKubectl runs one kubectl binary against a cluster; it is safe for
// concurrent use (each run reports nothing itself: callers judge).
type smokeKubectl struct {
	name       string // as subtests read it: "kubectl 1.33"
	bin        string
	kubeconfig string
	cache      string
	home       string
}

func newSmokeKubectl(t *testing.T, c *cluster, name, bin string) *smokeKubectl {
	t.Helper()
	return &smokeKubectl{name: name, bin: bin, kubeconfig: c.kubeconfig, cache: filepath.Join(t.TempDir(), "cache"), home: t.TempDir()}
}

// run runs kubectl with args in namespace smoke.
func (k *smokeKubectl) run(args ...string) (stdout, stderr string, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, k.bin, append([]string{"--kubeconfig", k.kubeconfig, "-n", smokeNamespace}, args...)...)
	cmd.Env = append(os.Environ(), "KUBECACHEDIR="+k.cache, "HOME="+k.home)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// smokeNamespace holds every namespaced object the smoke test writes.
const smokeNamespace = "smoke"

// smokeDir holds one manifest per served kind.
const smokeDir = "testdata/smoke"

// smokeKind is one kind the server serves, with the manifest the smoke test
// writes of it.
type smokeKind struct {
	key        string // plural, or plural.group: the manifest's file name and kubectl's name of the resource
	gvr        schema.GroupVersionResource
	kind       string
	namespaced bool
	verbs      sets.Set[string]
	// object is the manifest's last document, the object under test;
	// needs are the documents before it, which it refers to.
	object *unstructured.Unstructured
	needs  []*unstructured.Unstructured
}

// label names the kind as a subtest reads: "a ConfigMap", "an Event of
// events.k8s.io".
func (k *smokeKind) label() string {
	article := "a "
	if strings.ContainsAny(k.kind[:1], "AEIOU") {
		article = "an "
	}
	if k.gvr.Group == "" {
		return article + k.kind
	}
	return article + k.kind + " of " + k.gvr.Group
}

// nameLine is how `kubectl -o name` prints the object: kind.group/name.
func (k *smokeKind) nameLine() string {
	s := strings.ToLower(k.kind)
	if k.gvr.Group != "" {
		s += "." + k.gvr.Group
	}
	return s + "/" + k.object.GetName()
}

// persisted says whether the kind is stored (and so read, updated and
// deleted), as its discovery verbs say.
func (k *smokeKind) persisted() bool {
	return k.verbs.HasAll("create", "get", "list", "update", "patch", "delete")
}

// createOnly says whether the kind only answers a create (the reviews,
// Binding).
func (k *smokeKind) createOnly() bool { return k.verbs.Equal(sets.New("create")) }

// readOnly says whether the kind is only read (ComponentStatus).
func (k *smokeKind) readOnly() bool { return !k.verbs.Has("create") && k.verbs.HasAll("get", "list") }

// servedKinds lists the top-level resources the server's discovery serves
// in their preferred versions, sorted by key.
func servedKinds(t *testing.T, dc discovery.DiscoveryInterface) []*smokeKind {
	t.Helper()
	lists, err := dc.ServerPreferredResources()
	require.NoError(t, err)
	var kinds []*smokeKind
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		require.NoError(t, err)
		for _, r := range l.APIResources {
			if strings.Contains(r.Name, "/") {
				continue // subresources are their parent's
			}
			key := r.Name
			if gv.Group != "" {
				key += "." + gv.Group
			}
			kinds = append(kinds, &smokeKind{key: key, gvr: gv.WithResource(r.Name), kind: r.Kind,
				namespaced: r.Namespaced, verbs: sets.New(r.Verbs...)})
		}
	}
	sort.Slice(kinds, func(i, j int) bool { return kinds[i].key < kinds[j].key })
	return kinds
}

// undiscovered lists the registrations that discovery does not list in
// their group and version: kinds served but invisible to clients, which a
// smoke test led by discovery would not run.
func undiscovered(t *testing.T, dc discovery.DiscoveryInterface, registered []apiserver.Resource) []string {
	t.Helper()
	_, lists, err := dc.ServerGroupsAndResources()
	require.NoError(t, err)
	listed := sets.New[string]()
	for _, l := range lists {
		for _, r := range l.APIResources {
			listed.Insert(l.GroupVersion + " " + r.Name)
		}
	}
	var missing []string
	for _, r := range registered {
		gv := schema.GroupVersion{Group: r.Group, Version: r.Version}.String()
		if !listed.Has(gv + " " + r.Plural) {
			missing = append(missing, fmt.Sprintf("%s %s (%s)", gv, r.Plural, r.Kind))
		}
	}
	return missing
}

// readSmokeManifest reads testdata/smoke/<key>.yaml into k: its last
// document is the object under test, of k's kind.
func readSmokeManifest(k *smokeKind) error {
	b, err := os.ReadFile(filepath.Join(smokeDir, k.key+".yaml"))
	if err != nil {
		return err
	}
	var docs []*unstructured.Unstructured
	for _, doc := range strings.Split(string(b), "\n---\n") {
		var m map[string]any
		if err := yaml.Unmarshal([]byte(doc), &m); err != nil {
			return fmt.Errorf("%s.yaml: %w", k.key, err)
		}
		if len(m) > 0 {
			docs = append(docs, &unstructured.Unstructured{Object: m})
		}
	}
	if len(docs) == 0 {
		return fmt.Errorf("%s.yaml holds no object", k.key)
	}
	k.object, k.needs = docs[len(docs)-1], docs[:len(docs)-1]
	gvk := k.object.GroupVersionKind()
	if gvk.Group != k.gvr.Group || gvk.Kind != k.kind {
		return fmt.Errorf("%s.yaml's last object is a %s, not a %s of group %q", k.key, gvk, k.kind, k.gvr.Group)
	}
	if k.namespaced && k.object.GetNamespace() != "" {
		return fmt.Errorf("%s.yaml names a namespace: the test writes every object in %q", k.key, smokeNamespace)
	}
	return nil
}

// writeObjects writes each kind's object, as edit returns it (a deep
// copy), to dir/<key>.json, and returns the paths by key.
func writeObjects(t *testing.T, dir string, kinds []*smokeKind, edit func(*smokeKind) *unstructured.Unstructured) map[string]string {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	paths := map[string]string{}
	for _, k := range kinds {
		obj := edit(k)
		if obj == nil {
			continue
		}
		b, err := json.Marshal(obj.Object)
		require.NoError(t, err)
		p := filepath.Join(dir, k.key+".json")
		require.NoError(t, os.WriteFile(p, b, 0o600))
		paths[k.key] = p
	}
	return paths
}

// withLabel is a copy of obj carrying one more label.
func withLabel(obj *unstructured.Unstructured, key, value string) *unstructured.Unstructured {
	cp := obj.DeepCopy()
	labels := cp.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels[key] = value
	cp.SetLabels(labels)
	return cp
}

// decodeKubectlJSON reads what `kubectl get -o json` printed: one object,
// or a List of them.
func decodeKubectlJSON(out string) ([]*unstructured.Unstructured, error) {
	var objs []*unstructured.Unstructured
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			return objs, err
		}
		u := &unstructured.Unstructured{Object: m}
		if u.IsList() {
			err := u.EachListItem(func(o runtime.Object) error {
				objs = append(objs, o.(*unstructured.Unstructured))
				return nil
			})
			if err != nil {
				return objs, err
			}
			continue
		}
		objs = append(objs, u)
	}
	return objs, nil
}

// findObject is the object of k's kind and name among objs.
func findObject(objs []*unstructured.Unstructured, k *smokeKind) *unstructured.Unstructured {
	for _, o := range objs {
		gvk := o.GroupVersionKind()
		if gvk.Group == k.gvr.Group && gvk.Kind == k.kind && o.GetName() == k.object.GetName() {
			return o
		}
	}
	return nil
}

// stripForReplace is the object as read, ready to be sent back: what the
// server keeps for itself is dropped, resourceVersion kept (an optimistic
// update, as `kubectl get -o yaml | kubectl replace -f -`).
func stripForReplace(obj *unstructured.Unstructured) *unstructured.Unstructured {
	cp := obj.DeepCopy()
	cp.SetManagedFields(nil)
	cp.SetCreationTimestamp(metav1.Time{})
	unstructured.RemoveNestedField(cp.Object, "metadata", "creationTimestamp")
	return cp
}
