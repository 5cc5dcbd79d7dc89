package controllers_test

import (
	"testing"

	"github.com/kapi-dev/kapi/controllers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	claimBody = `{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}`
	claimPath = "/api/v1/namespaces/default/persistentvolumeclaims/data"
	podBody   = `{"metadata":{"name":"app"},"spec":{"containers":[{"name":"c","image":"busybox"}],` +
		`"volumes":[{"name":"v","persistentVolumeClaim":{"claimName":"data"}}]}}`
	volumeBody = `{"metadata":{"name":"pv1"},"spec":{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],"hostPath":{"path":"/tmp/pv1"}}}`
	volumePath = "/api/v1/persistentvolumes/pv1"
)

func TestPVCProtectionLetsAClaimNoPodUsesGo(t *testing.T) {
	e := newEnv(t, controllers.Options{})
	created := e.must(201, "POST", "/api/v1/namespaces/default/persistentvolumeclaims", claimBody)
	require.Equal(t, []any{"kubernetes.io/pvc-protection"}, nested(created, "metadata", "finalizers"))
	e.must(200, "DELETE", claimPath, "")
	e.idle()
	assert.False(t, e.exists(claimPath), "the finalizer is removed and the claim goes")
}

func TestPVCProtectionKeepsAClaimWhileAPodUsesIt(t *testing.T) {
	e := newEnv(t, controllers.Options{})
	e.must(201, "POST", "/api/v1/namespaces/default/persistentvolumeclaims", claimBody)
	e.must(201, "POST", "/api/v1/namespaces/default/pods", podBody)
	e.must(200, "DELETE", claimPath, "")
	e.idle()
	held := e.must(200, "GET", claimPath, "")
	assert.NotNil(t, nested(held, "metadata", "deletionTimestamp"), "Terminating while the pod uses it")

	e.must(200, "DELETE", "/api/v1/namespaces/default/pods/app", "")
	e.idle()
	assert.False(t, e.exists(claimPath), "the pod gone, the claim goes")
}

func TestPVCProtectionLetsAClaimGoWhenItsPodHasTerminated(t *testing.T) {
	e := newEnv(t, controllers.Options{})
	e.must(201, "POST", "/api/v1/namespaces/default/persistentvolumeclaims", claimBody)
	e.must(201, "POST", "/api/v1/namespaces/default/pods", podBody)
	e.must(200, "DELETE", claimPath, "")
	e.idle()
	require.True(t, e.exists(claimPath))

	code, out := e.do("PATCH", "/api/v1/namespaces/default/pods/app/status", "application/merge-patch+json", `{"status":{"phase":"Succeeded"}}`)
	require.Equal(t, 200, code, "%v", out)
	e.idle()
	assert.False(t, e.exists(claimPath), "a pod that has terminated no longer uses the claim")
}

func TestPVProtectionKeepsABoundVolumeUntilItIsReleased(t *testing.T) {
	e := newEnv(t, controllers.Options{})
	created := e.must(201, "POST", "/api/v1/persistentvolumes", volumeBody)
	require.Equal(t, []any{"kubernetes.io/pv-protection"}, nested(created, "metadata", "finalizers"))
	code, out := e.do("PATCH", volumePath+"/status", "application/merge-patch+json", `{"status":{"phase":"Bound"}}`)
	require.Equal(t, 200, code, "%v", out)
	e.must(200, "DELETE", volumePath, "")
	e.idle()
	require.True(t, e.exists(volumePath), "Terminating while Bound")

	code, out = e.do("PATCH", volumePath+"/status", "application/merge-patch+json", `{"status":{"phase":"Released"}}`)
	require.Equal(t, 200, code, "%v", out)
	e.idle()
	assert.False(t, e.exists(volumePath), "released, the volume goes")
}

func TestPVProtectionLetsAnUnboundVolumeGo(t *testing.T) {
	e := newEnv(t, controllers.Options{})
	e.must(201, "POST", "/api/v1/persistentvolumes", volumeBody)
	e.must(200, "DELETE", volumePath, "")
	e.idle()
	assert.False(t, e.exists(volumePath))
}
