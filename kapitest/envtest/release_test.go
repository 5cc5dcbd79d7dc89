package envtest_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/kubernetes"

	"github.com/kapi-dev/kapi/kapitest/envtest"
)

// TestTheServerAnswersAsTheReleaseOfTheBinaries: envtest users choose a
// Kubernetes release by the binaries they name; the server answers as that
// release, or as the nearest one kapi serves with a warning saying so.
func TestTheServerAnswersAsTheReleaseOfTheBinaries(t *testing.T) {
	cases := []struct {
		name    string
		env     envtest.Environment
		assets  string // $KUBEBUILDER_ASSETS
		flag    string // --emulated-version
		minor   string
		warning string
	}{
		{name: "without binaries named it answers as the default release", minor: "37"},
		{name: "DownloadBinaryAssetsVersion names the release", env: envtest.Environment{DownloadBinaryAssetsVersion: "v1.35.0"}, minor: "35"},
		{name: "setup-envtest's directory in BinaryAssetsDirectory names it",
			env: envtest.Environment{BinaryAssetsDirectory: "/home/u/.local/share/kubebuilder-envtest/k8s/1.36.1-linux-amd64"}, minor: "36"},
		{name: "setup-envtest's directory in KUBEBUILDER_ASSETS names it", assets: "/tmp/bin/k8s/1.33.0-linux-amd64", minor: "33"},
		{name: "a directory setup-envtest did not name leaves the default", assets: "/usr/local/kubebuilder/bin", minor: "37"},
		{name: "--emulated-version wins over the binaries",
			env: envtest.Environment{DownloadBinaryAssetsVersion: "v1.37.0"}, flag: "1.35", minor: "35"},
		{name: "an older release than kapi serves is answered as the oldest, with a warning",
			env: envtest.Environment{DownloadBinaryAssetsVersion: "v1.31.0"}, minor: "33",
			warning: "DownloadBinaryAssetsVersion names kube-apiserver 1.31, which kapi does not serve (it serves 1.33, 1.35, 1.36, 1.37); the server answers as 1.33"},
		{name: "a release between two served ones is answered as the older, with a warning", assets: "/tmp/k8s/1.34.2-darwin-arm64", minor: "33",
			warning: "KUBEBUILDER_ASSETS names kube-apiserver 1.34"},
		{name: "a newer release than kapi serves is answered as the newest, with a warning",
			env: envtest.Environment{DownloadBinaryAssetsVersion: "v1.38.0"}, minor: "37", warning: "the server answers as 1.37"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("KUBEBUILDER_ASSETS", c.assets)
			var out bytes.Buffer
			defer envtest.SetWarningOutput(&out)()
			te := c.env
			if c.flag != "" {
				te.ControlPlane.GetAPIServer().Configure().Set("emulated-version", c.flag)
			}
			cfg, err := te.Start()
			require.NoError(t, err)
			defer func() { require.NoError(t, te.Stop()) }()
			v, err := kubernetes.NewForConfigOrDie(cfg).Discovery().ServerVersion()
			require.NoError(t, err)
			assert.Equal(t, c.minor, v.Minor)
			if c.warning == "" {
				assert.NotContains(t, out.String(), "does not serve")
			} else {
				assert.Contains(t, out.String(), c.warning)
			}
		})
	}
}
