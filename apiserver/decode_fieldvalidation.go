package apiserver

import (
	"fmt"
	"sort"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
)

// problem is one field validation finding, placed in the body it was
// found in.
type problem struct {
	offset int // byte offset of the field's key; -1 when unknown
	path   string
	text   string
}

// bodyProblems prunes the fields obj's type does not declare and returns,
// with the duplicate fields the decoder found, what field validation
// reports, in the body's document order as kube's strict decoder does.
// body gives the document (nil: none); it is called only to order two
// problems or more.
func (r *Resource) bodyProblems(obj meta.Object, body func() []byte, duplicates []codec.Field) []string {
	var ps []problem
	for _, d := range duplicates {
		ps = append(ps, problem{offset: d.Offset, path: d.Path, text: fmt.Sprintf("duplicate field %q", d.Path)})
	}
	if r.Schema != nil {
		for _, p := range r.Schema.Prune(obj, true) {
			ps = append(ps, problem{offset: -1, path: p, text: fmt.Sprintf("unknown field %q", p)})
		}
	}
	if len(ps) > 1 && body != nil {
		if offsets := codec.FieldOffsets(body()); offsets != nil {
			for i := range ps {
				if off, ok := offsets[ps[i].path]; ok && ps[i].offset < 0 {
					ps[i].offset = off
				}
			}
			sort.SliceStable(ps, func(i, j int) bool { return ps[i].offset < ps[j].offset })
		}
	}
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.text
	}
	return out
}
