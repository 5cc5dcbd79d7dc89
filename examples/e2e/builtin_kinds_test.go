package e2e

// Every built-in kind, held to what the reference server of each recorded
// release (1.33 and 1.37) stored and printed for the same manifests
// (docs/kube-behaviour/builtin, recorded by its record.sh, and
// 19-releases/1.37/builtin).

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/examples/server/kapiserver"
)

// builtinDir holds the manifests and what kube-apiserver 1.33 made of them.
const builtinDir = "../../docs/kube-behaviour/builtin"

// recordedBuiltins is, per release, where what that release's
// kube-apiserver made of the manifests of builtinDir is recorded.
var recordedBuiltins = []struct {
	release apiserver.Release
	dir     string
}{
	{apiserver.Release133, builtinDir},
	{apiserver.Release135, "../../docs/kube-behaviour/19-releases/1.35/builtin"},
	{apiserver.Release136, "../../docs/kube-behaviour/19-releases/1.36/builtin"},
	{apiserver.Release137, "../../docs/kube-behaviour/19-releases/1.37/builtin"},
}

// builtinManifests lists the manifests in the order record.sh applied
// them: namespaces first, admission webhooks and APIServices last.
func builtinManifests(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(builtinDir, "manifests", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	rank := func(p string) int {
		switch b := filepath.Base(p); {
		case strings.HasPrefix(b, "core_namespace"):
			return 0
		case strings.HasPrefix(b, "admissionregistration"), strings.HasPrefix(b, "apiregistration"):
			return 2
		}
		return 1
	}
	sort.SliceStable(paths, func(i, j int) bool { return rank(paths[i]) < rank(paths[j]) })
	return paths
}

func manifestBase(path string) string { return strings.TrimSuffix(filepath.Base(path), ".yaml") }

// applyBuiltinManifests starts the example server and applies every
// manifest with kubectl 1.33, as record.sh did against the reference.
func applyBuiltinManifests(t *testing.T, r apiserver.Release) (*cluster, *kubectlRunner, []string) {
	t.Helper()
	c := startClusterWith(t, kapiserver.ConfigFor(r))
	k := kubectlFor(t, c, "1.33")
	paths := builtinManifests(t)
	for _, p := range paths {
		k.must("apply", "-f", p)
	}
	return c, k, paths
}

func readJSONFile(t *testing.T, path string) any {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var v any
	require.NoError(t, json.Unmarshal(b, &v))
	return v
}

// normaliseStored removes from a stored object what differs between any
// two servers: its uid (also where kube copies it, as in a Job's
// selector), timestamps, resourceVersion, allocated cluster IPs, and the
// requesting user a CertificateSigningRequest records.
func normaliseStored(v any) any {
	obj, ok := v.(map[string]any)
	if !ok {
		return v
	}
	md, _ := obj["metadata"].(map[string]any)
	uid, _ := md["uid"].(string)
	for _, f := range []string{"uid", "creationTimestamp", "resourceVersion"} {
		if _, ok := md[f]; ok {
			md[f] = "<" + f + ">"
		}
	}
	if mfs, ok := md["managedFields"].([]any); ok {
		for _, mf := range mfs {
			if m, ok := mf.(map[string]any); ok && m["time"] != nil {
				m["time"] = "<time>"
			}
		}
	}
	maskTimes(obj)
	switch obj["kind"] {
	case "FlowSchema", "APIService":
		// Conditions kube-apiserver's own controllers set (the APF
		// configuration controller, the aggregator's availability
		// controller), which kapi does not run.
		if status, ok := obj["status"].(map[string]any); ok {
			delete(status, "conditions")
		}
	}
	if spec, ok := obj["spec"].(map[string]any); ok {
		switch obj["kind"] {
		case "Service":
			// Allocated by the server (not this test's subject).
			if ip, _ := spec["clusterIP"].(string); ip != "None" {
				delete(spec, "clusterIP")
				delete(spec, "clusterIPs")
			}
		case "CertificateSigningRequest":
			for _, f := range []string{"username", "uid", "groups", "extra"} {
				delete(spec, f)
			}
		}
	}
	if uid == "" {
		return obj
	}
	b, _ := json.Marshal(obj)
	var out any
	_ = json.Unmarshal([]byte(strings.ReplaceAll(string(b), uid, "<uid>")), &out)
	return out
}

// maskTimes masks the server-clock times conditions and phases record.
func maskTimes(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if (k == "lastTransitionTime" || k == "lastPhaseTransitionTime") && e != nil {
				x[k] = "<time>"
				continue
			}
			maskTimes(e)
		}
	case []any:
		for _, e := range x {
			maskTimes(e)
		}
	}
}

