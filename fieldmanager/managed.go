package fieldmanager

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/meta"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// This file is the wire side of managedFields: decoding the entries of
// metadata.managedFields into SMD field sets keyed by manager identity
// (apimachinery's managedfields.go DecodeManagedFields /
// BuildManagerIdentifier), and encoding them back, sorted.

// Operations of a managedFields entry.
const (
	OperationApply  = "Apply"
	OperationUpdate = "Update"
)

// managed is the decoded metadata.managedFields: one field set per manager
// identity and the time of each (zero when the entry has none).
type managed struct {
	fields fieldpath.ManagedFields
	times  map[string]time.Time
}

func newManaged() managed {
	return managed{fields: fieldpath.ManagedFields{}, times: map[string]time.Time{}}
}

// identity is a manager's identity: the JSON of a ManagedFieldsEntry
// without fields, type and time, and without apiVersion for Apply entries,
// so that one applier keeps one entry across versions. The field order is
// metav1.ManagedFieldsEntry's, so the strings (which order entries when
// they are capped, and managers in conflict messages) are kube's byte for
// byte.
type identity struct {
	Manager     string `json:"manager,omitempty"`
	Operation   string `json:"operation,omitempty"`
	APIVersion  string `json:"apiVersion,omitempty"`
	Subresource string `json:"subresource,omitempty"`
}

func (id identity) String() string {
	if id.Operation == OperationApply {
		id.APIVersion = ""
	}
	// Strings that encoding/json writes as they are (the usual manager
	// names and versions) are joined directly, to the same bytes.
	if plainJSON(id.Manager) && plainJSON(id.Operation) && plainJSON(id.APIVersion) && plainJSON(id.Subresource) {
		var b strings.Builder
		b.WriteByte('{')
		for i, v := range id.values() {
			if v == "" {
				continue
			}
			if b.Len() > 1 {
				b.WriteByte(',')
			}
			b.WriteString(`"` + identityFieldNames[i] + `":"` + v + `"`)
		}
		b.WriteByte('}')
		return b.String()
	}
	b, _ := json.Marshal(id) // cannot fail: four strings
	return string(b)
}

// identityFieldNames are identity's JSON field names, in its order.
var identityFieldNames = [4]string{"manager", "operation", "apiVersion", "subresource"}

func (id identity) values() [4]string {
	return [4]string{id.Manager, id.Operation, id.APIVersion, id.Subresource}
}

// plainJSON reports whether encoding/json writes s between quotes as it
// is: printable ASCII without quotes, backslashes or the HTML characters
// it escapes.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

func parseIdentity(s string) (identity, bool) {
	if id, ok := parsePlainIdentity(s); ok {
		return id, true
	}
	var id identity
	if err := json.Unmarshal([]byte(s), &id); err != nil {
		return identity{}, false
	}
	return id, true
}

// parsePlainIdentity reads what String writes without encoding/json:
// the four fields, in order, with plain values. Anything else (escapes,
// other spellings) is left to encoding/json.
func parsePlainIdentity(s string) (identity, bool) {
	rest, ok := strings.CutPrefix(s, "{")
	if !ok {
		return identity{}, false
	}
	var values [4]string
	next := 0
	for rest != "}" {
		if next > 0 {
			if rest, ok = strings.CutPrefix(rest, ","); !ok {
				return identity{}, false
			}
		}
		i := next
		for ; i < len(values); i++ {
			if r, ok := strings.CutPrefix(rest, `"`+identityFieldNames[i]+`":"`); ok {
				rest = r
				break
			}
		}
		end := strings.IndexByte(rest, '"')
		if i == len(values) || end <= 0 || !plainJSON(rest[:end]) {
			return identity{}, false
		}
		values[i], rest, next = rest[:end], rest[end+1:], i+1
	}
	return identity{Manager: values[0], Operation: values[1], APIVersion: values[2], Subresource: values[3]}, true
}

// errNotEntries is returned for a managedFields value that is not a list of
// objects with fields of the right types.
var errNotEntries = errors.New("managedFields must be a list of ManagedFieldsEntry objects")

