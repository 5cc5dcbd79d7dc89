package envtest

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/authz"
	"github.com/kapi-dev/kapi/apiserver/builtin"
	"github.com/kapi-dev/kapi/kapitest"
)

// The kube-apiserver flags a suite gives envtest
// (ControlPlane.GetAPIServer().Configure(), or the deprecated
// APIServer.Args) are read over envtest's own defaults and each one is
// treated in one of four ways:
//
//   - honoured: kapi has the feature and the flag sets it
//     (--emulated-version, --authorization-mode, --service-cluster-ip-range,
//     --service-node-port-range, --min-request-timeout, the
//     ValidatingAdmissionPolicy plugin, --runtime-config for the group
//     versions kapi serves);
//   - accepted: the flag asks for what kapi does anyway (a feature gate at
//     its default in the release served, an admission plugin kapi always applies, a
//     plugin disabled that kapi does not have), or only says how the
//     binary runs (ports, certificates, etcd, logging), which has no
//     meaning in-process;
//   - warned about (on standard error, as Start returns): the flag only
//     produces output beside the API (audit logs, profiling) or names a
//     plugin kube-apiserver runs by default that kapi lacks with or without
//     the flag; the API's answers are the same as without it, so the suite
//     runs, and the warning says what is missing;
//   - refused: the flag changes what the API answers in a way kapi cannot
//     (an admission plugin off by default, a feature gate away from its
//     default, an authorizer kapi does not have, a group version kapi does
//     not serve); Start fails with an error naming the flag rather than
//     run the suite against a server that silently differs.

// envtestAPIServerDefaults are the flags envtest passes kube-apiserver
// that matter to what the API answers; Configure().Append adds to them,
// Set replaces them, as envtest's.
var envtestAPIServerDefaults = map[string][]string{
	"service-cluster-ip-range":  {"10.0.0.0/24"},
	"allow-privileged":          {"true"},
	"disable-admission-plugins": {"ServiceAccount"},
	"authorization-mode":        {"RBAC"},
}

// warningOutput is where Start writes its warnings.
var warningOutput io.Writer = os.Stderr

// serverFlags is what the flags make of the server.
type serverFlags struct {
	release   apiserver.Release // the release the server answers as
	opts      []kapitest.Option
	configure []func(*apiserver.Config)
	builtin   builtin.Options
	warnings  []string
}

// apiServerFlags reads the flags of s (nil: envtest's defaults alone) for
// a server answering as release unless --emulated-version names another.
func apiServerFlags(s *APIServer, release apiserver.Release) (*serverFlags, error) {
	args := EmptyArguments()
	var legacy []string
	if s != nil {
		args = s.Configure()
		legacy = s.Args //nolint:staticcheck // read as envtest reads it
	}
	flags, order := map[string][]string{}, []string(nil)
	add := func(key string, vals ...string) {
		if _, ok := flags[key]; !ok {
			order = append(order, key)
		}
		flags[key] = append(flags[key], vals...)
	}
	for _, a := range args.AsStrings(envtestAPIServerDefaults) {
		key, val, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		add(key, val)
	}
	// The deprecated Args are appended last; a flag Configure left at
	// envtest's default loses the default, as envtest's SliceToArguments.
	for _, a := range legacy {
		if !strings.HasPrefix(a, "--") {
			continue
		}
		key, val, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if got := args.Get(key).Get([]string{"\x00"}); len(got) == 1 && got[0] == "\x00" {
			delete(flags, key)
		}
		add(key, val)
	}
	enabled := list(flags["enable-admission-plugins"])
	if both := slices.DeleteFunc(list(flags["disable-admission-plugins"]), func(p string) bool {
		return !slices.Contains(enabled, p)
	}); len(both) > 0 {
		return nil, fmt.Errorf("envtest: kube-apiserver flags --enable-admission-plugins and --disable-admission-plugins both name %s",
			strings.Join(both, ", "))
	}
	f := &serverFlags{release: release}
	if vals, ok := flags["emulated-version"]; ok {
		r, err := emulatedVersion(last(vals))
		if err != nil {
			return nil, fmt.Errorf("envtest: kube-apiserver flag --emulated-version: %w", err)
		}
		f.release = r
	}
	for _, key := range order {
		vals, ok := flags[key]
		if !ok {
			continue
		}
		if err := f.apply(key, vals); err != nil {
			return nil, fmt.Errorf("envtest: kube-apiserver flag --%s: %w", key, err)
		}
	}
	if len(f.configure) > 0 {
		f.opts = append(f.opts, kapitest.WithAPIServerConfig(func(c *apiserver.Config) {
			for _, fn := range f.configure {
				fn(c)
			}
		}))
	}
	f.opts = append(f.opts, kapitest.WithBuiltinOptions(f.builtin), kapitest.WithRelease(f.release))
	return f, nil
}

