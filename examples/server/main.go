// Command server runs a kapi API server on loopback with common built-in
// kinds and writes a kubeconfig for kubectl:
//
//	go run -C examples ./server
//	kubectl --kubeconfig examples/kapi.kubeconfig get ns
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/kapi-dev/kapi/examples/server/kapiserver"
)

// gcPercent is the server's GOGC when the environment sets none.
const gcPercent = 200

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on (plain HTTP)")
	kubeconfig := flag.String("kubeconfig", "kapi.kubeconfig", "kubeconfig file to write for kubectl")
	flag.Parse()

	// Every write allocates its decoded object, encoding and managed
	// fields; the collector's pace is most of what a busy server spends
	// besides them. Unless GOGC says otherwise, let the heap grow to three
	// times what is live between collections instead of two: 13-17% more
	// writes per second for about 20% more memory, still a quarter of what
	// kube-apiserver holds (docs/performance.md, perfcompare).
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}

	handler, err := kapiserver.New()
	if err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	if err := kapiserver.WriteKubeconfig(*kubeconfig, url); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("kapi serving on %s (kubeconfig: %s)\n", url, *kubeconfig)

	srv := &http.Server{Handler: handler}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		_ = srv.Shutdown(context.Background())
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
}
