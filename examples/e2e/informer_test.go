package e2e

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/features"
	clientfeaturestesting "k8s.io/client-go/features/testing"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"github.com/kapi-dev/kapi/examples/server/kapiserver"
	"github.com/kapi-dev/kapi/store/memory"
)

// recorder collects informer notifications.
type recorder struct {
	mu     sync.Mutex
	events []string
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, s)
}

func (r *recorder) seen(s string) func() bool {
	return func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		for _, e := range r.events {
			if e == s {
				return true
			}
		}
		return false
	}
}

func (r *recorder) handler() cache.ResourceEventHandlerFuncs {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { r.add("add " + obj.(*corev1.ConfigMap).Name) },
		UpdateFunc: func(_, obj any) {
			cm := obj.(*corev1.ConfigMap)
			r.add("update " + cm.Name + " " + cm.Data["v"])
		},
		DeleteFunc: func(obj any) {
			if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = d.Obj
			}
			r.add("delete " + obj.(*corev1.ConfigMap).Name)
		},
	}
}

// TestSharedInformer runs an informer in both of client-go's list modes:
// list-then-watch, and the streaming list (WatchListClient, on by default
// since client-go 1.35) that waits for the initial-events-end bookmark.
func TestSharedInformer(t *testing.T) {
	for _, tc := range []struct {
		watchList   bool
		contentType string
	}{{false, contentTypes[0]}, {true, contentTypes[0]}, {false, contentTypes[1]}, {true, contentTypes[1]}} {
		t.Run(fmt.Sprintf("WatchListClient=%v %s", tc.watchList, tc.contentType), func(t *testing.T) {
			clientfeaturestesting.SetFeatureDuringTest(t, features.WatchListClient, tc.watchList)
			c := startCluster(t)
			cfg := c.restConfig()
			cfg.ContentType = tc.contentType
			cs, err := kubernetes.NewForConfig(cfg)
			require.NoError(t, err)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cms := cs.CoreV1().ConfigMaps("default")
			_, err = cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "before"}}, metav1.CreateOptions{})
			require.NoError(t, err)

			factory := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace("default"))
			inf := factory.Core().V1().ConfigMaps().Informer()
			rec := &recorder{}
			_, err = inf.AddEventHandler(rec.handler())
			require.NoError(t, err)
			factory.Start(ctx.Done())
			syncCtx, syncCancel := context.WithTimeout(ctx, 2*time.Minute)
			defer syncCancel()
			require.True(t, cache.WaitForCacheSync(syncCtx.Done(), inf.HasSynced), "the informer syncs")
			assert.Eventually(t, rec.seen("add before"), 5*time.Second, 10*time.Millisecond)

			_, err = cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "after"}}, metav1.CreateOptions{})
			require.NoError(t, err)
			assert.Eventually(t, rec.seen("add after"), 5*time.Second, 10*time.Millisecond)
			_, err = cms.Update(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "after"}, Data: map[string]string{"v": "2"}}, metav1.UpdateOptions{})
			require.NoError(t, err)
			assert.Eventually(t, rec.seen("update after 2"), 5*time.Second, 10*time.Millisecond)
			require.NoError(t, cms.Delete(ctx, "after", metav1.DeleteOptions{}))
			assert.Eventually(t, rec.seen("delete after"), 5*time.Second, 10*time.Millisecond)
		})
	}
}

// TestReflectorRelistsAfterGone compacts the store under a running
// reflector: its watch ends with 410 Expired, it relists, and changes made
// meanwhile still arrive.
func TestReflectorRelistsAfterGone(t *testing.T) {
	clientfeaturestesting.SetFeatureDuringTest(t, features.WatchListClient, false)
	st := memory.New(memory.Config{})
	cfg := kapiserver.Config()
	cfg.Store = st
	c := startClusterWith(t, cfg)
	rc := c.restConfig()
	rc.ContentType = "application/json"
	cs, err := kubernetes.NewForConfig(rc)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cms := cs.CoreV1().ConfigMaps("default")

	lw := cache.NewListWatchFromClient(cs.CoreV1().RESTClient(), "configmaps", "default", fields.Everything())
	indexer := cache.NewStore(cache.MetaNamespaceKeyFunc)
	reflector := cache.NewReflector(lw, &corev1.ConfigMap{}, indexer, 0)
	go reflector.Run(ctx.Done())
	require.Eventually(t, func() bool { return reflector.LastSyncResourceVersion() != "" }, 2*time.Minute, 10*time.Millisecond)

	// Writes the reflector sees, then a compaction past them: the next
	// time its watch is (re)established from an old revision it gets 410.
	for i := 0; i < 3; i++ {
		_, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("c%d", i)}}, metav1.CreateOptions{})
		require.NoError(t, err)
	}
	require.Eventually(t, func() bool { return len(indexer.ListKeys()) == 3 }, 2*time.Minute, 10*time.Millisecond)
	st.Compact(st.Revision())
	_, err = cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "late"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Eventually(t, func() bool {
		_, exists, _ := indexer.GetByKey("default/late")
		return exists
	}, 2*time.Minute, 10*time.Millisecond, "the reflector keeps up after compaction")
}