func normaliseAll(list []any) []any {
	out := make([]any, len(list))
	for i, v := range list {
		out[i] = normaliseStored(v)
	}
	return out
}

// knownTableDifferences are the recorded Tables kapi knowingly answers
// otherwise, by recording (without ".json"), with the reason.
var knownTableDifferences = map[string]string{
	"../../docs/kube-behaviour/19-releases/1.36/builtin/tables/admissionregistration_validatingadmissionpolicybinding": newlyRequired,
	"../../docs/kube-behaviour/19-releases/1.37/builtin/tables/admissionregistration_validatingadmissionpolicybinding": newlyRequired,
}

const newlyRequired = "kube 1.36 and 1.37 own f:validationActions with its \".\"; kapi's zero object (fieldmanager/zero.go) " +
	"takes a field their OpenAPI newly marks required, without default, as always written, where the Go field is still omitempty"

// TestEveryBuiltInKindAsKube applies a realistic manifest of every kind
// with kubectl, once, and compares with what the reference server did for
// the same manifests: the stored objects (kube's defaults, field for
// field, and kubectl's managedFields where kube shows them), the Table of
// each object, and `kubectl get` and `get -o wide`.
func TestEveryBuiltInKindAsKube(t *testing.T) {
	for _, rec := range recordedBuiltins {
		t.Run("kube-"+string(rec.release), func(t *testing.T) {
			c, k, paths := applyBuiltinManifests(t, rec.release)
			t.Run("stored", func(t *testing.T) { checkStored(t, c, k, paths, rec.dir) })
			t.Run("table", func(t *testing.T) { checkTables(t, c, paths, rec.dir) })
			t.Run("kubectl-get", func(t *testing.T) { checkKubectlGet(t, k, paths, rec.dir) })
		})
	}
}

// checkStored compares the stored object of every manifest with the
// reference's, and the objects kube serves through two versions.
func checkStored(t *testing.T, c *cluster, k *kubectlRunner, paths []string, recorded string) {
	for _, p := range paths {
		base := manifestBase(p)
		t.Run(base, func(t *testing.T) {
			t.Parallel()
			want := readJSONFile(t, filepath.Join(recorded, "stored", base+".json")).([]any)
			out := k.forTest(t).must("get", "-f", p, "-o", "json")
			var got any
			require.NoError(t, json.Unmarshal([]byte(out), &got))
			items := []any{got}
			if m := got.(map[string]any); m["kind"] == "List" {
				items = m["items"].([]any)
			}
			assertJSONEqual(t, normaliseAll(want), normaliseAll(items))
		})
	}
	// The objects kube stores once and serves through two versions.
	views := map[string]string{
		"autoscaling_horizontalpodautoscaler.via-v1":    "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/web",
		"autoscaling_horizontalpodautoscaler_v1.via-v2": "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/legacy-web",
		"core_event.via-events.k8s.io":                  "/apis/events.k8s.io/v1/namespaces/default/events/web-0.17a4b2c3d4e5f6a7",
		"events_event.via-core":                         "/api/v1/namespaces/default/events/web.17a4b2c3d4e5f6b8",
	}
	for base, path := range views {
		t.Run(base, func(t *testing.T) {
			want := readJSONFile(t, filepath.Join(recorded, "stored", base+".json")).([]any)
			var got any
			require.NoError(t, json.Unmarshal(httpGet(t, c.url+path, "application/json"), &got))
			assertJSONEqual(t, normaliseAll(want), normaliseAll([]any{got}))
		})
	}
}

// assertJSONEqual compares two JSON values, showing both indented.
func assertJSONEqual(t *testing.T, want, got any) {
	t.Helper()
	w, _ := json.MarshalIndent(want, "", "  ")
	g, _ := json.MarshalIndent(got, "", "  ")
	assert.Equal(t, string(w), string(g))
}

func httpGet(t *testing.T, url, accept string) []byte {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	req.Header.Set("Accept", accept)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s: %s", url, b)
	return b
}

// tableAccept is the Accept header kubectl sends for tables.
const tableAccept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"

// ageLike matches what the printers show for a time span ("17s", "2y202d").
var ageLike = regexp.MustCompile(`^(\d+[smhdy])+$`)

// timestampLike matches a cell showing a time ("Created At").
var timestampLike = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)

// internalManagers are kube-apiserver's own controllers, which write
// status kapi does not (CRD establishing, APF configuration, aggregator
// availability): their managedFields entries are left out.
var internalManagers = map[string]bool{"kube-apiserver": true, "api-priority-and-fairness-config-consumer-v1": true}

