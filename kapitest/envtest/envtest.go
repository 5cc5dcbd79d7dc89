// Package envtest is a drop-in for controller-runtime's
// sigs.k8s.io/controller-runtime/pkg/envtest that runs a kapi server in the
// test's process instead of etcd and kube-apiserver binaries: no setup
// step, no download, a start in milliseconds. A suite switches by changing
// one import line:
//
//	import "github.com/kapi-dev/kapi/kapitest/envtest" // was sigs.k8s.io/controller-runtime/pkg/envtest
//
//	testEnv = &envtest.Environment{
//		CRDDirectoryPaths:     []string{filepath.Join("..", "config", "crd", "bases")},
//		ErrorIfCRDPathMissing: true,
//	}
//	cfg, err := testEnv.Start()
//	...
//	err = testEnv.Stop()
//
// Environment has the exported fields and methods of envtest's that a
// suite sets or calls, with the same meaning: CRDs are read from
// CRDDirectoryPaths, CRDs and CRDInstallOptions and installed before Start
// returns, each waited for until Established as envtest waits; Config is an
// administrator (system:masters) and AddUser provisions other users; the
// configuration reaches the server in-process (no socket, no TLS), and
// KubeConfig reaches it over loopback for kubectl or another process (a
// user's Kubectl runs kubectl through it).
// The server answers as the Kubernetes release of the binaries the suite
// names (DownloadBinaryAssetsVersion, or setup-envtest's directory in
// BinaryAssetsDirectory or KUBEBUILDER_ASSETS), or as --emulated-version
// says; nothing is downloaded or run, and the rest that only concerns
// binaries (ControlPlaneStartTimeout/StopTimeout, AttachControlPlaneOutput,
// etcd's flags) is accepted and ignored. The
// API server's flags (ControlPlane.GetAPIServer().Configure(), over
// envtest's defaults) are honoured where kapi has the feature
// (--authorization-mode, --service-cluster-ip-range, the
// ValidatingAdmissionPolicy plugin, --runtime-config...), and Start fails
// naming a flag that would make the API answer in a way kapi cannot (see
// flags.go for each flag). As with kube-apiserver, ValidatingAdmissionPolicies
// are enforced by default. UseExistingCluster (or USE_EXISTING_CLUSTER=true) hands the
// whole Environment to controller-runtime's envtest, which then behaves as
// it always has against that cluster.
//
// Webhooks are installed as envtest installs them, mostly by
// controller-runtime's own WebhookInstallOptions methods. Start picks the
// serving address (LocalServingHost, by default localhost resolved to its
// address, 127.0.0.1 on most machines, and a free LocalServingPort unless
// one is given), writes a serving certificate to a temporary
// LocalServingCertDir (tls.crt, tls.key; LocalServingCAData trusts it),
// reads the Mutating- and ValidatingWebhookConfigurations of Paths beside
// MutatingWebhooks and ValidatingWebhooks, rewrites each webhook's service
// into a URL on that address (LocalServingHostExternalName when set) with
// the CA as caBundle, and installs them after the CRDs, waiting up to
// MaxTime. A CRD whose kind the Scheme converts (or every CRD, with
// IgnoreSchemeConvertible) gets a conversion webhook at
// https://host:port/convert; the others lose the one their manifest may
// name. The server calls these webhooks over TLS as kube-apiserver does, so
// a Manager's webhook server started on those options (as kubebuilder's
// webhook_suite_test.go does) defaults and validates every write. Stop
// removes the certificate directory and closes the server's connections to
// webhook servers.
//
// For what kapi adds beyond envtest (fault injection, a test clock,
// request recording, one server per test in a millisecond), use
// Environment.Server or the kapitest package directly.
package envtest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	crenvtest "sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/kapitest"
)

// Types shared with controller-runtime's envtest, so that values built for
// one are values of the other.
type (
	// CRDInstallOptions are the options for installing CRDs.
	CRDInstallOptions = crenvtest.CRDInstallOptions
	// WebhookInstallOptions are the options for installing admission
	// webhooks (see the package documentation).
	WebhookInstallOptions = crenvtest.WebhookInstallOptions
	// User is a user to provision with AddUser.
	User = crenvtest.User
	// APIServer is envtest's API server process settings: its flags are
	// read (see the package documentation), the rest is ignored.
	APIServer = crenvtest.APIServer
	// Etcd is envtest's etcd process settings: accepted, ignored.
	Etcd = crenvtest.Etcd
	// Arguments are a process's flags.
	Arguments = crenvtest.Arguments
	// Arg is one flag's values.
	Arg = crenvtest.Arg
	// ListenAddr, SecureServing and Authn are envtest's process settings:
	// accepted, ignored.
	ListenAddr    = crenvtest.ListenAddr
	SecureServing = crenvtest.SecureServing
	Authn         = crenvtest.Authn
)

