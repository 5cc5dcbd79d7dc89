// Command gen extracts, from the OpenAPI v3 documents of real
// kube-apiservers (data), the component schemas kapi embeds, for every
// release kapi serves:
//
//   - apiserver/builtin/data/components.jsonl: every component schema of
//     every release once, one a line, as "<hash> <json>", the hash of its
//     JSON naming it: what does not change between releases is stored once;
//   - apiserver/builtin/data/releases.json: per release, the name → hash of
//     each component that release publishes: the schemas of the built-in
//     kinds it serves, their list kinds and every component they reference
//     transitively (x-kubernetes-* extensions and descriptions kept), and
//     every io.k8s.apimachinery.* component;
//   - apiserver/openapi/meta.json: every io.k8s.apimachinery.* component
//     (ObjectMeta, ListMeta, Status, DeleteOptions, Patch, WatchEvent, ...)
//     of the default release, and the query/path parameters kube declares
//     on its operations;
//   - schema/objectmeta.json: ObjectMeta and the components it refers to
//     (OwnerReference, ManagedFieldsEntry, FieldsV1, Time), without
//     descriptions, for the metadata of every object and server-side apply.
//
// The default release (1.33) is read from a live server's /openapi/v3
// documents (shared/kube-openapi/v3, -in); the others from a directory of
// a live server's documents (-release; 1.35's, 1.36's and 1.37's are
// docs/kube-behaviour/19-releases/<release>/openapi), or from the OpenAPI
// v3 documents the k8s.io/kubernetes module of that release carries
// (api/openapi-spec/v3, fetched with go mod download: -module, for a
// release not yet recorded live). A module's documents lack the enums a live server publishes
// (each enum-typed field's "enum" and the "Possible enum values" of its
// description): record the live server's when one is built. A module's documents
// are generated with every API enabled; only the kinds a release serves by
// default are extracted (kinds, since), and component schemas do not
// depend on feature gates. Run it from apiserver/builtin (go generate does).
//
// The output is deterministic (encoding/json sorts map keys).
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/kapi-dev/kapi/schema"
)

// kinds are the built-in kinds to extract, as group/version/kind: every
// kind kube-apiserver 1.33 serves by default (shared/kube-discovery), and
// the kinds its subresources answer with. Their list kinds come along when
// kube publishes one. sinceKinds are those of later releases.
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

// sinceKinds are the kinds a release serves by default that 1.33 does
// not, each with the first minor release kapi serves it in.
var sinceKinds = []struct {
	gvk   [3]string
	since int
}{
	{[3]string{"resource.k8s.io", "v1", "DeviceClass"}, 34},
	{[3]string{"resource.k8s.io", "v1", "ResourceClaim"}, 34},
	{[3]string{"resource.k8s.io", "v1", "ResourceClaimTemplate"}, 34},
	{[3]string{"resource.k8s.io", "v1", "ResourceSlice"}, 34},
	{[3]string{"storage.k8s.io", "v1", "VolumeAttributesClass"}, 34},
	{[3]string{"admissionregistration.k8s.io", "v1", "MutatingAdmissionPolicy"}, 36},
	{[3]string{"admissionregistration.k8s.io", "v1", "MutatingAdmissionPolicyBinding"}, 36},
	{[3]string{"storagemigration.k8s.io", "v1", "StorageVersionMigration"}, 37},
	{[3]string{"certificates.k8s.io", "v1", "ClusterTrustBundle"}, 37},
	{[3]string{"certificates.k8s.io", "v1", "PodCertificateRequest"}, 37},
	{[3]string{"resource.k8s.io", "v1", "DeviceTaintRule"}, 37},
}

const metaPrefix = "io.k8s.apimachinery."

// defaultRelease is the release meta.json and objectmeta.json come from.
const defaultRelease = "1.33"

// releaseFlag collects "1.35=value" flags.
type releaseFlag map[string]string

func (f releaseFlag) String() string { return fmt.Sprint(map[string]string(f)) }

func (f releaseFlag) Set(v string) error {
	rel, val, ok := strings.Cut(v, "=")
	if !ok || rel == "" || val == "" {
		return fmt.Errorf("want RELEASE=VALUE, got %q", v)
	}
	f[rel] = val
	return nil
}

