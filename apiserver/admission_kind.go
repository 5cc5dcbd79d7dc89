package apiserver

import "github.com/kapi-dev/kapi/meta"

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