// Functions of controller-runtime's envtest that work against any server,
// kapi's included.
var (
	// InstallCRDs installs CRDs through config and waits for them.
	InstallCRDs = crenvtest.InstallCRDs
	// UninstallCRDs removes CRDs through config.
	UninstallCRDs = crenvtest.UninstallCRDs
	// CreateCRDs creates CRDs through config.
	CreateCRDs = crenvtest.CreateCRDs
	// WaitForCRDs waits until CRDs are established and served.
	WaitForCRDs = crenvtest.WaitForCRDs
	// ReadCRDFiles reads the CRDs of options.Paths into options.CRDs.
	ReadCRDFiles = crenvtest.ReadCRDFiles
	// WaitForWebhooks waits until the webhook configurations of options
	// can be read back.
	WaitForWebhooks = crenvtest.WaitForWebhooks
	// EmptyArguments returns flags with nothing set.
	EmptyArguments = crenvtest.EmptyArguments
	// DefaultKubeAPIServerFlags are envtest's kube-apiserver flags.
	//
	// Deprecated: as in envtest, use ControlPlane.GetAPIServer().Configure().
	DefaultKubeAPIServerFlags = crenvtest.DefaultKubeAPIServerFlags //nolint:staticcheck
)

// Environment mirrors controller-runtime's envtest.Environment over a kapi
// server. See the package documentation.
type Environment struct {
	// ControlPlane provisions users (AddUser); the API server's flags
	// are read, its other process settings ignored.
	ControlPlane ControlPlane

	// Scheme is used to read typed objects; nil means client-go's.
	Scheme *runtime.Scheme

	// Config is set by Start: an administrator's configuration, in-process.
	// With UseExistingCluster, a Config set before Start is used.
	Config *rest.Config

	// KubeConfig is set by Start: a kubeconfig reaching the server over
	// loopback (HTTPS) as the administrator, for kubectl.
	KubeConfig []byte

	// CRDInstallOptions are the options for installing CRDs (Paths and
	// CRDs add to CRDDirectoryPaths and CRDs).
	CRDInstallOptions CRDInstallOptions

	// WebhookInstallOptions are the webhooks to install and where their
	// server listens; Start fills in the address and certificate it
	// prepared, for the suite's webhook server.
	WebhookInstallOptions WebhookInstallOptions

	// ErrorIfCRDPathMissing makes Start fail when a path of
	// CRDDirectoryPaths does not exist; otherwise missing paths are
	// skipped, as envtest does.
	ErrorIfCRDPathMissing bool

	// CRDs are CRDs to install; after Start, every CRD installed.
	CRDs []*apiextensionsv1.CustomResourceDefinition

	// CRDDirectoryPaths are files or directories of CRDs to install.
	CRDDirectoryPaths []string

	// DownloadBinaryAssets, DownloadBinaryAssetsVersion,
	// DownloadBinaryAssetsIndexURL and BinaryAssetsDirectory download and
	// run nothing; the release DownloadBinaryAssetsVersion or the assets
	// directory's name (setup-envtest's "1.37.0-linux-amd64") names is the
	// release the server answers as (see release.go).
	DownloadBinaryAssets         bool
	DownloadBinaryAssetsVersion  string
	DownloadBinaryAssetsIndexURL string
	BinaryAssetsDirectory        string

	// UseExistingCluster runs controller-runtime's envtest against an
	// existing cluster instead (nil: the USE_EXISTING_CLUSTER environment
	// variable decides).
	UseExistingCluster *bool

	// ControlPlaneStartTimeout, ControlPlaneStopTimeout and
	// AttachControlPlaneOutput are accepted and ignored.
	ControlPlaneStartTimeout time.Duration
	ControlPlaneStopTimeout  time.Duration
	AttachControlPlaneOutput bool

	// Server is the kapi server Start started (nil with
	// UseExistingCluster): its Faults, Clock and Requests are there for
	// the suite.
	Server *kapitest.Server

	existing      *crenvtest.Environment
	webhookDialer *webhookDialer // the server's connections to webhooks
}

