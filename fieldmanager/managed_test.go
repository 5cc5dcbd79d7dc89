package fieldmanager

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
)

func TestManagerIdentityIsKubesJSON(t *testing.T) {
	assert.Equal(t, `{"manager":"kubectl","operation":"Update","apiVersion":"apps/v1"}`,
		identity{Manager: "kubectl", Operation: "Update", APIVersion: "apps/v1"}.String())
	assert.Equal(t, `{"manager":"kubectl","operation":"Apply"}`,
		identity{Manager: "kubectl", Operation: "Apply", APIVersion: "apps/v1"}.String(), "no apiVersion for appliers")
	assert.Equal(t, `{"manager":"c","operation":"Update","apiVersion":"v1","subresource":"status"}`,
		identity{Manager: "c", Operation: "Update", APIVersion: "v1", Subresource: "status"}.String())
	assert.Equal(t, `{"manager":"\u003cx\u003e","operation":"Apply"}`,
		identity{Manager: "<x>", Operation: "Apply"}.String(), "escaped like encoding/json")
}

func TestManagedFieldsRoundTripSortedLikeKube(t *testing.T) {
	list := mustList(t, `
- {manager: b, operation: Update, apiVersion: v1, time: "2030-01-01T00:00:02Z", fieldsType: FieldsV1, fieldsV1: {"f:b": {}}}
- {manager: z, operation: Apply, apiVersion: v1, time: "2030-01-01T00:00:09.999Z", fieldsType: FieldsV1, fieldsV1: {"f:z": {}}}
- {manager: a, operation: Update, apiVersion: v2, time: "2030-01-01T00:00:02Z", fieldsType: FieldsV1, fieldsV1: {"f:a": {}}}
- {manager: a, operation: Update, apiVersion: v1, time: "2030-01-01T00:00:02Z", fieldsType: FieldsV1, fieldsV1: {"f:a": {}}, subresource: status}
- {manager: a, operation: Update, apiVersion: v1, time: "2030-01-01T00:00:02Z", fieldsType: FieldsV1, fieldsV1: {"f:a": {}}}
- {manager: w, operation: Update, apiVersion: v1, fieldsType: FieldsV1}
- {manager: x, operation: Apply, apiVersion: v1, fieldsType: FieldsV1, fieldsV1: {"f:x": {}}}
`)
	m, err := decodeManaged(list)
	require.NoError(t, err)
	out, err := encodeManaged(m)
	require.NoError(t, err)
	assert.JSONEq(t, `[
	  {"manager":"x","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:x":{}}},
	  {"manager":"z","operation":"Apply","apiVersion":"v1","time":"2030-01-01T00:00:09Z","fieldsType":"FieldsV1","fieldsV1":{"f:z":{}}},
	  {"manager":"w","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{}},
	  {"manager":"a","operation":"Update","apiVersion":"v1","time":"2030-01-01T00:00:02Z","fieldsType":"FieldsV1","fieldsV1":{"f:a":{}}},
	  {"manager":"a","operation":"Update","apiVersion":"v1","time":"2030-01-01T00:00:02Z","fieldsType":"FieldsV1","fieldsV1":{"f:a":{}},"subresource":"status"},
	  {"manager":"a","operation":"Update","apiVersion":"v2","time":"2030-01-01T00:00:02Z","fieldsType":"FieldsV1","fieldsV1":{"f:a":{}}},
	  {"manager":"b","operation":"Update","apiVersion":"v1","time":"2030-01-01T00:00:02Z","fieldsType":"FieldsV1","fieldsV1":{"f:b":{}}}
	]`, jsonOf(t, out))
}

func mustList(t *testing.T, y string) []any {
	t.Helper()
	v := obj(t, "l:\n"+indent(y))["l"]
	return v.([]any)
}

func indent(s string) string {
	out := ""
	for _, line := range splitLines(s) {
		if line != "" {
			out += "  " + line + "\n"
		}
	}
	return out
}

func splitLines(s string) []string {
	var lines []string
	start := 0
	for i := range len(s) {
		if s[i] == '\n' {
			lines = append(lines, s[start:i])
			start = i + 1
		}
	}
	return append(lines, s[start:])
}

func TestManagedFieldsThatDoNotDecode(t *testing.T) {
	for name, y := range map[string]string{
		"an operation other than Apply and Update": `[{manager: a, operation: Patch, apiVersion: v1, fieldsType: FieldsV1}]`,
		"no apiVersion":                `[{manager: a, operation: Update, fieldsType: FieldsV1}]`,
		"no fieldsType":                `[{manager: a, operation: Update, apiVersion: v1}]`,
		"another fieldsType":           `[{manager: a, operation: Update, apiVersion: v1, fieldsType: FieldsV2}]`,
		"fieldsV1 not a trie":          `[{manager: a, operation: Update, apiVersion: v1, fieldsType: FieldsV1, fieldsV1: {"f:a": 1}}]`,
		"fieldsV1 not an object":       `[{manager: a, operation: Update, apiVersion: v1, fieldsType: FieldsV1, fieldsV1: "f:a"}]`,
		"a bad path element":           `[{manager: a, operation: Update, apiVersion: v1, fieldsType: FieldsV1, fieldsV1: {"k:[": {}}}]`,
		"a time that is not RFC 3339":  `[{manager: a, operation: Update, apiVersion: v1, fieldsType: FieldsV1, time: yesterday}]`,
		"a manager that is not a text": `[{manager: 1, operation: Update, apiVersion: v1, fieldsType: FieldsV1}]`,
		"an entry that is not a map":   `[a]`,
		"not a list":                   `{a: b}`,
	} {
		t.Run(name, func(t *testing.T) {
			v := obj(t, "v: "+y)["v"]
			_, err := decodeManaged(v)
			assert.Error(t, err)
		})
	}
}

