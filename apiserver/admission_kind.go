package apiserver

import "github.com/kapi-dev/kapi/meta"

// AdmissionValidator is implemented by a Strategy whose kind one of
// kube-apiserver's in-tree validating admission plugins checks against
// other objects (the Priority plugin allows one default PriorityClass):
// what a kind's validation cannot see, answered as admission answers.
//
// ValidateAdmission runs on a create (old nil) or an update once the
// kind's validation has passed, before the configured validating
// admission plugins, policies and webhooks, inside the store's guaranteed
// update (it may run more than once; it must not have effects). Its error
// refuses the write: a *meta.Status is sent as is, any other error as 403
// Forbidden with its message, as an admission plugin's denial.
type AdmissionValidator interface {
	ValidateAdmission(w *Write, obj, old meta.Object) error
}

// kindAdmission runs the strategy's ValidateAdmission, if it has one.
func (q *request) kindAdmission(w *Write, obj, old meta.Object) error {
	v, ok := strategyAs[AdmissionValidator](q.res.strategy())
	if !ok {
		return nil
	}
	if err := v.ValidateAdmission(w, obj, old); err != nil {
		return admissionError(err, &AdmissionRequest{Name: obj.Name()}, q.res.GroupResource())
	}
	return nil
}
