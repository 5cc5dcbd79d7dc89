package example_test

import (
	"context"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kapi-dev/kapi/kapitest"
	"github.com/kapi-dev/kapi/kapitest/internal/widget"
)

func TestWidgetSpecs(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Widget controller (kapitest per spec)")
}

// Every spec gets a server of its own (a millisecond to start), so specs
// share no state and can run in parallel (ginkgo -p).
var _ = Describe("Widget controller", func() {
	var (
		srv *kapitest.Server
		k8s client.Client
		ctx context.Context
	)

	BeforeEach(func() {
		ctx = context.Background()
		srv = kapitest.Start(GinkgoTB(), kapitest.WithCRDPaths("../testdata/crds"))
		startManager(GinkgoTB(), srv.Config)
		var err error
		k8s, err = client.New(srv.Config, client.Options{Scheme: newScheme()})
		Expect(err).NotTo(HaveOccurred())
	})

	It("reports a Widget ready once its ConfigMap exists", func() {
		w := &widget.Widget{ObjectMeta: metav1.ObjectMeta{Name: "green", Namespace: "default"}, Spec: widget.WidgetSpec{Size: 4}}
		Expect(k8s.Create(ctx, w)).To(Succeed())
		Eventually(func(g Gomega) {
			var got widget.Widget
			g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(w), &got)).To(Succeed())
			g.Expect(got.Status.Ready).To(BeTrue())
		}, time.Minute, 20*time.Millisecond).Should(Succeed())
	})

	It("retries when its status update conflicts", func() {
		srv.Faults.ConflictNextUpdate("widgets")
		w := &widget.Widget{ObjectMeta: metav1.ObjectMeta{Name: "busy", Namespace: "default"}, Spec: widget.WidgetSpec{Size: 1}}
		Expect(k8s.Create(ctx, w)).To(Succeed())
		Eventually(func(g Gomega) {
			var got widget.Widget
			g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(w), &got)).To(Succeed())
			g.Expect(got.Status.Ready).To(BeTrue())
		}, time.Minute, 20*time.Millisecond).Should(Succeed())
		conflicts := 0
		for _, r := range srv.Requests() {
			if r.Resource == "widgets" && r.Subresource == "status" && r.Code == 409 {
				conflicts++
			}
		}
		Expect(conflicts).To(Equal(1))
	})

	It("gets through a server that is briefly unavailable", func() {
		srv.Faults.Inject(kapitest.Fault{Verb: "create", Resource: "configmaps", Err: apierrors.NewServiceUnavailable("etcd is leaderless"), Times: 2})
		w := &widget.Widget{ObjectMeta: metav1.ObjectMeta{Name: "patient", Namespace: "default"}, Spec: widget.WidgetSpec{Size: 1}}
		Expect(k8s.Create(ctx, w)).To(Succeed())
		Eventually(func(g Gomega) {
			var cm corev1.ConfigMap
			g.Expect(k8s.Get(ctx, client.ObjectKey{Namespace: "default", Name: "widget-patient"}, &cm)).To(Succeed())
		}, time.Minute, 20*time.Millisecond).Should(Succeed())
	})
})
