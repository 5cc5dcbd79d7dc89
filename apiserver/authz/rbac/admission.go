package rbac

import (
	"context"

	"github.com/kapi-dev/kapi/apiserver"
)

// Admission returns the escalation check as an admission plugin for
// apiserver.Config.Admission: it validates every create and update
// (including patches, applies and dry runs) of the four RBAC kinds.
func (e *Escalation) Admission() apiserver.ValidatingAdmission { return escalationAdmission{e} }

type escalationAdmission struct{ e *Escalation }

func (a escalationAdmission) Validate(ctx context.Context, req *apiserver.AdmissionRequest) error {
	if req.Resource.Group != Group || req.Subresource != "" {
		return nil
	}
	w := Write{Resource: req.Resource.Resource, Namespace: req.Namespace, Object: req.Object, OldObject: req.OldObject}
	switch req.Operation {
	case apiserver.OperationCreate:
	case apiserver.OperationUpdate:
		w.Name = req.Name
	default:
		return nil
	}
	return a.e.Check(ctx, w)
}
