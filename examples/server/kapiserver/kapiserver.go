// Package kapiserver builds the example server: a kapi API server with the
// common built-in kinds, and the kubeconfig kubectl needs to reach it. Tests
// in this module start it in-process.
package kapiserver

import (
	"context"
	"fmt"
	"net"
	"os"
	"strconv"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
	"github.com/kapi-dev/kapi/apiserver/flowcontrol"
	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/codec/protobuf"
	"github.com/kapi-dev/kapi/codec/protobuf/builtinproto"
)

// New returns the example server's handler.
func New() (*apiserver.Server, error) { return apiserver.New(Config()) }

// Config is the example server's configuration without security (plain
// HTTP, everyone an anonymous superuser: the -insecure mode): the built-in
// kinds (RBAC's and API Priority and Fairness's FlowSchemas and
// PriorityLevelConfigurations among them) on the default in-memory store,
// with the default/kubernetes Service kube-apiserver creates at start,
// served in JSON, YAML and protobuf (with the library's message
// descriptors of the built-in kinds, builtinproto). Flow control itself is
// off (FlowControl nil): the command turns it on. Tests adjust it (a store
// they control, a short bookmark interval) before passing it to
// apiserver.New. NewSecure builds the secure server from it.
func Config() apiserver.Config { return ConfigFor(apiserver.DefaultRelease) }

// ConfigFor is Config answering as kube-apiserver release r (the
// command's -emulated-version): r's built-in kinds, schemas and /version.
func ConfigFor(r apiserver.Release) apiserver.Config {
	hooks, err := builtin.PostStartHooks(builtin.Options{})
	if err != nil {
		panic(err) // the default options always parse
	}
	return apiserver.Config{
		Release:                   r.OrDefault(),
		Resources:                 builtin.ResourcesFor(r),
		ValidatingAdmissionPolicy: true,
		Webhooks:                  &apiserver.WebhookOptions{},
		OpenAPIComponents:         builtin.OpenAPIComponentsFor(r),
		Codecs:                    append(codec.Default(), protobuf.New(builtinproto.Resolver())),
		PostStartHooks:            hooks,
	}
}

// Advertise makes cfg's server bootstrap the Endpoints and EndpointSlice
// of default/kubernetes at addr (host:port, the address it serves on, as
// kube-apiserver's --advertise-address and secure port), and point the
// kubernetes Service's targetPort at that port.
func Advertise(cfg *apiserver.Config, addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(port)
	if err != nil {
		return err
	}
	hooks, err := builtin.PostStartHooks(builtin.Options{AdvertiseAddress: host, KubernetesServicePort: n})
	if err != nil {
		return err
	}
	cfg.PostStartHooks = hooks
	return nil
}

// ServeFlowControlV1beta3 adds flowcontrol.apiserver.k8s.io/v1beta3 to a
// configuration from Config: the version the seed documents, which kube
// 1.33 no longer serves (kube-apiserver's
// --runtime-config=flowcontrol.apiserver.k8s.io/v1beta3=true of older
// versions).
func ServeFlowControlV1beta3(cfg *apiserver.Config) {
	cfg.Resources = builtin.WithFlowControlV1beta3(cfg.Resources)
}

// The command's -max-requests-inflight and -max-mutating-requests-inflight
// defaults, kube-apiserver's.
const DefaultMaxRequestsInFlight, DefaultMaxMutatingRequestsInFlight = 400, 200

// DefaultFlowControl is API Priority and Fairness as the command runs it
// by default, until ctx ends.
func DefaultFlowControl(ctx context.Context) *flowcontrol.Options {
	return &flowcontrol.Options{MaxRequestsInFlight: DefaultMaxRequestsInFlight,
		MaxMutatingRequestsInFlight: DefaultMaxMutatingRequestsInFlight, Context: ctx}
}

// Serving is what the command's flags other than the security ones add
// to a configuration from Config or NewSecure: the address it serves on
// (Advertise; "" leaves kube's defaults), API Priority and Fairness (nil:
// off), flowcontrol v1beta3 (ServeFlowControlV1beta3) and where webhooks'
// services are.
type Serving struct {
	Addr               string
	FlowControl        *flowcontrol.Options
	FlowControlV1beta3 bool
	Services           ServiceURLs
}

// Apply configures cfg as the command serves it.
func (s Serving) Apply(cfg *apiserver.Config) error {
	if s.FlowControlV1beta3 {
		ServeFlowControlV1beta3(cfg)
	}
	cfg.FlowControl = s.FlowControl
	cfg.Webhooks.ServiceResolver = s.Services.Resolver()
	if s.Addr == "" {
		return nil
	}
	return Advertise(cfg, s.Addr)
}

// Kubeconfig returns a kubeconfig for a server at url (http://host:port):
// one cluster, one user without credentials, one current context.
func Kubeconfig(url string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: kapi
  cluster:
    server: %s
users:
- name: kapi
  user: {}
contexts:
- name: kapi
  context:
    cluster: kapi
    user: kapi
    namespace: default
current-context: kapi
`, url)
}

// WriteKubeconfig writes Kubeconfig(url) to path.
func WriteKubeconfig(path, url string) error {
	return os.WriteFile(path, []byte(Kubeconfig(url)), 0o600)
}
