package builtin

import (
	"fmt"
	"strings"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/selectors"
)

// Validate is kube's ValidateStorageClass: a provisioner (a qualified
// name), parameters with keys, a reclaim policy of Delete or Retain, a
// binding mode, allowed topologies.
func (storageClassStrategy) Validate(w *apiserver.Write, o meta.Object) meta.FieldErrors {
	e := fieldErrs{release: w.Release()}
	e.storageClass(o)
	return e.all()
}

func (e *fieldErrs) storageClass(o meta.Object) {
	provisioner, _ := o["provisioner"].(string)
	if provisioner == "" {
		e.declarativeRequired("provisioner")
	} else {
		lower := strings.ToLower(provisioner)
		e.invalidAll("provisioner", lower, selectors.QualifiedNameErrors(lower))
	}
	e.storageClassParameters(asMap(o["parameters"]))
	if policy, _ := o["reclaimPolicy"].(string); policy != "" {
		e.enum("reclaimPolicy", policy, "Delete", "Retain")
	}
	if mode, ok := o["volumeBindingMode"].(string); !ok {
		e.required("volumeBindingMode")
	} else {
		e.enum("volumeBindingMode", mode, "Immediate", "WaitForFirstConsumer")
	}
	e.allowedTopologies(meta.AsList(o["allowedTopologies"]))
}

// ValidateUpdate is kube's: the class as on create, then
// ValidateStorageClassUpdate: its parameters, provisioner, reclaim policy
// and binding mode stay. kube 1.37 checks the four by declarative rules,
// in the order of the fields.
func (s storageClassStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	e := fieldErrs{release: w.Release()}
	e.storageClass(o)
	switch {
	case e.release.AtLeast(37):
		for _, f := range []string{"provisioner", "parameters", "reclaimPolicy", "volumeBindingMode"} {
			e.declarativeImmutable(f, o[f], old[f], nil)
		}
		return e.all()
	case e.release.AtLeast(36): // ValidateImmutableField, in the handwritten order
		e.immutable("parameters", o["parameters"], old["parameters"], stringMapValue(o["parameters"]))
		for _, f := range []string{"provisioner", "reclaimPolicy", "volumeBindingMode"} {
			e.immutable(f, o[f], old[f], o[f])
		}
		return e.list
	}
	if !equalJSON(o["parameters"], old["parameters"]) {
		e.forbidden("parameters", "updates to parameters are forbidden.")
	}
	if o["provisioner"] != old["provisioner"] {
		e.forbidden("provisioner", "updates to provisioner are forbidden.")
	}
	if o["reclaimPolicy"] != old["reclaimPolicy"] {
		e.forbidden("reclaimPolicy", "updates to reclaimPolicy are forbidden.")
	}
	if o["volumeBindingMode"] != old["volumeBindingMode"] {
		e.invalid("volumeBindingMode", o["volumeBindingMode"], "field is immutable")
	}
	return e.list
}

const (
	maxProvisionerParameters     = 512
	maxProvisionerParametersSize = 256 * 1024
)

func (e *fieldErrs) storageClassParameters(params map[string]any) {
	if len(params) > maxProvisionerParameters {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorTooLong, Field: "parameters",
			Detail: fmt.Sprintf("must have at most %d bytes", maxProvisionerParameters)})
		return
	}
	size := 0
	for _, k := range sortedMapKeys(params) {
		if k == "" {
			e.invalid("parameters", k, "field can not be empty.")
		}
		v, _ := params[k].(string)
		size += len(k) + len(v)
	}
	if size > maxProvisionerParametersSize {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorTooLong, Field: "parameters",
			Detail: fmt.Sprintf("must have at most %d bytes", maxProvisionerParametersSize)})
	}
}

// allowedTopologies is kube's validateAllowedTopologies. Kube compares each
// term with as many empty terms as there are terms, then with those before
// it: an empty term is always a duplicate.
func (e *fieldErrs) allowedTopologies(terms []any) {
	var seen []map[string]map[string]bool
	for range terms {
		seen = append(seen, nil)
	}
	for i, t := range terms {
		p := fmt.Sprintf("allowedTopologies[%d]", i)
		exprs := e.topologyTerm(p, asMap(t))
		for _, s := range seen {
			if sameTopology(exprs, s) {
				e.duplicate(p+".matchLabelExpressions", "")
			}
		}
		seen = append(seen, exprs)
	}
}

func sameTopology(a, b map[string]map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k, va := range a {
		vb, ok := b[k]
		if !ok || len(va) != len(vb) {
			return false
		}
		for v := range va {
			if !vb[v] {
				return false
			}
		}
	}
	return true
}