// ControlPlane stands for envtest's control plane: it provisions users
// (AddUser) and answers envtest's deprecated accessors (APIURL,
// RESTClientConfig, KubeCtl).
type ControlPlane struct {
	// APIServer's flags (Configure(), and the deprecated Args) set up
	// the server as the package documentation says; the rest of APIServer
	// and Etcd are accepted and ignored.
	APIServer *APIServer
	Etcd      *Etcd
	// KubectlPath is the kubectl binary KubeCtl and a user's Kubectl run
	// (empty: found as envtest finds it).
	KubectlPath string

	server *kapitest.Server
	dir    string // temporary files (users' kubeconfigs), removed by Stop
}

// GetAPIServer returns the API server settings (created if nil), whose
// flags Start reads.
func (c *ControlPlane) GetAPIServer() *APIServer {
	if c.APIServer == nil {
		c.APIServer = &APIServer{}
	}
	return c.APIServer
}

// AddUser provisions user (name and groups) and returns its credentials:
// a bearer token the server knows, in a copy of baseConfig (nil: a new
// one) that reaches the server in-process. What the user may do is up to
// RBAC, as in envtest.
func (c *ControlPlane) AddUser(user User, baseConfig *rest.Config) (*AuthenticatedUser, error) {
	if c.server == nil {
		return nil, errors.New("envtest: AddUser before Start")
	}
	cfg := c.server.ConfigFor(user.Name, user.Groups...)
	if baseConfig != nil {
		base := rest.CopyConfig(baseConfig)
		base.Host, base.Transport, base.BearerToken = cfg.Host, cfg.Transport, cfg.BearerToken
		base.TLSClientConfig = rest.TLSClientConfig{}
		cfg = base
	}
	return &AuthenticatedUser{cfg: cfg, server: c.server, plane: c}, nil
}

// APIURL returns the address of the server's loopback listener (HTTPS),
// started on first use.
//
// Deprecated: as in envtest, use AddUser and the user's Config.
func (c *ControlPlane) APIURL() *url.URL {
	if c.server == nil {
		return nil
	}
	u, _ := url.Parse(c.server.URL())
	return u
}

// RESTClientConfig returns the administrator's configuration (in-process).
//
// Deprecated: as in envtest, use AddUser and the user's Config.
func (c *ControlPlane) RESTClientConfig() (*rest.Config, error) {
	if c.server == nil {
		return nil, errors.New("envtest: RESTClientConfig before Start")
	}
	return c.server.AdminConfig(), nil
}

// KubeCtl returns a kubectl acting as the administrator.
//
// Deprecated: as in envtest, use AddUser and the user's Kubectl.
func (c *ControlPlane) KubeCtl() *KubeCtl {
	if c.server == nil {
		return nil
	}
	return &KubeCtl{Path: c.KubectlPath, Opts: []string{"--kubeconfig=" + c.server.Kubeconfig()}}
}

// AuthenticatedUser is a provisioned user.
type AuthenticatedUser struct {
	cfg     *rest.Config
	server  *kapitest.Server
	plane   *ControlPlane
	kubectl *KubeCtl
}

// Config returns the user's configuration (in-process).
func (u *AuthenticatedUser) Config() *rest.Config { return rest.CopyConfig(u.cfg) }

// KubeConfig returns a kubeconfig that reaches the server over loopback
// (HTTPS) as the user.
func (u *AuthenticatedUser) KubeConfig() ([]byte, error) {
	return u.server.KubeconfigFor(u.cfg.BearerToken)
}

// Kubectl returns a kubectl acting as the user, through a kubeconfig file
// (KubeConfig's) that Stop removes.
func (u *AuthenticatedUser) Kubectl() (*KubeCtl, error) {
	if u.kubectl != nil {
		return u.kubectl, nil
	}
	kc, err := u.KubeConfig()
	if err != nil {
		return nil, err
	}
	path, err := u.plane.writeFile("*.kubecfg", kc)
	if err != nil {
		return nil, fmt.Errorf("envtest: kubeconfig: %w", err)
	}
	u.kubectl = &KubeCtl{Path: u.plane.KubectlPath, Opts: []string{"--kubeconfig=" + path}}
	return u.kubectl, nil
}