// entry is one decoded element of metadata.managedFields.
type entry struct {
	identity
	time       time.Time
	fieldsType string
	fieldsV1   any // nil when absent or null
}

func stringField(m map[string]any, k string) (string, error) {
	switch v := m[k].(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	default:
		return "", fmt.Errorf("%w: %s is not a string", errNotEntries, k)
	}
}

// decodeEntries reads the entries of a managedFields value as JSON
// decoding into []metav1.ManagedFieldsEntry would: null entries are zero
// entries, unknown keys are ignored, a time must be RFC 3339.
func decodeEntries(v any) ([]entry, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, errNotEntries
	}
	out := make([]entry, 0, len(list))
	for _, item := range list {
		var e entry
		if item == nil {
			out = append(out, e)
			continue
		}
		m, ok := item.(map[string]any)
		if !ok {
			return nil, errNotEntries
		}
		var err error
		if e.Manager, err = stringField(m, "manager"); err != nil {
			return nil, err
		}
		if e.Operation, err = stringField(m, "operation"); err != nil {
			return nil, err
		}
		if e.APIVersion, err = stringField(m, "apiVersion"); err != nil {
			return nil, err
		}
		if e.Subresource, err = stringField(m, "subresource"); err != nil {
			return nil, err
		}
		if e.fieldsType, err = stringField(m, "fieldsType"); err != nil {
			return nil, err
		}
		switch t := m["time"].(type) {
		case nil:
		case string:
			if e.time, err = time.Parse(time.RFC3339, t); err != nil {
				return nil, fmt.Errorf("%w: time: %v", errNotEntries, err)
			}
		default:
			return nil, fmt.Errorf("%w: time is not a string", errNotEntries)
		}
		e.fieldsV1 = m["fieldsV1"]
		out = append(out, e)
	}
	return out, nil
}

// setsManagedFields reports whether obj has metadata.managedFields as
// kube reads them from an unstructured object (GetManagedFields is not
// nil): a list, possibly empty, of objects whose fields have the right
// types. Anything else reads as absent.
func setsManagedFields(obj meta.Object) bool {
	list, ok := obj.Metadata()["managedFields"].([]any)
	if !ok {
		return false
	}
	for _, item := range list {
		if _, ok := item.(map[string]any); !ok {
			return false
		}
	}
	_, err := decodeEntries(list)
	return err == nil
}

// isReset reports whether a request's managedFields asks to clear them: a
// present but empty list, or a list of one empty entry (apimachinery's
// isResetManagedFields).
func isReset(v any, present bool) bool {
	list, ok := v.([]any)
	if !present || !ok {
		return false
	}
	switch len(list) {
	case 0:
		return true
	case 1:
		es, err := decodeEntries(list)
		return err == nil && es[0].isZero()
	}
	return false
}

func (e entry) isZero() bool {
	return e.identity == identity{} && e.time.IsZero() && e.fieldsType == "" && e.fieldsV1 == nil
}

// decodeManaged decodes metadata.managedFields (apimachinery's
// DecodeManagedFields): every entry must be an Apply or Update with an
// apiVersion and FieldsV1 fields. Entries with the same identity collapse
// into the last.
func decodeManaged(v any) (managed, error) {
	m := newManaged()
	if v == nil {
		return m, nil
	}
	entries, err := decodeEntries(v)
	if err != nil {
		return managed{}, err
	}
	for i, e := range entries {
		switch e.Operation {
		case OperationApply, OperationUpdate:
		default:
			return managed{}, errors.New("operation must be `Apply` or `Update`")
		}
		if e.APIVersion == "" {
			return managed{}, errors.New("apiVersion must not be empty")
		}
		switch e.fieldsType {
		case "FieldsV1":
		case "":
			return managed{}, fmt.Errorf("missing fieldsType in managed fields entry %d", i)
		default:
			return managed{}, fmt.Errorf("invalid fieldsType %q in managed fields entry %d", e.fieldsType, i)
		}
		set, err := fieldsToSet(e.fieldsV1)
		if err != nil {
			return managed{}, fmt.Errorf("error decoding versioned set from entry %d: %v", i, err)
		}
		id := e.identity.String()
		m.fields[id] = fieldpath.NewVersionedSet(set, fieldpath.APIVersion(e.APIVersion), e.Operation == OperationApply)
		m.times[id] = e.time
	}
	return m, nil
}

