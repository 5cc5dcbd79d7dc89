package apiserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// PrinterColumn is one column of the Table kubectl prints for a type, after
// the Name column every table starts with. A column reads its cell with
// JSONPath, as a CustomResourceDefinition's additionalPrinterColumns do, or
// computes it with Cell, as kube-apiserver's built-in printers do.
type PrinterColumn struct {
	// Name heads the column. A column without a Name sends its cell in
	// every row but no column definition, as some of kube's printers do.
	Name        string
	Type        string // integer, number, string, boolean or date
	Format      string
	Description string
	// Priority 0 columns always show; higher ones only with -o wide.
	Priority int32
	JSONPath string
	// Cell computes the value; now is the time the table is rendered (for
	// ages). It takes precedence over JSONPath.
	Cell func(obj meta.Object, now time.Time) any

	path jsonPath
}

const (
	nameColumnDescription = "Name must be unique within a namespace. Is required when creating resources, although some " +
		"resources may allow a client to request the generation of an appropriate name automatically. Name is primarily " +
		"intended for creation idempotence and configuration definition. Cannot be updated. More info: " +
		"https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"
	creationTimestampDescription = "CreationTimestamp is a timestamp representing the server time when this object was " +
		"created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set " +
		"this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. " +
		"More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
)

// tableColumn is a column definition on the wire.
type tableColumn struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Format      string `json:"format"`
	Description string `json:"description"`
	Priority    int32  `json:"priority"`
}

type tableRow struct {
	Cells  []any           `json:"cells"`
	Object json.RawMessage `json:"object"`
}

type table struct {
	Kind              string        `json:"kind"`
	APIVersion        string        `json:"apiVersion"`
	Metadata          meta.ListMeta `json:"metadata"`
	ColumnDefinitions []tableColumn `json:"columnDefinitions"`
	Rows              []tableRow    `json:"rows"`
}

// tableRequest is a client's request for another shape of the data than
// the object itself: a Table, or PartialObjectMetadata(List).
type tableRequest struct {
	as            string // Table, PartialObjectMetadata or PartialObjectMetadataList
	apiVersion    string // meta.k8s.io/v1 or meta.k8s.io/v1beta1
	includeObject string // for Tables: None, Metadata (default) or Object
	codec         codec.Codec
}

// wantsTable reads the Accept header the way kube-apiserver does: the first
// acceptable entry decides. `as=Table;g=meta.k8s.io;v=v1|v1beta1` asks for
// a Table; `as=PartialObjectMetadata` (get, watch) and
// `as=PartialObjectMetadataList` (list) for metadata only, as metadata
// informers do. It returns nil when a plain representation wins.
//
// Like kube's, the choice does not look at whether the request reads a list:
// `as=PartialObjectMetadata` on a list (or `as=PartialObjectMetadataList`
// on one object) is chosen, and then refused with 406 (res names the Go
// type kube would have converted).
func (s *Server) wantsTable(r *http.Request, verb string, res *Resource) (*tableRequest, error) {
	for _, m := range codec.ParseAccept(r.Header.Get("Accept")) {
		as := m.Param("as")
		switch as {
		case "":
			for _, c := range s.codecs {
				if m.Matches(c.MediaType()) {
					return nil, nil
				}
			}
			continue
		case "Table", "PartialObjectMetadata":
		case "PartialObjectMetadataList":
			if verb == VerbWatch {
				continue // a watch's events are single objects
			}
		default:
			continue
		}
		v := m.Param("v")
		if m.Param("g") != "meta.k8s.io" || (v != "v1" && v != "v1beta1") {
			continue
		}
		for _, c := range s.codecs {
			if !m.Matches(c.MediaType()) || c.MediaType() == codec.Protobuf && as == "Table" {
				continue
			}
			switch {
			case as == "PartialObjectMetadata" && verb == VerbList:
				return nil, partialMetadataNotAcceptable("you requested PartialObjectMetadata, but the requested object is a list (%s)",
					res.goTypeName(true))
			case as == "PartialObjectMetadataList" && verb != VerbList:
				return nil, partialMetadataNotAcceptable("you requested PartialObjectMetadataList, but the requested object is not a list (%s)",
					res.goTypeName(false))
			}
			tr := &tableRequest{as: as, apiVersion: "meta.k8s.io/" + v, codec: c}
			if as == "Table" {
				tr.includeObject = r.URL.Query().Get("includeObject")
				switch tr.includeObject {
				case "":
					tr.includeObject = "Metadata"
				case "None", "Metadata", "Object":
				default:
					return nil, meta.BadRequest(fmt.Sprintf("Unable to convert to Table as requested: includeObject: "+
						"Invalid value: %q: must be 'Metadata', 'Object', 'None', or empty", tr.includeObject))
				}
			}
			return tr, nil
		}
	}
	return nil, nil
}

