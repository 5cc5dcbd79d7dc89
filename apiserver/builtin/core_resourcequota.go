package builtin

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// resourceQuotaResource is core/v1 resourcequotas.
func resourceQuotaResource() apiserver.Resource {
	return apiserver.Resource{ReturnDeletedObject: true, Version: "v1", Kind: "ResourceQuota", Plural: "resourcequotas", Namespaced: true,
		ShortNames: []string{"quota"}, StatusSubresource: true, WithoutGeneration: true,
		PrinterColumns: resourceQuotaColumns, GenericDelete: true, Strategy: resourceQuotaStrategy{}}
}

// resourceQuotaStrategy is what a ResourceQuota does differently.
type resourceQuotaStrategy struct{ apiserver.GenericStrategy }

// PrepareForCreate starts a quota with an empty status.
func (resourceQuotaStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	o["status"] = map[string]any{}
}

// quotaCells are the Request and Limit cells: used/hard of each resource
// of the status, limits.* in the second.
func quotaCells(o meta.Object) (request, limit string) {
	hard := asMap(field(o, "status", "hard"))
	used := asMap(field(o, "status", "used"))
	names := make([]string, 0, len(hard))
	for k := range hard {
		names = append(names, k)
	}
	sort.Strings(names)
	var req, lim []string
	for _, n := range names {
		s := fmt.Sprintf("%s: %s/%s", n, quantityString(used[n]), quantityString(hard[n]))
		if pieces := strings.Split(n, "."); len(pieces) > 1 && pieces[0] == "limits" {
			lim = append(lim, s)
		} else {
			req = append(req, s)
		}
	}
	return strings.Join(req, ", "), strings.Join(lim, ", ")
}

var resourceQuotaColumns = []apiserver.PrinterColumn{
	column("Request", "string", "Request represents a minimum amount of cpu/memory that a container may consume.", 0,
		func(o meta.Object, _ time.Time) any { r, _ := quotaCells(o); return r }),
	column("Limit", "string", "Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.", 0,
		func(o meta.Object, _ time.Time) any { _, l := quotaCells(o); return l }),
	apiserver.AgeColumn(),
}