func main() {
	in := flag.String("in", "../../../shared/kube-openapi/v3", "directory of kube-apiserver 1.33's /openapi/v3 documents")
	out := flag.String("out", ".", "the apiserver/builtin directory")
	dirs, modules := releaseFlag{}, releaseFlag{}
	flag.Var(dirs, "release", "RELEASE=DIR: a release's /openapi/v3 documents (repeatable)")
	flag.Var(modules, "module", "RELEASE=VERSION: a release's documents from module k8s.io/kubernetes@VERSION (repeatable)")
	flag.Parse()
	dirs[defaultRelease] = *in
	for rel, v := range modules {
		dir, err := moduleDir(v)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
		dirs[rel] = filepath.Join(dir, "api", "openapi-spec", "v3")
	}
	if err := run(dirs, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// moduleDir downloads k8s.io/kubernetes@version into the module cache and
// returns its directory.
func moduleDir(version string) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", "k8s.io/kubernetes@"+version)
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	b, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go mod download k8s.io/kubernetes@%s: %w", version, err)
	}
	var m struct{ Dir, Error string }
	if err := json.Unmarshal(b, &m); err != nil || m.Dir == "" {
		return "", fmt.Errorf("go mod download k8s.io/kubernetes@%s: %s", version, m.Error)
	}
	return m.Dir, nil
}

// readDocs merges the component schemas of every OpenAPI document in dir
// (*.json, or *.json.gz as docs/kube-behaviour/19-releases records them);
// paramDoc is coordination.k8s.io/v1's document (its parameters
// are kube's), nil when absent. A component kube publishes differently per
// document (DeleteOptions and WatchEvent name the document's group version
// from 1.36) is taken from the core group's document.
func readDocs(dir string) (schemas map[string]any, paramDoc map[string]any, err error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json*"))
	if err != nil || len(files) == 0 {
		return nil, nil, fmt.Errorf("no OpenAPI documents in %s", dir)
	}
	sort.Strings(files)
	schemas = map[string]any{}
	var core map[string]any
	for _, f := range files {
		gv, _ := docGroupVersion(filepath.Base(f))
		b, err := readMaybeGzip(f)
		if err != nil {
			return nil, nil, err
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", f, err)
		}
		comps, _ := doc["components"].(map[string]any)
		ss, _ := comps["schemas"].(map[string]any)
		for k, v := range ss {
			schemas[k] = v
		}
		switch gv {
		case "coordination.k8s.io/v1":
			paramDoc = doc
		case "v1":
			core = ss
		}
	}
	for _, name := range []string{metaPrefix + "pkg.apis.meta.v1.DeleteOptions", metaPrefix + "pkg.apis.meta.v1.WatchEvent"} {
		if s, ok := core[name]; ok {
			schemas[name] = s
		}
	}
	return schemas, paramDoc, nil
}

// docGroupVersion reads the group version of a document's file name, as a
// live server's are recorded ("api_v1.json", "apis_apps_v1.json.gz") or as
// the k8s.io/kubernetes module names them ("apis__apps__v1_openapi.json");
// false (and "") for the documents of a group, of /api, /version and the
// like.
func docGroupVersion(base string) (string, bool) {
	base = strings.TrimSuffix(base, ".gz")
	base = strings.TrimSuffix(base, ".json")
	base = strings.TrimSuffix(base, "_openapi")
	parts := strings.Split(strings.ReplaceAll(base, "__", "_"), "_")
	switch {
	case len(parts) == 2 && parts[0] == "api":
		return parts[1], true
	case len(parts) == 3 && parts[0] == "apis":
		return parts[1] + "/" + parts[2], true
	}
	return "", false
}

