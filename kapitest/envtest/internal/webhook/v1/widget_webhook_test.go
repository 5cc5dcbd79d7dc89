package v1

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kapi-dev/kapi/kapitest/internal/widget"
)

// warnings records the Warning headers the API server sends.
type warnings struct {
	mu   sync.Mutex
	seen []string
}

func (w *warnings) HandleWarningHeaderWithContext(_ context.Context, _ int, _ string, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seen = append(w.seen, text)
}

func (w *warnings) get() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.seen...)
}

// Every write below goes through the API server, which calls the webhook
// server the suite started, as the installed configurations tell it to.
var _ = Describe("Widget Webhook", func() {
	newWidget := func(name string, spec widget.WidgetSpec) *widget.Widget {
		return &widget.Widget{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}, Spec: spec}
	}

	Context("When installed from the manifests", func() {
		It("points each webhook at the local webhook server, trusting its certificate", func() {
			o := testEnv.WebhookInstallOptions
			Expect(o.LocalServingHost).To(Equal("127.0.0.1"))
			Expect(o.LocalServingPort).NotTo(BeZero())
			Expect(o.LocalServingCertDir).To(BeADirectory())
			Expect(o.LocalServingCAData).NotTo(BeEmpty())
			base := "https://" + net.JoinHostPort(o.LocalServingHost, strconv.Itoa(o.LocalServingPort)) + "/"

			var mutating admissionregistrationv1.MutatingWebhookConfiguration
			Expect(k8sClient.Get(ctx, client.ObjectKey{Name: "mutating-webhook-configuration"}, &mutating)).To(Succeed())
			Expect(mutating.Webhooks).To(HaveLen(1))
			Expect(mutating.Webhooks[0].ClientConfig.Service).To(BeNil())
			Expect(mutating.Webhooks[0].ClientConfig.URL).To(HaveValue(Equal(base + "/mutate-example-kapi-dev-v1-widget")))
			Expect(mutating.Webhooks[0].ClientConfig.CABundle).To(Equal(o.LocalServingCAData))

			var validating admissionregistrationv1.ValidatingWebhookConfiguration
			Expect(k8sClient.Get(ctx, client.ObjectKey{Name: "validating-webhook-configuration"}, &validating)).To(Succeed())
			Expect(validating.Webhooks).To(HaveLen(1))
			Expect(validating.Webhooks[0].ClientConfig.URL).To(HaveValue(Equal(base + "/validate-example-kapi-dev-v1-widget")))
			Expect(validating.Webhooks[0].ClientConfig.CABundle).To(Equal(o.LocalServingCAData))
		})
	})

	Context("When creating Widget under Defaulting Webhook", func() {
		It("Should give a Widget without a size the size 1", func() {
			w := newWidget("defaulted", widget.WidgetSpec{Color: "blue"})
			Expect(k8sClient.Create(ctx, w)).To(Succeed())
			Expect(w.Spec.Size).To(BeEquivalentTo(1), "the created object, as the API server answered it")

			var stored widget.Widget
			Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(w), &stored)).To(Succeed())
			Expect(stored.Spec.Size).To(BeEquivalentTo(1))
		})

		It("Should keep a size that is set", func() {
			w := newWidget("sized", widget.WidgetSpec{Size: 4, Color: "blue"})
			Expect(k8sClient.Create(ctx, w)).To(Succeed())
			Expect(w.Spec.Size).To(BeEquivalentTo(4))
		})
	})

	Context("When creating or updating Widget under Validating Webhook", func() {
		It("Should deny a Widget that is too large with the webhook's field error", func() {
			err := k8sClient.Create(ctx, newWidget("huge", widget.WidgetSpec{Size: MaxSize + 1, Color: "blue"}))
			Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
			Expect(err.Error()).To(Equal(`admission webhook "vwidget-v1.kb.io" denied the request: ` +
				fmt.Sprintf(`Widget.example.kapi.dev "huge" is invalid: spec.size: Invalid value: %d: must be at most 10`, MaxSize+1)))
			status := err.(apierrors.APIStatus).Status()
			Expect(status.Details).NotTo(BeNil())
			Expect(status.Details.Name).To(Equal("huge"))
			Expect(status.Details.Group).To(Equal("example.kapi.dev"))
			Expect(status.Details.Kind).To(Equal("Widget"))
			Expect(status.Details.Causes).To(ConsistOf(metav1.StatusCause{
				Type: metav1.CauseTypeFieldValueInvalid, Field: "spec.size",
				Message: fmt.Sprintf("Invalid value: %d: must be at most 10", MaxSize+1),
			}))
			Expect(apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKey{Namespace: "default", Name: "huge"}, &widget.Widget{}))).
				To(BeTrue(), "nothing was stored")
		})

		It("Should deny a red Widget with the webhook's message", func() {
			err := k8sClient.Create(ctx, newWidget("red", widget.WidgetSpec{Size: 1, Color: "red"}))
			Expect(apierrors.IsForbidden(err)).To(BeTrue(), "%v", err)
			Expect(err.Error()).To(Equal(`admission webhook "vwidget-v1.kb.io" denied the request: red widgets are not allowed`))
		})

		It("Should validate updates too", func() {
			w := newWidget("growing", widget.WidgetSpec{Size: 2, Color: "blue"})
			Expect(k8sClient.Create(ctx, w)).To(Succeed())
			w.Spec.Size = MaxSize + 1
			err := k8sClient.Update(ctx, w)
			Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)

			var stored widget.Widget
			Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(w), &stored)).To(Succeed())
			Expect(stored.Spec.Size).To(BeEquivalentTo(2))
		})

		It("Should pass the validator's warnings to the client", func() {
			seen := &warnings{}
			c := rest.CopyConfig(cfg)
			c.WarningHandlerWithContext = seen
			warned, err := client.New(c, client.Options{Scheme: scheme.Scheme})
			Expect(err).NotTo(HaveOccurred())
			Expect(warned.Create(ctx, newWidget("grey", widget.WidgetSpec{Size: 1, Color: "grey"}))).To(Succeed())
			Expect(seen.get()).To(Equal([]string{"grey widgets are hard to see"}))
		})
	})
})
