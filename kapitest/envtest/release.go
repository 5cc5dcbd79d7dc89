package envtest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/kapi-dev/kapi/apiserver"
)

// Which kube-apiserver release the server answers as. envtest users pick a
// release by the binaries they run, so the server answers as the release
// of those binaries, read from what names them, first found first:
//
//   - the kube-apiserver flag --emulated-version (Configure().Set), which
//     must name a release kapi serves;
//   - DownloadBinaryAssetsVersion ("v1.37.0");
//   - the directory of the binaries, BinaryAssetsDirectory or else
//     $KUBEBUILDER_ASSETS, when setup-envtest named it
//     (".../k8s/1.37.0-linux-amd64").
//
// A release named by the binaries that kapi does not serve is answered as
// the nearest release it does (the newest older one, else the oldest), with
// a warning; with none named, apiserver.DefaultRelease.

// setupEnvtestDir is the name setup-envtest gives a release's binaries.
var setupEnvtestDir = regexp.MustCompile(`^v?(\d+\.\d+)\.\d+-[a-z0-9]+-[a-z0-9]+$`)

// binariesRelease is the release the Environment's binaries are of, where
// it was read ("" for none), and the release kapi answers as for it.
func (te *Environment) binariesRelease() (named, from string) {
	if v := strings.TrimSpace(te.DownloadBinaryAssetsVersion); v != "" {
		return v, "DownloadBinaryAssetsVersion"
	}
	for _, dir := range []struct{ path, from string }{
		{te.BinaryAssetsDirectory, "BinaryAssetsDirectory"},
		{os.Getenv("KUBEBUILDER_ASSETS"), "KUBEBUILDER_ASSETS"},
	} {
		if dir.path == "" {
			continue
		}
		if m := setupEnvtestDir.FindStringSubmatch(filepath.Base(filepath.Clean(dir.path))); m != nil {
			return m[1], dir.from
		}
		return "", ""
	}
	return "", ""
}

// releaseOfBinaries is the release to answer as for binaries of release
// named (from says where the name was read), and a warning when kapi does
// not serve that release.
func releaseOfBinaries(named, from string) (apiserver.Release, string) {
	if named == "" {
		return apiserver.DefaultRelease, ""
	}
	wanted, err := minorOf(named)
	if err != nil {
		return apiserver.DefaultRelease, fmt.Sprintf("%s %q names no Kubernetes release; the server answers as kube-apiserver %s",
			from, named, apiserver.DefaultRelease)
	}
	served := apiserver.Releases()
	if r := slices.IndexFunc(served, func(r apiserver.Release) bool { return r.Minor() == wanted }); r >= 0 {
		return served[r], ""
	}
	nearest := served[0]
	for _, r := range served {
		if r.Minor() < wanted {
			nearest = r
		}
	}
	return nearest, fmt.Sprintf("%s names kube-apiserver 1.%d, which kapi does not serve (it serves %s); the server answers as %s",
		from, wanted, releaseNames(), nearest)
}

// minorOf reads the minor release of "1.37", "v1.37.0" or "1.37.x".
func minorOf(v string) (int, error) {
	var major, minor int
	if _, err := fmt.Sscanf(strings.TrimPrefix(v, "v"), "%d.%d", &major, &minor); err != nil || major != 1 {
		return 0, fmt.Errorf("%q is not a Kubernetes release", v)
	}
	return minor, nil
}

// emulatedVersion reads --emulated-version: "1.37", or per component
// ("kube=1.37"); it must name a release kapi serves.
func emulatedVersion(val string) (apiserver.Release, error) {
	for _, part := range strings.Split(val, ",") {
		component, v, ok := strings.Cut(part, "=")
		if !ok {
			v = component
		} else if component = strings.TrimSpace(component); component != "kube" {
			continue
		}
		r, err := apiserver.ParseRelease(strings.TrimSpace(v))
		if err != nil || !slices.Contains(apiserver.Releases(), r) {
			return "", fmt.Errorf("kapi answers as kube-apiserver %s, not %q", releaseNames(), strings.TrimSpace(v))
		}
		return r, nil
	}
	return "", fmt.Errorf("%q names no release of the kube component", val)
}

func releaseNames() string {
	var names []string
	for _, r := range apiserver.Releases() {
		names = append(names, string(r))
	}
	return strings.Join(names, ", ")
}
