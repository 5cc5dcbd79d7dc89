package envtest_test

// A controller suite as kubebuilder scaffolds it for controller-runtime's
// envtest. It runs on kapi with one change: the envtest import line
// (TestTheSuiteDiffersFromEnvtestsOnlyInItsImport holds it to
// testdata/suite_test.go.envtest, the original).

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/kapi-dev/kapi/kapitest/envtest"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/kapi-dev/kapi/kapitest/internal/widget"
)

var (
	cfg       *rest.Config
	k8sClient client.Client
	testEnv   *envtest.Environment
	ctx       context.Context
	cancel    context.CancelFunc
)

func TestControllers(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Controller Suite")
}

var _ = BeforeSuite(func() {
	logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))
	ctx, cancel = context.WithCancel(context.TODO())

	By("bootstrapping test environment")
	testEnv = &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join("..", "testdata", "crds")},
		ErrorIfCRDPathMissing: true,
	}

	var err error
	cfg, err = testEnv.Start()
	Expect(err).NotTo(HaveOccurred())
	Expect(cfg).NotTo(BeNil())

	err = widget.AddToScheme(scheme.Scheme)
	Expect(err).NotTo(HaveOccurred())

	k8sClient, err = client.New(cfg, client.Options{Scheme: scheme.Scheme})
	Expect(err).NotTo(HaveOccurred())
	Expect(k8sClient).NotTo(BeNil())

	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:     scheme.Scheme,
		Metrics:    metricsserver.Options{BindAddress: "0"},
		Controller: config.Controller{SkipNameValidation: func() *bool { b := true; return &b }()},
	})
	Expect(err).NotTo(HaveOccurred())
	err = (&widget.Reconciler{Client: mgr.GetClient()}).SetupWithManager(mgr)
	Expect(err).NotTo(HaveOccurred())

	go func() {
		defer GinkgoRecover()
		err := mgr.Start(ctx)
		Expect(err).NotTo(HaveOccurred(), "failed to run manager")
	}()
})

var _ = AfterSuite(func() {
	By("tearing down the test environment")
	cancel()
	err := testEnv.Stop()
	Expect(err).NotTo(HaveOccurred())
})

var _ = Describe("Widget controller", func() {
	It("creates a ConfigMap for a Widget and reports it ready", func() {
		w := &widget.Widget{
			ObjectMeta: metav1.ObjectMeta{Name: "blue", Namespace: "default"},
			Spec:       widget.WidgetSpec{Size: 3, Color: "blue"},
		}
		Expect(k8sClient.Create(ctx, w)).To(Succeed())

		Eventually(func(g Gomega) {
			var cm corev1.ConfigMap
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: "default", Name: "widget-blue"}, &cm)).To(Succeed())
			g.Expect(cm.Data).To(HaveKeyWithValue("size", "3"))
			g.Expect(cm.OwnerReferences).To(HaveLen(1))
		}, time.Minute, 50*time.Millisecond).Should(Succeed())

		Eventually(func(g Gomega) {
			var got widget.Widget
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(w), &got)).To(Succeed())
			g.Expect(got.Status.Ready).To(BeTrue())
		}, time.Minute, 50*time.Millisecond).Should(Succeed())
	})

	It("refuses a Widget the CRD's schema refuses", func() {
		w := &widget.Widget{
			ObjectMeta: metav1.ObjectMeta{Name: "empty", Namespace: "default"},
			Spec:       widget.WidgetSpec{Size: -1},
		}
		err := k8sClient.Create(ctx, w)
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("spec.size"))
	})

	It("provisions users whose rights RBAC decides", func() {
		user, err := testEnv.AddUser(envtest.User{Name: "viewer", Groups: []string{"viewers"}}, nil)
		Expect(err).NotTo(HaveOccurred())
		viewer, err := client.New(user.Config(), client.Options{Scheme: scheme.Scheme})
		Expect(err).NotTo(HaveOccurred())
		var list corev1.ConfigMapList
		err = viewer.List(ctx, &list, client.InNamespace("default"))
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("forbidden"))
	})
})