// list splits a flag's values as pflag's string slices do: repeated
// flags and commas both separate items.
func list(vals []string) []string {
	var out []string
	for _, v := range vals {
		for _, item := range strings.Split(v, ",") {
			if item = strings.TrimSpace(item); item != "" {
				out = append(out, item)
			}
		}
	}
	return out
}

// last is a single-valued flag's value: the last one given wins.
func last(vals []string) string { return vals[len(vals)-1] }

func (f *serverFlags) warn(format string, args ...any) {
	f.warnings = append(f.warnings, fmt.Sprintf(format, args...))
}

// apply turns one flag into the server's configuration, a warning or an
// error.
func (f *serverFlags) apply(key string, vals []string) error {
	switch {
	case key == "emulated-version":
		// Read first: the other flags are taken as that release takes them.
	case key == "authorization-mode":
		modes := list(vals)
		for _, m := range modes {
			if m != authz.ModeAlwaysAllow && m != authz.ModeAlwaysDeny && m != authz.ModeRBAC {
				return fmt.Errorf("kapi has no %s authorizer (it has AlwaysAllow, AlwaysDeny and RBAC)", m)
			}
		}
		f.opts = append(f.opts, kapitest.WithAuthorizationMode(strings.Join(modes, ",")))
	case key == "service-cluster-ip-range":
		f.builtin.ServiceClusterIPRange = last(vals)
		if _, err := builtin.PostStartHooks(builtin.Options{ServiceClusterIPRange: last(vals)}); err != nil {
			return err
		}
	case key == "service-node-port-range":
		f.builtin.ServiceNodePortRange = last(vals)
		if _, err := builtin.PostStartHooks(builtin.Options{ServiceNodePortRange: last(vals)}); err != nil {
			return err
		}
	case key == "min-request-timeout":
		n, err := strconv.Atoi(last(vals))
		if err != nil || n <= 0 {
			return fmt.Errorf("%q is not a number of seconds", last(vals))
		}
		f.configure = append(f.configure, func(c *apiserver.Config) { c.MinRequestTimeout = time.Duration(n) * time.Second })
	case key == "allow-privileged":
		if last(vals) != "" && last(vals) != "true" {
			return fmt.Errorf("kapi admits privileged containers and cannot refuse them")
		}
	case key == "anonymous-auth":
		if last(vals) != "" && last(vals) != "true" {
			return fmt.Errorf("kapi serves requests without credentials as system:anonymous and cannot refuse them")
		}
	case key == "enable-admission-plugins" || key == "admission-control":
		return f.enablePlugins(list(vals))
	case key == "disable-admission-plugins":
		return f.disablePlugins(list(vals))
	case key == "feature-gates":
		return f.featureGates(list(vals))
	case key == "runtime-config":
		return f.runtimeConfig(list(vals))
	case strings.HasPrefix(key, "audit-"):
		f.warn("--%s is not applied: kapi writes no audit log and calls no audit webhook (the API answers as without it)", key)
	case key == "profiling" || key == "contention-profiling" || key == "enable-priority-and-fairness" ||
		key == "encryption-provider-config" || key == "event-ttl":
		f.warn("--%s is not applied: kapi has no such setting (the API answers as without it)", key)
	case processFlag(key):
		// How the binary runs: nothing to do in-process.
	default:
		return refusedFlag(key)
	}
	return nil
}

