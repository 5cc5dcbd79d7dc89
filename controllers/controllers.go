package controllers

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/store"
)

// Controller names, as kube-controller-manager's --controllers names them.
const (
	Namespace           = "namespace"
	GarbageCollector    = "garbagecollector"
	ServiceAccount      = "serviceaccount"
	RootCACertPublisher = "root-ca-cert-publisher"
	// ServiceRepair is not kube-controller-manager's: it is
	// kube-apiserver's repair loop of Services (their node ports), which
	// kube runs inside the API server itself and kapi runs here with the
	// other background work (the passes of every kind whose strategy is
	// an apiserver.Repairer).
	ServiceRepair = "service-repair"
)

// Names are the controllers this package runs, all on by default, as in
// kube-controller-manager (and ServiceRepair, as in kube-apiserver).
var Names = []string{GarbageCollector, Namespace, RootCACertPublisher, ServiceAccount, ServiceRepair}

// Options choose and configure the controllers Start runs.
type Options struct {
	// Controllers selects the controllers in kube-controller-manager's
	// --controllers syntax: "*" enables every controller that is on by
	// default (all of Names), "foo" enables foo, "-foo" disables it. Nil
	// means {"*"}; an empty non-nil list runs none.
	Controllers []string
	// RootCA is the PEM bundle the root-ca-cert-publisher controller writes
	// into every namespace's kube-root-ca.crt ConfigMap (ca.crt): the CA a
	// client inside the cluster trusts the server's serving certificate
	// with. Empty publishes an empty bundle, as kube-controller-manager does
	// when its kubeconfig carries no CA.
	RootCA []byte
	// RepairInterval is the time between the end of one repair pass and
	// the start of the next (the ServiceRepair controller); zero means
	// kube-apiserver's 3 minutes (DefaultRepairInterval). Tests shorten
	// it; a port seen leaked is freed by the third pass in a row, so the
	// interval must stay well above the time a write takes.
	RepairInterval time.Duration
	// NamespaceDeletionDelay is how long the namespace controller waits
	// after it sees a namespace marked for deletion (or, marked, listed at
	// start; at most that long after its deletionTimestamp) before its
	// first pass over it, as kube-controller-manager's
	// waits (for other API servers and etcd members to see the deletion):
	// meanwhile the namespace stays Terminating with its content and its
	// "kubernetes" finalizer, so that a client may still read it and
	// finalize it itself (controller-runtime's tests do; so does kubectl
	// delete -k of manifests holding their own namespace). Zero means
	// kube's 5 s (DefaultNamespaceDeletionDelay); a negative value means
	// at once. WaitIdle does not wait it out: see there.
	NamespaceDeletionDelay time.Duration
	// Now is the clock NamespaceDeletionDelay is measured on; nil means
	// the real time. kapitest passes its test clock, whose Advance then
	// ends the wait.
	Now func() time.Time
}

// DefaultNamespaceDeletionDelay is kube-controller-manager's wait before
// it acts on a namespace marked for deletion (namespace_controller.go's
// namespaceDeletionGracePeriod).
const DefaultNamespaceDeletionDelay = 5 * time.Second

// aliases are kube-controller-manager 1.33's canonical names of the
// controllers, which it accepts besides the short names above.
var aliases = map[string]string{
	"namespace-controller":                     Namespace,
	"garbage-collector-controller":             GarbageCollector,
	"serviceaccount-controller":                ServiceAccount,
	"root-ca-certificate-publisher-controller": RootCACertPublisher,
}

// ParseControllers reads a --controllers flag value: comma-separated
// names, "*" and "-name", each name checked against the known controllers
// (short names or kube's canonical ones) as kube-controller-manager checks
// them.
func ParseControllers(flag string) ([]string, error) {
	var list []string
	for _, v := range strings.Split(flag, ",") {
		if v = strings.TrimSpace(v); v != "" {
			list = append(list, v)
		}
	}
	if _, err := selected(list); err != nil {
		return nil, err
	}
	return list, nil
}

