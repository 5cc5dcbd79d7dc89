package e2e

// A smoke test of every kind the example server serves, as it ships: each
// kind its discovery lists (and discovery lists every kind its
// configuration registers) has a realistic manifest in testdata/smoke,
// which kubectl 1.33 and the kubectl on PATH create, read, list, replace,
// merge-patch, strategic-merge-patch, server-side apply and delete (and
// create again by server-side apply), and which client-go's typed clients
// create, read, list, update and delete in protobuf. Kinds served for
// create only (the reviews, Binding) are created and their answers read;
// kinds served for reading only (ComponentStatus) are listed and read.
//
// kubectl costs a third of a CPU second a run: one run per kind and verb
// would take minutes on a busy machine, so each verb is one kubectl run
// over every kind's file, and each kind's case is judged from what that
// run printed for it (the names `-o name` lists, the objects `-o json`
// prints) and from the objects read back. A kind that fails is run again
// alone to show its own answer.

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kapi-dev/kapi/examples/server/kapiserver"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
)

// The marks each write leaves on the object, read back to prove it landed.
const (
	markReplaced  = "smoke.kapi.dev/replaced"
	markMerge     = "smoke.kapi.dev/merge-patched"
	markStrategic = "smoke.kapi.dev/strategic-patched"
	markApplied   = "smoke.kapi.dev/applied"
	markUpdated   = "smoke.kapi.dev/updated"
)

func TestSmokeEveryServedKindThroughKubectlAndProtobuf(t *testing.T) {
	c, registered := startShippedServer(t)
	ctx := context.Background()
	jsonCfg := restConfigFor(t, c, runtime.ContentTypeJSON)
	dyn, err := dynamic.NewForConfig(jsonCfg)
	require.NoError(t, err)
	dc, err := discovery.NewDiscoveryClientForConfig(jsonCfg)
	require.NoError(t, err)
	kinds := servedKinds(t, dc)
	require.NotEmpty(t, kinds)

	t.Run("every kind the configuration registers is in discovery", func(t *testing.T) {
		for _, m := range undiscovered(t, dc, registered) {
			t.Errorf("%s is registered in the example server's configuration but its discovery does not list it: clients cannot find it, and this test, led by discovery, does not run it", m)
		}
	})

	var usable []*smokeKind
	t.Run("every served kind has a manifest and a typed client", func(t *testing.T) {
		keys := sets.New[string]()
		for _, k := range kinds {
			keys.Insert(k.key)
			_, typed := smokeTypedClients[k.key]
			_, excused := smokeWithoutTypedClient[k.key]
			if !typed && !excused {
				t.Errorf("%s (%s) is served but has no typed client in smokeTypedClients: add its client-go typed client", k.key, k.kind)
			}
			switch {
			case k.readOnly():
				usable = append(usable, k)
				continue
			case !k.persisted() && !k.createOnly():
				t.Errorf("%s is served with verbs %v: the smoke test knows stored kinds, create-only kinds and read-only kinds", k.key, sets.List(k.verbs))
				continue
			}
			if err := readSmokeManifest(k); err != nil {
				if os.IsNotExist(err) {
					t.Errorf("%s (%s) is served but has no manifest: write a realistic one to %s/%s.yaml", k.key, k.kind, smokeDir, k.key)
				} else {
					t.Errorf("%s: %v", k.key, err)
				}
				continue
			}
			usable = append(usable, k)
		}
		files, err := filepath.Glob(filepath.Join(smokeDir, "*.yaml"))
		require.NoError(t, err)
		for _, f := range files {
			if key := strings.TrimSuffix(filepath.Base(f), ".yaml"); !keys.Has(key) {
				t.Errorf("%s names no served kind (%s): the server's discovery no longer lists it", f, key)
			}
		}
	})

	_, err = dyn.Resource(corev1.SchemeGroupVersion.WithResource("namespaces")).Create(ctx, &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": smokeNamespace}}}, metav1.CreateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		_, err := dyn.Resource(corev1.SchemeGroupVersion.WithResource("serviceaccounts")).Namespace(smokeNamespace).Get(ctx, "default", metav1.GetOptions{})
		return err == nil
	}, 30*time.Second, 50*time.Millisecond, "the serviceaccount controller gives namespace %s its default ServiceAccount", smokeNamespace)

	onPath, err := exec.LookPath("kubectl")
	require.NoError(t, err, "kubectl must be on PATH")
	for _, k := range []*smokeKubectl{
		newSmokeKubectl(t, c, "kubectl 1.33", kubectlBinary(t, "1.33")),
		newSmokeKubectl(t, c, "kubectl on PATH", onPath),
	} {
		t.Run(k.name, func(t *testing.T) {
			out := newSmokeOutcomes()
			kubectlStored(t, k, dyn, usable, out)
			kubectlCreateOnly(t, k, dyn, usable, out)
			kubectlReadOnly(k, usable, out)
			out.report(t, usable)
		})
	}

	t.Run("client-go in protobuf", func(t *testing.T) {
		cfg := restConfigFor(t, c, runtime.ContentTypeProtobuf)
		cfg.AcceptContentTypes = runtime.ContentTypeProtobuf
		cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { return smokeProtobufOnly{next: rt} }
		cs, err := kubernetes.NewForConfig(cfg)
		require.NoError(t, err)
		ax, err := apiextensionsclient.NewForConfig(cfg)
		require.NoError(t, err)
		out := newSmokeOutcomes()
		protobufKinds(cs, ax, dyn, usable, out)
		out.report(t, usable)
	})
}