func TestWhichManagedFieldsResetTheTrackedState(t *testing.T) {
	for y, want := range map[string]bool{
		`[]`:                               true,
		`[{}]`:                             true,
		`[null]`:                           true,
		`[{manager: ""}]`:                  true,
		`[{unknown: 1}]`:                   true,
		`[{manager: a}]`:                   false,
		`[{fieldsV1: {}}]`:                 false,
		`[{}, {}]`:                         false,
		`null`:                             false,
		`{}`:                               false,
		`[{time: "2030-01-01T00:00:00Z"}]`: false,
	} {
		v := obj(t, "v: "+y)["v"]
		assert.Equal(t, want, isReset(v, true), "%s", y)
	}
	assert.False(t, isReset(nil, false), "absent")
}

// kube's capManagersManager sorts Update entries by time then identity
// and merges the oldest of a version into "ancient-changes"; when the
// existing bucket is not the first of its version, merging it into itself
// deletes it. That is kept, to match.
func TestCappingKeepsKubesQuirks(t *testing.T) {
	at := func(s int) time.Time { return time.Date(2030, 1, 1, 0, 0, s, 0, time.UTC) }
	m := newManaged()
	add := func(name, version string, sec int) {
		id := identity{Manager: name, Operation: OperationUpdate, APIVersion: version}.String()
		m.fields[id] = fieldpath.NewVersionedSet(fieldpath.NewSet(fieldpath.MakePathOrDie(name)), fieldpath.APIVersion(version), false)
		m.times[id] = at(sec)
	}
	add("old", "v1", 1) // first of v1
	add("ancient-changes", "v1", 2)
	for i := range 9 {
		add(string(rune('a'+i)), "v1", 10+i)
	}
	applier := identity{Manager: "ap", Operation: OperationApply}.String()
	m.fields[applier] = fieldpath.NewVersionedSet(fieldpath.NewSet(fieldpath.MakePathOrDie("ap")), "v1", true)
	capUpdateManagers(m)
	_, hasBucket := m.fields[identity{Manager: "ancient-changes", Operation: OperationUpdate, APIVersion: "v1"}.String()]
	assert.False(t, hasBucket, "the bucket merged into itself is gone")
	assert.Len(t, m.fields, 11, "10 Update entries and the applier")
	_, hasOld := m.fields[identity{Manager: "old", Operation: OperationUpdate, APIVersion: "v1"}.String()]
	assert.True(t, hasOld)

	// Entries of different versions go to different buckets.
	m = newManaged()
	for i := range 12 {
		v := "v1"
		if i%2 == 1 {
			v = "v2"
		}
		add(string(rune('a'+i)), v, i)
	}
	capUpdateManagers(m)
	assert.Len(t, m.fields, 10)
	b1 := identity{Manager: "ancient-changes", Operation: OperationUpdate, APIVersion: "v1"}.String()
	b2 := identity{Manager: "ancient-changes", Operation: OperationUpdate, APIVersion: "v2"}.String()
	require.Contains(t, m.fields, b1)
	require.Contains(t, m.fields, b2)
	assert.True(t, m.fields[b1].Set().Has(fieldpath.MakePathOrDie("a")))
	assert.True(t, m.fields[b1].Set().Has(fieldpath.MakePathOrDie("c")))
	assert.True(t, m.fields[b2].Set().Has(fieldpath.MakePathOrDie("b")))
	assert.True(t, m.fields[b2].Set().Has(fieldpath.MakePathOrDie("d")))
	assert.Equal(t, at(3), m.times[b2], "the bucket takes the time of the last entry merged")
}

func TestConflictMessages(t *testing.T) {
	upd := identity{Manager: "ctrl", Operation: OperationUpdate, APIVersion: "apps/v1", Subresource: "status"}.String()
	app := identity{Manager: "kubectl", Operation: OperationApply}.String()
	st := conflictStatus(merge.Conflicts{
		{Manager: upd, Path: fieldpath.MakePathOrDie("status", "replicas")},
		{Manager: app, Path: fieldpath.MakePathOrDie("spec", "replicas")},
		{Manager: upd, Path: fieldpath.MakePathOrDie("status", "phase")},
	})
	assert.Equal(t, int32(409), st.Code)
	assert.Equal(t, "Apply failed with 3 conflicts: conflicts with \"ctrl\" with subresource \"status\" using apps/v1:\n"+
		"- .status.phase\n- .status.replicas\nconflicts with \"kubectl\":\n- .spec.replicas", st.Message)
	require.Len(t, st.Details.Causes, 3)
	assert.Equal(t, ".status.phase", st.Details.Causes[0].Field)
	assert.Equal(t, `conflict with "ctrl" with subresource "status" using apps/v1`, st.Details.Causes[0].Message)
	assert.Equal(t, `conflict with "kubectl"`, st.Details.Causes[2].Message)
	assert.Equal(t, `"not json"`, printManager("not json"))
}

func TestValidateManagedFieldsForAdmission(t *testing.T) {
	assert.NoError(t, ValidateManagedFields(nil))
	assert.NoError(t, ValidateManagedFields([]any{}))
	err := ValidateManagedFields(mustList(t, `[{manager: a, operation: Patch, apiVersion: v1, fieldsType: FieldsV1}]`))
	require.Error(t, err)
	assert.Equal(t, ".metadata.managedFields was in an invalid state after admission; this could be caused by an outdated mutating admission controller; please fix your requests: operation must be `Apply` or `Update`",
		AdmissionWarning(err))
}
