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
	"syscall"

	"github.com/kapi-dev/kapi/examples/server/kapiserver"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on (plain HTTP)")
	kubeconfig := flag.String("kubeconfig", "kapi.kubeconfig", "kubeconfig file to write for kubectl")
	flag.Parse()

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
