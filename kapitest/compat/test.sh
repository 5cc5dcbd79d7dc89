#!/usr/bin/env bash
# Builds, vets and tests the kit against one end of its supported range.
# kapitest/go.mod requires the oldest versions it supports, so `oldest`
# runs on it as it is (and checks it still names that set); `newest`
# upgrades a temporary copy of go.mod and go.sum (go's -modfile; the
# sources are used in place) to the newest releases and runs there.
# Arguments after the first are passed to go test.
#
#   kapitest/compat/test.sh oldest -race
#   kapitest/compat/test.sh newest -race
set -euo pipefail

end=${1:?usage: test.sh oldest|newest [go test flags]}
shift
cd "$(dirname "$0")/.."

# The supported range: the oldest set is kapitest/go.mod's requirements.
oldest="k8s.io/api@v0.33.0 k8s.io/apimachinery@v0.33.0 k8s.io/client-go@v0.33.0 k8s.io/apiextensions-apiserver@v0.33.0 sigs.k8s.io/controller-runtime@v0.21.0"
newest="k8s.io/api@v0.37.2 k8s.io/apimachinery@v0.37.2 k8s.io/client-go@v0.37.2 k8s.io/apiextensions-apiserver@v0.37.0 sigs.k8s.io/controller-runtime@v0.25.3"

modflag=()
case $end in
oldest)
	for m in $oldest; do
		got=$(go list -m "${m%@*}")
		if [ "$got" != "${m%@*} ${m#*@}" ]; then
			echo "test.sh: kapitest/go.mod selects $got, not the oldest supported ${m#*@}" >&2
			exit 1
		fi
	done
	;;
newest)
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	cp go.mod go.sum "$tmp/"
	modflag=(-modfile="$tmp/go.mod")
	# shellcheck disable=SC2086
	go get "${modflag[@]}" $newest
	go mod tidy "${modflag[@]}"
	;;
*)
	echo "test.sh: oldest or newest, not $end" >&2
	exit 2
	;;
esac
go list "${modflag[@]}" -m k8s.io/api k8s.io/client-go k8s.io/apiextensions-apiserver sigs.k8s.io/controller-runtime
# At the newest end the kinds k8s.io/api v0.33 lacks are compiled in too
# (package kubeproto/newest), so that the library's data is compared whole.
tags=()
if [ "$end" = newest ]; then
	tags=(-tags kubeproto_newest)
fi
go vet "${modflag[@]}" "${tags[@]}" ./...
KAPITEST_COMPAT_END=$end go test "${modflag[@]}" "${tags[@]}" -count=1 "$@" ./...
