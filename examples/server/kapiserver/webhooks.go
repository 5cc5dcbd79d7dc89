package kapiserver

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/kapi-dev/kapi/apiserver/webhook"
)

// ServiceURLs maps webhook services to the URLs they are reached at, by
// "namespace/name" (any port) or "namespace/name:port": the example
// server runs no pods, so a webhook configuration's clientConfig.service
// is resolved through this map, and otherwise as cluster DNS would name
// it (https://<name>.<namespace>.svc:<port>).
type ServiceURLs map[string]string

// Set adds one "namespace/name[:port]=URL" (the -webhook-service flag).
func (m ServiceURLs) Set(v string) error {
	svc, target, ok := strings.Cut(v, "=")
	if !ok || !strings.Contains(svc, "/") {
		return fmt.Errorf("want namespace/name[:port]=URL, got %q", v)
	}
	if _, err := url.Parse(target); err != nil {
		return err
	}
	m[svc] = target
	return nil
}

func (m ServiceURLs) String() string {
	var parts []string
	for k, v := range m {
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, ",")
}

// Resolver resolves services through the map, then as cluster DNS.
func (m ServiceURLs) Resolver() webhook.ServiceResolver {
	return webhook.ServiceResolverFunc(func(namespace, name string, port int32) (*url.URL, error) {
		for _, k := range []string{fmt.Sprintf("%s/%s:%d", namespace, name, port), namespace + "/" + name} {
			if target, ok := m[k]; ok {
				return url.Parse(target)
			}
		}
		return webhook.DefaultServiceResolver.ResolveEndpoint(namespace, name, port)
	})
}
