package envtest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/conversion"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	"github.com/kapi-dev/kapi/kapitest/envtest"
)

// Gizmo's Go types as a kubebuilder project with two API versions has
// them: v1 is the hub, v2 converts to and from it (spec.color is
// spec.colour in v2).
type (
	gizmoV1 struct {
		metav1.TypeMeta   `json:",inline"`
		metav1.ObjectMeta `json:"metadata,omitempty"`
		Spec              struct {
			Color string `json:"color,omitempty"`
		} `json:"spec"`
	}
	gizmoV2 struct {
		metav1.TypeMeta   `json:",inline"`
		metav1.ObjectMeta `json:"metadata,omitempty"`
		Spec              struct {
			Colour string `json:"colour,omitempty"`
		} `json:"spec"`
	}
)

func (g *gizmoV1) DeepCopyObject() runtime.Object {
	out := *g
	g.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}

func (g *gizmoV2) DeepCopyObject() runtime.Object {
	out := *g
	g.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}

// Hub marks v1 as the hub.
func (*gizmoV1) Hub() {}

func (g *gizmoV2) ConvertTo(dst conversion.Hub) error {
	hub, ok := dst.(*gizmoV1)
	if !ok {
		return errors.New("not a v1 Gizmo")
	}
	hub.ObjectMeta, hub.Spec.Color = g.ObjectMeta, g.Spec.Colour
	return nil
}

func (g *gizmoV2) ConvertFrom(src conversion.Hub) error {
	hub, ok := src.(*gizmoV1)
	if !ok {
		return errors.New("not a v1 Gizmo")
	}
	g.ObjectMeta, g.Spec.Colour = hub.ObjectMeta, hub.Spec.Color
	return nil
}

func gizmoScheme(t *testing.T) *runtime.Scheme {
	s := runtime.NewScheme()
	require.NoError(t, clientgoscheme.AddToScheme(s))
	for v, obj := range map[string]runtime.Object{"v1": &gizmoV1{}, "v2": &gizmoV2{}} {
		gv := schema.GroupVersion{Group: "example.kapi.dev", Version: v}
		s.AddKnownTypeWithName(gv.WithKind("Gizmo"), obj)
		metav1.AddToGroupVersion(s, gv)
	}
	return s
}

// TestAKindTheSchemeConvertsIsConvertedByTheManagersWebhookServer: the
// CRD's conversion webhook points at the local serving address, and
// controller-runtime's conversion handler (registered by
// ctrl.NewWebhookManagedBy for a convertible type) converts what kapi
// stores at v1 into what a client reads at v2, and back.
func TestAKindTheSchemeConvertsIsConvertedByTheManagersWebhookServer(t *testing.T) {
	s := gizmoScheme(t)
	env := &envtest.Environment{Scheme: s, CRDs: []*apiextensionsv1.CustomResourceDefinition{gizmoCRD(t, false)}}
	startEnv(t, env)
	o := env.WebhookInstallOptions
	conv := env.CRDs[0].Spec.Conversion
	require.NotNil(t, conv, "a convertible kind gets a conversion webhook even without one in its manifest")
	assert.Equal(t, apiextensionsv1.WebhookConverter, conv.Strategy)
	assert.Equal(t, servedAt(o, o.LocalServingHost)+"convert", *conv.Webhook.ClientConfig.URL)

	mgr, err := ctrl.NewManager(env.Config, ctrl.Options{
		Scheme:        s,
		WebhookServer: webhook.NewServer(webhook.Options{Host: o.LocalServingHost, Port: o.LocalServingPort, CertDir: o.LocalServingCertDir}),
		Metrics:       metricsserver.Options{BindAddress: "0"},
		Controller:    config.Controller{SkipNameValidation: func() *bool { b := true; return &b }()},
	})
	require.NoError(t, err)
	require.NoError(t, ctrl.NewWebhookManagedBy(mgr, &gizmoV1{}).Complete())
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	require.Eventually(t, func() bool { return mgr.GetWebhookServer().StartedChecker()(nil) == nil }, time.Minute, 10*time.Millisecond)

	c, err := client.New(env.Config, client.Options{Scheme: s})
	require.NoError(t, err)
	v1 := &gizmoV1{ObjectMeta: metav1.ObjectMeta{Name: "g", Namespace: "default"}}
	v1.Spec.Color = "blue"
	require.NoError(t, c.Create(t.Context(), v1))

	v2 := &gizmoV2{}
	require.NoError(t, c.Get(t.Context(), client.ObjectKey{Namespace: "default", Name: "g"}, v2))
	assert.Equal(t, "blue", v2.Spec.Colour)

	v2.Spec.Colour = "green"
	require.NoError(t, c.Update(t.Context(), v2))
	require.NoError(t, c.Get(t.Context(), client.ObjectKey{Namespace: "default", Name: "g"}, v1))
	assert.Equal(t, "green", v1.Spec.Color, "written at v2, stored at v1 through the webhook")
}
