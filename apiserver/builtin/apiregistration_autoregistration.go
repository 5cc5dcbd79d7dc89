package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sync"

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

// crdAPIServicePriority is what kube's CRD registration controller gives
// the APIService of a custom resource group version: a low group priority
// and one version priority for all, so kube's version order sorts them.
var crdAPIServicePriority = [2]int64{1000, 100}

// The automanaged label's values: "onstart" for the server's own group
// versions, "true" for those of CRDs (kube's CRD registration controller).
const (
	automanagedLabel = "kube-aggregator.kubernetes.io/automanaged"
	automanagedCRD   = "true"
)

// autoregistration is the post-start hook that stores the APIServices of
// the served group versions, and keeps one for each group version of the
// CRDs (kube's crd-registration controller).
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
		objs = append(objs, apiServiceObject(gv, prio, "onstart", now))
	}
	if len(objs) > 0 {
		if err := s.Preload(apiServicesGR, objs...); err != nil {
			return err
		}
	}
	r := &crdRegistration{s: s}
	s.OnCRDGroupVersionsChange(func(ctx context.Context) { _ = r.sync(ctx) })
	return r.sync(ctx)
}

// crdRegistration keeps an APIService for each group version the CRDs
// serve, and removes those no CRD serves any longer.
type crdRegistration struct {
	s  *apiserver.Server
	mu sync.Mutex // one sync at a time, each with what is served then
}

func (r *crdRegistration) sync(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	want := map[string]meta.GroupVersion{}
	for _, gv := range r.s.CRDGroupVersions() {
		if _, builtin := apiServicePriorities[gv]; !builtin {
			want[gv.Version+"."+gv.Group] = gv
		}
	}
	code, body, err := r.s.Do(ctx, http.MethodGet, "/apis/apiregistration.k8s.io/v1/apiservices?labelSelector="+
		url.QueryEscape(automanagedLabel+"="+automanagedCRD), nil)
	if err != nil {
		return err
	}
	if code != http.StatusOK {
		return fmt.Errorf("listing APIServices: %d", code)
	}
	var list struct {
		Items []struct {
			Metadata struct{ Name string } `json:"metadata"`
		} `json:"items"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return err
	}
	for _, it := range list.Items {
		if _, ok := want[it.Metadata.Name]; ok {
			delete(want, it.Metadata.Name)
			continue
		}
		code, _, err := r.s.Do(ctx, http.MethodDelete, "/apis/apiregistration.k8s.io/v1/apiservices/"+it.Metadata.Name, nil)
		if err != nil && code != http.StatusNotFound {
			return err
		}
	}
	now := meta.FormatTime(r.s.Now())
	var objs []meta.Object
	for _, gv := range want {
		objs = append(objs, apiServiceObject(gv, crdAPIServicePriority, automanagedCRD, now))
	}
	if len(objs) == 0 {
		return nil
	}
	return r.s.Preload(apiServicesGR, objs...)
}

// apiServiceObject is an automanaged APIService as kube stores it: its
// creator's managedFields (the server's own), its Available condition.
func apiServiceObject(gv meta.GroupVersion, prio [2]int64, automanaged, now string) meta.Object {
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
			"labels": map[string]any{automanagedLabel: automanaged},
			"managedFields": []any{map[string]any{"manager": "kube-apiserver", "operation": "Update",
				"apiVersion": "apiregistration.k8s.io/v1", "time": now, "fieldsType": "FieldsV1",
				"fieldsV1": map[string]any{
					"f:metadata": map[string]any{"f:labels": map[string]any{".": map[string]any{},
						"f:" + automanagedLabel: map[string]any{}}},
					"f:spec": specFields}}},
		},
		"spec": spec,
		"status": map[string]any{"conditions": []any{map[string]any{"type": "Available", "status": "True",
			"lastTransitionTime": now, "reason": "Local", "message": "Local APIServices are always available"}}},
	}
}
