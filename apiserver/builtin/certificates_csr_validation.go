package builtin

import (
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"sort"
	"strings"

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

// validateCSR is the spec part of kube's CSR validation, then the
// conditions (validateCSRConditions).
func validateCSR(o meta.Object) meta.FieldErrors {
	var e fieldErrs
	spec := asMap(o["spec"])
	request := decodedBytes(spec["request"])
	if err := csrRequestError(request); err != nil {
		e.invalid("spec.request", goBytes(request), err.Error())
	}
	usages := asList(spec["usages"])
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
	return append(e.list, validateCSRConditions(o)...)
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

// goBytes renders a []byte as Go's %#v does.
func goBytes(b []byte) goValue {
	parts := make([]string, len(b))
	for i, c := range b {
		parts[i] = fmt.Sprintf("0x%x", c)
	}
	return goValue("[]byte{" + strings.Join(parts, ", ") + "}")
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
