// Command gen extracts, from the OpenAPI v3 documents a real kube-apiserver
// serves (shared/kube-openapi/v3, data), the component schemas kapi embeds:
//
//   - apiserver/builtin/schemas.json: the schemas of the built-in kinds the
//     example server serves, their list kinds, and every component they
//     reference transitively (x-kubernetes-* extensions and descriptions
//     kept), except the apimachinery ones;
//   - apiserver/openapi/meta.json: every io.k8s.apimachinery.* component
//     (ObjectMeta, ListMeta, Status, DeleteOptions, Patch, WatchEvent, ...)
//     and the query/path parameters kube declares on its operations;
//   - schema/objectmeta.json: ObjectMeta and the components it refers to
//     (OwnerReference, ManagedFieldsEntry, FieldsV1, Time), without
//     descriptions, for the metadata of every object and server-side apply.
//
// Run it from apiserver/builtin (go generate does):
//
//	go run ./gen -in ../../../shared/kube-openapi/v3
//
// The output is deterministic (encoding/json sorts map keys).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kapi-dev/kapi/schema"
)

// kinds are the built-in kinds to extract, as group/version/kind: every
// kind kube-apiserver 1.33 serves by default (shared/kube-discovery), and
// the kinds its subresources answer with. Their list kinds come along when
// kube publishes one.
var kinds = [][3]string{
	{"", "v1", "Binding"},
	{"", "v1", "ComponentStatus"},
	{"", "v1", "ConfigMap"},
	{"", "v1", "Endpoints"},
	{"", "v1", "Event"},
	{"", "v1", "LimitRange"},
	{"", "v1", "Namespace"},
	{"", "v1", "Node"},
	{"", "v1", "PersistentVolumeClaim"},
	{"", "v1", "PersistentVolume"},
	{"", "v1", "Pod"},
	{"", "v1", "PodTemplate"},
	{"", "v1", "ReplicationController"},
	{"", "v1", "ResourceQuota"},
	{"", "v1", "Secret"},
	{"", "v1", "ServiceAccount"},
	{"", "v1", "Service"},
	{"apiregistration.k8s.io", "v1", "APIService"},
	{"apps", "v1", "ControllerRevision"},
	{"apps", "v1", "DaemonSet"},
	{"apps", "v1", "Deployment"},
	{"apps", "v1", "ReplicaSet"},
	{"apps", "v1", "StatefulSet"},
	{"events.k8s.io", "v1", "Event"},
	{"authentication.k8s.io", "v1", "SelfSubjectReview"},
	{"authentication.k8s.io", "v1", "TokenReview"},
	{"authorization.k8s.io", "v1", "LocalSubjectAccessReview"},
	{"authorization.k8s.io", "v1", "SelfSubjectAccessReview"},
	{"authorization.k8s.io", "v1", "SelfSubjectRulesReview"},
	{"authorization.k8s.io", "v1", "SubjectAccessReview"},
	{"autoscaling", "v2", "HorizontalPodAutoscaler"},
	{"autoscaling", "v1", "HorizontalPodAutoscaler"},
	{"batch", "v1", "CronJob"},
	{"batch", "v1", "Job"},
	{"certificates.k8s.io", "v1", "CertificateSigningRequest"},
	{"networking.k8s.io", "v1", "IngressClass"},
	{"networking.k8s.io", "v1", "Ingress"},
	{"networking.k8s.io", "v1", "IPAddress"},
	{"networking.k8s.io", "v1", "NetworkPolicy"},
	{"networking.k8s.io", "v1", "ServiceCIDR"},
	{"policy", "v1", "PodDisruptionBudget"},
	{"rbac.authorization.k8s.io", "v1", "ClusterRoleBinding"},
	{"rbac.authorization.k8s.io", "v1", "ClusterRole"},
	{"rbac.authorization.k8s.io", "v1", "RoleBinding"},
	{"rbac.authorization.k8s.io", "v1", "Role"},
	{"storage.k8s.io", "v1", "CSIDriver"},
	{"storage.k8s.io", "v1", "CSINode"},
	{"storage.k8s.io", "v1", "CSIStorageCapacity"},
	{"storage.k8s.io", "v1", "StorageClass"},
	{"storage.k8s.io", "v1", "VolumeAttachment"},
	{"admissionregistration.k8s.io", "v1", "MutatingWebhookConfiguration"},
	{"admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicy"},
	{"admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicyBinding"},
	{"admissionregistration.k8s.io", "v1", "ValidatingWebhookConfiguration"},
	{"scheduling.k8s.io", "v1", "PriorityClass"},
	{"coordination.k8s.io", "v1", "Lease"},
	{"node.k8s.io", "v1", "RuntimeClass"},
	{"discovery.k8s.io", "v1", "EndpointSlice"},
	{"flowcontrol.apiserver.k8s.io", "v1", "FlowSchema"},
	{"flowcontrol.apiserver.k8s.io", "v1", "PriorityLevelConfiguration"},
	{"apiextensions.k8s.io", "v1", "CustomResourceDefinition"},
	// What subresources answer with.
	{"autoscaling", "v1", "Scale"},
	{"policy", "v1", "Eviction"},
	{"authentication.k8s.io", "v1", "TokenRequest"},
}

const metaPrefix = "io.k8s.apimachinery."

