#!/usr/bin/env bash
# Builds kubectl of one Kubernetes minor release (the newest patch the Go module proxy serves) into the kubectl
# cache, where examples/e2e finds it: ${KAPI_KUBECTL_CACHE:-~/.cache/kapi-kubectl}/kubectl.1.NN.
#
#   hack/kubectl.sh 1.37        # or 1.35, 1.36, ...; prints the binary's path
#
# A binary already in the cache is kept (delete it to rebuild). kubectl is built from the k8s.io/kubectl module
# (whose pkg/cmd is kubectl's whole command tree) with a main of a few lines, not from k8s.io/kubernetes: no
# staging replaces, about a third of the packages. Version information is stamped as Kubernetes' own build does,
# so `kubectl version --client` and the User-Agent name the release. Builds run one at a time under
# /tmp/kube-build.lock (the machine's other Kubernetes builds take the same lock).
set -euo pipefail
minor=${1:?usage: hack/kubectl.sh 1.NN}
[[ $minor =~ ^1\.([0-9]+)$ ]] || { echo "hack/kubectl.sh: want a minor release such as 1.37, got $minor" >&2; exit 2; }
n=${BASH_REMATCH[1]}
cache=${KAPI_KUBECTL_CACHE:-$HOME/.cache/kapi-kubectl}
out=$cache/kubectl.$minor
if [[ -x $out ]]; then
  echo "$out"
  exit 0
fi
command -v flock >/dev/null || { echo "hack/kubectl.sh: flock (util-linux) is required" >&2; exit 1; }
mkdir -p "$cache"
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT

# The newest v0.NN.x of k8s.io/kubectl is kubectl 1.NN.x.
staging=$(go list -m -f '{{.Version}}' "k8s.io/kubectl@v0.$n")
release=v1.${staging#v0.}
cat >"$src/main.go" <<'EOF'
// kubectl, as Kubernetes' cmd/kubectl runs it.
package main

import (
	_ "k8s.io/client-go/plugin/pkg/client/auth"
	"k8s.io/component-base/cli"
	"k8s.io/kubectl/pkg/cmd"
	"k8s.io/kubectl/pkg/cmd/util"
)

func main() {
	if err := cli.RunNoErrOutput(cmd.NewDefaultKubectlCommand()); err != nil {
		util.CheckErr(err)
	}
}
EOF
cat >"$src/go.mod" <<EOF
module kapi.local/kubectl

go 1.24

godebug default=go1.24
EOF

ld="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ld="$ld -X $pkg.gitVersion=$release -X $pkg.gitMajor=1 -X $pkg.gitMinor=$n -X $pkg.gitTreeState=clean"
  ld="$ld -X $pkg.gitCommit=module-proxy-$release -X $pkg.buildDate=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
done
(
  cd "$src"
  go get "k8s.io/kubectl@$staging" "k8s.io/component-base@$staging" "k8s.io/client-go@$staging" >&2
  go mod tidy >&2
  echo "hack/kubectl.sh: building kubectl $release (waiting for /tmp/kube-build.lock)" >&2
  flock /tmp/kube-build.lock env CGO_ENABLED=0 go build -trimpath -ldflags "$ld" -o "$out.tmp" . >&2
)
mv "$out.tmp" "$out"
"$out" version --client >&2
echo "$out"