// smokeCase is one verb of one kind by one client, as it went.
type smokeCase struct {
	name string // what the kind does, as the subtest reads: "is created"
	err  string // why it failed; empty when it passed
	skip string // why it did not run
}

// smokeOutcomes gathers every kind's cases, in the order they ran.
type smokeOutcomes struct {
	mu     sync.Mutex
	byKind map[string][]smokeCase
}

func newSmokeOutcomes() *smokeOutcomes { return &smokeOutcomes{byKind: map[string][]smokeCase{}} }

func (o *smokeOutcomes) add(k *smokeKind, name, err string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.byKind[k.key] = append(o.byKind[k.key], smokeCase{name: name, err: err})
}

func (o *smokeOutcomes) skip(k *smokeKind, name, why string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.byKind[k.key] = append(o.byKind[k.key], smokeCase{name: name, skip: why})
}

// report runs one subtest per kind and case: "a ConfigMap/is created".
func (o *smokeOutcomes) report(t *testing.T, kinds []*smokeKind) {
	for _, k := range kinds {
		cases := o.byKind[k.key]
		t.Run(k.label(), func(t *testing.T) {
			if len(cases) == 0 {
				t.Skip("this client has no case for the kind")
			}
			for _, sc := range cases {
				t.Run(sc.name, func(t *testing.T) {
					if sc.skip != "" {
						t.Skip(sc.skip)
					}
					if sc.err != "" {
						t.Error(sc.err)
					}
				})
			}
		})
	}
}

// fileArgs is -f path for each kind that has a file, in kinds' order.
func fileArgs(kinds []*smokeKind, files map[string]string) []string {
	var args []string
	for _, k := range kinds {
		if f, ok := files[k.key]; ok {
			args = append(args, "-f", f)
		}
	}
	return args
}

// batch runs one kubectl command over every kind's file with -o name and
// returns, by key, why a kind's object was not among the names it printed:
// the lines of its errors naming the kind's file, or, when none does, what
// the same command answers for that file alone.
func (k *smokeKubectl) batch(kinds []*smokeKind, files map[string]string, args ...string) map[string]string {
	cmd := append(append(append([]string{}, args...), "-o", "name"), fileArgs(kinds, files)...)
	stdout, stderr, _ := k.run(cmd...)
	printed := sets.New(lines(stdout)...)
	failed := map[string]string{}
	for _, sk := range kinds {
		f, ok := files[sk.key]
		if !ok || printed.Has(sk.nameLine()) {
			continue
		}
		var mine []string
		for _, l := range lines(stderr) {
			if strings.Contains(l, f) {
				mine = append(mine, strings.ReplaceAll(l, f, sk.key+".json"))
			}
		}
		if len(mine) == 0 {
			o, e, err := k.run(append(append(append([]string{}, args...), "-o", "name"), "-f", f)...)
			mine = append(mine, fmt.Sprintf("(run alone: %v) %s%s", err, o, e))
		}
		failed[sk.key] = fmt.Sprintf("%s %s did not print %s: %s", k.name, strings.Join(args, " "), sk.nameLine(), strings.Join(mine, "\n"))
	}
	return failed
}

