package builtin

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/metrics"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// The node port repair is kube-apiserver 1.33's (its portallocator repair
// controller, which it runs at start and every 3 minutes; package
// controllers runs this one through apiserver.Server.Repair). One pass
// rebuilds the RangeAllocation from the stored Services and writes it in
// one compare and swap of the record it read, done again from the start
// when another write lands first:
//
//   - a port a Service holds is marked; the Service gets a Warning event
//     PortNotAllocated when the record lacked it;
//   - a port two Services hold stays taken, and the second (in key order)
//     gets PortAlreadyAllocated; a port outside the range is left out and
//     its Service gets PortOutOfRange;
//   - a port the record holds and no Service holds is kept taken for
//     repairsBeforeLeakCleanup-1 passes and freed by the pass that sees it
//     so for the repairsBeforeLeakCleanup-th time in a row, so that a port
//     taken by a write still in flight (on any server sharing the store)
//     is not freed before its Service is stored;
//   - a record of another range (or none) is rewritten in this server's.
//
// kapi differs where kube's pass could free a port in use: the passes a
// port has been seen leaked are counted in a row (kube keeps a port's
// count after it stops being leaked, so a port freed, or given back, and
// soon taken again by a write still in flight may be freed at once),
// counted only by passes whose write landed (kube counts the attempts a
// conflict repeats), and the ports this server's own writes in flight have
// taken or are giving back (serviceState.held, deleting) are never
// counted leaked, whatever the interval. kube also logs each problem and
// each port it frees; kapi has no log, and reports through the events.

// repairsBeforeLeakCleanup is how many passes in a row must see a port
// leaked before the last of them frees it (kube's
// numRepairsBeforeLeakCleanup).
const repairsBeforeLeakCleanup = 3

// heldPorts are the node ports of a Service being deleted, held since
// before the repair pass numbered since started.
type heldPorts struct {
	ports []int
	since int
}

// portRepairState is what one server's repair passes share: they run one
// at a time (mu), remember the ports seen leaked (how many more passes
// each stays taken) and the events reported.
type portRepairState struct {
	mu     sync.Mutex
	leaks  map[int]int
	events *eventSeries
	// kube's counts: problems found by type, and failed passes
	metricsOnce     sync.Once
	portErrors      *metrics.CounterVec
	reconcileErrors *metrics.Counter
}

// registerMetrics adds kube's families of the repair to the server's
// registry, on its first pass (kube registers them as it starts; a
// registry shared by two servers gets one server's).
func (rs *portRepairState) registerMetrics(w *apiserver.Write) {
	rs.metricsOnce.Do(func() {
		rs.portErrors = metrics.NewCounterVec("apiserver_nodeport_repair_port_errors_total",
			"[ALPHA] Number of errors detected on ports by the repair loop broken down by type of error: leak, repair, full, outOfRange, duplicate, unknown",
			"type")
		reconcile := metrics.NewCounterVec("apiserver_nodeport_repair_reconcile_errors_total",
			"[ALPHA] Number of reconciliation failures on the nodeport repair reconcile loop")
		rs.reconcileErrors = reconcile.With() // shown from the start, at 0, as kube's
		_ = w.Metrics().Register(rs.portErrors)
		_ = w.Metrics().Register(reconcile)
	})
}

// portErrorTypes are kube's metric labels of the problems a pass reports.
var portErrorTypes = map[string]string{"PortNotAllocated": "repair", "PortAlreadyAllocated": "duplicate",
	"PortOutOfRange": "outOfRange"}

// portRepairController names the repair in its events, as kube's.
const portRepairController = "portallocator-repair-controller"

func newPortRepairState() *portRepairState {
	return &portRepairState{leaks: map[int]int{}, events: newEventSeries(portRepairController)}
}

// portProblem is a Service's node port a pass reports, as kube's repair
// reports it in a Warning event about the Service.
type portProblem struct {
	service meta.Object
	reason  string
	note    string
}

