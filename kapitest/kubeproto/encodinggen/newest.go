//go:build kubeproto_newest

package main

import (
	"github.com/kapi-dev/kapi/kapitest/kubeproto"
	"github.com/kapi-dev/kapi/kapitest/kubeproto/newest"
)

// At the newest end of the supported range the data covers the kinds
// served since 1.34 too.
func init() {
	for gvk, t := range newest.Types() {
		kubeproto.Types[gvk] = t
	}
}
