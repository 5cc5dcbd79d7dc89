package builtin

import (
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// The checks of kube's ValidateCertificateSigningRequestCreate a CSR's
// spec gets before its conditions: a PEM certificate request, usages,
// signer name, requested duration.

// csrUsages are the key usages kube knows, sorted as its message lists them.
var csrUsages = []string{"any", "cert sign", "client auth", "code signing", "content commitment", "crl sign",
	"data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system",
	"ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing",
	"s/mime", "server auth", "signing", "timestamping"}

// validateCSR is the spec part of kube's CSR validation at release r,
// then the conditions (validateCSRConditions).
func validateCSR(r apiserver.Release, o meta.Object) meta.FieldErrors {
	e := fieldErrs{release: r}
	spec := asMap(o["spec"])
	request := decodedBytes(spec["request"])
	if err := csrRequestError(request); err != nil {
		e.invalid("spec.request", goBytes(request), err.Error())
	}
	usages := meta.AsList(spec["usages"])
	if len(usages) == 0 {
		e.required("spec.usages")
	}
	for i, u := range usages {
		s, _ := u.(string)
		if j := sort.SearchStrings(csrUsages, s); j == len(csrUsages) || csrUsages[j] != s {
			e.notSupported(fmt.Sprintf("spec.usages[%d]", i), s, csrUsages...)
		}
	}
	seen := map[any]bool{}
	for i, u := range usages {
		if seen[u] {
			e.duplicate(fmt.Sprintf("spec.usages[%d]", i), u)
		}
		seen[u] = true
	}
	e.signerName("spec.signerName", str(o, "spec", "signerName"))
	if n, ok := meta.AsInt64(spec["expirationSeconds"]); ok && n < 600 {
		e.invalid("spec.expirationSeconds", n, "may not specify a duration less than 600 seconds (10 minutes)")
	}
	e.csrConditions(o)
	return e.all()
}

// csrRequestError is kube's ParseCSR: one PEM block of a certificate
// request, which x509 parses.
func csrRequestError(b []byte) error {
	block, _ := pem.Decode(b)
	if block == nil || block.Type != "CERTIFICATE REQUEST" {
		return errors.New("PEM block type must be CERTIFICATE REQUEST")
	}
	_, err := x509.ParseCertificateRequest(block.Bytes)
	return err
}

// goBytes is a []byte: Go's %#v lists its bytes, JSON is their base64.
func goBytes(b []byte) kubeValue {
	parts := make([]string, len(b))
	for i, c := range b {
		parts[i] = fmt.Sprintf("0x%x", c)
	}
	return kubeValue{"[]byte{" + strings.Join(parts, ", ") + "}", jsonText(b)}
}

// signerName is kube's ValidateSignerName: domain/path, the domain of at
// least two DNS labels, the path a DNS subdomain.
func (e *fieldErrs) signerName(path, name string) {
	if name == "" {
		e.required(path)
		return
	}
	parts := strings.Split(name, "/")
	if len(parts) != 2 {
		e.invalid(path, name, "must be a fully qualified domain and path of the form 'example.com/signer-name'")
		return
	}
	if len(parts[0]) > 253 {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorTooLong, Field: path, Value: parts[0], Detail: "must have at most 253 bytes"})
	}
	labels := strings.Split(parts[0], ".")
	for _, l := range labels {
		if msgs := schema.DNS1123Label(l); len(msgs) > 0 {
			for _, m := range msgs {
				e.invalid(path, parts[0], fmt.Sprintf("validating label %q: %s", l, m))
			}
			break
		}
	}
	if len(labels) < 2 {
		e.invalid(path, parts[0], "should be a domain with at least two segments separated by dots")
	}
	if len(parts[1]) > 253+63+1 {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorTooLong, Field: path, Value: parts[1], Detail: "must have at most 317 bytes"})
	}
	for _, m := range schema.DNS1123Subdomain(parts[1]) {
		e.invalid(path, parts[1], fmt.Sprintf("validating label %q: %s", parts[1], m))
	}
}

