package envtest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/webhook/conversion"
)

// pickServingPort picks the webhook server's port as envtest does when
// none is given (a port free now on LocalServingHost, "localhost" when
// empty, and the host resolved to its IP), before
// WebhookInstallOptions.PrepWithoutInstalling would: envtest's own choice
// also reserves the port for two minutes across processes, through a lock
// file in the user's cache directory whose descriptor stays open until
// the process ends, and walks every reservation to expire old ones. That
// is fine once per suite and not for an Environment per test, which kapi
// makes cheap enough to do.
func pickServingPort(o *WebhookInstallOptions) error {
	if o.LocalServingPort != 0 {
		return nil
	}
	host := o.LocalServingHost
	if host == "" {
		host = "localhost"
	}
	addr, err := net.ResolveTCPAddr("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return fmt.Errorf("envtest: webhook serving host: %w", err)
	}
	ln, err := net.ListenTCP("tcp", addr)
	if err != nil {
		return fmt.Errorf("envtest: unable to find a free port for serving webhooks: %w", err)
	}
	defer ln.Close()
	o.LocalServingHost, o.LocalServingPort = addr.IP.String(), ln.Addr().(*net.TCPAddr).Port
	return nil
}

// pointConversionWebhooks does to crds what envtest's CRD installation
// does once the webhook serving address and certificate are prepared:
// a CRD whose kind the scheme can convert (a Hub and its Convertible
// spokes; or every CRD with IgnoreSchemeConvertible) gets a conversion
// webhook at https://<host:port>/convert trusting the local serving CA,
// and any other loses the conversion webhook its manifest may name, so
// that a manifest generated for a cluster installs without a service
// behind it. CRDs that preserve unknown fields are left as they are.
// Nothing changes before the webhook options are prepared (no CA yet).
// It reports whether any CRD changed.
func pointConversionWebhooks(crds []*apiextensionsv1.CustomResourceDefinition, scheme *runtime.Scheme, o WebhookInstallOptions) (bool, error) {
	if len(o.LocalServingCAData) == 0 || len(crds) == 0 {
		return false, nil
	}
	convertible, err := convertibleKinds(crds, scheme)
	if err != nil {
		return false, err
	}
	host := o.LocalServingHostExternalName
	if host == "" {
		host = o.LocalServingHost
	}
	url := "https://" + net.JoinHostPort(host, strconv.Itoa(o.LocalServingPort)) + "/convert"
	changed := false
	for _, crd := range crds {
		if crd.Spec.PreserveUnknownFields {
			continue
		}
		gk := schema.GroupKind{Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind}
		if !o.IgnoreSchemeConvertible && !convertible[gk] {
			if crd.Spec.Conversion != nil {
				crd.Spec.Conversion, changed = nil, true
			}
			continue
		}
		if crd.Spec.Conversion == nil {
			crd.Spec.Conversion = &apiextensionsv1.CustomResourceConversion{}
		}
		if crd.Spec.Conversion.Webhook == nil {
			crd.Spec.Conversion.Webhook = &apiextensionsv1.WebhookConversion{}
		}
		crd.Spec.Conversion.Strategy = apiextensionsv1.WebhookConverter
		// controller-runtime's conversion handler answers both.
		crd.Spec.Conversion.Webhook.ConversionReviewVersions = []string{"v1", "v1beta1"}
		crd.Spec.Conversion.Webhook.ClientConfig = &apiextensionsv1.WebhookClientConfig{URL: &url, CABundle: o.LocalServingCAData}
		changed = true
	}
	return changed, nil
}

// convertibleKinds returns the kinds of crds whose Go types in scheme
// convert between versions through a hub (conversion.IsConvertible),
// looking only at the kinds of crds.
func convertibleKinds(crds []*apiextensionsv1.CustomResourceDefinition, scheme *runtime.Scheme) (map[schema.GroupKind]bool, error) {
	wanted := make(map[schema.GroupKind]bool, len(crds))
	for _, crd := range crds {
		wanted[schema.GroupKind{Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind}] = false
	}
	convertible := make(map[schema.GroupKind]bool, len(crds))
	for gvk := range scheme.AllKnownTypes() {
		// IsConvertible looks at every version of a kind: one asks once.
		if checked, ok := wanted[gvk.GroupKind()]; !ok || checked {
			continue
		}
		wanted[gvk.GroupKind()] = true
		obj, err := scheme.New(gvk)
		if err != nil {
			return nil, fmt.Errorf("envtest: %s: %w", gvk, err)
		}
		// As envtest: a kind partly implemented (say, a spoke without a
		// hub) is not convertible; the error only says why.
		if ok, err := conversion.IsConvertible(scheme, obj); ok && err == nil {
			convertible[gvk.GroupKind()] = true
		}
	}
	return convertible, nil
}

// webhookDialer makes the connections the server calls webhooks over and
// closes them when the Environment stops: the server keeps them open for
// reuse, as kube-apiserver does, and a webhook server that outlives the
// Environment would otherwise hold them (and two goroutines each) until
// they idle out.
type webhookDialer struct {
	dialer net.Dialer
	mu     sync.Mutex
	conns  map[*trackedConn]struct{}
	closed bool
}

// transport is the base transport of the server's webhook calls.
func (d *webhookDialer) transport() *http.Transport {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DialContext = d.dial
	return tr
}

func (d *webhookDialer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	conn, err := d.dialer.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		_ = conn.Close()
		return nil, net.ErrClosed
	}
	tc := &trackedConn{Conn: conn, d: d}
	if d.conns == nil {
		d.conns = map[*trackedConn]struct{}{}
	}
	d.conns[tc] = struct{}{}
	return tc, nil
}

// closeAll closes every connection and refuses new ones.
func (d *webhookDialer) closeAll() {
	d.mu.Lock()
	d.closed = true
	conns := d.conns
	d.conns = nil
	d.mu.Unlock()
	for c := range conns {
		_ = c.Conn.Close()
	}
}

type trackedConn struct {
	net.Conn
	d *webhookDialer
}

func (c *trackedConn) Close() error {
	c.d.mu.Lock()
	delete(c.d.conns, c)
	c.d.mu.Unlock()
	return c.Conn.Close()
}