// selected resolves a --controllers list to the controllers it enables,
// in the order of Names, as kube-controller-manager decides for each
// controller: the first entry naming it ("name" or "-name") decides;
// without one, "*" anywhere enables it.
func selected(list []string) ([]string, error) {
	if list == nil {
		list = []string{"*"}
	}
	var errs []error
	canonical := make([]string, len(list))
	for i, v := range list {
		if v == "*" {
			canonical[i] = v
			continue
		}
		name, disable := strings.CutPrefix(v, "-")
		if c, ok := aliases[name]; ok {
			name = c
		}
		if !slices.Contains(Names, name) {
			errs = append(errs, fmt.Errorf("%q is not in the list of known controllers", strings.TrimPrefix(v, "-")))
			continue
		}
		if disable {
			name = "-" + name
		}
		canonical[i] = name
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	var on []string
	for _, n := range Names {
		if enabled(n, canonical) {
			on = append(on, n)
		}
	}
	return on, nil
}

func enabled(name string, list []string) bool {
	star := false
	for _, v := range list {
		switch v {
		case name:
			return true
		case "-" + name:
			return false
		case "*":
			star = true
		}
	}
	return star
}

// Manager is the set of controllers Start runs on one server.
type Manager struct {
	store   store.Store
	runners []*runner
	repair  *repairLoop
	names   []string
	wg      sync.WaitGroup
	done    chan struct{}
	// now is the clock of the namespace controller's wait (Options.Now);
	// fakeClock says it is a test's.
	now       func() time.Time
	fakeClock bool

	changeMu sync.Mutex
	change   chan struct{}
}

// Start runs the controllers opts selects on srv, in-process: each reads
// the server's store through its own watch and writes through the server's
// pipeline (apiserver.Server.Loopback), as kube-controller-manager's
// controllers write through kube-apiserver. They run until ctx is done;
// Done is closed once every goroutine they started has returned. The
// objects already stored are taken into account first, as informers list
// before they watch.
func Start(ctx context.Context, srv *apiserver.Server, opts Options) (*Manager, error) {
	names, err := selected(opts.Controllers)
	if err != nil {
		return nil, err
	}
	m := &Manager{store: srv.Store(), names: names, change: make(chan struct{}), done: make(chan struct{}),
		now: opts.Now, fakeClock: opts.Now != nil}
	if m.now == nil {
		m.now = time.Now
	}
	ctx, cancel := context.WithCancel(ctx)
	for _, n := range names {
		var c controller
		switch n {
		case ServiceRepair:
			m.repair = &repairLoop{srv: srv, interval: cmp.Or(opts.RepairInterval, DefaultRepairInterval)}
			continue
		case Namespace:
			c = newNamespaceController(srv, m.now, namespaceDeletionDelay(opts.NamespaceDeletionDelay))
		case GarbageCollector:
			c = newGarbageCollector(srv)
		case ServiceAccount:
			c = newServiceAccountController(srv)
		case RootCACertPublisher:
			c = newRootCAPublisher(srv, opts.RootCA)
		}
		m.runners = append(m.runners, newRunner(n, c, m))
	}
	// kube-apiserver is not ready before its first repair pass succeeds.
	if m.repair != nil {
		if err := m.repair.pass(ctx); err != nil {
			cancel()
			return nil, fmt.Errorf("controllers: starting %s: %w", ServiceRepair, err)
		}
	}
	for _, r := range m.runners {
		if err := r.start(ctx); err != nil {
			cancel()
			m.wg.Wait()
			return nil, fmt.Errorf("controllers: starting %s: %w", r.name, err)
		}
	}
	if m.repair != nil {
		m.wg.Add(1)
		go func() {
			defer m.wg.Done()
			m.repair.run(ctx)
		}()
	}
	go func() {
		m.wg.Wait()
		cancel()
		close(m.done)
	}()
	return m, nil
}

// namespaceDeletionDelay reads Options.NamespaceDeletionDelay.
func namespaceDeletionDelay(d time.Duration) time.Duration {
	switch {
	case d == 0:
		return DefaultNamespaceDeletionDelay
	case d < 0:
		return 0
	}
	return d
}

// Running names the controllers the manager runs.
func (m *Manager) Running() []string { return slices.Clone(m.names) }

// Done is closed once the controllers have stopped (their context is
// done) and every goroutine they started has returned.
func (m *Manager) Done() <-chan struct{} { return m.done }

// WaitIdle waits until the controllers have nothing left to do: each has
// seen every write stored so far and has nothing queued, running or
// waiting to be retried, and no write happened meanwhile. A test calls it
// after a write instead of sleeping: once it returns, a deleted owner's
// dependents are gone, a deleted namespace is gone (or held by a finalizer
// someone else must remove), a new namespace has its default
// ServiceAccount. A namespace deletion waiting out
// Options.NamespaceDeletionDelay is started at once: WaitIdle asks for
// what the writes so far call for, now, and stays as fast as without the
// delay; clients that do not call it see kube's timing. Writes from elsewhere keep it waiting, and so does a
// controller write that keeps failing (an admission plugin refusing it:
// the controller retries, as kube's do); it returns ctx.Err() when ctx
// ends first, or an error if the controllers stopped.
func (m *Manager) WaitIdle(ctx context.Context) error {
	for {
		ch := m.changed()
		target := m.store.Revision()
		for _, r := range m.runners {
			r.q.hurry()
		}
		idle := true
		for _, r := range m.runners {
			if r.stopped() {
				return errors.New("controllers: stopped")
			}
			if !r.idleAt(target) {
				idle = false
				break
			}
		}
		if idle && m.store.Revision() == target {
			return nil
		}
		if idle {
			continue // something wrote meanwhile: look again
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// changed returns a channel closed at the next change of any runner's
// state.
func (m *Manager) changed() <-chan struct{} {
	m.changeMu.Lock()
	defer m.changeMu.Unlock()
	return m.change
}

// notify wakes WaitIdle callers.
func (m *Manager) notify() {
	m.changeMu.Lock()
	close(m.change)
	m.change = make(chan struct{})
	m.changeMu.Unlock()
}
