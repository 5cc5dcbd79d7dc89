package kapitest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/kubernetes"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/kapitest"
)

// TestWithReleaseServesThatRelease: a server started WithRelease reports
// that release's version and serves its kinds (resource.k8s.io/v1 from
// 1.34 on), as client-go's discovery sees them.
func TestWithReleaseServesThatRelease(t *testing.T) {
	cases := []struct {
		release    apiserver.Release
		gitVersion string
		draServed  bool
	}{
		{"", "v1.37.2", true},
		{apiserver.Release133, "v1.33.13", false},
		{apiserver.Release137, "v1.37.2", true},
	}
	for _, c := range cases {
		t.Run("release "+string(c.release), func(t *testing.T) {
			srv := kapitest.Start(t, kapitest.WithRelease(c.release))
			cs, err := kubernetes.NewForConfig(srv.AdminConfig())
			require.NoError(t, err)
			v, err := cs.Discovery().ServerVersion()
			require.NoError(t, err)
			assert.Equal(t, c.gitVersion, v.GitVersion)
			_, err = cs.Discovery().ServerResourcesForGroupVersion("resource.k8s.io/v1")
			assert.Equal(t, c.draServed, err == nil, "resource.k8s.io/v1 served: %v", err)
		})
	}
}
