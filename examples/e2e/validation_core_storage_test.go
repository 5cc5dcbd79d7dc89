package e2e

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/examples/server/kapiserver"
)

// TestCoreStorageValidationThroughClients: kubectl and client-go get
// kube-apiserver 1.33's answers (docs/kube-behaviour/17-validation-core-storage.md)
// to invalid quotas, storage classes and volumes.
func TestCoreStorageValidationThroughClients(t *testing.T) {
	c := startClusterWith(t, kapiserver.ConfigFor(apiserver.Release133)) // kube 1.33's answers, as recorded
	cs := clientsetFor(t, c, "application/json")
	k := kubectlFor(t, c, "1.33")
	ctx := context.Background()

	t.Run("kubectl create quota with an unknown negative resource prints kube's three errors", func(t *testing.T) {
		out, err := k.forTest(t).combined("create", "quota", "q", "--hard=bogus=-1")
		require.Error(t, err)
		assert.Equal(t, `error: failed to create quota: ResourceQuota "q" is invalid: [spec.hard[bogus]: Invalid value: bogus: must be a standard resource type or fully qualified, spec.hard[bogus]: Invalid value: bogus: must be a standard resource for quota, spec.hard[bogus]: Invalid value: "-1": must be greater than or equal to 0]`+"\n", out)
	})

	t.Run("kubectl create quota with conflicting scopes is refused", func(t *testing.T) {
		out, err := k.forTest(t).combined("create", "quota", "q2", "--hard=pods=2", "--scopes=BestEffort,NotBestEffort")
		require.Error(t, err)
		assert.Equal(t, `error: failed to create quota: ResourceQuota "q2" is invalid: spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort"}: conflicting scopes`+"\n", out)
	})

	t.Run("kubectl apply of a storage class without a provisioner lists kube's errors", func(t *testing.T) {
		out, err := k.forTest(t).withStdin("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: valcore-apply\nprovisioner: \"\"\nreclaimPolicy: Recycle\n").
			combined("apply", "-f", "-")
		require.Error(t, err)
		assert.Equal(t, "The StorageClass \"valcore-apply\" is invalid: \n* provisioner: Required value\n* reclaimPolicy: Unsupported value: \"Recycle\": supported values: \"Delete\", \"Retain\"\n", out)
	})

	t.Run("client-go may not change a storage class's provisioner", func(t *testing.T) {
		sc, err := cs.StorageV1().StorageClasses().Create(ctx, &storagev1.StorageClass{ObjectMeta: metav1.ObjectMeta{Name: "valcore-sc"},
			Provisioner: "example.com/p"}, metav1.CreateOptions{})
		require.NoError(t, err)
		sc.Provisioner = "example.com/q"
		_, err = cs.StorageV1().StorageClasses().Update(ctx, sc, metav1.UpdateOptions{})
		require.True(t, apierrors.IsInvalid(err), "%v", err)
		assert.Equal(t, `StorageClass.storage.k8s.io "valcore-sc" is invalid: provisioner: Forbidden: updates to provisioner are forbidden.`, err.Error())
		causes := err.(apierrors.APIStatus).Status().Details.Causes
		assert.Equal(t, []metav1.StatusCause{{Type: metav1.CauseTypeForbidden, Message: "Forbidden: updates to provisioner are forbidden.", Field: "provisioner"}}, causes)
	})

	t.Run("client-go may not create a volume with two sources", func(t *testing.T) {
		_, err := cs.CoreV1().PersistentVolumes().Create(ctx, &corev1.PersistentVolume{ObjectMeta: metav1.ObjectMeta{Name: "valcore-pv"},
			Spec: corev1.PersistentVolumeSpec{
				Capacity:    corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")},
				AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
				PersistentVolumeSource: corev1.PersistentVolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/tmp/x"},
					NFS: &corev1.NFSVolumeSource{Server: "s", Path: "/p"}},
			}}, metav1.CreateOptions{})
		require.True(t, apierrors.IsInvalid(err), "%v", err)
		assert.Equal(t, `PersistentVolume "valcore-pv" is invalid: spec.nfs: Forbidden: may not specify more than 1 volume type`, err.Error())
	})
}