// partialMetadataNotAcceptable is kube's 406 for a metadata-only form the
// object read cannot take.
func partialMetadataNotAcceptable(format, typeName string) error {
	return &meta.Status{Kind: "Status", APIVersion: "v1", Status: "Failure", Code: http.StatusNotAcceptable,
		Reason: meta.ReasonNotAcceptable, Message: fmt.Sprintf(format, typeName)}
}

// goTypeName is how kube's errors print the Go type it holds an object (or
// list) of this resource in: *core.ConfigMapList, *apps.Deployment, and
// *unstructured.Unstructured(List) for custom resources.
func (r *Resource) goTypeName(list bool) string {
	if r.customResource {
		if list {
			return "*unstructured.UnstructuredList"
		}
		return "*unstructured.Unstructured"
	}
	pkg, _, _ := strings.Cut(r.Group, ".")
	if pkg == "" {
		pkg = "core"
	}
	if list {
		return "*" + pkg + "." + r.ListKind
	}
	return "*" + pkg + "." + r.Kind
}

// listMetaObject is ListMeta in the object model, for codecs that only
// take objects.
func listMetaObject(lm meta.ListMeta) map[string]any {
	m := map[string]any{}
	if lm.ResourceVersion != "" {
		m["resourceVersion"] = lm.ResourceVersion
	}
	if lm.Continue != "" {
		m["continue"] = lm.Continue
	}
	if lm.RemainingItemCount != nil {
		m["remainingItemCount"] = *lm.RemainingItemCount
	}
	return m
}

// partialObject is an object's PartialObjectMetadata form.
func (tr *tableRequest) partialObject(o meta.Object) meta.Object {
	return meta.Object{"kind": "PartialObjectMetadata", "apiVersion": tr.apiVersion, "metadata": o.Metadata()}
}

// render returns the requested shape of items: a Table, one
// PartialObjectMetadata (single) or a PartialObjectMetadataList.
func (s *Server) render(res *Resource, tr *tableRequest, items []*store.Object, lm meta.ListMeta, headers bool) (any, error) {
	switch tr.as {
	case "Table":
		return s.renderTable(res, tr, items, lm, headers)
	case "PartialObjectMetadata": // get and watch: one object
		return tr.partialObject(items[0].Data()), nil
	}
	var list any // an empty list's items are null, as kube writes them
	if len(items) > 0 {
		objects := make([]any, len(items))
		for i, it := range items {
			objects[i] = map[string]any(tr.partialObject(it.Data()))
		}
		list = objects
	}
	return meta.Object{"kind": "PartialObjectMetadataList", "apiVersion": tr.apiVersion,
		"metadata": listMetaObject(lm), "items": list}, nil
}

// columns returns the type's table columns: Name first, then its printer
// columns, or for a type without any kube's default: "Created At" for a
// built-in kind, "Age" for any other (as for a custom resource). Printer columns that
// include a "Name" column of format "name" place (and print) the name
// themselves, as kube's Event printer puts it last.
func (r *Resource) columns() []PrinterColumn {
	if slices.ContainsFunc(r.PrinterColumns, func(c PrinterColumn) bool { return c.Name == "Name" && c.Format == "name" }) {
		return r.PrinterColumns
	}
	cols := []PrinterColumn{NameColumn()}
	if len(r.PrinterColumns) == 0 && !r.builtin() {
		return append(cols, customResourceAgeColumn())
	}
	if len(r.PrinterColumns) == 0 {
		return append(cols, PrinterColumn{Name: "Created At", Type: "date", Description: creationTimestampDescription,
			Cell: func(o meta.Object, _ time.Time) any { return o.CreationTimestamp() }})
	}
	return append(cols, r.PrinterColumns...)
}

