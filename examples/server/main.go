// Command server runs a kapi API server on loopback with common built-in
// kinds and writes a kubeconfig for kubectl:
//
//	go run -C examples ./server
//	kubectl --kubeconfig examples/kapi.kubeconfig get ns
//
// It serves HTTPS with a certificate it generates, authenticates client
// certificates, static tokens and ServiceAccount tokens, and authorizes
// with RBAC, as kube-apiserver does; the kubeconfig holds the CA and an
// admin credential (a client certificate in system:masters). The security
// flags are kube-apiserver's; -insecure serves plain HTTP with no
// authentication at all. What a cluster does on its own runs in-process:
// kube-controller-manager's namespace, garbage-collector, serviceaccount
// and root-ca-cert-publisher controllers, and kube-apiserver's repair of
// Services' node ports (service-repair), chosen with -controllers as
// kube-controller-manager's --controllers.
//
// With -etcd-servers (kube-apiserver's flag) it keeps its objects in etcd,
// in kube-apiserver's layout and encodings, instead of in memory.
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/flowcontrol"
	"github.com/kapi-dev/kapi/codec/protobuf"
	"github.com/kapi-dev/kapi/controllers"
	"github.com/kapi-dev/kapi/examples/server/kapiserver"
	"github.com/kapi-dev/kapi/kapitest/kubeproto"
	"github.com/kapi-dev/kapi/store/etcd"
)

// gcPercent is the server's GOGC when the environment sets none.
const gcPercent = 200

// files is a repeatable file flag, also taking comma-separated lists.
type files []string

