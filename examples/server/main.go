// Command server runs a kapi API server on loopback with common built-in
// kinds and writes a kubeconfig for kubectl:
//
//	go run -C examples ./server
//	kubectl --kubeconfig examples/kapi.kubeconfig get ns
//
// It serves HTTPS with a certificate it generates (kept with its CAs and
// ServiceAccount signing key in -cert-dir, .kapi beside the kubeconfig,
// and reused when it starts again), authenticates client certificates,
// static tokens and ServiceAccount tokens, and authorizes
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
	"github.com/kapi-dev/kapi/codec/protobuf/builtinproto"
	"github.com/kapi-dev/kapi/controllers"
	"github.com/kapi-dev/kapi/examples/server/kapiserver"
	"github.com/kapi-dev/kapi/store"
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
	flag.StringVar(&opts.TLSCertFile, "tls-cert-file", "", "serving certificate (PEM); default: apiserver.crt in -cert-dir, signed by a generated CA")
	flag.StringVar(&opts.TLSPrivateKeyFile, "tls-private-key-file", "", "key of -tls-cert-file (PEM)")
	flag.StringVar(&opts.ClientCAFile, "client-ca-file", "", "CA certificates (PEM) whose client certificates authenticate: Common Name the user, Organizations the groups")
	flag.StringVar(&opts.TokenAuthFile, "token-auth-file", "", `static bearer tokens, one CSV line each: token,user,uid,"group1,group2"`)
	flag.StringVar(&opts.AuthorizationMode, "authorization-mode", "RBAC", "comma-separated authorizers, in order: AlwaysAllow, AlwaysDeny, RBAC")
	flag.BoolVar(&opts.AnonymousAuth, "anonymous-auth", true, "serve requests without credentials as system:anonymous (group system:unauthenticated) instead of 401")
	flag.StringVar(&opts.ServiceAccountIssuer, "service-account-issuer", "https://kubernetes.default.svc.cluster.local", "issuer (iss) of ServiceAccount tokens")
	flag.Var((*files)(&opts.ServiceAccountKeyFiles), "service-account-key-file", "PEM public keys (or certificates, or private keys) that verify ServiceAccount tokens; repeatable")
	flag.StringVar(&opts.ServiceAccountSigningKeyFile, "service-account-signing-key-file", "", "PEM private key (RSA or ECDSA) that signs ServiceAccount tokens; default: sa.key in -cert-dir")
	flag.StringVar(&opts.CertDir, "cert-dir", "", "directory of the generated CAs, serving certificate and ServiceAccount signing key, written on the first start and reused on the next, so that kubeconfigs and tokens survive a restart (default: .kapi beside -kubeconfig)")
	etcdServers := flag.String("etcd-servers", "", "comma-separated etcd URLs to keep objects in (default: in memory)")
	etcdPrefix := flag.String("etcd-prefix", etcd.DefaultPrefix, "the prefix of every key in etcd")
	apf := flag.Bool("enable-priority-and-fairness", true, "enable API Priority and Fairness, as kube-apiserver")
	maxInflight := flag.Int("max-requests-inflight", kapiserver.DefaultMaxRequestsInFlight, "with -max-mutating-requests-inflight, the server's concurrency limit that API Priority and Fairness shares among priority levels")
	maxMutating := flag.Int("max-mutating-requests-inflight", kapiserver.DefaultMaxMutatingRequestsInFlight, "see -max-requests-inflight")
	v1beta3 := flag.Bool("flowcontrol-v1beta3", false, "also serve flowcontrol.apiserver.k8s.io/v1beta3 (kube 1.33 serves v1 only)")
	services := kapiserver.ServiceURLs{}
	flag.Var(services, "webhook-service", "namespace/name[:port]=URL: where a webhook's service reference is reached (repeatable); "+
		"other services resolve to https://<name>.<namespace>.svc:<port>")
	controllerList := flag.String("controllers", "*", "controllers to run in-process, as kube-controller-manager's --controllers: '*' runs all (namespace, garbagecollector, serviceaccount, root-ca-cert-publisher, pvc-protection, pv-protection, and service-repair: kube-apiserver's node port repair), 'foo' runs foo, '-foo' does not")
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
	serving := kapiserver.Serving{Addr: ln.Addr().String(), FlowControlV1beta3: *v1beta3, Services: services}
	if *apf {
		serving.FlowControl = &flowcontrol.Options{MaxRequestsInFlight: *maxInflight, MaxMutatingRequestsInFlight: *maxMutating, Context: ctx}
	}
	st, closeStore := openEtcd(ctx, *etcdServers, *etcdPrefix)
	defer closeStore()
	var server *apiserver.Server
	var url string
	var rootCA []byte
	if *insecure {
		cfg := kapiserver.ConfigFor(release)
		if st != nil {
			cfg.Store = st
		}
		if err := serving.Apply(&cfg); err != nil {
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
		if opts.CertDir == "" {
			opts.CertDir = kapiserver.DefaultCertDir(*kubeconfig)
		}
		opts.Store = st // nil: in memory
		sec, err := kapiserver.NewSecure(ctx, opts)
		if err != nil {
			log.Fatal(err)
		}
		if err := serving.Apply(&sec.Config); err != nil {
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

// openEtcd opens the etcd at servers (comma-separated), when given, to keep
// the objects in; it returns nil (in memory) without servers, and what
// closes the store. The store reports etcd's health: the server lists it
// as kube's etcd and etcd-readiness checks. An etcd that does not answer
// within etcd.OpenTimeout ends the command with an error naming it.
func openEtcd(ctx context.Context, servers, prefix string) (store.Store, func()) {
	if servers == "" {
		return nil, func() {}
	}
	st, err := etcd.Open(ctx, strings.Split(servers, ","), etcd.Config{
		Prefix: prefix,
		Codec:  etcd.Kube{Protobuf: protobuf.New(builtinproto.Resolver())},
	})
	if err != nil {
		log.Fatal(err)
	}
	return st, func() { _ = st.Close() }
}

// releaseList names the releases -emulated-version takes.
func releaseList() string {
	var names []string
	for _, r := range apiserver.Releases() {
		names = append(names, string(r))
	}
	return strings.Join(names, ", ")
}