// decodeOrEmpty is decodeManaged of an object's managedFields, empty when
// they do not decode.
func decodeOrEmpty(obj meta.Object) managed {
	m, err := decodeManaged(obj.Metadata()["managedFields"])
	if err != nil {
		return newManaged()
	}
	return m
}

// fieldsToSet decodes a FieldsV1 trie (absent means empty) as SMD's
// Set.FromJSON reads its JSON, without going through JSON: "." marks a
// node that is itself a member, as does having no children; unknown
// path element types are skipped; a null node is an empty one.
func fieldsToSet(v any) (*fieldpath.Set, error) {
	if v == nil {
		return fieldpath.NewSet(), nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("fieldsV1 must be an object")
	}
	s, _, err := readFields(m)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return fieldpath.NewSet(), nil
	}
	return s, nil
}

// readFields reads one node of the trie: the set of its children (nil for
// none) and whether the node is a member of its parent.
func readFields(m map[string]any) (children *fieldpath.Set, isMember bool, err error) {
	for key, val := range m {
		if key == "." {
			isMember = true
			continue
		}
		pe, err := fieldpath.DeserializePathElement(key)
		if errors.Is(err, fieldpath.ErrUnknownPathElementType) {
			continue
		}
		if err != nil {
			return nil, false, fmt.Errorf("parsing key as path element: %v", err)
		}
		var sub map[string]any
		switch t := val.(type) {
		case nil:
		case map[string]any:
			sub = t
		default:
			return nil, false, fmt.Errorf("%s: a node of the fields trie must be an object", key)
		}
		grand, childIsMember, err := readFields(sub)
		if err != nil {
			return nil, false, err
		}
		if children == nil {
			children = &fieldpath.Set{}
		}
		if childIsMember {
			children.Members.Insert(pe)
		}
		if grand != nil {
			*children.Children.Descend(pe) = *grand
		}
	}
	if children == nil {
		isMember = true
	}
	return children, isMember, nil
}

// setToFields encodes a set as the FieldsV1 trie (f:, k:, v:, i:, "."),
// the value SMD's Set.ToJSON writes.
func setToFields(s *fieldpath.Set) (map[string]any, error) {
	out := make(map[string]any, s.Members.Size()+s.Children.Size())
	for pe := range s.Members.All() {
		k, err := serializePathElement(pe)
		if err != nil {
			return nil, err
		}
		out[k] = map[string]any{}
	}
	for pe := range s.Children.All() {
		child, _ := s.Children.Get(pe)
		k, err := serializePathElement(pe)
		if err != nil {
			return nil, err
		}
		sub, err := setToFields(child)
		if err != nil {
			return nil, err
		}
		if _, member := out[k]; member && len(sub) > 0 {
			sub["."] = map[string]any{}
		}
		out[k] = sub
	}
	return out, nil
}

// serializePathElement is fieldpath.SerializePathElement, which writes a
// field name as "f:" and the name; the common case skips its writer.
func serializePathElement(pe fieldpath.PathElement) (string, error) {
	if pe.FieldName != nil {
		return "f:" + *pe.FieldName, nil
	}
	return fieldpath.SerializePathElement(pe)
}

// encodeManaged renders m as metadata.managedFields, sorted like
// kube-apiserver: by operation, then time (seconds), manager, apiVersion
// and subresource. It returns nil when there are no entries.
func encodeManaged(m managed) ([]any, error) {
	if len(m.fields) == 0 {
		return nil, nil
	}
	type encoded struct {
		entry
		fields map[string]any
	}
	list := make([]encoded, 0, len(m.fields))
	for _, key := range slices.Sorted(maps.Keys(m.fields)) {
		vs := m.fields[key]
		id, ok := parseIdentity(key)
		if !ok {
			return nil, fmt.Errorf("error unmarshalling manager identifier %v", key)
		}
		id.APIVersion = string(vs.APIVersion())
		if vs.Applied() {
			id.Operation = OperationApply
		}
		f, err := setToFields(vs.Set())
		if err != nil {
			return nil, fmt.Errorf("error encoding versioned set for %v: %v", key, err)
		}
		list = append(list, encoded{entry: entry{identity: id, time: m.times[key]}, fields: f})
	}
	slices.SortStableFunc(list, func(p, q encoded) int {
		if c := strings.Compare(p.Operation, q.Operation); c != 0 {
			return c
		}
		if c := compareSeconds(p.time, q.time); c != 0 {
			return c
		}
		if c := strings.Compare(p.Manager, q.Manager); c != 0 {
			return c
		}
		if c := strings.Compare(p.APIVersion, q.APIVersion); c != 0 {
			return c
		}
		return strings.Compare(p.Subresource, q.Subresource)
	})
	out := make([]any, len(list))
	for i, e := range list {
		out[i] = entryObject(e.identity, e.time, e.fields)
	}
	return out, nil
}

