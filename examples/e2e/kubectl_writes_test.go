package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// containerSummary is what the patch tests compare of a container.
type containerSummary struct {
	Name, Image string
	Env         []corev1.EnvVar
}

func containersOf(d *appsv1.Deployment) []containerSummary {
	var out []containerSummary
	for _, c := range d.Spec.Template.Spec.Containers {
		out = append(out, containerSummary{Name: c.Name, Image: c.Image, Env: c.Env})
	}
	return out
}

func getDeployment(t *testing.T, cs kubernetes.Interface, name string) *appsv1.Deployment {
	t.Helper()
	d, err := cs.AppsV1().Deployments("default").Get(context.Background(), name, metav1.GetOptions{})
	require.NoError(t, err)
	return d
}

func createDeployment(t *testing.T, cs kubernetes.Interface, d *appsv1.Deployment) *appsv1.Deployment {
	t.Helper()
	created, err := cs.AppsV1().Deployments("default").Create(context.Background(), d, metav1.CreateOptions{})
	require.NoError(t, err)
	return created
}

// TestKubectlWriteCommands drives kubectl 1.33's write commands against one
// server; every subtest works on its own objects, so they run in parallel.
func TestKubectlWriteCommands(t *testing.T) {
	c := startCluster(t)
	cs := clientsetFor(t, c, "application/json")
	k := kubectlFor(t, c, "1.33")

	t.Run("label adds, overwrites and removes a label without bumping the generation", func(t *testing.T) {
		t.Parallel()
		k := k.forTest(t)
		createDeployment(t, cs, twoContainerDeployment("label-me"))

		assert.Contains(t, k.must("label", "deploy", "label-me", "tier=front"), "deployment.apps/label-me labeled")
		d := getDeployment(t, cs, "label-me")
		assert.Equal(t, map[string]string{"app": "label-me", "tier": "front"}, d.Labels)
		assert.Equal(t, int64(1), d.Generation, "a label change is not a spec change")

		out, err := k.combined("label", "deploy", "label-me", "tier=back")
		require.Error(t, err, "changing a label needs --overwrite")
		assert.Contains(t, out, "already has a value (front)")
		k.must("label", "deploy", "label-me", "tier=back", "--overwrite")
		assert.Equal(t, "back", getDeployment(t, cs, "label-me").Labels["tier"])

		k.must("label", "deploy", "label-me", "tier-")
		assert.Equal(t, map[string]string{"app": "label-me"}, getDeployment(t, cs, "label-me").Labels)
	})

	t.Run("annotate adds and removes an annotation", func(t *testing.T) {
		t.Parallel()
		k := k.forTest(t)
		_, err := cs.CoreV1().ConfigMaps("default").Create(context.Background(),
			&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "annotate-me"}}, metav1.CreateOptions{})
		require.NoError(t, err)

		assert.Contains(t, k.must("annotate", "cm", "annotate-me", "note=hello world"), "configmap/annotate-me annotated")
		assert.Equal(t, "hello world", k.must("get", "cm", "annotate-me", "-o", "jsonpath={.metadata.annotations.note}"))
		k.must("annotate", "cm", "annotate-me", "note-")
		cm, err := cs.CoreV1().ConfigMaps("default").Get(context.Background(), "annotate-me", metav1.GetOptions{})
		require.NoError(t, err)
		assert.Empty(t, cm.Annotations)
	})

	t.Run("annotating a Deployment bumps its generation as kube's deployment strategy does", func(t *testing.T) {
		t.Parallel()
		k := k.forTest(t)
		createDeployment(t, cs, twoContainerDeployment("annotate-deploy"))
		k.must("annotate", "deploy", "annotate-deploy", "note=x")
		d := getDeployment(t, cs, "annotate-deploy")
		assert.Equal(t, "x", d.Annotations["note"])
		// docs/kube-behaviour/04-writes.md "generation: spec change vs
		// label change": an annotation-only change bumps generation.
		assert.Equal(t, int64(2), d.Generation)
	})

	t.Run("patch by default is a strategic merge that merges containers by name", func(t *testing.T) {
		t.Parallel()
		k := k.forTest(t)
		createDeployment(t, cs, twoContainerDeployment("smp"))

		out := k.must("patch", "deploy", "smp", "-p",
			`{"spec":{"template":{"spec":{"containers":[{"name":"b","image":"busybox:2"},{"name":"c","image":"redis"}]}}}}`)
		assert.Contains(t, out, "deployment.apps/smp patched")
		d := getDeployment(t, cs, "smp")
		assert.Equal(t, []containerSummary{
			{Name: "a", Image: "nginx:1"},
			{Name: "b", Image: "busybox:2", Env: []corev1.EnvVar{{Name: "X", Value: "1"}}},
			{Name: "c", Image: "redis"},
		}, containersOf(d), "b is updated in place keeping its env, c appended, a untouched")
		assert.Equal(t, int64(2), d.Generation, "a spec change bumps the generation")

		k.must("patch", "deploy", "smp", "-p", `{"spec":{"template":{"spec":{"containers":[{"name":"a","$patch":"delete"}]}}}}`)
		assert.Equal(t, []string{"b", "c"}, containerNames(getDeployment(t, cs, "smp")), "$patch: delete removes a container")
	})

	t.Run("patch --type=merge replaces the whole container list", func(t *testing.T) {
		t.Parallel()
		k := k.forTest(t)
		createDeployment(t, cs, twoContainerDeployment("merge"))

		out := k.must("patch", "deploy", "merge", "--type=merge", "-p",
			`{"metadata":{"labels":{"m":"1"}},"spec":{"template":{"spec":{"containers":[{"name":"b","image":"busybox:3"}]}}}}`)
		assert.Contains(t, out, "deployment.apps/merge patched")
		d := getDeployment(t, cs, "merge")
		assert.Equal(t, []containerSummary{{Name: "b", Image: "busybox:3"}}, containersOf(d))
		assert.Equal(t, map[string]string{"app": "merge", "m": "1"}, d.Labels, "maps are merged")

		k.must("patch", "deploy", "merge", "--type=merge", "-p", `{"metadata":{"labels":{"m":null}}}`)
		assert.Equal(t, map[string]string{"app": "merge"}, getDeployment(t, cs, "merge").Labels, "null removes a key")
	})

	t.Run("patch --type=json applies operations and refuses a failed test", func(t *testing.T) {
		t.Parallel()
		k := k.forTest(t)
		createDeployment(t, cs, twoContainerDeployment("jsonpatch"))

		out := k.must("patch", "deploy", "jsonpatch", "--type=json", "-p",
			`[{"op":"replace","path":"/spec/replicas","value":3},{"op":"add","path":"/metadata/labels/j","value":"yes"},{"op":"remove","path":"/spec/template/spec/containers/1/env"}]`)
		assert.Contains(t, out, "deployment.apps/jsonpatch patched")
		d := getDeployment(t, cs, "jsonpatch")
		assert.Equal(t, int32(3), *d.Spec.Replicas)
		assert.Equal(t, "yes", d.Labels["j"])
		assert.Empty(t, d.Spec.Template.Spec.Containers[1].Env)

		out, err := k.combined("patch", "deploy", "jsonpatch", "--type=json", "-p",
			`[{"op":"test","path":"/spec/replicas","value":99},{"op":"replace","path":"/spec/replicas","value":5}]`)
		require.Error(t, err)
		// 422 Invalid without details (04-writes.md "json-patch failed test op").
		assert.Contains(t, out, "The request is invalid: the server rejected our request due to an error in our request")
		after := getDeployment(t, cs, "jsonpatch")
		assert.Equal(t, int32(3), *after.Spec.Replicas, "a failed test op changes nothing")
		assert.Equal(t, d.ResourceVersion, after.ResourceVersion)
	})

	t.Run("replace swaps the object and refuses a stale resourceVersion", func(t *testing.T) {
		t.Parallel()
		k := k.forTest(t)
		createDeployment(t, cs, twoContainerDeployment("replace-me"))

		manifest := k.must("get", "deploy", "replace-me", "-o", "yaml")
		require.Contains(t, manifest, "replicas: 1")
		changed := strings.Replace(manifest, "image: busybox:1", "image: busybox:9", 1)
		out := k.withStdin(changed).must("replace", "-f", "-")
		assert.Contains(t, out, "deployment.apps/replace-me replaced")
		d := getDeployment(t, cs, "replace-me")
		assert.Equal(t, "busybox:9", d.Spec.Template.Spec.Containers[1].Image)
		assert.Equal(t, int64(2), d.Generation)

		// manifest still carries the resourceVersion before the replace.
		out, err := k.withStdin(strings.Replace(manifest, "image: busybox:1", "image: busybox:10", 1)).combined("replace", "-f", "-")
		require.Error(t, err)
		assert.Contains(t, out, "Error from server (Conflict)")
		assert.Contains(t, out, "the object has been modified; please apply your changes to the latest version and try again")
		assert.Equal(t, "busybox:9", getDeployment(t, cs, "replace-me").Spec.Template.Spec.Containers[1].Image)
	})

	t.Run("edit applies what a non-interactive editor wrote", func(t *testing.T) {
		t.Parallel()
		createDeployment(t, cs, twoContainerDeployment("edit-me"))
		editor := filepath.Join(t.TempDir(), "editor.sh")
		require.NoError(t, os.WriteFile(editor, []byte("#!/bin/sh\nset -e\n"+
			"sed -i -e 's/image: nginx:1$/image: nginx:2/' -e 's/^  replicas: 1$/  replicas: 4/' \"$1\"\n"), 0o755))
		k := k.forTest(t).withEnv("EDITOR="+editor, "KUBE_EDITOR="+editor)

		out := k.must("edit", "deploy", "edit-me")
		assert.Contains(t, out, "deployment.apps/edit-me edited")
		d := getDeployment(t, cs, "edit-me")
		assert.Equal(t, "nginx:2", d.Spec.Template.Spec.Containers[0].Image)
		assert.Equal(t, int32(4), *d.Spec.Replicas)
		assert.Equal(t, "busybox:1", d.Spec.Template.Spec.Containers[1].Image, "what the editor did not touch stays")

		// An editor that changes nothing: kubectl sends nothing.
		noop := filepath.Join(t.TempDir(), "noop.sh")
		require.NoError(t, os.WriteFile(noop, []byte("#!/bin/sh\nexit 0\n"), 0o755))
		out, err := k.withEnv("EDITOR="+noop, "KUBE_EDITOR="+noop).combined("edit", "deploy", "edit-me")
		require.NoError(t, err, out)
		assert.Contains(t, out, "Edit cancelled, no changes made.")
		assert.Equal(t, d.ResourceVersion, getDeployment(t, cs, "edit-me").ResourceVersion)
	})

	t.Run("delete of an object with a finalizer leaves it terminating until the finalizer is removed", func(t *testing.T) {
		t.Parallel()
		k := k.forTest(t)
		cms := cs.CoreV1().ConfigMaps("default")
		_, err := cms.Create(context.Background(), &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: "fin", Finalizers: []string{"example.com/f1"}},
			Data:       map[string]string{"k": "v"},
		}, metav1.CreateOptions{})
		require.NoError(t, err)

		out := k.must("delete", "cm", "fin", "--wait=false")
		assert.Contains(t, out, `configmap "fin" deleted`)
		terminating, err := cms.Get(context.Background(), "fin", metav1.GetOptions{})
		require.NoError(t, err, "an object with finalizers outlives its DELETE")
		assert.NotNil(t, terminating.DeletionTimestamp)
		require.NotNil(t, terminating.DeletionGracePeriodSeconds)
		assert.Equal(t, int64(0), *terminating.DeletionGracePeriodSeconds)
		assert.Equal(t, []string{"example.com/f1"}, terminating.Finalizers)
		assert.NotEmpty(t, k.must("get", "cm", "fin", "-o", "jsonpath={.metadata.deletionTimestamp}"))

		// Deleting again changes nothing.
		k.must("delete", "cm", "fin", "--wait=false")
		again, err := cms.Get(context.Background(), "fin", metav1.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, terminating.ResourceVersion, again.ResourceVersion)

		out = k.must("patch", "cm", "fin", "--type=json", "-p", `[{"op":"remove","path":"/metadata/finalizers"}]`)
		assert.Contains(t, out, "configmap/fin patched")
		_, err = cms.Get(context.Background(), "fin", metav1.GetOptions{})
		assert.True(t, apierrors.IsNotFound(err), "removing the last finalizer deletes the object: %v", err)
		out, err = k.combined("get", "cm", "fin")
		require.Error(t, err)
		assert.Contains(t, out, `configmaps "fin" not found`)
	})

	t.Run("create --dry-run=server answers the object and stores nothing", func(t *testing.T) {
		t.Parallel()
		k := k.forTest(t)
		out := k.must("create", "cm", "dry", "--from-literal=a=b", "--dry-run=server", "-o", "json")
		var cm corev1.ConfigMap
		require.NoError(t, json.Unmarshal([]byte(out), &cm), out)
		assert.Equal(t, "dry", cm.Name)
		assert.Equal(t, map[string]string{"a": "b"}, cm.Data)
		assert.NotEmpty(t, cm.UID, "the dry-run answer is what would have been stored")
		assert.False(t, cm.CreationTimestamp.IsZero())
		assert.Empty(t, cm.ResourceVersion, "nothing was written, so there is no resourceVersion")

		out = k.withStdin(twoContainerDeploymentYAML("dry-deploy", "2", "")).must("create", "-f", "-", "--dry-run=server")
		assert.Contains(t, out, "deployment.apps/dry-deploy created (server dry run)")

		for _, get := range [][]string{{"cm", "dry"}, {"deploy", "dry-deploy"}} {
			out, err := k.combined(append([]string{"get"}, get...)...)
			require.Error(t, err, "a dry run stores nothing")
			assert.Contains(t, out, "NotFound")
		}
		_, err := cs.CoreV1().ConfigMaps("default").Get(context.Background(), "dry", metav1.GetOptions{})
		assert.True(t, apierrors.IsNotFound(err), "%v", err)
	})
}

func containerNames(d *appsv1.Deployment) []string {
	var names []string
	for _, c := range d.Spec.Template.Spec.Containers {
		names = append(names, c.Name)
	}
	return names
}