// getJSON runs a kubectl get printing JSON and returns the objects.
func (k *smokeKubectl) getJSON(args ...string) ([]*unstructured.Unstructured, string) {
	stdout, stderr, err := k.run(append([]string{"get", "-o", "json"}, args...)...)
	objs, decErr := decodeKubectlJSON(stdout)
	if decErr != nil {
		stderr += "\ndecoding its output: " + decErr.Error()
	}
	if err != nil {
		stderr = fmt.Sprintf("%v: %s", err, stderr)
	}
	return objs, stderr
}

func (k *smokeKind) resource(dyn dynamic.Interface) dynamic.ResourceInterface {
	if k.namespaced {
		return dyn.Resource(k.gvr).Namespace(smokeNamespace)
	}
	return dyn.Resource(k.gvr)
}

// goneWithin waits until every kind's object is gone, each in parallel,
// and returns why one is not: how it stands at the deadline.
func goneWithin(dyn dynamic.Interface, kinds []*smokeKind, d time.Duration) map[string]string {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var mu sync.Mutex
	var wg sync.WaitGroup
	stuck := map[string]string{}
	for _, k := range kinds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				obj, err := k.resource(dyn).Get(ctx, k.object.GetName(), metav1.GetOptions{})
				if apierrors.IsNotFound(err) {
					return
				}
				if ctx.Err() != nil {
					mu.Lock()
					defer mu.Unlock()
					if obj != nil {
						stuck[k.key] = fmt.Sprintf("still there %s after its delete: deletionTimestamp %v, finalizers %v", d, obj.GetDeletionTimestamp(), obj.GetFinalizers())
					} else {
						stuck[k.key] = fmt.Sprintf("not gone %s after its delete: %v", d, err)
					}
					return
				}
				select {
				case <-ctx.Done():
				case <-time.After(50 * time.Millisecond):
				}
			}
		}()
	}
	wg.Wait()
	return stuck
}

// deleteDeadline bounds how long a deleted object may take to go: the
// namespace controller empties and finalizes a namespace, the garbage
// collector follows owners.
const deleteDeadline = 30 * time.Second