// entryObject is one metadata.managedFields entry as the object holds it:
// metav1.ManagedFieldsEntry's fields, the empty ones left out.
func entryObject(id identity, t time.Time, fields map[string]any) map[string]any {
	m := map[string]any{
		"operation":  id.Operation,
		"apiVersion": id.APIVersion,
		"fieldsType": "FieldsV1",
		"fieldsV1":   fields,
	}
	if id.Manager != "" {
		m["manager"] = id.Manager
	}
	if !t.IsZero() {
		m["time"] = meta.FormatTime(t)
	}
	if id.Subresource != "" {
		m["subresource"] = id.Subresource
	}
	return m
}

// seconds is metav1.Time's Unix(), 0 for no time.
func seconds(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}

func compareSeconds(a, b time.Time) int {
	x, y := seconds(a), seconds(b)
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// maxUpdateManagers is apimachinery's DefaultMaxUpdateManagers.
const maxUpdateManagers = 10

// capUpdateManagers keeps at most maxUpdateManagers Update entries by
// merging the oldest into one "ancient-changes" entry per apiVersion, as
// apimachinery's capManagersManager does (literally, quirks included: the
// entries are ordered by time in seconds, then identity; the first old
// entry of a version becomes the bucket when a second one is merged; the
// bucket takes the time of the last entry merged into it).
func capUpdateManagers(m managed) {
	var updaters []string
	for key, vs := range m.fields {
		if !vs.Applied() {
			updaters = append(updaters, key)
		}
	}
	if len(updaters) <= maxUpdateManagers {
		return
	}
	slices.SortFunc(updaters, func(a, b string) int {
		if c := compareSeconds(m.times[a], m.times[b]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	firstOfVersion := map[fieldpath.APIVersion]string{}
	for i, length := 0, len(updaters); i < len(updaters) && length > maxUpdateManagers; i++ {
		key := updaters[i]
		vs := m.fields[key]
		t := m.times[key]
		version := vs.APIVersion()
		bucket := identity{Manager: "ancient-changes", Operation: OperationUpdate, APIVersion: string(version)}.String()
		first, ok := firstOfVersion[version]
		if !ok {
			firstOfVersion[version] = key
			continue
		}
		if _, ok := m.fields[bucket]; !ok {
			m.fields[bucket] = m.fields[first]
			delete(m.fields, first)
		}
		m.fields[bucket] = fieldpath.NewVersionedSet(vs.Set().Union(m.fields[bucket].Set()), vs.APIVersion(), vs.Applied())
		delete(m.fields, key)
		length--
		m.times[bucket] = t
	}
}

// ValidateManagedFields reports whether managedFields (the value of an
// object's metadata.managedFields; nil is valid) would decode, as
// kube-apiserver checks after mutating admission: when a webhook or plugin
// left them invalid, the API server puts back the ones from before
// admission and warns with AdmissionWarning(err).
func ValidateManagedFields(managedFields any) error {
	_, err := decodeManaged(managedFields)
	return err
}

// AdmissionWarning is the warning kube-apiserver sends when mutating
// admission left invalid managedFields (err from ValidateManagedFields).
func AdmissionWarning(err error) string {
	return ".metadata.managedFields was in an invalid state after admission; this could be caused by an outdated mutating admission controller; please fix your requests: " + err.Error()
}