// processFlag says whether a flag only concerns kube-apiserver as a
// process (its listeners, certificates, etcd, logs, limits on its own
// resources), which has no meaning for a server inside the test.
func processFlag(key string) bool {
	switch key {
	case "advertise-address", "bind-address", "secure-port", "insecure-port", "insecure-bind-address", "cert-dir",
		"client-ca-file", "external-hostname", "apiserver-count", "endpoint-reconciler-type", "v", "vmodule",
		"logging-format", "max-requests-inflight", "max-mutating-requests-inflight", "request-timeout",
		"delete-collection-workers", "watch-cache", "watch-cache-sizes", "default-watch-cache-size",
		"livez-grace-period", "shutdown-delay-duration", "shutdown-send-retry-after", "shutdown-watch-termination-grace-period",
		"goaway-chance", "http2-max-streams-per-connection", "enable-aggregator-routing", "enable-logs-handler",
		"storage-backend", "storage-media-type", "permit-port-sharing", "permit-address-sharing",
		"strict-transport-security-directives", "cors-allowed-origins", "kubernetes-service-node-port":
		return true
	}
	for _, prefix := range []string{"etcd-", "tls-", "service-account-", "kubelet-", "proxy-client-", "requestheader-", "log-", "logging-"} {
		if strings.HasPrefix(key, prefix) {
			return true
		}
	}
	return false
}

// refusedFlag is the error of a flag kapi does not honour.
func refusedFlag(key string) error {
	switch {
	case strings.HasPrefix(key, "authorization-"):
		return fmt.Errorf("kapi's authorizers (AlwaysAllow, AlwaysDeny, RBAC) take no configuration")
	case strings.HasPrefix(key, "oidc-") || strings.HasPrefix(key, "authentication-") || key == "token-auth-file":
		return fmt.Errorf("kapi authenticates the users AddUser provisions and ServiceAccount tokens, and nothing else")
	case key == "admission-control-config-file":
		return fmt.Errorf("kapi's admission plugins take no configuration")
	}
	return fmt.Errorf("kapi does not know what it would change, and does not apply it")
}

// Admission plugins of kube-apiserver 1.33, by what kapi does with them.
var (
	// alwaysAdmitted are applied by kapi's built-in kinds on every write:
	// they can be named, not disabled.
	alwaysAdmitted = []string{"NamespaceLifecycle", "TaintNodesByCondition", "Priority", "DefaultTolerationSeconds",
		"StorageObjectInUseProtection"}
	// webhookPlugins call the admission webhooks envtest installs.
	webhookPlugins = []string{"MutatingAdmissionWebhook", "ValidatingAdmissionWebhook"}
	// missingDefaults run in kube-apiserver by default and not in kapi.
	missingDefaults = []string{"LimitRanger", "ServiceAccount", "DefaultStorageClass", "PersistentVolumeClaimResize",
		"ResourceQuota", "RuntimeClass", "CertificateApproval", "CertificateSigning", "ClusterTrustBundleAttest",
		"CertificateSubjectRestriction", "DefaultIngressClass", "PodSecurity",
		// Inactive in 1.33 unless their (alpha) feature gates are on.
		"PodTopologyLabels", "MutatingAdmissionPolicy"}
	// offByDefault are kube-apiserver's plugins that run only when named.
	offByDefault = []string{"AlwaysAdmit", "AlwaysDeny", "AlwaysPullImages", "DenyServiceExternalIPs", "EventRateLimit",
		"ExtendedResourceToleration", "ImagePolicyWebhook", "LimitPodHardAntiAffinityTopology",
		"NamespaceAutoProvision", "NamespaceExists", "NodeRestriction", "OwnerReferencesPermissionEnforcement",
		"PodNodeSelector", "PodTolerationRestriction"}
)

const vap = "ValidatingAdmissionPolicy"

func (f *serverFlags) enablePlugins(names []string) error {
	for _, p := range names {
		switch {
		case p == vap:
			f.configure = append(f.configure, func(c *apiserver.Config) { c.ValidatingAdmissionPolicy = true })
		case slices.Contains(alwaysAdmitted, p), slices.Contains(webhookPlugins, p):
		case slices.Contains(missingDefaults, p):
			f.warn("admission plugin %s, which kube-apiserver runs by default, is not in kapi: writes are admitted as without it", p)
		case slices.Contains(offByDefault, p):
			return fmt.Errorf("kapi does not have the admission plugin %s", p)
		default:
			return fmt.Errorf("unknown admission plugin %q", p)
		}
	}
	return nil
}