// serverCells are the cells that show what differs between servers: the
// requesting user, allocated IPs, the state kube's internal controllers
// report. By table (manifest) and column name.
var serverCells = map[string]map[string]bool{
	"certificates_certificatesigningrequest": {"Requestor": true},
	"core_service":                           {"Cluster-IP": true},
	"flowcontrol_flowschema":                 {"MissingPL": true},
	"apiregistration_apiservice":             {"Available": true},
}

// normaliseTable keeps of a Table what two servers agree on: the column
// definitions, and each row's cells with times since creation, the
// object's uid and server-specific cells masked, and the row's object
// normalised as a stored one.
func normaliseTable(base string, v any) any {
	tbl := v.(map[string]any)
	delete(tbl, "metadata")
	var names []string
	for _, c := range tbl["columnDefinitions"].([]any) {
		names = append(names, c.(map[string]any)["name"].(string))
	}
	for _, r := range tbl["rows"].([]any) {
		row := r.(map[string]any)
		uid, _ := row["object"].(map[string]any)["metadata"].(map[string]any)["uid"].(string)
		for i, c := range row["cells"].([]any) {
			if s, ok := c.(string); ok {
				switch {
				case ageLike.MatchString(s):
					c = "<age>"
				case timestampLike.MatchString(s):
					c = "<time>"
				case uid != "":
					c = strings.ReplaceAll(s, uid, "<uid>")
				}
			}
			if i < len(names) && serverCells[base][names[i]] {
				c = "<server>"
			}
			row["cells"].([]any)[i] = c
		}
		obj := normaliseStored(row["object"]).(map[string]any)
		md := obj["metadata"].(map[string]any)
		if mfs, ok := md["managedFields"].([]any); ok {
			var kept []any
			for _, mf := range mfs {
				if !internalManagers[mf.(map[string]any)["manager"].(string)] {
					kept = append(kept, mf)
				}
			}
			md["managedFields"] = kept
		}
		// Known divergence (fieldmanager, outside this test's subject): kube's
		// creator of an IPAddress owns spec.parentRef itself (a pointer set
		// from nil: "."); kapi's zero object counts the required field as
		// present.
		if fields, ok := meta(md, "managedFields", 0, "fieldsV1", "f:spec", "f:parentRef").(map[string]any); ok {
			delete(fields, ".")
		}
		// kube prints a DaemonSet's row from its internal form, where the
		// template generation is a field, not this annotation.
		if ann, ok := md["annotations"].(map[string]any); ok {
			delete(ann, "deprecated.daemonset.template.generation")
		}
		row["object"] = obj
	}
	return tbl
}

// meta walks a decoded JSON value by keys and indexes; nil when absent.
func meta(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

// checkTables reads each object as the Table kubectl asks for and compares
// it, cells and column definitions, with the reference's Table of the same
// object.
func checkTables(t *testing.T, c *cluster, paths []string, recorded string) {
	for _, p := range paths {
		base := manifestBase(p)
		t.Run(base, func(t *testing.T) {
			if why, ok := knownTableDifferences[filepath.Join(recorded, "tables", base)]; ok {
				t.Skip("known difference: " + why)
			}
			want := readJSONFile(t, filepath.Join(recorded, "tables", base+".json")).([]any)
			stored := readJSONFile(t, filepath.Join(recorded, "stored", base+".json")).([]any)
			require.Len(t, want, len(stored))
			for i, o := range stored {
				path := objectPath(o.(map[string]any))
				var got any
				require.NoError(t, json.Unmarshal(httpGet(t, c.url+path, tableAccept), &got))
				assertJSONEqual(t, normaliseTable(base, want[i]), normaliseTable(base, got))
			}
		})
	}
}

// objectPath is the URL path of a stored object, from its apiVersion, kind
// and names (the plural from the recorded discovery documents).
func objectPath(obj map[string]any) string {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	md := obj["metadata"].(map[string]any)
	name, _ := md["name"].(string)
	ns, _ := md["namespace"].(string)
	prefix := "/api/" + apiVersion
	if strings.Contains(apiVersion, "/") {
		prefix = "/apis/" + apiVersion
	}
	if ns != "" {
		prefix += "/namespaces/" + ns
	}
	return prefix + "/" + pluralOf(apiVersion, kind) + "/" + name
}

var plurals map[string]string

// pluralOf reads the plural of a kind from the recorded discovery
// documents of the reference server.
func pluralOf(apiVersion, kind string) string {
	if plurals == nil {
		plurals = map[string]string{}
		files, _ := filepath.Glob(filepath.Join(builtinDir, "discovery", "api*_*.json"))
		for _, f := range files {
			b, _ := os.ReadFile(f)
			var list struct {
				GroupVersion string `json:"groupVersion"`
				Resources    []struct {
					Name, Kind string
				} `json:"resources"`
			}
			if json.Unmarshal(b, &list) != nil {
				continue
			}
			for _, r := range list.Resources {
				if !strings.Contains(r.Name, "/") {
					plurals[list.GroupVersion+" "+r.Kind] = r.Name
				}
			}
		}
	}
	return plurals[apiVersion+" "+kind]
}

// checkKubectlGet compares `kubectl get -f` and `kubectl get -f -o wide`
// with what kubectl printed against the reference, cell for cell (ages,
// times, uids and server-specific cells masked), warnings included.
func checkKubectlGet(t *testing.T, k *kubectlRunner, paths []string, recorded string) {
	for _, p := range paths {
		base := manifestBase(p)
		t.Run(base, func(t *testing.T) {
			t.Parallel()
			b, err := os.ReadFile(filepath.Join(recorded, "get", base+".txt"))
			require.NoError(t, err)
			want := strings.SplitN(string(b), "\n\n", 2)
			require.Len(t, want, 2)
			kt := k.forTest(t)
			for i, args := range [][]string{{"get", "-f", p}, {"get", "-f", p, "-o", "wide"}} {
				stdout, stderr, err := kt.run(args...)
				require.NoError(t, err, stderr)
				wantOut, wantWarnings := splitWarnings(want[i])
				assert.Equal(t, printedCells(base, wantOut), printedCells(base, stdout), "kubectl %s", strings.Join(args, " "))
				_, gotWarnings := splitWarnings(stderr)
				assert.Equal(t, wantWarnings, gotWarnings, "kubectl %s: warnings", strings.Join(args, " "))
			}
		})
	}
}

// splitWarnings separates kubectl's "Warning: " lines (its stderr, which
// record.sh captured with stdout) from the table.
func splitWarnings(text string) (table string, warnings []string) {
	var rest []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "Warning: ") {
			warnings = append(warnings, l)
		} else {
			rest = append(rest, l)
		}
	}
	return strings.Join(rest, "\n"), warnings
}

