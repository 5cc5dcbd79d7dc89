package e2e

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/tools/cache"

	"github.com/kapi-dev/kapi/apiserver"
)

// requestCounter counts a client's lists and watches of one resource, and
// the bookmarks its watches receive.
type requestCounter struct {
	rt                        http.RoundTripper
	resource                  string
	lists, watches, bookmarks atomic.Int32
}

func (c *requestCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	watch := false
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/"+c.resource) {
		if watch = r.URL.Query().Get("watch") == "true"; watch {
			c.watches.Add(1)
		} else {
			c.lists.Add(1)
		}
	}
	resp, err := c.rt.RoundTrip(r)
	if watch && err == nil {
		resp.Body = &bookmarkCounter{ReadCloser: resp.Body, n: &c.bookmarks}
	}
	return resp, err
}

// bookmarkCounter counts the BOOKMARK events of a watch stream, JSON or
// protobuf: the occurrences of the event type's name.
type bookmarkCounter struct {
	io.ReadCloser
	n    *atomic.Int32
	tail []byte
}

var bookmarkType = []byte("BOOKMARK")

func (b *bookmarkCounter) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	buf := append(b.tail, p[:n]...)
	b.n.Add(int32(bytes.Count(buf, bookmarkType)))
	// Keep what may begin a name split across reads, never a whole one.
	keep := min(len(buf), len(bookmarkType)-1)
	b.tail = append([]byte(nil), buf[len(buf)-keep:]...)
	return n, err
}

// TestAMetadataInformerRunsOverBookmarks: a client-go metadata informer
// (controller-runtime's OnlyMetadata) on Deployments, asking for
// bookmarks, reads every bookmark of the example server as the
// PartialObjectMetadata kube sends: one watch (after one list, or
// streaming its list), no decode
// error, no relist, over many bookmark intervals. KAPI_METADATA_INFORMER_RUN
// (a Go duration) runs it longer by hand against kube's one-minute
// interval.
func TestAMetadataInformerRunsOverBookmarks(t *testing.T) {
	interval, run := 50*time.Millisecond, 2*time.Second
	if v := os.Getenv("KAPI_METADATA_INFORMER_RUN"); v != "" {
		d, err := time.ParseDuration(v)
		require.NoError(t, err)
		interval, run = 0, d // the server's default: kube's minute
	}
	c, _ := startSecureControlledCluster(t, func(cfg *apiserver.Config) { cfg.WatchBookmarkInterval = interval })
	cfg := c.restConfig()
	counter := &requestCounter{resource: "deployments"}
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { counter.rt = rt; return counter }
	client, err := metadata.NewForConfig(cfg)
	require.NoError(t, err)

	var mu sync.Mutex
	var watchErrors []string
	factory := metadatainformer.NewSharedInformerFactory(client, 0)
	informer := factory.ForResource(appsv1.SchemeGroupVersion.WithResource("deployments")).Informer()
	require.NoError(t, informer.SetWatchErrorHandler(func(_ *cache.Reflector, err error) {
		mu.Lock()
		defer mu.Unlock()
		watchErrors = append(watchErrors, err.Error())
	}))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	factory.Start(ctx.Done())
	require.True(t, cache.WaitForCacheSync(ctx.Done(), informer.HasSynced))
	c.mustKubectl("1.33", "create", "deployment", "watched", "--image=nginx")
	require.Eventually(t, func() bool { return len(informer.GetStore().List()) == 1 }, 10*time.Second, 10*time.Millisecond)

	time.Sleep(run)
	mu.Lock()
	defer mu.Unlock()
	assert.Empty(t, watchErrors, "no watch of the informer failed")
	// client-go lists, or (WatchListClient) streams its list in its first
	// watch: either way one request, never repeated.
	assert.LessOrEqual(t, counter.lists.Load(), int32(1), "at most one list: no relist")
	assert.EqualValues(t, 1, counter.watches.Load(), "one watch, never restarted")
	t.Logf("%d bookmarks over %v", counter.bookmarks.Load(), run)
	if interval > 0 {
		assert.Greater(t, counter.bookmarks.Load(), int32(run/interval/4), "bookmarks came all along")
	}
}
