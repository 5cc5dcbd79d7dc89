package envtest_test

import (
	"testing"

	"github.com/kapi-dev/kapi/kapitest/envtest"
)

// BenchmarkEnvironmentStart is an Environment's Start and Stop with the
// Widget CRD: alone, and with the webhook manifests installed (the serving
// certificate is generated in both, as envtest does).
func BenchmarkEnvironmentStart(b *testing.B) {
	for _, bc := range []struct {
		name     string
		webhooks []string
	}{
		{name: "CRD"},
		{name: "CRD and webhooks", webhooks: []string{"testdata/webhook"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				env := &envtest.Environment{
					CRDDirectoryPaths:     []string{"../testdata/crds"},
					WebhookInstallOptions: envtest.WebhookInstallOptions{Paths: bc.webhooks},
				}
				if _, err := env.Start(); err != nil {
					b.Fatal(err)
				}
				if err := env.Stop(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