func (f *serverFlags) disablePlugins(names []string) error {
	for _, p := range names {
		switch {
		case p == vap:
			f.configure = append(f.configure, func(c *apiserver.Config) { c.ValidatingAdmissionPolicy = false })
		case slices.Contains(alwaysAdmitted, p):
			return fmt.Errorf("kapi always applies the admission plugin %s and cannot turn it off", p)
		case slices.Contains(webhookPlugins, p):
			return fmt.Errorf("kapi calls every admission webhook installed and cannot turn %s off", p)
		case slices.Contains(missingDefaults, p), slices.Contains(offByDefault, p):
			// Not in kapi: off already.
		default:
			return fmt.Errorf("unknown admission plugin %q", p)
		}
	}
	return nil
}

// loggingGates are component-base's feature gates of the process's own
// logs and metrics: any value is accepted.
var loggingGates = []string{"LoggingAlphaOptions", "LoggingBetaOptions", "ContextualLogging", "ComponentSLIs"}

// featureGates accepts gates set to what kapi does (the served release's
// kube-apiserver defaults) and refuses any other value, and names that
// release does not know.
func (f *serverFlags) featureGates(pairs []string) error {
	for _, pair := range pairs {
		name, val, ok := strings.Cut(pair, "=")
		on, err := strconv.ParseBool(strings.TrimSpace(val))
		if !ok || err != nil {
			return fmt.Errorf("%q is not Name=true|false", pair)
		}
		name = strings.TrimSpace(name)
		if slices.Contains(loggingGates, name) {
			continue
		}
		if name == "AllAlpha" || name == "AllBeta" {
			if on {
				return fmt.Errorf("kapi serves kube-apiserver %s's default features and cannot turn %s on", f.release, name)
			}
			continue
		}
		def, known := kubeFeatureGates[string(f.release)][name]
		switch {
		case !known:
			return fmt.Errorf("unrecognized feature gate %s", name)
		case on != def:
			return fmt.Errorf("kapi serves as kube-apiserver %s with %s=%t and cannot set %s=%t", f.release, name, def, name, on)
		}
	}
	return nil
}

// runtimeConfig turns group versions (and resources) off or on.
func (f *serverFlags) runtimeConfig(pairs []string) error {
	served := builtin.ResourcesFor(f.release)
	for _, pair := range pairs {
		key, val, ok := strings.Cut(pair, "=")
		if !ok {
			val = "true"
		}
		on, err := strconv.ParseBool(val)
		if err != nil {
			return fmt.Errorf("%q: %q is not true or false", pair, val)
		}
		switch key {
		case "api/all", "api/ga", "api/beta", "api/alpha":
			if !on {
				return fmt.Errorf("%s=false: kapi serves kube-apiserver %s's default group versions and cannot turn them all off", key, f.release)
			}
			if key != "api/ga" {
				f.warn("--runtime-config=%s=true: kapi serves only the group versions kube-apiserver %s serves by default; a request for an alpha or beta version off by default gets 404", key, f.release)
			}
			continue
		case "api/legacy", "v1", "api/v1":
			if !on {
				return fmt.Errorf("%s=false: kapi always serves the core group", key)
			}
			continue
		}
		parts := strings.Split(key, "/")
		var group, version, resource string
		switch len(parts) {
		case 2:
			group, version = parts[0], parts[1]
		case 3:
			group, version, resource = parts[0], parts[1], parts[2]
		default:
			return fmt.Errorf("%q is not group/version or group/version/resource", key)
		}
		if group == "api" {
			group = ""
		}
		matches := func(r apiserver.Resource) bool {
			return r.Group == group && r.Version == version && (resource == "" || r.Plural == resource)
		}
		if on {
			if !slices.ContainsFunc(served, matches) {
				if group == "flowcontrol.apiserver.k8s.io" && version == "v1beta3" && resource == "" {
					f.configure = append(f.configure, func(c *apiserver.Config) {
						c.Resources = builtin.WithFlowControlV1beta3(c.Resources)
					})
					continue
				}
				return fmt.Errorf("%s=true: kapi does not serve %s", key, key)
			}
			continue
		}
		if !slices.ContainsFunc(served, matches) {
			continue // off already
		}
		f.configure = append(f.configure, func(c *apiserver.Config) {
			c.Resources = slices.DeleteFunc(slices.Clone(c.Resources), matches)
		})
	}
	return nil
}