// writeFile writes data to a new file in the control plane's temporary
// directory (created on first use, removed by Stop) and returns its path.
func (c *ControlPlane) writeFile(pattern string, data []byte) (string, error) {
	if c.dir == "" {
		dir, err := os.MkdirTemp("", "kapitest-envtest-")
		if err != nil {
			return "", err
		}
		c.dir = dir
	}
	f, err := os.CreateTemp(c.dir, pattern)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return "", err
	}
	return f.Name(), nil
}

// KubeCtl runs the kubectl binary, as envtest's KubeCtl.
type KubeCtl struct {
	// Path is the kubectl binary; empty means $TEST_ASSET_KUBECTL, else
	// kubectl in $KUBEBUILDER_ASSETS, else kubectl on PATH.
	Path string
	// Opts are flags passed before every command's own arguments.
	Opts []string
}

// Run runs kubectl with Opts and args, and returns what it wrote.
func (k *KubeCtl) Run(args ...string) (stdout, stderr io.Reader, err error) {
	if k.Path == "" {
		k.Path = kubectlPath()
	}
	var out, errOut bytes.Buffer
	cmd := exec.Command(k.Path, append(slices.Clone(k.Opts), args...)...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return &out, &errOut, err
}

// kubectlPath finds kubectl where envtest looks for it.
func kubectlPath() string {
	if p := os.Getenv("TEST_ASSET_KUBECTL"); p != "" {
		return p
	}
	if dir := os.Getenv("KUBEBUILDER_ASSETS"); dir != "" {
		if p := filepath.Join(dir, "kubectl"); fileExists(p) {
			return p
		}
	}
	if p, err := exec.LookPath("kubectl"); err == nil {
		return p
	}
	return "kubectl"
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// AddUser provisions a user on the control plane; see ControlPlane.AddUser.
func (te *Environment) AddUser(user User, baseConfig *rest.Config) (*AuthenticatedUser, error) {
	return te.ControlPlane.AddUser(user, baseConfig)
}

func (te *Environment) useExistingCluster() bool {
	if te.UseExistingCluster != nil {
		return *te.UseExistingCluster
	}
	return strings.ToLower(os.Getenv("USE_EXISTING_CLUSTER")) == "true"
}

// Start starts the server, installs the CRDs (waiting until each is
// Established) and then the webhooks, and returns the administrator's
// configuration.
func (te *Environment) Start() (*rest.Config, error) {
	if te.useExistingCluster() {
		return te.startExisting()
	}
	if te.Scheme == nil {
		te.Scheme = scheme.Scheme
	}
	release, warning := releaseOfBinaries(te.binariesRelease())
	flags, err := apiServerFlags(te.ControlPlane.APIServer, release)
	if err != nil {
		return nil, err
	}
	if warning != "" {
		flags.warnings = append([]string{warning}, flags.warnings...)
	}
	for _, w := range flags.warnings {
		fmt.Fprintf(warningOutput, "kapitest/envtest: warning: %s\n", w)
	}
	// As envtest: the webhook server's address and certificate (and the
	// webhook configurations read from files) first, so that the CRDs'
	// conversion webhooks can point at them too.
	if err := pickServingPort(&te.WebhookInstallOptions); err != nil {
		return nil, err
	}
	if err := te.WebhookInstallOptions.PrepWithoutInstalling(); err != nil {
		return nil, fmt.Errorf("envtest: %w", err)
	}
	opts := te.CRDInstallOptions
	if opts.Scheme == nil {
		opts.Scheme = te.Scheme
	}
	opts.Paths = mergePaths(opts.Paths, te.CRDDirectoryPaths)
	opts.CRDs = mergeCRDs(opts.CRDs, te.CRDs)
	opts.ErrorIfPathMissing = te.ErrorIfCRDPathMissing

	var paths []string
	for _, p := range opts.Paths {
		if _, err := os.Stat(p); err != nil {
			if opts.ErrorIfPathMissing {
				return nil, fmt.Errorf("envtest: CRD path %s: %w", p, err)
			}
			continue
		}
		paths = append(paths, p)
	}
	typed := opts.CRDs
	fromFiles := CRDInstallOptions{Paths: paths}
	if len(paths) > 0 {
		if err := ReadCRDFiles(&fromFiles); err != nil {
			return nil, fmt.Errorf("envtest: %w", err)
		}
	}
	// The CRDs installed, as envtest reports them.
	te.CRDs = mergeCRDs(fromFiles.CRDs, mergeCRDs(te.CRDInstallOptions.CRDs, te.CRDs))
	rewritten, err := pointConversionWebhooks(te.CRDs, opts.Scheme, te.WebhookInstallOptions)
	if err != nil {
		return nil, err
	}
	var install []kapitest.Option
	if rewritten {
		// Installed as changed; otherwise from their files, which kapitest
		// decodes once per process.
		install = append(install, kapitest.WithCRDs(anys(te.CRDs)...))
	} else {
		install = append(install, kapitest.WithCRDPaths(paths...), kapitest.WithCRDs(anys(typed)...))
	}
	te.webhookDialer = &webhookDialer{}
	// The server calls admission and conversion webhooks, as the
	// kube-apiserver envtest runs does, over connections Stop closes.
	calls := kapitest.WithWebhooks(apiserver.WebhookOptions{Transport: te.webhookDialer.transport()})
	install = append(install, flags.opts...)
	srv, err := kapitest.New(append(install, kapitest.WithScheme(te.Scheme), calls)...)
	if err != nil {
		return nil, fmt.Errorf("envtest: %w", err)
	}
	te.Server, te.ControlPlane.server = srv, srv
	te.Config = srv.Config

	// Waited for as envtest waits (kapi serves a CRD within the request
	// that creates it, so this returns at once).
	if err := WaitForCRDs(te.Config, te.CRDs, opts); err != nil {
		return nil, fmt.Errorf("envtest: %w", err)
	}
	// envtest's own installation: create (or update) the configurations,
	// then wait until they can be read back.
	if err := te.WebhookInstallOptions.Install(te.Config); err != nil {
		return nil, fmt.Errorf("envtest: unable to install webhooks: %w", err)
	}
	if te.KubeConfig, err = srv.KubeconfigFor(te.Config.BearerToken); err != nil {
		return nil, fmt.Errorf("envtest: %w", err)
	}
	return te.Config, nil
}

func anys(crds []*apiextensionsv1.CustomResourceDefinition) []any {
	out := make([]any, len(crds))
	for i, c := range crds {
		out[i] = c
	}
	return out
}

// startExisting hands the environment to controller-runtime's envtest.
func (te *Environment) startExisting() (*rest.Config, error) {
	yes := true
	te.existing = &crenvtest.Environment{
		Scheme: te.Scheme, Config: te.Config, KubeConfig: te.KubeConfig, CRDInstallOptions: te.CRDInstallOptions,
		WebhookInstallOptions: te.WebhookInstallOptions, ErrorIfCRDPathMissing: te.ErrorIfCRDPathMissing,
		CRDs: te.CRDs, CRDDirectoryPaths: te.CRDDirectoryPaths, UseExistingCluster: &yes,
	}
	cfg, err := te.existing.Start()
	te.Config, te.KubeConfig, te.CRDs = te.existing.Config, te.existing.KubeConfig, te.existing.CRDs
	te.WebhookInstallOptions = te.existing.WebhookInstallOptions
	return cfg, err
}

// Stop stops the server and removes the webhook serving certificate
// directory Start generated (with CRDInstallOptions.CleanUpAfterUse
// against an existing cluster, envtest's Stop also removes the CRDs).
func (te *Environment) Stop() error {
	if te.existing != nil {
		return te.existing.Stop()
	}
	if te.Server != nil {
		te.Server.Close()
	}
	if te.webhookDialer != nil {
		te.webhookDialer.closeAll()
	}
	errs := []error{te.WebhookInstallOptions.Cleanup()}
	if te.ControlPlane.dir != "" {
		dir := te.ControlPlane.dir
		te.ControlPlane.dir = ""
		errs = append(errs, os.RemoveAll(dir))
	}
	return errors.Join(errs...)
}

func mergePaths(a, b []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range append(append([]string{}, a...), b...) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

func mergeCRDs(a, b []*apiextensionsv1.CustomResourceDefinition) []*apiextensionsv1.CustomResourceDefinition {
	seen := map[string]bool{}
	var out []*apiextensionsv1.CustomResourceDefinition
	for _, c := range append(append([]*apiextensionsv1.CustomResourceDefinition{}, a...), b...) {
		if !seen[c.Name] {
			seen[c.Name] = true
			out = append(out, c)
		}
	}
	return out
}
