package kapitest_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/kapi-dev/kapi/kapitest"
)

func TestAClosedServerLeavesNoGoroutineBehind(t *testing.T) {
	use := func() {
		srv, err := kapitest.New()
		require.NoError(t, err)
		cs := kubernetes.NewForConfigOrDie(srv.Config)
		w, err := cs.CoreV1().ConfigMaps("default").Watch(t.Context(), metav1.ListOptions{})
		require.NoError(t, err)
		_, err = kubernetes.NewForConfigOrDie(srv.LoopbackConfig()).CoreV1().Namespaces().List(t.Context(), metav1.ListOptions{})
		require.NoError(t, err)
		w.Stop()
		srv.Close()
	}
	use() // process-wide goroutines (the template, client-go's) start once
	before := runtime.NumGoroutine()
	for range 10 {
		use()
	}
	require.Eventually(t, func() bool { return runtime.NumGoroutine() <= before+2 }, time.Minute, 10*time.Millisecond,
		"goroutines: %d before, %d after", before, runtime.NumGoroutine())
}

func TestClosingAServerEndsItsWatchesAndRefusesRequests(t *testing.T) {
	srv, err := kapitest.New()
	require.NoError(t, err)
	cs := kubernetes.NewForConfigOrDie(srv.Config)
	w, err := cs.CoreV1().ConfigMaps("default").Watch(t.Context(), metav1.ListOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return srv.Faults.OpenWatches() == 1 }, time.Minute, time.Millisecond)
	srv.Close()
	select {
	case _, open := <-w.ResultChan():
		require.False(t, open, "the watch ended")
	case <-time.After(time.Minute):
		t.Fatal("the watch is still open")
	}
	_, err = cs.CoreV1().ConfigMaps("default").List(t.Context(), metav1.ListOptions{})
	require.ErrorContains(t, err, "the server is closed")
}
