package webhook

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"sigs.k8s.io/yaml"
)

// ServiceResolver turns a webhook's service reference into the URL it is
// reached at. kapi runs no pods and has no cluster network: an embedder
// maps services to wherever the webhook listens (a test's loopback
// server, say).
type ServiceResolver interface {
	ResolveEndpoint(namespace, name string, port int32) (*url.URL, error)
}

// ServiceResolverFunc adapts a function to a ServiceResolver.
type ServiceResolverFunc func(namespace, name string, port int32) (*url.URL, error)

// ResolveEndpoint calls f.
func (f ServiceResolverFunc) ResolveEndpoint(namespace, name string, port int32) (*url.URL, error) {
	return f(namespace, name, port)
}

// DefaultServiceResolver resolves a service as cluster DNS names it:
// https://<name>.<namespace>.svc:<port>.
var DefaultServiceResolver ServiceResolver = ServiceResolverFunc(func(namespace, name string, port int32) (*url.URL, error) {
	return &url.URL{Scheme: "https", Host: net.JoinHostPort(name+"."+namespace+".svc", strconv.Itoa(int(port)))}, nil
})

// ClientConfig is how a webhook is reached: a URL, or a service (its
// path appended), over TLS verified by CABundle (the system roots when
// empty).
type ClientConfig struct {
	URL      string
	Service  *ServiceReference
	CABundle []byte
}

// ServiceReference is clientConfig.service.
type ServiceReference struct {
	Namespace, Name, Path string
	Port                  int32
}

// ParseClientConfig reads a JSON-shaped clientConfig.
func ParseClientConfig(v any) ClientConfig {
	m, _ := v.(map[string]any)
	var c ClientConfig
	c.URL, _ = m["url"].(string)
	if ca, ok := m["caBundle"].(string); ok {
		if b, err := base64.StdEncoding.DecodeString(ca); err == nil {
			c.CABundle = b
		}
	}
	if s, ok := m["service"].(map[string]any); ok {
		ref := &ServiceReference{Port: 443}
		ref.Namespace, _ = s["namespace"].(string)
		ref.Name, _ = s["name"].(string)
		ref.Path, _ = s["path"].(string)
		switch p := s["port"].(type) {
		case int64:
			ref.Port = int32(p)
		case float64:
			ref.Port = int32(p)
		}
		c.Service = ref
	}
	return c
}

// Clients calls webhooks: one HTTP client per CA bundle, kept (so TLS
// sessions and connections are reused), requests bounded by their
// context.
type Clients struct {
	Resolver ServiceResolver
	// Transport, when set, is the base of every client (tests dial
	// through it); its TLS configuration is replaced by the webhook's.
	Transport *http.Transport

	mu      sync.Mutex
	clients map[string]*http.Client
}

func (c *Clients) client(ca []byte) (*http.Client, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cl, ok := c.clients[string(ca)]; ok {
		return cl, nil
	}
	var tr *http.Transport
	if c.Transport != nil {
		tr = c.Transport.Clone()
	} else {
		tr = http.DefaultTransport.(*http.Transport).Clone()
	}
	tr.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	if len(ca) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(ca) {
			return nil, fmt.Errorf("unable to load root certificates: unable to parse bytes as PEM block")
		}
		tr.TLSClientConfig.RootCAs = pool
	}
	tr.MaxIdleConnsPerHost = 64
	cl := &http.Client{Transport: tr}
	if c.clients == nil {
		c.clients = map[string]*http.Client{}
	}
	c.clients[string(ca)] = cl
	return cl, nil
}

// endpoint is where a client config points.
func (c *Clients) endpoint(cc ClientConfig) (*url.URL, error) {
	var u *url.URL
	if cc.Service != nil {
		r := c.Resolver
		if r == nil {
			r = DefaultServiceResolver
		}
		base, err := r.ResolveEndpoint(cc.Service.Namespace, cc.Service.Name, cc.Service.Port)
		if err != nil {
			return nil, err
		}
		u = &url.URL{Scheme: base.Scheme, Host: base.Host, Path: base.Path + "/" + cc.Service.Path}
	} else {
		var err error
		if u, err = url.Parse(cc.URL); err != nil {
			return nil, err
		}
	}
	// kube calls webhooks through client-go's REST client, which joins
	// the path cleanly: "https://h//validate/x/" is called at /validate/x.
	u.Path, u.RawPath = path.Join("/", u.Path), ""
	return u, nil
}