// kubectlStored runs kubectl through the whole life of every stored kind.
func kubectlStored(t *testing.T, k *smokeKubectl, dyn dynamic.Interface, all []*smokeKind, out *smokeOutcomes) {
	var kinds []*smokeKind
	for _, sk := range all {
		if sk.persisted() {
			kinds = append(kinds, sk)
		}
	}
	dir := t.TempDir()
	manifests := writeObjects(t, filepath.Join(dir, "manifests"), kinds, func(sk *smokeKind) *unstructured.Unstructured { return sk.object.DeepCopy() })
	applied := writeObjects(t, filepath.Join(dir, "applied"), kinds, func(sk *smokeKind) *unstructured.Unstructured {
		return withLabel(sk.object, markApplied, "yes")
	})
	notCreated := "not created (see its create case)"

	failed := k.batch(kinds, manifests, "create")
	var existing []*smokeKind
	for _, sk := range kinds {
		out.add(sk, "is created", failed[sk.key])
		if failed[sk.key] == "" {
			existing = append(existing, sk)
		}
	}
	created := sets.New[string]()
	for _, sk := range existing {
		created.Insert(sk.key)
	}
	skipUnlessCreated := func(sk *smokeKind, name string) bool {
		if !created.Has(sk.key) {
			out.skip(sk, name, notCreated)
			return true
		}
		return false
	}

	read, readErr := k.getJSON(fileArgs(existing, manifests)...)
	readObjs := map[string]*unstructured.Unstructured{}
	for _, sk := range kinds {
		if skipUnlessCreated(sk, "is read") {
			continue
		}
		obj := findObject(read, sk)
		if obj == nil {
			out.add(sk, "is read", fmt.Sprintf("%s get -f did not print it: %s", k.name, readErr))
			continue
		}
		readObjs[sk.key] = obj
		out.add(sk, "is read", "")
	}

	var resources []string
	for _, sk := range existing {
		resources = append(resources, sk.key)
	}
	listed, listErr := k.getJSON(strings.Join(resources, ","))
	for _, sk := range kinds {
		if skipUnlessCreated(sk, "is listed") {
			continue
		}
		if findObject(listed, sk) == nil {
			out.add(sk, "is listed", fmt.Sprintf("%s get %s did not list it: %s", k.name, sk.key, listErr))
			continue
		}
		out.add(sk, "is listed", "")
	}

	replacements := writeObjects(t, filepath.Join(dir, "replaced"), existing, func(sk *smokeKind) *unstructured.Unstructured {
		obj, ok := readObjs[sk.key]
		if !ok {
			return nil
		}
		obj = stripForReplace(obj)
		ann := obj.GetAnnotations()
		if ann == nil {
			ann = map[string]string{}
		}
		ann[markReplaced] = "yes"
		obj.SetAnnotations(ann)
		return obj
	})
	replaceFailed := k.batch(existing, replacements, "replace")
	mergeFailed := k.batch(existing, manifests, "patch", "--type", "merge", "-p", `{"metadata":{"labels":{"`+markMerge+`":"yes"}}}`)
	strategicFailed := k.batch(existing, manifests, "patch", "--type", "strategic", "-p", `{"metadata":{"labels":{"`+markStrategic+`":"yes"}}}`)
	// The object was created by kubectl-create: applying its manifest takes
	// over the fields that manager set, as `--force-conflicts` says to.
	applyFailed := k.batch(existing, applied, "apply", "--server-side", "--force-conflicts", "--field-manager", "smoke")
	final, finalErr := k.getJSON(fileArgs(existing, manifests)...)

	// Each write's case: kubectl printed the object, and it carries the
	// write's mark when read back after them all.
	writes := []struct {
		name   string
		failed map[string]string
		mark   func(*unstructured.Unstructured) bool
	}{
		{"is replaced", replaceFailed, func(o *unstructured.Unstructured) bool { return o.GetAnnotations()[markReplaced] == "yes" }},
		{"is merge-patched", mergeFailed, func(o *unstructured.Unstructured) bool { return o.GetLabels()[markMerge] == "yes" }},
		{"is strategic-merge-patched", strategicFailed, func(o *unstructured.Unstructured) bool { return o.GetLabels()[markStrategic] == "yes" }},
		{"takes a change by server-side apply", applyFailed, func(o *unstructured.Unstructured) bool { return o.GetLabels()[markApplied] == "yes" }},
	}
	for _, w := range writes {
		for _, sk := range kinds {
			if skipUnlessCreated(sk, w.name) {
				continue
			}
			if _, ok := replacements[sk.key]; !ok && w.name == "is replaced" {
				out.skip(sk, w.name, "not read (see its read case)")
				continue
			}
			if msg := w.failed[sk.key]; msg != "" {
				out.add(sk, w.name, msg)
				continue
			}
			obj := findObject(final, sk)
			switch {
			case obj == nil:
				out.add(sk, w.name, fmt.Sprintf("%s get -f did not print it after the writes: %s", k.name, finalErr))
			case !w.mark(obj):
				out.add(sk, w.name, fmt.Sprintf("kubectl printed it, but read back it lacks the write's mark: labels %v, annotations %v", obj.GetLabels(), obj.GetAnnotations()))
			default:
				out.add(sk, w.name, "")
			}
		}
	}

	deleteFailed := k.batch(existing, manifests, "delete", "--wait=false")
	stuck := goneWithin(dyn, existing, deleteDeadline)
	for _, sk := range kinds {
		if skipUnlessCreated(sk, "is deleted") {
			continue
		}
		out.add(sk, "is deleted", strings.TrimSpace(deleteFailed[sk.key]+"\n"+stuck[sk.key]))
	}

	// Gone (or never created), each is created again by server-side apply,
	// as `kubectl apply --server-side` of a new manifest does, and deleted.
	var absent []*smokeKind
	for _, sk := range kinds {
		if stuck[sk.key] == "" {
			absent = append(absent, sk)
		} else {
			out.skip(sk, "is created by server-side apply", "its first object is still there")
		}
	}
	applyCreateFailed := k.batch(absent, applied, "apply", "--server-side", "--field-manager", "smoke")
	var again []*smokeKind
	for _, sk := range absent {
		out.add(sk, "is created by server-side apply", applyCreateFailed[sk.key])
		if applyCreateFailed[sk.key] == "" {
			again = append(again, sk)
		}
	}
	deleteFailed = k.batch(again, manifests, "delete", "--wait=false")
	stuck = goneWithin(dyn, again, deleteDeadline)
	for _, sk := range again {
		out.add(sk, "is deleted again", strings.TrimSpace(deleteFailed[sk.key]+"\n"+stuck[sk.key]))
	}
}

