package fieldmanager

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kapi-dev/kapi/meta"
)

// MaxManagerLength is the longest field manager name kube-apiserver
// accepts, in bytes (apimachinery's FieldManagerMaxLength).
const MaxManagerLength = 128

// ManagerFromUserAgent is the manager kube-apiserver records for a
// non-apply write without a fieldManager: the User-Agent up to its first
// '/', without non-printable characters, cut (at a character boundary) to
// MaxManagerLength bytes. "kubectl/v1.33.1 (linux/amd64) kubernetes/abc"
// gives "kubectl"; an empty User-Agent gives "", which Update records as
// "unknown".
func ManagerFromUserAgent(userAgent string) string {
	prefix, _, _ := strings.Cut(userAgent, "/")
	var b strings.Builder
	for _, r := range prefix {
		if !unicode.IsPrint(r) {
			continue
		}
		if b.Len()+utf8.RuneLen(r) > MaxManagerLength {
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ValidateManager checks a fieldManager query parameter as kube-apiserver
// does (apimachinery's ValidateFieldManager): at most MaxManagerLength
// bytes, printable characters only. It returns nil when name is valid;
// otherwise the errors, for field "fieldManager", that kube-apiserver
// answers with a 422 about its options kind ("PatchOptions.meta.k8s.io \"\"
// is invalid: fieldManager: Too long: may not be more than 128 bytes").
// An empty name is valid here; apply requires one ("fieldManager: Required
// value: is required for apply patch"), which is the caller's check.
func ValidateManager(name string) meta.FieldErrors {
	var errs meta.FieldErrors
	if len(name) > MaxManagerLength {
		errs = append(errs, meta.FieldError{
			Type: meta.ErrorTooLong, Field: "fieldManager",
			Detail: fmt.Sprintf("may not be more than %d bytes", MaxManagerLength),
		})
	}
	for i, r := range name {
		if !unicode.IsPrint(r) {
			errs = append(errs, meta.FieldError{
				Type: meta.ErrorInvalid, Field: "fieldManager", Value: name,
				Detail: fmt.Sprintf("invalid character %#U (at position %d)", r, i),
			})
		}
	}
	return errs
}