// renderTable builds a Table of objects.
func (s *Server) renderTable(res *Resource, tr *tableRequest, items []*store.Object, lm meta.ListMeta, headers bool) (table, error) {
	t := table{Kind: "Table", APIVersion: tr.apiVersion, Metadata: lm, Rows: []tableRow{}}
	cols := res.columns()
	if headers {
		t.ColumnDefinitions = make([]tableColumn, 0, len(cols))
		for _, c := range cols {
			if c.Name == "" {
				continue // a cell without a column, as kube's IPAddress printer sends its age
			}
			t.ColumnDefinitions = append(t.ColumnDefinitions,
				tableColumn{Name: c.Name, Type: c.Type, Format: c.Format, Description: c.Description, Priority: c.Priority})
		}
	}
	now := s.now()
	if res.TableOrder != nil && len(items) > 1 {
		items = slices.Clone(items)
		slices.SortStableFunc(items, func(a, b *store.Object) int { return res.TableOrder(a.Data(), b.Data()) })
	}
	for _, it := range items {
		row := tableRow{Cells: make([]any, len(cols))}
		for i, c := range cols {
			row.Cells[i] = c.value(it.Data(), now)
		}
		switch tr.includeObject {
		case "None":
			row.Object = json.RawMessage("null")
		case "Object":
			b, err := encodeObject(codec.JSONCodec{}, it)
			if err != nil {
				return t, err
			}
			row.Object = b
		case "Metadata":
			b, err := json.Marshal(tr.partialObject(it.Data()))
			if err != nil {
				return t, err
			}
			row.Object = b
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// value computes one cell as kube does for its column type.
func (c *PrinterColumn) value(obj meta.Object, now time.Time) any {
	if c.Cell != nil {
		return c.Cell(obj, now)
	}
	if c.path == nil {
		return nil
	}
	found := c.path.find(map[string]any(obj))
	if len(found) == 0 || found[0] == nil {
		return nil
	}
	v := found[0]
	switch c.Type {
	case "date":
		s, ok := v.(string)
		if !ok {
			return nil
		}
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return nil
		}
		return HumanDuration(now.Sub(t))
	case "integer":
		if n, ok := meta.AsInt64(v); ok {
			return n
		}
		return nil
	case "number":
		switch n := v.(type) {
		case int64:
			return n
		case float64:
			return n
		}
		return nil
	case "boolean":
		if b, ok := v.(bool); ok {
			return b
		}
		return nil
	}
	switch x := v.(type) {
	case string:
		return x
	case map[string]any, []any:
		b, _ := json.Marshal(x)
		return string(b)
	default:
		return fmt.Sprint(x)
	}
}

// HumanDuration renders an age the way kubectl shows it: "45s", "3m12s",
// "27m", "5h3m", "2d4h", "350d", "3y20d".
func HumanDuration(d time.Duration) string {
	seconds := int64(d / time.Second)
	switch {
	case seconds < -1:
		return "<invalid>"
	case seconds < 0:
		return "0s"
	case seconds < 120:
		return strconv.FormatInt(seconds, 10) + "s"
	}
	minutes := int64(d / time.Minute)
	switch {
	case minutes < 10:
		return withRemainder(minutes, "m", seconds%60, "s")
	case minutes < 180:
		return strconv.FormatInt(minutes, 10) + "m"
	}
	hours := int64(d / time.Hour)
	switch {
	case hours < 8:
		return withRemainder(hours, "h", minutes%60, "m")
	case hours < 48:
		return strconv.FormatInt(hours, 10) + "h"
	case hours < 24*8:
		return withRemainder(hours/24, "d", hours%24, "h")
	case hours < 24*365*2:
		return strconv.FormatInt(hours/24, 10) + "d"
	case hours < 24*365*8:
		return withRemainder(hours/24/365, "y", (hours/24)%365, "d")
	}
	return strconv.FormatInt(hours/24/365, 10) + "y"
}

func withRemainder(n int64, unit string, rem int64, remUnit string) string {
	s := strconv.FormatInt(n, 10) + unit
	if rem != 0 {
		s += strconv.FormatInt(rem, 10) + remUnit
	}
	return s
}

// NameColumn is the "Name" column every table starts with; a type places
// it elsewhere by listing it among its PrinterColumns.
func NameColumn() PrinterColumn {
	return PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: nameColumnDescription,
		Cell: func(o meta.Object, _ time.Time) any { return o.Name() }}
}

// customResourceAgeColumn is the column kube prints for a custom resource
// whose CRD names no printer columns (crd.go gives a CRD's versions the
// same).
func customResourceAgeColumn() PrinterColumn {
	return PrinterColumn{Name: "Age", Type: "date", JSONPath: ".metadata.creationTimestamp",
		Description: "Custom resource definition column (in JSONPath format): .metadata.creationTimestamp",
		Cell:        func(o meta.Object, _ time.Time) any { return o.CreationTimestamp() }}
}

// AgeColumn is the "Age" column of kube's built-in printers.
func AgeColumn() PrinterColumn {
	return PrinterColumn{Name: "Age", Type: "string", Description: creationTimestampDescription,
		Cell: func(o meta.Object, now time.Time) any {
			t, err := time.Parse(time.RFC3339, o.CreationTimestamp())
			if err != nil {
				return "<unknown>"
			}
			return HumanDuration(now.Sub(t))
		}}
}