// createNeeds creates what a create-only kind refers to (a Binding's pod)
// and returns what deletes it again and waits until it is gone.
func createNeeds(ctx context.Context, dyn dynamic.Interface, sk *smokeKind) (func(), error) {
	var made []*unstructured.Unstructured
	resource := func(n *unstructured.Unstructured) dynamic.ResourceInterface {
		plural, _ := apimeta.UnsafeGuessKindToResource(n.GroupVersionKind())
		return dyn.Resource(plural).Namespace(smokeNamespace)
	}
	cleanup := func() {
		zero := int64(0)
		for _, n := range made {
			_ = resource(n).Delete(ctx, n.GetName(), metav1.DeleteOptions{GracePeriodSeconds: &zero})
		}
		dctx, cancel := context.WithTimeout(ctx, deleteDeadline)
		defer cancel()
		for _, n := range made {
			for {
				if _, err := resource(n).Get(dctx, n.GetName(), metav1.GetOptions{}); err != nil {
					break // gone, or past the deadline: the next create of it says which
				}
				select {
				case <-dctx.Done():
				case <-time.After(50 * time.Millisecond):
				}
			}
		}
	}
	for _, n := range sk.needs {
		if _, err := resource(n).Create(ctx, n.DeepCopy(), metav1.CreateOptions{}); err != nil {
			cleanup()
			return nil, fmt.Errorf("creating the %s %s it needs: %w", n.GetKind(), n.GetName(), err)
		}
		made = append(made, n)
	}
	return cleanup, nil
}

// checkAnswer judges a create-only kind's answer (as JSON): the kind it
// asked about, with a status saying what the server decided.
func checkAnswer(ctx context.Context, dyn dynamic.Interface, sk *smokeKind, answer map[string]any) string {
	if sk.kind == "Binding" {
		pod, err := dyn.Resource(corev1.SchemeGroupVersion.WithResource("pods")).Namespace(smokeNamespace).Get(ctx, sk.object.GetName(), metav1.GetOptions{})
		if err != nil {
			return fmt.Sprintf("reading the bound pod: %v", err)
		}
		want, _, _ := unstructured.NestedString(sk.object.Object, "target", "name")
		if got, _, _ := unstructured.NestedString(pod.Object, "spec", "nodeName"); got != want {
			return fmt.Sprintf("the pod's nodeName is %q after its Binding to %q", got, want)
		}
		return ""
	}
	status, ok := answer["status"].(map[string]any)
	if !ok {
		return fmt.Sprintf("the answer has no status: %v", answer)
	}
	switch sk.kind {
	case "SelfSubjectReview":
		if u, _, _ := unstructured.NestedString(status, "userInfo", "username"); u != kapiserver.AdminUser {
			return fmt.Sprintf("status.userInfo.username is %q, not the admin's %q", u, kapiserver.AdminUser)
		}
	case "SelfSubjectAccessReview":
		if allowed, _, _ := unstructured.NestedBool(status, "allowed"); !allowed {
			return fmt.Sprintf("the admin is not allowed: %v", status)
		}
	case "SelfSubjectRulesReview":
		if rules, _, _ := unstructured.NestedSlice(status, "resourceRules"); len(rules) == 0 {
			return fmt.Sprintf("the admin has no rules: %v", status)
		}
	}
	return ""
}

