package apiserver

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kapi-dev/kapi/meta"
)

// Release is a Kubernetes minor release a server answers as: the
// kube-apiserver release whose /version, discovery, schemas and behaviour
// it reproduces (kube-apiserver's --emulated-version). kapi has data for
// the releases Releases lists; the zero value means DefaultRelease.
type Release string

// The releases kapi serves.
const (
	// Release133 is kube-apiserver 1.33 (recorded against 1.33.13).
	Release133 Release = "1.33"
	// Release135 is kube-apiserver 1.35 (recorded against 1.35.4).
	Release135 Release = "1.35"
	// Release136 is kube-apiserver 1.36 (recorded against 1.36.3).
	Release136 Release = "1.36"
	// Release137 is kube-apiserver 1.37 (recorded against 1.37.2).
	Release137 Release = "1.37"
)

// DefaultRelease is the release of a Config whose Release is empty.
const DefaultRelease = Release137

// releasePatches are the patch releases kapi's data of each release
// comes from: what /version's gitVersion reports.
var releasePatches = map[Release]string{
	Release133: "v1.33.13",
	Release135: "v1.35.4",
	Release136: "v1.36.3",
	Release137: "v1.37.2",
}

// Releases returns the releases kapi serves, oldest first.
func Releases() []Release { return []Release{Release133, Release135, Release136, Release137} }

// ParseRelease reads a release as kube-apiserver's --emulated-version
// takes it ("1.37"), also with a leading "v" or a patch ("v1.37.2"): the
// patch is ignored, the release must be one of Releases.
func ParseRelease(s string) (Release, error) {
	v := strings.TrimPrefix(strings.TrimSpace(s), "v")
	parts := strings.Split(v, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return "", fmt.Errorf("release %q: want MAJOR.MINOR, e.g. %s", s, DefaultRelease)
	}
	for _, p := range parts {
		if _, err := strconv.ParseUint(p, 10, 16); err != nil {
			return "", fmt.Errorf("release %q: want MAJOR.MINOR, e.g. %s", s, DefaultRelease)
		}
	}
	r := Release(parts[0] + "." + parts[1])
	if _, ok := releasePatches[r]; !ok {
		return "", fmt.Errorf("release %q: kapi serves %s", s, strings.Join(releaseNames(), ", "))
	}
	return r, nil
}

func releaseNames() []string {
	var out []string
	for _, r := range Releases() {
		out = append(out, string(r))
	}
	return out
}

// OrDefault returns r, or DefaultRelease when r is empty.
func (r Release) OrDefault() Release {
	if r == "" {
		return DefaultRelease
	}
	return r
}

// Known says whether kapi serves r (the empty release counts as the
// default).
func (r Release) Known() bool {
	_, ok := releasePatches[r.OrDefault()]
	return ok
}

// Minor returns r's minor version number (37 for 1.37); 0 when r is not
// a release.
func (r Release) Minor() int {
	_, m, _ := strings.Cut(string(r.OrDefault()), ".")
	n, _ := strconv.Atoi(m)
	return n
}

// AtLeast says whether r is minor release 1.minor or a later one.
func (r Release) AtLeast(minor int) bool { return r.Minor() >= minor }

// ValueStyle is how r's field errors print the values they report:
// kube 1.34 (apimachinery 0.34) began to print them as JSON where 1.33
// printed Go syntax.
func (r Release) ValueStyle() meta.ValueStyle {
	if r.AtLeast(34) {
		return meta.JSONValues
	}
	return meta.GoValues
}

// rewordings are the messages of apimachinery's shared checks that a
// release words otherwise than 1.33, from the minor release on.
var rewordings = []struct {
	since    int
	was, now string
}{
	// apimachinery 0.35's IsQualifiedName is content.IsLabelKey, whose
	// message for a name with more than one '/' names a label key.
	{35, "a qualified name must consist of", "a valid label key must consist of"},
}

// reworded returns errs with their details in r's words (rewordings).
func (r Release) reworded(errs meta.FieldErrors) meta.FieldErrors {
	var out meta.FieldErrors
	for i, e := range errs {
		for _, w := range rewordings {
			if r.AtLeast(w.since) && strings.HasPrefix(e.Detail, w.was) {
				if out == nil {
					out = slices.Clone(errs)
				}
				out[i].Detail = w.now + strings.TrimPrefix(e.Detail, w.was)
			}
		}
	}
	if out == nil {
		return errs
	}
	return out
}

// GitVersion is the gitVersion of r's /version: the patch release kapi's
// data of r comes from ("v1.37.2").
func (r Release) GitVersion() string { return releasePatches[r.OrDefault()] }

// versionInfo is what kube-apiserver r answers at /version (the build's
// fields aside): major and minor, the emulated version (itself), and the
// minimum compatibility version (the release before).
func (r Release) versionInfo() VersionInfo {
	r = r.OrDefault()
	minor := strconv.Itoa(r.Minor())
	return VersionInfo{Major: "1", Minor: minor, EmulationMajor: "1", EmulationMinor: minor,
		MinCompatibilityMajor: "1", MinCompatibilityMinor: strconv.Itoa(r.Minor() - 1),
		GitVersion: r.GitVersion(), GitCommit: "kapi"}
}