// uuidLike matches a uid inside a cell (a Job's selector).
var uuidLike = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// printedCells splits kubectl's table output into cells at the header's
// column starts (tabwriter aligns every row to them), masking ages, times,
// uids and the server-specific columns of serverCells.
func printedCells(base, text string) [][]string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) == 0 {
		return nil
	}
	header := lines[0]
	var starts []int
	for i := 0; i < len(header); i++ {
		if header[i] != ' ' && (i == 0 || strings.HasSuffix(header[:i], "   ")) {
			starts = append(starts, i)
		}
	}
	masked := map[int]bool{}
	for j, s := range starts {
		end := len(header)
		if j+1 < len(starts) {
			end = starts[j+1]
		}
		for name := range serverCells[base] {
			if strings.TrimSpace(header[s:end]) == strings.ToUpper(name) {
				masked[j] = true
			}
		}
	}
	out := make([][]string, 0, len(lines))
	for n, l := range lines {
		row := make([]string, len(starts))
		for j, s := range starts {
			end := len(l)
			if j+1 < len(starts) && starts[j+1] < end {
				end = starts[j+1]
			}
			if s < len(l) {
				row[j] = strings.TrimSpace(l[s:end])
			}
			switch {
			case n > 0 && masked[j]:
				row[j] = "<server>"
			case ageLike.MatchString(row[j]):
				row[j] = "<age>"
			case timestampLike.MatchString(row[j]):
				row[j] = "<time>"
			default:
				row[j] = uuidLike.ReplaceAllString(row[j], "<uid>")
			}
		}
		out = append(out, row)
	}
	return out
}

// TestKubectlAPIResourcesListsWhatKubeLists compares `kubectl
// api-resources` (1.27 and 1.33, plain and wide) with what the same
// kubectl printed against a fresh reference server of kube 1.33.
func TestKubectlAPIResourcesListsWhatKubeLists(t *testing.T) {
	c := startClusterWith(t, kapiserver.ConfigFor(apiserver.Release133))
	for _, version := range []string{"1.27", "1.33"} {
		for _, wide := range []bool{false, true} {
			name := "kubectl-" + version
			args := []string{"api-resources"}
			if wide {
				name += "-wide"
				args = append(args, "-o", "wide")
			}
			t.Run(name, func(t *testing.T) {
				want, err := os.ReadFile(filepath.Join(builtinDir, "api-resources", name+".txt"))
				require.NoError(t, err)
				got := kubectlFor(t, c, version).must(args...)
				assert.Equal(t, string(want), got, fmt.Sprintf("kubectl %s api-resources", version))
			})
		}
	}
}
