package controllers_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/controllers"
)

// testClock is a clock a test moves by hand.
type testClock struct {
	mu sync.Mutex
	at time.Time
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.at
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at = c.at.Add(d)
}

// waitGone polls until path is not found; false if it still exists at the
// deadline. It does not call WaitIdle, which would end the delay.
func (e *env) waitGone(path string, within time.Duration) bool {
	e.t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if !e.exists(path) {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return !e.exists(path)
}

// TestNamespaceTeardownWaitsAsKubes: the namespace controller waits
// kube-controller-manager's delay before its first pass over a deleted
// namespace, so a client can still read it and finalize it itself (as
// controller-runtime's client tests do); a test clock's advance ends the
// wait, a negative delay means none, and WaitIdle does not wait it out.
func TestNamespaceTeardownWaitsAsKubes(t *testing.T) {
	t.Run("a client reads the Terminating namespace and finalizes it itself", func(t *testing.T) {
		clock := &testClock{at: time.Now()}
		e := newEnv(t, controllers.Options{Now: clock.now})
		e.must(201, "POST", "/api/v1/namespaces", `{"metadata":{"name":"mine"}}`)
		e.must(201, "POST", "/api/v1/namespaces/mine/configmaps", `{"metadata":{"name":"c"}}`)
		e.must(200, "DELETE", "/api/v1/namespaces/mine", "")
		ns := e.must(200, "GET", "/api/v1/namespaces/mine", "")
		assert.Equal(t, []any{"kubernetes"}, nested(ns, "spec", "finalizers"))
		assert.True(t, e.exists("/api/v1/namespaces/mine/configmaps/c"), "the content waits too")
		nested(ns, "spec").(map[string]any)["finalizers"] = nil
		body, err := jsonString(ns)
		require.NoError(t, err)
		e.must(200, "PUT", "/api/v1/namespaces/mine/finalize", body)
		assert.False(t, e.exists("/api/v1/namespaces/mine"), "finalized by the client: gone")
		e.idle()
	})
	t.Run("the test clock's advance ends the wait", func(t *testing.T) {
		clock := &testClock{at: time.Now()}
		e := newEnv(t, controllers.Options{Now: clock.now})
		e.must(201, "POST", "/api/v1/namespaces", `{"metadata":{"name":"later"}}`)
		e.must(200, "DELETE", "/api/v1/namespaces/later", "")
		assert.False(t, e.waitGone("/api/v1/namespaces/later", 200*time.Millisecond), "still there before the delay")
		clock.advance(controllers.DefaultNamespaceDeletionDelay)
		assert.True(t, e.waitGone("/api/v1/namespaces/later", 10*time.Second), "gone once the clock passed the delay")
	})
	t.Run("a negative delay tears down at once", func(t *testing.T) {
		e := newEnv(t, controllers.Options{NamespaceDeletionDelay: -1})
		e.must(201, "POST", "/api/v1/namespaces", `{"metadata":{"name":"now"}}`)
		e.must(200, "DELETE", "/api/v1/namespaces/now", "")
		assert.True(t, e.waitGone("/api/v1/namespaces/now", 10*time.Second))
	})
	t.Run("WaitIdle starts a waiting teardown at once", func(t *testing.T) {
		e := newEnv(t, controllers.Options{NamespaceDeletionDelay: time.Hour})
		e.must(201, "POST", "/api/v1/namespaces", `{"metadata":{"name":"idle"}}`)
		e.must(200, "DELETE", "/api/v1/namespaces/idle", "")
		ctx, cancel := context.WithTimeout(e.ctx, 10*time.Second)
		defer cancel()
		require.NoError(t, e.m.WaitIdle(ctx))
		assert.False(t, e.exists("/api/v1/namespaces/idle"))
	})
}

func jsonString(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}