// kubectlCreateOnly creates each create-only kind with kubectl, in
// parallel, and reads its answer.
func kubectlCreateOnly(t *testing.T, k *smokeKubectl, dyn dynamic.Interface, kinds []*smokeKind, out *smokeOutcomes) {
	ctx := context.Background()
	files := writeObjects(t, t.TempDir(), kinds, func(sk *smokeKind) *unstructured.Unstructured {
		if !sk.createOnly() {
			return nil
		}
		return sk.object.DeepCopy()
	})
	var wg sync.WaitGroup
	for _, sk := range kinds {
		if !sk.createOnly() {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			cleanup, err := createNeeds(ctx, dyn, sk)
			if err != nil {
				out.add(sk, "is created and answered", err.Error())
				return
			}
			defer cleanup()
			stdout, stderr, err := k.run(append([]string{"create", "-o", "json"}, fileArgs([]*smokeKind{sk}, files)...)...)
			if err != nil {
				out.add(sk, "is created and answered", fmt.Sprintf("%s create: %v: %s", k.name, err, stderr))
				return
			}
			objs, err := decodeKubectlJSON(stdout)
			if err != nil || len(objs) != 1 {
				out.add(sk, "is created and answered", fmt.Sprintf("%s create printed %d objects (%v): %s", k.name, len(objs), err, stdout))
				return
			}
			out.add(sk, "is created and answered", checkAnswer(ctx, dyn, sk, objs[0].Object))
		}()
	}
	wg.Wait()
}

// kubectlReadOnly lists each read-only kind and reads what it lists.
func kubectlReadOnly(k *smokeKubectl, kinds []*smokeKind, out *smokeOutcomes) {
	for _, sk := range kinds {
		if !sk.readOnly() {
			continue
		}
		stdout, stderr, err := k.run("get", "-o", "json", sk.key)
		listed, decErr := decodeKubectlJSON(stdout)
		if err != nil || decErr != nil {
			out.add(sk, "is listed", fmt.Sprintf("%s get %s: %v %v: %s", k.name, sk.key, err, decErr, stderr))
			out.skip(sk, "is read", "not listed")
			continue
		}
		if len(listed) == 0 {
			// kapi has no components of its own to report (kube's are the
			// scheduler, controller-manager and etcd members it probes).
			out.add(sk, "is listed", "")
			out.skip(sk, "is read", "nothing listed")
			continue
		}
		out.add(sk, "is listed", "")
		name := listed[0].GetName()
		got, errOut := k.getJSON(sk.key, name)
		if len(got) != 1 || got[0].GetName() != name {
			out.add(sk, "is read", fmt.Sprintf("%s get %s %s: %s", k.name, sk.key, name, errOut))
			continue
		}
		out.add(sk, "is read", "")
	}
}

// smokeDecoder turns a manifest into its k8s.io/api type.
var smokeDecoder = serializer.NewCodecFactory(builtinScheme).UniversalDeserializer()

func typedObject(sk *smokeKind) (runtime.Object, error) {
	b, err := sk.object.MarshalJSON()
	if err != nil {
		return nil, err
	}
	obj, _, err := smokeDecoder.Decode(b, nil, nil)
	if err != nil {
		return nil, err
	}
	if sk.namespaced {
		obj.(metav1.Object).SetNamespace(smokeNamespace)
	}
	return obj, nil
}

// protobufKinds runs every kind through its typed client in protobuf, the
// kinds in parallel.
func protobufKinds(cs kubernetes.Interface, ax apiextensionsclient.Interface, dyn dynamic.Interface, kinds []*smokeKind, out *smokeOutcomes) {
	ctx := context.Background()
	var wg sync.WaitGroup
	for _, sk := range kinds {
		if why, ok := smokeWithoutTypedClient[sk.key]; ok {
			out.skip(sk, "is written and read through its typed client", why)
			continue
		}
		newClient, ok := smokeTypedClients[sk.key]
		if !ok {
			continue // the manifest case fails
		}
		client := newClient(cs, ax, smokeNamespace)
		wg.Add(1)
		go func() {
			defer wg.Done()
			switch {
			case sk.readOnly():
				protobufReadOnly(ctx, client, sk, out)
			case sk.createOnly():
				cleanup, err := createNeeds(ctx, dyn, sk)
				if err != nil {
					out.add(sk, "is created and answered", err.Error())
					return
				}
				defer cleanup()
				protobufCreateOnly(ctx, client, dyn, sk, out)
			default:
				protobufStored(ctx, client, sk, out)
			}
		}()
	}
	wg.Wait()
}