// readMaybeGzip reads a file, gunzipping it when its name ends in .gz.
func readMaybeGzip(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil || !strings.HasSuffix(path, ".gz") {
		return b, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return io.ReadAll(zr)
}

// releaseKinds returns the kinds release rel ("1.37") serves.
func releaseKinds(rel string) ([][3]string, error) {
	_, m, _ := strings.Cut(rel, ".")
	minor, err := strconv.Atoi(m)
	if err != nil {
		return nil, fmt.Errorf("release %q: want 1.MINOR", rel)
	}
	out := append([][3]string(nil), kinds...)
	for _, k := range sinceKinds {
		if minor >= k.since {
			out = append(out, k.gvk)
		}
	}
	return out, nil
}

// closure returns the components of a release: its kinds, their lists,
// what they reference, and every apimachinery component.
func closure(schemas map[string]any, ks [][3]string) (map[string]any, error) {
	var roots []string
	for _, k := range ks {
		name := findKind(schemas, k[0], k[1], k[2])
		if name == "" {
			return nil, fmt.Errorf("no schema for %s/%s %s", k[0], k[1], k[2])
		}
		roots = append(roots, name)
		if list := findKind(schemas, k[0], k[1], k[2]+"List"); list != "" {
			roots = append(roots, list)
		}
	}
	out := map[string]any{}
	var visit func(string) error
	visit = func(name string) error {
		if _, done := out[name]; done {
			return nil
		}
		s, ok := schemas[name]
		if !ok {
			return fmt.Errorf("reference to missing schema %s", name)
		}
		out[name] = s
		for _, r := range schema.Refs(s) {
			if err := visit(r); err != nil {
				return err
			}
		}
		return nil
	}
	for _, r := range roots {
		if err := visit(r); err != nil {
			return nil, err
		}
	}
	for name, s := range schemas {
		if strings.HasPrefix(name, metaPrefix) {
			out[name] = s
		}
	}
	return out, nil
}

func run(dirs map[string]string, out string) error {
	rels := make([]string, 0, len(dirs))
	for r := range dirs {
		rels = append(rels, r)
	}
	sort.Strings(rels)
	table := map[string][]byte{}            // hash → compact JSON
	index := map[string]map[string]string{} // release → name → hash
	var defSchemas, paramDoc map[string]any
	var laterParamDocs []map[string]any // of the releases after the default, oldest first
	for _, rel := range rels {
		schemas, pd, err := readDocs(dirs[rel])
		if err != nil {
			return fmt.Errorf("release %s: %w", rel, err)
		}
		ks, err := releaseKinds(rel)
		if err != nil {
			return err
		}
		comps, err := closure(schemas, ks)
		if err != nil {
			return fmt.Errorf("release %s: %w", rel, err)
		}
		names := map[string]string{}
		for name, s := range comps {
			b, err := compact(s)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			h := hex.EncodeToString(sum[:8])
			if prev, ok := table[h]; ok && !bytes.Equal(prev, b) {
				return fmt.Errorf("hash collision on %s", h)
			}
			table[h] = b
			names[name] = h
		}
		index[rel] = names
		if rel == defaultRelease {
			defSchemas, paramDoc = schemas, pd
		} else if pd != nil {
			laterParamDocs = append(laterParamDocs, pd)
		}
	}
	if defSchemas == nil || paramDoc == nil {
		return fmt.Errorf("release %s: no documents, or apis_coordination.k8s.io_v1.json missing", defaultRelease)
	}

	hashes := make([]string, 0, len(table))
	for h := range table {
		hashes = append(hashes, h)
	}
	sort.Strings(hashes)
	var lines bytes.Buffer
	for _, h := range hashes {
		lines.WriteString(h)
		lines.WriteByte(' ')
		lines.Write(table[h])
		lines.WriteByte('\n')
	}
	if err := os.MkdirAll(filepath.Join(out, "data"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "data", "components.jsonl"), lines.Bytes(), 0o644); err != nil {
		return err
	}
	if err := write(filepath.Join(out, "data", "releases.json"), index); err != nil {
		return err
	}

	metaSchemas := map[string]any{}
	for name, s := range defSchemas {
		if strings.HasPrefix(name, metaPrefix) {
			metaSchemas[name] = s
		}
	}
	params, err := parameters(paramDoc)
	if err != nil {
		return err
	}
	// Parameters only later releases declare (shardSelector, 1.36), as the
	// first of them declares them; kapi declares each from its release.
	for _, pd := range laterParamDocs {
		later, err := parameters(pd)
		if err != nil {
			return err
		}
		for name, p := range later {
			if _, ok := params[name]; !ok {
				params[name] = p
			}
		}
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
		s, ok := defSchemas[name]
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

// compact is v's JSON on one line, as write encodes it.
func compact(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
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