// Validate checks a new CSR's spec (certificates_certificatesigningrequest_validation.go) and
// conditions.
func (csrStrategy) Validate(w *apiserver.Write, o meta.Object) meta.FieldErrors {
	return validateCSR(w.Release(), o)
}

// ValidateUpdate keeps its Approved and Denied conditions.
func (csrStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	return validateCSRUpdateAt(w.Release(), o, old)
}

// validateCSRConditions is kube 1.33's validateConditions (csrConditions).
func validateCSRConditions(o meta.Object) meta.FieldErrors {
	var e fieldErrs
	e.csrConditions(o)
	return e.all()
}

// csrConditions is kube's validateConditions: Approved and Denied
// exclusive and True, Failed True, each type once. kube 1.37 has the
// exclusion as a declarative rule (+k8s:zeroOrOneOfMember), reported once
// for the list, after the others.
func (e *fieldErrs) csrConditions(o meta.Object) {
	seen := map[string]bool{}
	exclusive := func(p, typ string) {
		switch {
		case !e.release.AtLeast(35):
			e.invalid(p+".type", typ, "Approved and Denied conditions are mutually exclusive")
			return
		case !e.release.AtLeast(37): // reported at the list from 1.35
			e.invalid("status.conditions", typ, "Approved and Denied conditions are mutually exclusive")
			return
		}
		for _, d := range e.declared {
			if d.Field == "status.conditions" {
				return
			}
		}
		const approved, denied = `conditions[{"type": "Approved"}]`, `conditions[{"type": "Denied"}]`
		e.declared = append(e.declared, meta.FieldError{Type: meta.ErrorInvalid, Field: "status.conditions",
			Value: "{" + approved + ", " + denied + "}", Detail: "must specify at most one of: `" + approved + "`, `" + denied + "`"})
	}
	approved, denied := false, false
	for i, c := range meta.AsList(field(o, "status", "conditions")) {
		cond := asMap(c)
		p := fmt.Sprintf("status.conditions[%d]", i)
		typ, _ := cond["type"].(string)
		if typ == "" {
			e.required(p + ".type")
		}
		status, _ := cond["status"].(string)
		switch typ {
		case "Approved":
			approved = true
			if denied {
				exclusive(p, typ)
			}
			if status != "True" {
				e.notSupported(p+".status", status, "True")
			}
		case "Denied":
			denied = true
			if approved {
				exclusive(p, typ)
			}
			if status != "True" {
				e.notSupported(p+".status", status, "True")
			}
		case "Failed":
			if status != "True" {
				e.notSupported(p+".status", status, "True")
			}
		default:
			e.enumOrNotSupported(p+".status", status, "False", "True", "Unknown")
		}
		if seen[typ] {
			e.duplicate(p+".type", typ)
		}
		seen[typ] = true
	}
}

// validateCSRUpdate: an update keeps the Approved and Denied conditions it
// had, and its conditions valid (as kube 1.33: validateCSRUpdateAt).
func validateCSRUpdate(o, old meta.Object) meta.FieldErrors {
	return validateCSRUpdateAt("", o, old)
}

// validateCSRUpdateAt is validateCSRUpdate at release r.
func validateCSRUpdateAt(r apiserver.Release, o, old meta.Object) meta.FieldErrors {
	var e fieldErrs
	count := func(x meta.Object, typ string) int {
		n := 0
		for _, c := range meta.AsList(field(x, "status", "conditions")) {
			if asMap(c)["type"] == typ {
				n++
			}
		}
		return n
	}
	for _, typ := range []string{"Approved", "Denied"} {
		if count(o, typ) < count(old, typ) {
			e.forbidden("status.conditions", fmt.Sprintf("updates may not remove a condition of type %q", typ))
		}
	}
	conds := fieldErrs{release: r}
	conds.csrConditions(o)
	return append(append(conds.list, e.list...), conds.declared...)
}

// enumOrNotSupported is enum for a value that must be set.
func (e *fieldErrs) enumOrNotSupported(path, v string, supported ...string) {
	if v == "" {
		e.required(path)
		return
	}
	e.enum(path, v, supported...)
}