func protobufReadOnly(ctx context.Context, client smokeClient, sk *smokeKind, out *smokeOutcomes) {
	list, err := client.list(ctx)
	var items []runtime.Object
	if err == nil {
		items, err = apimeta.ExtractList(list)
	}
	if err != nil {
		out.add(sk, "is listed", fmt.Sprintf("list in protobuf: %v", err))
		out.skip(sk, "is read", "not listed")
		return
	}
	if len(items) == 0 { // as kubectlReadOnly
		out.add(sk, "is listed", "")
		out.skip(sk, "is read", "nothing listed")
		return
	}
	out.add(sk, "is listed", "")
	name := items[0].(metav1.Object).GetName()
	_, err = client.get(ctx, name)
	out.add(sk, "is read", errString(err))
}

func protobufCreateOnly(ctx context.Context, client smokeClient, dyn dynamic.Interface, sk *smokeKind, out *smokeOutcomes) {
	obj, err := typedObject(sk)
	if err != nil {
		out.add(sk, "is created and answered", fmt.Sprintf("decoding the manifest: %v", err))
		return
	}
	answer, err := client.create(ctx, obj)
	if err != nil {
		out.add(sk, "is created and answered", fmt.Sprintf("create in protobuf: %v", err))
		return
	}
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(answer)
	if err != nil {
		out.add(sk, "is created and answered", err.Error())
		return
	}
	out.add(sk, "is created and answered", checkAnswer(ctx, dyn, sk, m))
}

func protobufStored(ctx context.Context, client smokeClient, sk *smokeKind, out *smokeOutcomes) {
	obj, err := typedObject(sk)
	if err != nil {
		out.add(sk, "is created", fmt.Sprintf("decoding the manifest: %v", err))
		return
	}
	name := sk.object.GetName()
	rest := []string{"is read", "is listed", "is updated", "is deleted"}
	if _, err := client.create(ctx, obj); err != nil {
		out.add(sk, "is created", fmt.Sprintf("create in protobuf: %v", err))
		for _, r := range rest {
			out.skip(sk, r, "not created (see its create case)")
		}
		return
	}
	out.add(sk, "is created", "")

	got, err := client.get(ctx, name)
	out.add(sk, "is read", errString(err))

	list, err := client.list(ctx)
	var names []string
	if err == nil {
		var items []runtime.Object
		items, err = apimeta.ExtractList(list)
		for _, it := range items {
			names = append(names, it.(metav1.Object).GetName())
		}
	}
	switch {
	case err != nil:
		out.add(sk, "is listed", fmt.Sprintf("list in protobuf: %v", err))
	case !sets.New(names...).Has(name):
		sort.Strings(names)
		out.add(sk, "is listed", fmt.Sprintf("the list in protobuf holds %v, not %s", names, name))
	default:
		out.add(sk, "is listed", "")
	}

	if got == nil {
		out.skip(sk, "is updated", "not read (see its read case)")
	} else {
		m := got.(metav1.Object)
		labels := m.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		labels[markUpdated] = "yes"
		m.SetLabels(labels)
		updated, err := client.update(ctx, got)
		switch {
		case err != nil:
			out.add(sk, "is updated", fmt.Sprintf("update in protobuf: %v", err))
		case updated.(metav1.Object).GetLabels()[markUpdated] != "yes":
			out.add(sk, "is updated", fmt.Sprintf("the update's answer lacks its label: %v", updated.(metav1.Object).GetLabels()))
		default:
			out.add(sk, "is updated", "")
		}
	}

	if err := client.delete(ctx, name); err != nil {
		out.add(sk, "is deleted", fmt.Sprintf("delete in protobuf: %v", err))
		return
	}
	dctx, cancel := context.WithTimeout(ctx, deleteDeadline)
	defer cancel()
	for {
		_, err := client.get(dctx, name)
		if apierrors.IsNotFound(err) {
			out.add(sk, "is deleted", "")
			return
		}
		if dctx.Err() != nil {
			out.add(sk, "is deleted", fmt.Sprintf("still there %s after its delete (get: %v)", deleteDeadline, err))
			return
		}
		select {
		case <-dctx.Done():
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