func (f *files) String() string { return strings.Join(*f, ",") }
func (f *files) Set(v string) error {
	*f = append(*f, strings.Split(v, ",")...)
	return nil
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	kubeconfig := flag.String("kubeconfig", "kapi.kubeconfig", "kubeconfig file to write for kubectl")
	insecure := flag.Bool("insecure", false, "serve plain HTTP without authentication or authorization: everyone is an anonymous superuser")
	var opts kapiserver.Options
	flag.StringVar(&opts.TLSCertFile, "tls-cert-file", "", "serving certificate (PEM); default: one generated at start, signed by a generated CA")
	flag.StringVar(&opts.TLSPrivateKeyFile, "tls-private-key-file", "", "key of -tls-cert-file (PEM)")
	flag.StringVar(&opts.ClientCAFile, "client-ca-file", "", "CA certificates (PEM) whose client certificates authenticate: Common Name the user, Organizations the groups")
	flag.StringVar(&opts.TokenAuthFile, "token-auth-file", "", `static bearer tokens, one CSV line each: token,user,uid,"group1,group2"`)
	flag.StringVar(&opts.AuthorizationMode, "authorization-mode", "RBAC", "comma-separated authorizers, in order: AlwaysAllow, AlwaysDeny, RBAC")
	flag.BoolVar(&opts.AnonymousAuth, "anonymous-auth", true, "serve requests without credentials as system:anonymous (group system:unauthenticated) instead of 401")
	flag.StringVar(&opts.ServiceAccountIssuer, "service-account-issuer", "https://kubernetes.default.svc.cluster.local", "issuer (iss) of ServiceAccount tokens")
	flag.Var((*files)(&opts.ServiceAccountKeyFiles), "service-account-key-file", "PEM public keys (or certificates, or private keys) that verify ServiceAccount tokens; repeatable")
	flag.StringVar(&opts.ServiceAccountSigningKeyFile, "service-account-signing-key-file", "", "PEM private key (RSA or ECDSA) that signs ServiceAccount tokens; default: one generated at start")
	etcdServers := flag.String("etcd-servers", "", "comma-separated etcd URLs to keep objects in (default: in memory)")
	etcdPrefix := flag.String("etcd-prefix", etcd.DefaultPrefix, "the prefix of every key in etcd")
	apf := flag.Bool("enable-priority-and-fairness", true, "enable API Priority and Fairness, as kube-apiserver")
	maxInflight := flag.Int("max-requests-inflight", 400, "with -max-mutating-requests-inflight, the server's concurrency limit that API Priority and Fairness shares among priority levels")
	maxMutating := flag.Int("max-mutating-requests-inflight", 200, "see -max-requests-inflight")
	v1beta3 := flag.Bool("flowcontrol-v1beta3", false, "also serve flowcontrol.apiserver.k8s.io/v1beta3 (kube 1.33 serves v1 only)")
	services := kapiserver.ServiceURLs{}
	flag.Var(services, "webhook-service", "namespace/name[:port]=URL: where a webhook's service reference is reached (repeatable); "+
		"other services resolve to https://<name>.<namespace>.svc:<port>")
	controllerList := flag.String("controllers", "*", "controllers to run in-process, as kube-controller-manager's --controllers: '*' runs all (namespace, garbagecollector, serviceaccount, root-ca-cert-publisher, and service-repair: kube-apiserver's node port repair), 'foo' runs foo, '-foo' does not")
	emulated := flag.String("emulated-version", string(apiserver.DefaultRelease), "the kube-apiserver release to answer as: "+releaseList()+
		" (its /version, discovery, schemas and behaviour), as kube-apiserver's --emulated-version")
	flag.Parse()
	release, err := apiserver.ParseRelease(*emulated)
	if err != nil {
		log.Fatalf("-emulated-version: %v", err)
	}
	opts.Release = release
	selected, err := controllers.ParseControllers(*controllerList)
	if err != nil {
		log.Fatalf("-controllers: %v", err)
	}

	// Every write allocates its decoded object, encoding and managed
	// fields; the collector's pace is most of what a busy server spends
	// besides them. Unless GOGC says otherwise, let the heap grow to three
	// times what is live between collections instead of two: 13-17% more
	// writes per second for about 20% more memory, still a quarter of what
	// kube-apiserver holds (docs/performance.md, perfcompare).
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	var flowControl *flowcontrol.Options
	if *apf {
		flowControl = &flowcontrol.Options{MaxRequestsInFlight: *maxInflight, MaxMutatingRequestsInFlight: *maxMutating, Context: ctx}
	}
	var server *apiserver.Server
	var url string
	var rootCA []byte
	if *insecure {
		cfg := kapiserver.ConfigFor(release)
		defer onEtcd(ctx, &cfg, *etcdServers, *etcdPrefix)()
		if *v1beta3 {
			kapiserver.ServeFlowControlV1beta3(&cfg)
		}
		cfg.FlowControl = flowControl
		cfg.Webhooks.ServiceResolver = services.Resolver()
		if err := kapiserver.Advertise(&cfg, ln.Addr().String()); err != nil {
			log.Fatal(err)
		}
		if server, err = apiserver.New(cfg); err != nil {
			log.Fatal(err)
		}
		url = "http://" + ln.Addr().String()
		err = kapiserver.WriteKubeconfig(*kubeconfig, url)
	} else {
		host, _, _ := net.SplitHostPort(ln.Addr().String())
		opts.Hosts = []string{host}
		sec, err := kapiserver.NewSecure(ctx, opts)
		if err != nil {
			log.Fatal(err)
		}
		defer onEtcd(ctx, &sec.Config, *etcdServers, *etcdPrefix)()
		if *v1beta3 {
			kapiserver.ServeFlowControlV1beta3(&sec.Config)
		}
		sec.Config.FlowControl = flowControl
		sec.Config.Webhooks.ServiceResolver = services.Resolver()
		if err := kapiserver.Advertise(&sec.Config, ln.Addr().String()); err != nil {
			log.Fatal(err)
		}
		if server, err = apiserver.New(sec.Config); err != nil {
			log.Fatal(err)
		}
		rootCA = sec.CAData
		ln = tls.NewListener(ln, sec.TLS)
		url = "https://" + ln.Addr().String()
		if err := sec.WriteKubeconfig(*kubeconfig, url); err != nil {
			log.Fatal(err)
		}
	}
	if err != nil {
		log.Fatal(err)
	}
	// The controllers start beside the server, as kube-controller-manager
	// beside kube-apiserver: /readyz does not wait for the garbage
	// collector's first read of every object.
	go func() {
		if _, err := controllers.Start(ctx, server, controllers.Options{Controllers: selected, RootCA: rootCA}); err != nil && ctx.Err() == nil {
			log.Fatal(err)
		}
	}()
	if *etcdServers != "" {
		// Other servers on the same etcd may define CRDs: serve them too.
		go server.FollowCRDs(ctx)
	}
	fmt.Printf("kapi serving on %s (kubeconfig: %s)\n", url, *kubeconfig)

	srv := &http.Server{Handler: server}
	go func() {
		<-ctx.Done()
		_ = srv.Shutdown(context.Background())
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
}

// onEtcd keeps cfg's objects in the etcd at servers (comma-separated), when
// given, and reports etcd's health as kube-apiserver does; it returns what
// closes the store.
func onEtcd(ctx context.Context, cfg *apiserver.Config, servers, prefix string) func() {
	if servers == "" {
		return func() {}
	}
	st, err := etcd.Open(ctx, strings.Split(servers, ","), etcd.Config{
		Prefix: prefix,
		Codec:  etcd.Kube{Protobuf: protobuf.New(kubeproto.Resolver())},
	})
	if err != nil {
		log.Fatal(err)
	}
	cfg.Store = st
	cfg.HealthChecks = append(cfg.HealthChecks,
		apiserver.HealthCheck{Name: "etcd", Check: st.Healthy},
		apiserver.HealthCheck{Name: "etcd-readiness", Check: st.Healthy, ReadyzOnly: true})
	return func() { _ = st.Close() }
}

// releaseList names the releases -emulated-version takes.
func releaseList() string {
	var names []string
	for _, r := range apiserver.Releases() {
		names = append(names, string(r))
	}
	return strings.Join(names, ", ")
}