// CallError is a webhook that could not be called, or whose answer was
// unusable; Invalid tells the two apart in kube's wording ("failed to call
// webhook: ..." or "received invalid webhook response: ...").
type CallError struct {
	Err     error
	Invalid bool
}

func (e *CallError) Error() string {
	if e.Invalid {
		return "received invalid webhook response: " + e.Err.Error()
	}
	return "failed to call webhook: " + e.Err.Error()
}

// post sends body to the webhook and decodes its JSON answer into out,
// as client-go's REST client does for kube-apiserver: the timeout left
// on ctx is told to the webhook as ?timeout=Ns; a non-2xx answer that is
// no Status is worded by its code.
func (c *Clients) post(ctx context.Context, cc ClientConfig, body []byte, out any) error {
	u, err := c.endpoint(cc)
	if err != nil {
		return &CallError{Err: err}
	}
	cl, err := c.client(cc.CABundle)
	if err != nil {
		return &CallError{Err: err}
	}
	if deadline, ok := ctx.Deadline(); ok {
		if timeout := time.Until(deadline); timeout > 0 {
			if t := timeout.Truncate(time.Second); t != timeout {
				timeout = t + time.Second
			}
			q := u.Query()
			q.Set("timeout", timeout.String())
			u.RawQuery = q.Encode()
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return &CallError{Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, */*")
	resp, err := cl.Do(req)
	if err != nil {
		return &CallError{Err: err}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 3<<20))
	if err != nil {
		return &CallError{Err: err}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &CallError{Err: responseError(resp.StatusCode, raw)}
	}
	if err := decodeReview(raw, out); err != nil {
		return &CallError{Err: err}
	}
	return nil
}

// decodeReview decodes a review as kube's decoder does, with its errors
// for what is no object.
func decodeReview(raw []byte, out any) error {
	js, err := yaml.YAMLToJSON(raw)
	if err != nil {
		return fmt.Errorf("couldn't get version/kind; json parse error: %v", err)
	}
	var probe any
	if err := json.Unmarshal(js, &probe); err != nil {
		return fmt.Errorf("couldn't get version/kind; json parse error: %v", err)
	}
	if _, ok := probe.(map[string]any); !ok {
		return fmt.Errorf("couldn't get version/kind; json parse error: json: cannot unmarshal %s into Go value of type struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }", jsonKind(probe))
	}
	return json.Unmarshal(js, out)
}

func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "bool"
	case []any:
		return "array"
	case nil:
		return "null"
	}
	return "value"
}

// responseError words a non-2xx answer as client-go does when it carries
// no Status.
func responseError(code int, body []byte) error {
	var st struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &st) == nil && st.Kind == "Status" && st.Message != "" {
		return fmt.Errorf("%s", st.Message)
	}
	message := strings.TrimSpace(string(body))
	if message == "" {
		message = "unknown"
	}
	switch code {
	case http.StatusBadRequest:
		return fmt.Errorf("the server rejected our request for an unknown reason")
	case http.StatusUnauthorized:
		return fmt.Errorf("the server has asked for the client to provide credentials")
	case http.StatusForbidden:
		return fmt.Errorf("%s", message)
	case http.StatusNotFound:
		return fmt.Errorf("the server could not find the requested resource")
	case http.StatusMethodNotAllowed:
		return fmt.Errorf("the server does not allow this method on the requested resource")
	case http.StatusInternalServerError:
		return fmt.Errorf("an error on the server (%q) has prevented the request from succeeding", message)
	case http.StatusServiceUnavailable:
		return fmt.Errorf("the server is currently unable to handle the request")
	case http.StatusGatewayTimeout:
		return fmt.Errorf("the server was unable to return a response in the time allotted, but may still be processing the request")
	}
	return fmt.Errorf("the server responded with the status code %d but did not return more information", code)
}
