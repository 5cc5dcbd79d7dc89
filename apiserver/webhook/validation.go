package webhook

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// ValidateURL checks a webhook's clientConfig.url as kube's
// ValidateWebhookURL does (https only when forceHTTPS), with its messages.
func ValidateURL(path, raw string, forceHTTPS bool) meta.FieldErrors {
	const form = "; desired format: https://host[/path]"
	var errs meta.FieldErrors
	u, err := url.Parse(raw)
	if err != nil {
		return meta.FieldErrors{{Type: meta.ErrorRequired, Field: path, Detail: "url must be a valid URL: " + err.Error() + form}}
	}
	if forceHTTPS && u.Scheme != "https" {
		errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: path, Value: u.Scheme, Detail: "'https' is the only allowed URL scheme" + form})
	}
	if u.Host == "" {
		errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: path, Value: u.Host, Detail: "host must be specified" + form})
	}
	if u.User != nil {
		errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: path, Value: u.User.String(), Detail: "user information is not permitted in the URL"})
	}
	if u.Fragment != "" {
		errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: path, Value: u.Fragment, Detail: "fragments are not permitted in the URL"})
	}
	if u.RawQuery != "" {
		errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: path, Value: u.RawQuery, Detail: "query parameters are not permitted in the URL"})
	}
	return errs
}

// ValidateService checks a webhook's clientConfig.service (its port
// defaulted) as kube's ValidateWebhookService does, with its messages.
func ValidateService(path string, svc map[string]any) meta.FieldErrors {
	var errs meta.FieldErrors
	name, _ := svc["name"].(string)
	namespace, _ := svc["namespace"].(string)
	if name == "" {
		errs = append(errs, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".name", Detail: "service name is required"})
	}
	if namespace == "" {
		errs = append(errs, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".namespace", Detail: "service namespace is required"})
	}
	port := int64(443)
	if p, ok := meta.AsInt64(svc["port"]); ok {
		port = p
	}
	if port < 1 || port > 65535 {
		errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: path + ".port", Value: port,
			Detail: "port is not valid: must be between 1 and 65535, inclusive"})
	}
	p, ok := svc["path"].(string)
	if !ok || p == "/" || p == "" {
		return errs
	}
	invalid := func(detail string) {
		errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: path + ".path", Value: p, Detail: detail})
	}
	if p == "//" {
		invalid("segment[0] may not be empty")
		return errs
	}
	if !strings.HasPrefix(p, "/") {
		invalid("must start with a '/'")
	}
	check := strings.TrimSuffix(p[1:], "/")
	for i, step := range strings.Split(check, "/") {
		if step == "" {
			invalid(fmt.Sprintf("segment[%d] may not be empty", i))
			continue
		}
		for _, m := range schema.DNS1123Subdomain(step) {
			invalid(fmt.Sprintf("segment[%d]: %v", i, m))
		}
	}
	return errs
}
