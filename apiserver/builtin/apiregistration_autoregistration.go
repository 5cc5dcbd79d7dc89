package builtin

import (
	"context"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// kube-apiserver registers an APIService (apiregistration.k8s.io/v1) for
// each group version it serves itself, at start (its autoregistration
// controller, label kube-aggregator.kubernetes.io/automanaged=onstart),
// and marks each available (its local availability controller). kapi
// stores the same objects when it serves APIServices.

var apiServicesGR = meta.GroupResource{Group: "apiregistration.k8s.io", Resource: "apiservices"}

// apiServicePriorities are kube-apiserver 1.33's (cmd/kube-apiserver/app/
// aggregator.go and the generic control plane's), by group version: the
// group's minimum priority and the version's. A group version without one
// gets no APIService, as in kube.
var apiServicePriorities = map[meta.GroupVersion][2]int64{
	{Version: "v1"}: {18000, 1},
	{Group: "apiextensions.k8s.io", Version: "v1"}:            {16700, 15},
	{Group: "admissionregistration.k8s.io", Version: "v1"}:    {16700, 15},
	{Group: "apps", Version: "v1"}:                            {17800, 15},
	{Group: "authentication.k8s.io", Version: "v1"}:           {17700, 15},
	{Group: "authorization.k8s.io", Version: "v1"}:            {17600, 15},
	{Group: "autoscaling", Version: "v1"}:                     {17500, 15},
	{Group: "autoscaling", Version: "v2"}:                     {17500, 30},
	{Group: "batch", Version: "v1"}:                           {17400, 15},
	{Group: "certificates.k8s.io", Version: "v1"}:             {17300, 15},
	{Group: "coordination.k8s.io", Version: "v1"}:             {16500, 15},
	{Group: "discovery.k8s.io", Version: "v1"}:                {16200, 15},
	{Group: "events.k8s.io", Version: "v1"}:                   {17750, 15},
	{Group: "flowcontrol.apiserver.k8s.io", Version: "v1"}:    {16100, 21},
	{Group: "networking.k8s.io", Version: "v1"}:               {17200, 15},
	{Group: "node.k8s.io", Version: "v1"}:                     {16300, 15},
	{Group: "policy", Version: "v1"}:                          {17100, 15},
	{Group: "rbac.authorization.k8s.io", Version: "v1"}:       {17000, 15},
	{Group: "scheduling.k8s.io", Version: "v1"}:               {16600, 15},
	{Group: "storage.k8s.io", Version: "v1"}:                  {16800, 15},
	{Group: "resource.k8s.io", Version: "v1beta2"}:            {16200, 15},
	{Group: "internal.apiserver.k8s.io", Version: "v1alpha1"}: {16000, 1},
	{Group: "storagemigration.k8s.io", Version: "v1alpha1"}:   {16000, 1},
}

// autoregistration is the post-start hook that stores the APIServices.
func autoregistration(ctx context.Context, s *apiserver.Server) error {
	gvs := s.GroupVersions()
	served := false
	for _, gv := range gvs {
		served = served || gv.Group == apiServicesGR.Group
	}
	if !served {
		return nil
	}
	now := meta.FormatTime(s.Now())
	var objs []meta.Object
	for _, gv := range gvs {
		prio, ok := apiServicePriorities[gv]
		if !ok {
			continue
		}
		objs = append(objs, apiServiceObject(gv, prio, now))
	}
	if len(objs) == 0 {
		return nil
	}
	return s.Preload(apiServicesGR, objs...)
}

// apiServiceObject is an automanaged APIService as kube stores it: its
// creator's managedFields (the server's own), its Available condition.
func apiServiceObject(gv meta.GroupVersion, prio [2]int64, now string) meta.Object {
	spec := map[string]any{"version": gv.Version, "groupPriorityMinimum": prio[0], "versionPriority": prio[1]}
	specFields := map[string]any{"f:groupPriorityMinimum": map[string]any{}, "f:version": map[string]any{},
		"f:versionPriority": map[string]any{}}
	if gv.Group != "" {
		spec["group"] = gv.Group
		specFields["f:group"] = map[string]any{}
	}
	return meta.Object{"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
		"metadata": map[string]any{
			"name":   gv.Version + "." + gv.Group,
			"labels": map[string]any{"kube-aggregator.kubernetes.io/automanaged": "onstart"},
			"managedFields": []any{map[string]any{"manager": "kube-apiserver", "operation": "Update",
				"apiVersion": "apiregistration.k8s.io/v1", "time": now, "fieldsType": "FieldsV1",
				"fieldsV1": map[string]any{
					"f:metadata": map[string]any{"f:labels": map[string]any{".": map[string]any{},
						"f:kube-aggregator.kubernetes.io/automanaged": map[string]any{}}},
					"f:spec": specFields}}},
		},
		"spec": spec,
		"status": map[string]any{"conditions": []any{map[string]any{"type": "Available", "status": "True",
			"lastTransitionTime": now, "reason": "Local", "message": "Local APIServices are always available"}}},
	}
}
