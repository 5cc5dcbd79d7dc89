package apiserver

import (
	"github.com/kapi-dev/kapi/meta"
)

// strategicMerge applies a strategic merge patch to the JSON of the current
// object using the type's schema patch metadata.
func (s *Server) strategicMerge(res *Resource, current []byte, patch meta.Object) ([]byte, error) {
	return nil, meta.UnsupportedMediaType(strategicPatchType, []string{jsonPatchType, mergePatchType})
}
