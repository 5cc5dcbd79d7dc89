package e2e

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kapi-dev/kapi/controllers"
)

// A namespace's teardown removes most objects in bulk on the server
// (apiserver/write_deletebulk.go): a client-go watch still sees each object's
// DELETED event, in order, with its last state at its own resourceVersion,
// in JSON and in protobuf; a deletecollection through client-go (the same
// bulk path) answers the list it deleted.
func TestClientGoSeesEachObjectOfANamespaceTeardownDeleted(t *testing.T) {
	const n = 700 // more than two of the store's bulk chunks
	for _, contentType := range []string{"application/json", "application/vnd.kubernetes.protobuf"} {
		t.Run(contentType, func(t *testing.T) {
			ctx := context.Background()
			c := startControlledCluster(t, controllers.Options{})
			cs := clientsetFor(t, c.cluster, contentType)
			_, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "doomed"}}, metav1.CreateOptions{})
			require.NoError(t, err)
			for i := range n {
				_, err := cs.CoreV1().ConfigMaps("doomed").Create(ctx, &corev1.ConfigMap{
					ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("c%04d", i), Labels: map[string]string{"i": strconv.Itoa(i)}},
					Data:       map[string]string{"k": fmt.Sprintf("v%d", i)},
				}, metav1.CreateOptions{})
				require.NoError(t, err)
			}
			c.settle()
			list, err := cs.CoreV1().ConfigMaps("doomed").List(ctx, metav1.ListOptions{LabelSelector: "i"})
			require.NoError(t, err)
			w, err := cs.CoreV1().ConfigMaps("doomed").Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
			require.NoError(t, err)
			defer w.Stop()

			require.NoError(t, cs.CoreV1().Namespaces().Delete(ctx, "doomed", metav1.DeleteOptions{}))
			c.settle()
			_, err = cs.CoreV1().Namespaces().Get(ctx, "doomed", metav1.GetOptions{})
			assert.True(t, apierrors.IsNotFound(err), "the namespace is gone: %v", err)

			last := int64(0)
			for i := 0; i < n; {
				select {
				case ev, ok := <-w.ResultChan():
					require.True(t, ok, "the watch ended after %d events", i)
					cm, isCM := ev.Object.(*corev1.ConfigMap)
					require.True(t, isCM, "%v", ev.Object)
					if cm.Name == "kube-root-ca.crt" {
						continue
					}
					assert.Equal(t, watch.Deleted, ev.Type)
					assert.Equal(t, fmt.Sprintf("c%04d", i), cm.Name)
					assert.Equal(t, map[string]string{"k": fmt.Sprintf("v%d", i)}, cm.Data, "the last state")
					assert.Equal(t, strconv.Itoa(i), cm.Labels["i"])
					rv, err := strconv.ParseInt(cm.ResourceVersion, 10, 64)
					require.NoError(t, err)
					assert.Greater(t, rv, last, "each deletion has a resourceVersion of its own")
					last = rv
					i++
				case <-time.After(2 * time.Minute):
					t.Fatalf("no event after %d", i)
				}
			}
		})
	}
}

func TestClientGoDeleteCollectionAnswersWhatItDeleted(t *testing.T) {
	ctx := context.Background()
	c := startControlledCluster(t, controllers.Options{})
	cs := clientsetFor(t, c.cluster, "application/vnd.kubernetes.protobuf")
	for i := range 300 {
		fin := []string(nil)
		if i == 7 {
			fin = []string{"example.com/hold"}
		}
		_, err := cs.CoreV1().Secrets("default").Create(ctx, &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("s%03d", i), Labels: map[string]string{"set": "a"}, Finalizers: fin},
		}, metav1.CreateOptions{})
		require.NoError(t, err)
	}
	out, err := cs.CoreV1().RESTClient().Delete().Namespace("default").Resource("secrets").
		Param("labelSelector", "set=a").Do(ctx).Get()
	require.NoError(t, err)
	answered, ok := out.(*corev1.SecretList)
	require.True(t, ok, "%T", out)
	require.Len(t, answered.Items, 300, "the list as it was listed")
	for i, s := range answered.Items {
		assert.Equal(t, fmt.Sprintf("s%03d", i), s.Name)
		assert.Nil(t, s.DeletionTimestamp)
	}
	left, err := cs.CoreV1().Secrets("default").List(ctx, metav1.ListOptions{LabelSelector: "set=a"})
	require.NoError(t, err)
	require.Len(t, left.Items, 1)
	assert.Equal(t, "s007", left.Items[0].Name)
	assert.NotNil(t, left.Items[0].DeletionTimestamp, "held by its finalizer, marked")
}
