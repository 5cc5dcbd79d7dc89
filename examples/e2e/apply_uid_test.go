package e2e

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kubectl gets kube's answers when an apply or a patch names a uid the
// object does not have (docs/kube-behaviour/12-policy.md, 04-writes.md);
// kubectl prints a 409 to an apply with its advice on field conflicts.
func TestKubectlApplyAndPatchThatNameAnotherUIDGetKubesErrors(t *testing.T) {
	k := kubectlFor(t, startCluster(t), "1.33")
	_, stderr, err := k.withStdin("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: u1\n  namespace: default\n  uid: sent-uid\n").
		run("apply", "--server-side", "-f", "-")
	require.Error(t, err)
	assert.Contains(t, stderr, `error: Operation cannot be fulfilled on configmaps "u1": uid mismatch: the provided object specified uid sent-uid, and no existing object was found`)
	_, _, err = k.run("get", "configmap", "u1")
	require.Error(t, err, "nothing was created")

	k.must("create", "configmap", "u2")
	_, stderr, err = k.run("patch", "configmap", "u2", "--type", "merge", "-p", `{"metadata":{"uid":"other"}}`)
	require.Error(t, err)
	assert.Contains(t, stderr, `The ConfigMap "u2" is invalid: metadata.uid: Invalid value: "other": field is immutable`)
}
