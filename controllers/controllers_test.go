package controllers_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
	"github.com/kapi-dev/kapi/controllers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseControllersFollowsKubeControllerManagersRules(t *testing.T) {
	for _, tc := range []struct {
		flag    string
		running []string
		err     string
	}{
		{flag: "*", running: controllers.Names},
		{flag: "*,-garbagecollector", running: []string{"namespace", "pv-protection", "pvc-protection", "root-ca-cert-publisher", "serviceaccount", "service-repair"}},
		{flag: "namespace,serviceaccount", running: []string{"namespace", "serviceaccount"}},
		{flag: "-namespace,*", running: []string{"garbagecollector", "pv-protection", "pvc-protection", "root-ca-cert-publisher", "serviceaccount", "service-repair"}},
		{flag: "namespace,-namespace", running: []string{"namespace"}}, // the first entry naming it decides
		{flag: "*,-garbage-collector-controller,-service-repair", running: []string{"namespace", "pv-protection", "pvc-protection", "root-ca-cert-publisher", "serviceaccount"}},
		{flag: "persistentvolumeclaim-protection-controller", running: []string{"pvc-protection"}},
		{flag: "root-ca-certificate-publisher-controller", running: []string{"root-ca-cert-publisher"}},
		{flag: "", running: nil},
		{flag: "*,-deployment", err: `"deployment" is not in the list of known controllers`},
	} {
		t.Run(tc.flag, func(t *testing.T) {
			list, err := controllers.ParseControllers(tc.flag)
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			if list == nil {
				list = []string{} // an empty flag runs none
			}
			srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources()})
			require.NoError(t, err)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			m, err := controllers.Start(ctx, srv, controllers.Options{Controllers: list})
			require.NoError(t, err)
			assert.Equal(t, tc.running, m.Running())
		})
	}
}

func TestControllersStopWithTheirContextLeavingNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	for range 3 {
		// Each run's cleanup cancels the controllers' context and waits
		// for Done (newEnv).
		t.Run("run", func(t *testing.T) {
			e := newEnv(t, controllers.Options{})
			e.must(201, "POST", "/api/v1/namespaces", `{"metadata":{"name":"gone"}}`)
			e.must(200, "DELETE", "/api/v1/namespaces/gone", "")
		})
	}
	// (testify's Eventually runs its condition in a goroutine of its own.)
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !assert.LessOrEqual(t, runtime.NumGoroutine(), before) {
		buf := make([]byte, 1<<20)
		t.Logf("%d goroutines, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
	}
}

func TestWaitIdleReturnsWhenTheContextEnds(t *testing.T) {
	e := newEnv(t, controllers.Options{})
	// A namespace held by a finalizer is idle (nothing to do until someone
	// removes it); a context that ends first is reported.
	ctx, cancel := context.WithCancel(e.ctx)
	cancel()
	err := e.m.WaitIdle(ctx)
	if err != nil {
		assert.ErrorIs(t, err, context.Canceled)
	}
}