// portRepairPass is what one pass decides: the RangeAllocation bitmap to
// store (of this server's range), the leak countdowns for the next pass,
// what to report and the ports it frees.
type portRepairPass struct {
	bits     *big.Int
	leaks    map[int]int
	problems []portProblem
	freed    []int
}

// repairPass is one pass of the node port repair over rec, the stored
// RangeAllocation (nil when there is none), and the stored Services in
// key order. held are ports writes in flight hold (never leaked), leaks
// the countdowns of the previous pass.
func (r *serviceRanges) repairPass(rec meta.Object, services []meta.Object, held map[int]bool, leaks map[int]int) (portRepairPass, error) {
	stored, err := r.storedPorts(rec)
	if err != nil {
		return portRepairPass{}, err
	}
	pass := portRepairPass{bits: new(big.Int), leaks: map[int]int{}}
	inRange := func(p int) bool { return p >= r.portBase && p <= r.last }
	for _, svc := range services {
		for _, p := range repairNodePorts(svc) {
			switch {
			case !inRange(p):
				pass.problems = append(pass.problems, portProblem{svc, "PortOutOfRange",
					fmt.Sprintf("Port %d is not within the port range %s; please recreate service", p, r.portRangeSpec())})
			case pass.bits.Bit(p-r.portBase) == 1:
				pass.problems = append(pass.problems, portProblem{svc, "PortAlreadyAllocated",
					fmt.Sprintf("Port %d was assigned to multiple services; please recreate service", p)})
			default:
				pass.bits.SetBit(pass.bits, p-r.portBase, 1)
				if !stored[p] {
					pass.problems = append(pass.problems, portProblem{svc, "PortNotAllocated",
						fmt.Sprintf("Port %d is not allocated; repairing", p)})
				}
				delete(stored, p)
			}
		}
	}
	for _, p := range sortedPorts(stored) {
		keep := held[p]
		if !keep {
			left, seen := leaks[p]
			if !seen {
				left = repairsBeforeLeakCleanup - 1
			}
			if keep = left > 0; keep {
				pass.leaks[p] = left - 1
			} else {
				pass.freed = append(pass.freed, p)
			}
		}
		if keep && inRange(p) {
			pass.bits.SetBit(pass.bits, p-r.portBase, 1)
		}
	}
	return pass, nil
}

// storedPorts are the ports rec marks taken, in its own range (this
// server's when it has none).
func (r *serviceRanges) storedPorts(rec meta.Object) (map[int]bool, error) {
	out := map[int]bool{}
	if rec == nil {
		return out, nil
	}
	base, size := r.portBase, r.last-r.portBase+1
	if spec, _ := rec["range"].(string); spec != "" {
		var err error
		if base, size, err = parsePortRange(spec); err != nil {
			return nil, fmt.Errorf("unable to rebuild allocator from snapshot: %v", err)
		}
	}
	data, _ := rec["data"].(string)
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return nil, fmt.Errorf("unable to rebuild allocator from snapshot: %v", err)
	}
	bits := new(big.Int).SetBytes(b)
	for i := 0; i < bits.BitLen() && i < size; i++ {
		if bits.Bit(i) == 1 {
			out[base+i] = true
		}
	}
	return out, nil
}

// parsePortRange reads a RangeAllocation's range as kube's
// net.ParsePortRange: "first-last", "first+count" or one port.
func parsePortRange(spec string) (base, size int, err error) {
	bad := fmt.Errorf("invalid port range %q", spec)
	if first, last, ok := strings.Cut(spec, "-"); ok {
		b, err1 := strconv.Atoi(first)
		l, err2 := strconv.Atoi(last)
		if err1 != nil || err2 != nil || b < 0 || l < b || l > 65535 {
			return 0, 0, bad
		}
		return b, l - b + 1, nil
	}
	if first, count, ok := strings.Cut(spec, "+"); ok {
		b, err1 := strconv.Atoi(first)
		n, err2 := strconv.Atoi(count)
		if err1 != nil || err2 != nil || b < 0 || n < 0 || b+n > 65535 {
			return 0, 0, bad
		}
		return b, n + 1, nil
	}
	b, err := strconv.Atoi(spec)
	if err != nil || b < 0 || b > 65535 {
		return 0, 0, bad
	}
	return b, 1, nil
}

