package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// certificateSigningRequestResource is certificates.k8s.io/v1
// certificatesigningrequests.
func certificateSigningRequestResource() apiserver.Resource {
	return apiserver.Resource{Group: "certificates.k8s.io", Version: "v1", Kind: "CertificateSigningRequest",
		Plural: "certificatesigningrequests", ShortNames: []string{"csr"}, StatusSubresource: true, WithoutGeneration: true,
		PrinterColumns: csrColumns, GenericDelete: true, Strategy: csrStrategy{}, SelectableFields: []string{"spec.signerName"},
		// kube's CSR strategies reset the spec on every endpoint: a writer
		// owns none of it.
		ResetFields: map[string][]string{"": {"spec", "status"}, "status": {"spec", "status.conditions"},
			"approval": {"spec", "status.certificate"}}}
}

// csrStrategy is what a CertificateSigningRequest does differently.
type csrStrategy struct{ apiserver.GenericStrategy }

// PrepareForCreate records who asks (the request's user: name, uid, groups,
// extra), whatever the body claimed, and starts with an empty status.
func (csrStrategy) PrepareForCreate(w *apiserver.Write, o meta.Object) {
	spec := obj(o, "spec")
	for _, f := range []string{"username", "uid", "groups", "extra"} {
		delete(spec, f)
	}
	if u := w.User(); u != nil {
		if u.Name != "" {
			spec["username"] = u.Name
		}
		if u.UID != "" {
			spec["uid"] = u.UID
		}
		if len(u.Groups) > 0 {
			groups := make([]any, len(u.Groups))
			for i, g := range u.Groups {
				groups[i] = g
			}
			spec["groups"] = groups
		}
		if len(u.Extra) > 0 {
			extra := map[string]any{}
			for k, vs := range u.Extra {
				list := make([]any, len(vs))
				for i, v := range vs {
					list[i] = v
				}
				extra[k] = list
			}
			spec["extra"] = extra
		}
	}
	o["status"] = map[string]any{}
}

// Subresources are /approval.
func (csrStrategy) Subresources() []apiserver.Subresource {
	return []apiserver.Subresource{{Name: "approval", Verbs: verbsReadWrite}}
}

// csrCondition is the Condition cell: Approved, Denied or Pending, then
// Failed and Issued.
func csrCondition(o meta.Object) string {
	var approved, denied, failed bool
	for _, c := range meta.AsList(field(o, "status", "conditions")) {
		m, _ := c.(map[string]any)
		switch m["type"] {
		case "Approved":
			approved = true
		case "Denied":
			denied = true
		case "Failed":
			failed = true
		}
	}
	status := "Pending"
	if denied {
		status = "Denied"
	} else if approved {
		status = "Approved"
	}
	if failed {
		status += ",Failed"
	}
	if str(o, "status", "certificate") != "" {
		status += ",Issued"
	}
	return status
}

var csrColumns = []apiserver.PrinterColumn{
	apiserver.AgeColumn(),
	column("SignerName", "string", "Requested signer for the request. It is a qualified name in the form: `scope-hostname.io/name`. If empty, it will be defaulted:\n 1. If it's a kubelet client certificate, it is assigned\n    \"kubernetes.io/kube-apiserver-client-kubelet\".\n 2. If it's a kubelet serving certificate, it is assigned\n    \"kubernetes.io/kubelet-serving\".\n 3. Otherwise, it is assigned \"kubernetes.io/legacy-unknown\".\nDistribution of trust for signers happens out of band. You can select on this field using `spec.signerName`.", 0,
		func(o meta.Object, now time.Time) any { return stringOr(field(o, "spec", "signerName"), "<none>") }),
	column("Requestor", "string", "Base64-encoded PKCS#10 CSR data", 0,
		func(o meta.Object, now time.Time) any { return str(o, "spec", "username") }),
	column("RequestedDuration", "string", propertyDoc("io.k8s.api.certificates.v1.CertificateSigningRequestSpec", "expirationSeconds"), 0,
		func(o meta.Object, now time.Time) any {
			if s, ok := meta.AsInt64(field(o, "spec", "expirationSeconds")); ok {
				return apiserver.HumanDuration(time.Duration(s) * time.Second)
			}
			return "<none>"
		}),
	column("Condition", "string", "Conditions applied to the request, such as approval or denial.", 0,
		func(o meta.Object, now time.Time) any { return csrCondition(o) }),
}

// PrepareForUpdate is kube's: what each CSR endpoint may change.
func (csrStrategy) PrepareForUpdate(w *apiserver.Write, o, old meta.Object) meta.Object {
	return prepareCSRUpdate(w, o, old)
}
