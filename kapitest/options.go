package kapitest

import (
	"io/fs"
	"os"
	"slices"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/store"
)

// Option configures Start.
type Option func(*settings)

type settings struct {
	crds      []source
	objects   []source
	user      *user
	store     store.Store
	clock     *Clock
	scheme    *runtime.Scheme
	configure []func(*apiserver.Config)
	release   apiserver.Release
	// controllers, when not nil, runs the controllers it names
	// (kube-controller-manager's --controllers syntax; empty: all).
	controllers *[]string
}

// WithCRDs installs CustomResourceDefinitions given as objects: typed
// (*apiextensionsv1.CustomResourceDefinition), unstructured
// (*unstructured.Unstructured, map[string]any) or YAML/JSON ([]byte, one
// or more documents). Start returns once every one is Established.
func WithCRDs(crds ...any) Option {
	return func(s *settings) { s.crds = append(s.crds, objectsSource(crds)) }
}

// WithCRDPaths installs the CustomResourceDefinitions found in files and
// directories (every .yaml, .yml and .json file directly in it, as
// envtest reads CRDDirectoryPaths), each file holding one or more YAML or
// JSON documents; documents of other kinds are skipped. A path that does
// not exist fails Start.
func WithCRDPaths(paths ...string) Option {
	return func(s *settings) { s.crds = append(s.crds, pathsSource{fsys: osFS{}, paths: paths}) }
}

// WithCRDFS is WithCRDPaths over a file system, an embed.FS say: paths are
// files or directories in fsys ("." for its root).
//
//	//go:embed crds
//	var crds embed.FS
//	srv := kapitest.Start(t, kapitest.WithCRDFS(crds, "crds"))
func WithCRDFS(fsys fs.FS, paths ...string) Option {
	if len(paths) == 0 {
		paths = []string{"."}
	}
	return func(s *settings) { s.crds = append(s.crds, pathsSource{fsys: fsys, paths: paths}) }
}

// WithObjects creates objects once the CRDs are installed, in the order
// given, as the administrator: typed objects (a *corev1.ConfigMap, a custom
// resource's Go type registered in WithScheme's scheme), unstructured ones
// (*unstructured.Unstructured, map[string]any) or YAML/JSON ([]byte or
// string, one or more documents). A typed object whose TypeMeta is empty
// gets its kind from the scheme.
func WithObjects(objs ...any) Option {
	return func(s *settings) { s.objects = append(s.objects, objectsSource(objs)) }
}

// WithObjectPaths creates the objects of every YAML or JSON document in
// files and directories (as WithCRDPaths reads them), in order.
func WithObjectPaths(paths ...string) Option {
	return func(s *settings) { s.objects = append(s.objects, pathsSource{fsys: osFS{}, paths: paths, all: true}) }
}

// WithScheme tells WithObjects the kinds of typed objects whose TypeMeta
// is empty beyond client-go's built-in kinds (your API types).
func WithScheme(scheme *runtime.Scheme) Option {
	return func(s *settings) { s.scheme = scheme }
}

// AsUser makes Server.Config act as user name in groups (and
// system:authenticated). The server authorizes it with RBAC, as a real
// cluster: bind it to roles (with AdminConfig, or WithObjects) for what it
// may do. AdminConfig stays an administrator.
func AsUser(name string, groups ...string) Option {
	return func(s *settings) { s.user = &user{name: name, groups: groups} }
}

// WithStore keeps the server's objects in st instead of a new in-memory
// store: store/etcd's, or one a test shares between servers. Servers on
// one store serve the CRDs any of them installs, one watch event after it
// is written (apiserver.Server.FollowCRDs), as kube-apiservers over one
// etcd do.
func WithStore(st store.Store) Option {
	return func(s *settings) { s.store = st }
}

// WithClock makes the server read c (shared with other servers, or set up
// before Start) instead of a clock of its own.
func WithClock(c *Clock) Option {
	return func(s *settings) { s.clock = c }
}

// WithRelease makes the server answer as kube-apiserver release r
// (apiserver.Release137, ...): that release's built-in kinds, schemas,
// validation and /version, as kube-apiserver's --emulated-version. Without
// it the server answers as apiserver.DefaultRelease.
func WithRelease(r apiserver.Release) Option {
	return func(s *settings) { s.release = r }
}

// WithAPIServerConfig lets f adjust the kapi configuration before the
// server is built: admission plugins, more resource types, a shorter
// watch bookmark interval.
func WithAPIServerConfig(f func(*apiserver.Config)) Option {
	return func(s *settings) { s.configure = append(s.configure, f) }
}

// WithWebhooks has the server call the admission webhooks
// (Mutating/ValidatingWebhookConfiguration) and CRD conversion webhooks
// it stores, over TLS to their clientConfig.url, as kube-apiserver does;
// without it, they are stored and never called. A webhook named by a
// service reference is called at https://<name>.<namespace>.svc:<port>
// unless opts.ServiceResolver says otherwise. kapitest/envtest turns this
// on for WebhookInstallOptions.
func WithWebhooks(opts apiserver.WebhookOptions) Option {
	return WithAPIServerConfig(func(c *apiserver.Config) { c.Webhooks = &opts })
}

// WithControllers runs in the server what a cluster's
// kube-controller-manager does that tests notice (package
// github.com/kapi-dev/kapi/controllers): a deleted namespace has its
// contents deleted and then goes; objects whose owners are gone are
// garbage collected, with background, foreground and orphan propagation;
// every namespace gets its "default" ServiceAccount and its
// kube-root-ca.crt ConfigMap (the CA the loopback listener's certificate
// is signed with); leaked node ports are freed as kube-apiserver's repair
// frees them (service-repair). names chooses them in
// kube-controller-manager's --controllers syntax ("namespace",
// "garbagecollector", "serviceaccount", "root-ca-cert-publisher",
// "service-repair", "*", "-name"); none means all of them.
//
// As kube-controller-manager's, the namespace controller waits 5 s
// (controllers.DefaultNamespaceDeletionDelay) after a namespace's deletion
// before it deletes its content, on the server's Clock: a test can read
// the Terminating namespace and finalize it itself meanwhile, as against a
// cluster; Clock.Advance past the wait (or WaitIdle) starts the teardown at
// once, and a frozen Clock holds it until one of them.
//
// Without WithControllers no controller runs, as with envtest: a deleted
// namespace stays Terminating and dependents outlive their owners.
// Server.Controllers.WaitIdle waits until the controllers have done what
// the writes so far call for, instead of sleeping.
func WithControllers(names ...string) Option {
	list := slices.Clone(names) // nil when none: controllers.Options' "all"
	return func(s *settings) { s.controllers = &list }
}

// osFS reads paths of the operating system as they are given (relative to
// the working directory, or absolute).
type osFS struct{}

func (osFS) Open(name string) (fs.File, error) { return os.Open(name) }
func (osFS) ReadDir(name string) ([]fs.DirEntry, error) {
	return os.ReadDir(name)
}
func (osFS) ReadFile(name string) ([]byte, error) { return os.ReadFile(name) }
func (osFS) Stat(name string) (fs.FileInfo, error) {
	return os.Stat(name)
}