// repairNodePorts are the node ports the repair counts for a Service, as
// kube's collectServiceNodePorts: a port number listed again with the same
// protocol counts again (and is reported held twice), with another
// protocol once; the health check node port counts unless the Service
// uses it as a node port of other protocols than TCP only.
func repairNodePorts(o meta.Object) []int {
	spec, _ := o["spec"].(map[string]any)
	if spec == nil {
		return nil
	}
	var out []int
	protocols := map[int]map[string]bool{}
	for _, e := range meta.AsList(spec["ports"]) {
		port, _ := e.(map[string]any)
		np, _ := meta.AsInt64(port["nodePort"])
		if np == 0 {
			continue
		}
		n := int(np)
		proto, _ := port["protocol"].(string)
		seen := protocols[n]
		switch {
		case seen == nil:
			protocols[n] = map[string]bool{proto: true}
			out = append(out, n)
		case seen[proto]:
			out = append(out, n)
		default:
			seen[proto] = true
		}
	}
	if hc, _ := meta.AsInt64(spec["healthCheckNodePort"]); hc != 0 {
		if seen := protocols[int(hc)]; seen == nil || seen["TCP"] {
			out = append(out, int(hc))
		}
	}
	return out
}

func sortedPorts(set map[int]bool) []int {
	out := make([]int, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// Repair is one pass of the node port repair on this server's store (see
// the top of this file): it reads the RangeAllocation, then the stored
// Services and the ports this server's writes hold, and stores the
// repaired record by compare and swap of the one read (nothing when it is
// unchanged), again from the start when another write landed first; then
// it reports the problems found as kube's repair does.
func (s serviceStrategy) Repair(w *apiserver.Write) error {
	r := s.rangesOrDefault()
	st, err := r.state(w)
	if err != nil {
		return err
	}
	rs := st.portRepair
	st.mu.Unlock()
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.registerMetrics(w)
	if err := rs.pass(w, r, st); err != nil {
		rs.reconcileErrors.Inc()
		return err
	}
	return nil
}

// pass does the work of Repair, holding rs.mu.
func (rs *portRepairState) pass(w *apiserver.Write, r *serviceRanges, st *serviceState) error {

	var pass portRepairPass
	var gen int
	var services []meta.Object
	var recorded map[int]bool
	for {
		unchanged := false
		out, err := w.UpdateRecord(nodePortsKey, func(cur meta.Object) (meta.Object, error) {
			var held map[int]bool
			held, gen = st.heldPorts() // after cur was read: what a write holds now is in cur or lands after it
			objs, err := w.List(servicesGR, "")
			if err != nil {
				return nil, err
			}
			services = make([]meta.Object, len(objs))
			for i, o := range objs {
				services[i] = o.Data()
			}
			if recorded, err = r.storedPorts(cur); err != nil {
				return nil, err
			}
			if pass, err = r.repairPass(cur, services, held, rs.leaks); err != nil {
				return nil, err
			}
			unchanged = cur != nil && cur["range"] == r.portRangeSpec() &&
				cur["data"] == base64.StdEncoding.EncodeToString(pass.bits.Bytes())
			if unchanged {
				return nil, store.ErrNoChange
			}
			return r.portRecord(cur, pass.bits), nil
		})
		if err != nil {
			return fmt.Errorf("unable to persist the updated port allocations: %w", err)
		}
		if !unchanged {
			break
		}
		// Nothing was written, so nothing compared the record read with
		// the stored one: the pass counts only if it is still the same.
		latest, err := w.UpdateRecord(nodePortsKey, func(meta.Object) (meta.Object, error) { return nil, store.ErrNoChange })
		if err == nil && latest.Revision() == out.Revision() {
			break
		}
		if err != nil && !errors.Is(err, store.ErrNoChange) {
			return fmt.Errorf("unable to refresh the port allocations: %w", err)
		}
	}
	rs.leaks = pass.leaks
	st.mu.Lock()
	st.passDone(gen, services, recorded)
	st.mu.Unlock()
	for _, p := range pass.problems {
		rs.portErrors.With(portErrorTypes[p.reason]).Inc()
		rs.events.record(w, p.service, "PortAllocation", p.reason, p.note)
	}
	if len(pass.freed) > 0 {
		rs.portErrors.With("leak").Add(float64(len(pass.freed)))
	}
	rs.events.expire(w)
	return nil
}

// heldPorts are the node ports this server's writes in flight hold, and
// the number of the pass about to read the Services.
func (st *serviceState) heldPorts() (map[int]bool, int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.passes++
	out := map[int]bool{}
	for p := range st.held {
		out[p] = true
	}
	for _, h := range st.deleting {
		for _, p := range h.ports {
			out[p] = true
		}
	}
	return out, st.passes
}

// passDone ends pass gen, whose write landed over a record marking
// recorded, having read services: the record now marks every stored
// Service's port, and the holds of deletes that have nothing left to
// protect end (the Service gone, none of its ports in the record): those
// whose Release will not come (the delete failed after PrepareForDelete,
// or another server removed the Service). Called with mu held.
func (st *serviceState) passDone(gen int, services []meta.Object, recorded map[int]bool) {
	st.portsMarked = true
	stored := map[string]bool{}
	for _, o := range services {
		stored[o.Namespace()+"/"+o.Name()] = true
	}
	for k, h := range st.deleting {
		if h.since >= gen || stored[k] || slices.ContainsFunc(h.ports, func(p int) bool { return recorded[p] }) {
			continue
		}
		delete(st.deleting, k)
	}
}

// hold keeps ports from the repair until this write is committed or
// reverted (nothing on dry run).
func (a *serviceAllocation) hold(ports []int) {
	if a.w.DryRun || len(ports) == 0 {
		return
	}
	if a.st.held == nil {
		a.st.held = map[int]int{}
	}
	for _, p := range ports {
		a.st.held[p]++
	}
	a.holding = append(a.holding, ports...)
}

// unhold ends what hold started.
func (a *serviceAllocation) unhold() {
	for _, p := range a.holding {
		if a.st.held[p]--; a.st.held[p] <= 0 {
			delete(a.st.held, p)
		}
	}
	a.holding = nil
}

// holdDeleting keeps the node ports of a Service about to be deleted from
// the repair until Release gives them back: once the Service is gone the
// record still marks them, and no stored Service holds them.
func (st *serviceState) holdDeleting(o meta.Object) {
	ports := serviceNodePorts(o)
	if len(ports) == 0 {
		return
	}
	if st.deleting == nil {
		st.deleting = map[string]heldPorts{}
	}
	st.deleting[o.Namespace()+"/"+o.Name()] = heldPorts{ports: ports, since: st.passes}
}

// unholdDeleting ends what holdDeleting started.
func (st *serviceState) unholdDeleting(o meta.Object) {
	delete(st.deleting, o.Namespace()+"/"+o.Name())
}

// PrepareForDelete holds the node ports of a Service about to be removed
// from the repair until Release gives them back.
func (s serviceStrategy) PrepareForDelete(w *apiserver.Write, o meta.Object) (bool, error) {
	if w.DryRun || len(serviceNodePorts(o)) == 0 {
		return false, nil
	}
	st, err := s.rangesOrDefault().state(w)
	if err != nil {
		return false, err
	}
	defer st.mu.Unlock()
	st.holdDeleting(o)
	return false, nil
}