func main() {
	in := flag.String("in", "../../../shared/kube-openapi/v3", "directory of kube-apiserver's /openapi/v3 documents")
	out := flag.String("out", ".", "the apiserver/builtin directory")
	flag.Parse()
	if err := run(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	files, err := filepath.Glob(filepath.Join(in, "*.json"))
	if err != nil || len(files) == 0 {
		return fmt.Errorf("no OpenAPI documents in %s", in)
	}
	sort.Strings(files)
	schemas := map[string]any{}
	var paramDoc map[string]any
	for _, f := range files {
		var doc map[string]any
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		comps, _ := doc["components"].(map[string]any)
		ss, _ := comps["schemas"].(map[string]any)
		for k, v := range ss {
			schemas[k] = v
		}
		if filepath.Base(f) == "apis_coordination.k8s.io_v1.json" {
			paramDoc = doc
		}
	}
	if paramDoc == nil {
		return fmt.Errorf("apis_coordination.k8s.io_v1.json not found in %s", in)
	}

	// The kinds, their lists and their closure.
	var roots []string
	for _, k := range kinds {
		name := findKind(schemas, k[0], k[1], k[2])
		if name == "" {
			return fmt.Errorf("no schema for %s/%s %s", k[0], k[1], k[2])
		}
		roots = append(roots, name)
		if list := findKind(schemas, k[0], k[1], k[2]+"List"); list != "" {
			roots = append(roots, list)
		}
	}
	closure := map[string]bool{}
	var visit func(string) error
	visit = func(name string) error {
		if closure[name] {
			return nil
		}
		s, ok := schemas[name]
		if !ok {
			return fmt.Errorf("reference to missing schema %s", name)
		}
		closure[name] = true
		for _, r := range schema.Refs(s) {
			if err := visit(r); err != nil {
				return err
			}
		}
		return nil
	}
	for _, r := range roots {
		if err := visit(r); err != nil {
			return err
		}
	}
	builtin := map[string]any{}
	for name := range closure {
		if !strings.HasPrefix(name, metaPrefix) {
			builtin[name] = schemas[name]
		}
	}
	metaSchemas := map[string]any{}
	for name, s := range schemas {
		if strings.HasPrefix(name, metaPrefix) {
			metaSchemas[name] = s
		}
	}

	if err := write(filepath.Join(out, "schemas.json"), map[string]any{"schemas": builtin}); err != nil {
		return err
	}
	params, err := parameters(paramDoc)
	if err != nil {
		return err
	}
	if err := write(filepath.Join(out, "..", "openapi", "meta.json"), map[string]any{"schemas": metaSchemas, "parameters": params}); err != nil {
		return err
	}
	om := map[string]any{}
	var visitMeta func(string) error
	visitMeta = func(name string) error {
		if _, done := om[name]; done {
			return nil
		}
		s, ok := schemas[name]
		if !ok {
			return fmt.Errorf("reference to missing schema %s", name)
		}
		om[name] = withoutDescriptions(s)
		for _, r := range schema.Refs(s) {
			if err := visitMeta(r); err != nil {
				return err
			}
		}
		return nil
	}
	if err := visitMeta("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"); err != nil {
		return err
	}
	return write(filepath.Join(out, "..", "..", "schema", "objectmeta.json"), om)
}

func findKind(schemas map[string]any, group, version, kind string) string {
	var names []string
	for name, s := range schemas {
		m, _ := s.(map[string]any)
		gvks, _ := m["x-kubernetes-group-version-kind"].([]any)
		for _, g := range gvks {
			gm, _ := g.(map[string]any)
			if gm["group"] == group && gm["version"] == version && gm["kind"] == kind {
				names = append(names, name)
			}
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return ""
	}
	return names[0]
}

// parameters collects the operation parameters kube declares, by name;
// "fieldManager" is the one of create/update, "fieldManager-patch" the one
// of patch (its description mentions apply), "name" has a "%s" for the kind.
func parameters(doc map[string]any) (map[string]any, error) {
	out := map[string]any{}
	paths, _ := doc["paths"].(map[string]any)
	keys := make([]string, 0, len(paths))
	for k := range paths {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, p := range keys {
		item, _ := paths[p].(map[string]any)
		methods := make([]string, 0, len(item))
		for m := range item {
			methods = append(methods, m)
		}
		sort.Strings(methods)
		for _, m := range methods {
			var list []any
			if m == "parameters" {
				list, _ = item[m].([]any)
			} else {
				op, _ := item[m].(map[string]any)
				list, _ = op["parameters"].([]any)
			}
			for _, e := range list {
				pm, _ := e.(map[string]any)
				name, _ := pm["name"].(string)
				switch {
				case name == "fieldManager" && m == "patch":
					name = "fieldManager-patch"
				case name == "name":
					c := copyMap(pm)
					c["description"] = "name of the %s"
					pm = c
				}
				if _, seen := out[name]; !seen {
					out[name] = pm
				}
			}
		}
	}
	for _, need := range []string{"dryRun", "fieldManager", "fieldManager-patch", "fieldValidation", "force", "pretty",
		"name", "namespace", "watch", "limit", "continue", "resourceVersion", "resourceVersionMatch", "labelSelector",
		"fieldSelector", "timeoutSeconds", "allowWatchBookmarks", "sendInitialEvents", "gracePeriodSeconds",
		"orphanDependents", "propagationPolicy", "ignoreStoreReadErrorWithClusterBreakingPotential"} {
		if _, ok := out[need]; !ok {
			return nil, fmt.Errorf("parameter %s not found", need)
		}
	}
	return out, nil
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// withoutDescriptions returns a copy of a schema without its
// descriptions and x-kubernetes-group-version-kind.
func withoutDescriptions(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range t {
			if k == "description" || k == "x-kubernetes-group-version-kind" {
				continue
			}
			out[k] = withoutDescriptions(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = withoutDescriptions(e)
		}
		return out
	}
	return v
}

func write(path string, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
