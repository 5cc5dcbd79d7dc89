package builtin

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"net/netip"
	"sync"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// A Service's cluster IPs and node ports are allocated as kube-apiserver
// 1.33 allocates them (pkg/registry/core/service/storage/alloc.go): in a
// transaction around the store write (apiserver.Allocator), reverted when
// the write fails, the previous version's leftovers released when it is
// stored, everything released when the Service goes.
//
// Each allocated IP is an IPAddress object (networking.k8s.io/v1, named by
// the IP, parentRef the Service), created and deleted through the server's
// own pipeline as kube's IPAddress allocator does, when the server serves
// IPAddresses: its create is atomic, so two Services never get one IP, even
// from two servers sharing a store, and an IPAddress a user creates takes
// its IP. Node ports are kube's RangeAllocation bitmap, one record in the
// store changed by compare and swap (core_service_allocation_nodeports.go):
// servers sharing a store, kube-apiserver on the same etcd included, never
// hand out one node port twice.

var (
	servicesGR    = meta.GroupResource{Resource: "services"}
	ipAddressesGR = meta.GroupResource{Group: "networking.k8s.io", Resource: "ipaddresses"}
)

// serviceState is one server's allocations, guarded by mu.
type serviceState struct {
	mu     sync.Mutex
	ready  bool
	ipObjs bool         // the server serves IPAddresses
	ips    map[int]bool // used offsets into the range
	// portsMarked: the stored Services' node ports were marked in the
	// RangeAllocation by this server's first node port write.
	portsMarked bool
	// held are the node ports this server's writes in flight have taken
	// or are giving back (a count per port): the RangeAllocation marks
	// them while no stored Service may hold them, so the repair never
	// frees them (core_service_allocation_nodeports_repair.go).
	held map[int]int
	// deleting are the node ports of the Services this server is
	// deleting (by namespace/name), held from the strategy's
	// PrepareForDelete until Release gives them back.
	deleting map[string]heldPorts
	// portRepair is the node port repair's; passes counts the passes
	// started.
	portRepair *portRepairState
	passes     int
}

// state returns the server's allocations, reading what the stored
// Services (and IPAddresses) hold on first use; mu is held on return.
func (r *serviceRanges) state(w *apiserver.Write) (*serviceState, error) {
	st := w.Local(r, func() any { return &serviceState{portRepair: newPortRepairState()} }).(*serviceState)
	st.mu.Lock()
	if st.ready {
		return st, nil
	}
	st.ips = map[int]bool{}
	svcs, err := w.List(servicesGR, "")
	if err != nil {
		st.mu.Unlock()
		return nil, err
	}
	for _, s := range svcs {
		for _, ip := range serviceIPs(s.Data()) {
			if i, ok := r.offset(ip); ok {
				st.ips[i] = true
			}
		}
	}
	if ips, err := w.List(ipAddressesGR, ""); err == nil {
		st.ipObjs = true
		for _, o := range ips {
			if a, err := netip.ParseAddr(o.Data().Name()); err == nil {
				if i, ok := r.offset(a); ok {
					st.ips[i] = true
				}
			}
		}
	}
	st.ready = true
	return st, nil
}

// size is the number of addresses of the range.
func (r *serviceRanges) size() int { return 1 << (r.prefix.Addr().BitLen() - r.prefix.Bits()) }

// usable reports whether offset i names an allocatable address: not the
// network address, nor an IPv4 range's broadcast address.
func (r *serviceRanges) usable(i int) bool {
	last := r.size() - 1
	if r.prefix.Addr().Is4() {
		last--
	}
	return i >= 1 && i <= last
}

// addr is the address at offset i of the range.
func (r *serviceRanges) addr(i int) netip.Addr {
	b := r.prefix.Addr().As16()
	host := binary.BigEndian.Uint32(b[12:]) + uint32(i)
	binary.BigEndian.PutUint32(b[12:], host)
	a := netip.AddrFrom16(b)
	if r.prefix.Addr().Is4() {
		a = a.Unmap()
	}
	return a
}

// offset is a's offset in the range, if it is a usable address of it.
func (r *serviceRanges) offset(a netip.Addr) (int, bool) {
	if !r.prefix.Contains(a) {
		return 0, false
	}
	b, base := a.As16(), r.prefix.Addr().As16()
	i := int(binary.BigEndian.Uint32(b[12:]) - binary.BigEndian.Uint32(base[12:]))
	return i, r.usable(i)
}

// first is the range's first usable address (the kubernetes Service's).
func (r *serviceRanges) first() netip.Addr { return r.addr(1) }

// dynamicOffset is where kube's allocator starts looking for a free
// address: the addresses below are left for clients that ask for one.
func (r *serviceRanges) dynamicOffset() int { return staticBand(r.size(), 16, 256) }

// staticBand is the low band of a range of size values that kube's
// allocators leave to clients that name a value: size/div, at least 16
// and at most upper; none in a range of fewer than 16.
func staticBand(size, div, upper int) int {
	if size < 16 {
		return 0
	}
	return min(max(size/div, 16), upper)
}

// serviceAllocation is one write's allocations (apiserver.Allocation).
type serviceAllocation struct {
	w      *apiserver.Write
	ranges *serviceRanges
	st     *serviceState
	ns     string
	// taken now (released by Revert); released by Commit.
	ips, ports               []int
	releaseIPs, releasePorts []int
	// holding are the node ports this write holds (serviceState.held)
	// until Commit or Revert.
	holding []int
}

// Allocate gives a Service what its type needs: cluster IPs unless it is
// headless or an ExternalName, node ports for NodePort and LoadBalancer,
// a health check node port for a LoadBalancer with the Local traffic
// policy; on update, what it keeps from the stored version.
func (s serviceStrategy) Allocate(w *apiserver.Write, o, old meta.Object) (apiserver.Allocation, error) {
	r := s.rangesOrDefault()
	spec := obj(o, "spec")
	var oldSpec map[string]any
	if old != nil {
		oldSpec = obj(old.DeepCopy(), "spec")
		dropTypeDependentFields(spec, oldSpec)
		patchAllocatedValues(spec, oldSpec)
	}
	if err := r.initIPFamilies(o.Name(), spec, oldSpec); err != nil {
		return nil, err
	}
	st, err := r.state(w)
	if err != nil {
		return nil, err
	}
	defer st.mu.Unlock()
	a := &serviceAllocation{w: w, ranges: r, st: st, ns: o.Namespace()}
	if err := a.allocate(o.Name(), spec, oldSpec); err != nil {
		a.revertLocked()
		return nil, err
	}
	// the stored version gives these back once the write is stored:
	// until then no stored Service may hold them
	a.hold(a.releasePorts)
	return a, nil
}

// Release gives back a removed Service's IPs and node ports.
func (s serviceStrategy) Release(w *apiserver.Write, removed meta.Object) {
	r := s.rangesOrDefault()
	st, err := r.state(w)
	if err != nil {
		return
	}
	defer st.mu.Unlock()
	a := &serviceAllocation{w: w, ranges: r, st: st, ns: removed.Namespace()}
	for _, ip := range serviceIPs(removed) {
		if i, ok := r.offset(ip); ok {
			a.releaseIPs = append(a.releaseIPs, i)
		}
	}
	a.releasePorts = serviceNodePorts(removed)
	a.commitLocked()
	st.unholdDeleting(removed)
}

func (s serviceStrategy) rangesOrDefault() *serviceRanges {
	if s.ranges != nil {
		return s.ranges
	}
	return defaultRanges
}

// Commit releases what the previous version held and this one does not.
func (a *serviceAllocation) Commit() {
	a.st.mu.Lock()
	defer a.st.mu.Unlock()
	a.commitLocked()
}

// Revert gives back what this write took.
func (a *serviceAllocation) Revert() {
	a.st.mu.Lock()
	defer a.st.mu.Unlock()
	a.revertLocked()
}

func (a *serviceAllocation) commitLocked() {
	for _, i := range a.releaseIPs {
		a.freeIPLocked(i)
	}
	a.freePorts(a.releasePorts)
	a.unhold()
	a.releaseIPs, a.releasePorts, a.ips, a.ports = nil, nil, nil, nil
}

func (a *serviceAllocation) revertLocked() {
	for _, i := range a.ips {
		a.freeIPLocked(i)
	}
	a.freePorts(a.ports)
	a.unhold()
	a.releaseIPs, a.releasePorts, a.ips, a.ports = nil, nil, nil, nil
}

func (a *serviceAllocation) freeIPLocked(i int) {
	if a.w.DryRun {
		return
	}
	delete(a.st.ips, i)
	if a.st.ipObjs {
		_ = a.w.Delete(ipAddressesGR, "", a.ranges.addr(i).String())
	}
}

// allocate does the work of Allocate, holding the state's lock: the
// cluster IPs, then every node port the Service needs in one take.
func (a *serviceAllocation) allocate(name string, spec, oldSpec map[string]any) error {
	if err := a.allocateClusterIPs(name, spec, oldSpec); err != nil {
		return err
	}
	oldNodePorts := map[int]bool{}
	if oldSpec != nil {
		for _, p := range nodePortsOf(oldSpec) {
			oldNodePorts[p] = true
		}
	}
	var plan portPlan
	if needsNodePorts(spec) {
		plan.nodePorts(name, spec, oldNodePorts)
	}
	if oldSpec != nil {
		// the free ports planned are not set yet, but they are never old
		// ones: the RangeAllocation holds those
		kept := map[int]bool{}
		for _, p := range nodePortsOf(spec) {
			kept[p] = true
		}
		for _, p := range nodePortsOf(oldSpec) {
			if !kept[p] {
				a.releasePorts = append(a.releasePorts, p)
			}
		}
	}
	a.planHealthCheckNodePort(&plan, spec, oldSpec)
	got, err := a.takePorts(plan.wants)
	if err != nil {
		return err
	}
	for i, n := range got {
		if plan.set[i] != nil {
			plan.set[i](n)
		}
	}
	return nil
}

// allocateClusterIPs gives a new Service (or one that becomes one with
// cluster IPs) its IP; one that stops having them releases them.
func (a *serviceAllocation) allocateClusterIPs(name string, spec, oldSpec map[string]any) error {
	had := oldSpec != nil && hasClusterIPs(oldSpec)
	if !needsClusterIP(spec) || isHeadless(spec) {
		if had {
			a.deferIPRelease(oldSpec)
		}
		return nil
	}
	if had {
		return nil // kept: a change is the validation's "may not change once set"
	}
	ips := meta.AsList(spec["clusterIPs"])
	requested := ""
	if len(ips) > 0 {
		requested, _ = ips[0].(string)
	}
	var ip netip.Addr
	if requested == "" {
		var err error
		if ip, err = a.allocateNextIP(name); err != nil {
			return err
		}
	} else {
		parsed, err := netip.ParseAddr(requested)
		if err != nil {
			return invalidService(name, meta.FieldError{Type: meta.ErrorInvalid, Field: "spec.clusterIPs[0]", Value: requested,
				Detail: "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"})
		}
		if err := a.allocateIP(name, parsed); err != nil {
			return invalidService(name, meta.FieldError{Type: meta.ErrorInvalid, Field: "spec.clusterIPs",
				Value: stringList(spec["clusterIPs"]), Detail: fmt.Sprintf("failed to allocate IP %s: %v", requested, err)})
		}
		ip = parsed
	}
	spec["clusterIP"] = ip.String()
	spec["clusterIPs"] = []any{ip.String()}
	return nil
}

func (a *serviceAllocation) deferIPRelease(oldSpec map[string]any) {
	for _, ip := range specIPs(oldSpec) {
		if i, ok := a.ranges.offset(ip); ok {
			a.releaseIPs = append(a.releaseIPs, i)
		}
	}
}

var (
	errIPAllocated = fmt.Errorf("provided IP is already allocated")
	errIPRange     = fmt.Errorf("the provided network does not match the current range")
	errPortTaken   = fmt.Errorf("provided port is already allocated")
)

// allocateIP takes one requested address.
func (a *serviceAllocation) allocateIP(name string, ip netip.Addr) error {
	i, ok := a.ranges.offset(ip)
	if !ok {
		return errIPRange
	}
	if a.st.ips[i] {
		return errIPAllocated
	}
	if a.w.DryRun {
		if a.st.ipObjs {
			if _, err := a.w.Get(ipAddressesGR, "", ip.String()); err == nil {
				return errIPAllocated
			}
		}
		return nil
	}
	if err := a.takeIP(name, i); err != nil {
		return err
	}
	return nil
}

// takeIP marks offset i used and creates its IPAddress.
func (a *serviceAllocation) takeIP(name string, i int) error {
	if a.st.ipObjs {
		_, err := a.w.Create(ipAddressesGR, "", ipAddressObject(a.ranges.addr(i), a.ns, name))
		if meta.IsAlreadyExists(err) {
			return errIPAllocated
		}
		if err != nil {
			return err
		}
	}
	a.st.ips[i] = true
	a.ips = append(a.ips, i)
	return nil
}

// allocateNextIP takes a free address: a random one at or above the
// dynamic offset, else below it, as kube's allocator. A dry run answers
// the range's network address, as kube's does.
func (a *serviceAllocation) allocateNextIP(name string) (netip.Addr, error) {
	if a.w.DryRun {
		return a.ranges.prefix.Addr(), nil
	}
	r := a.ranges
	size, offset := r.size(), r.dynamicOffset()
	for _, band := range [][2]int{{offset, size}, {0, offset}} {
		lo, hi := band[0], band[1]
		if hi <= lo {
			continue
		}
		start := lo + randInt(hi-lo)
		for k := 0; k < hi-lo; k++ {
			i := lo + (start-lo+k)%(hi-lo)
			if !r.usable(i) || a.st.ips[i] {
				continue
			}
			err := a.takeIP(name, i)
			if err == errIPAllocated {
				continue
			}
			if err != nil {
				return netip.Addr{}, err
			}
			return r.addr(i), nil
		}
	}
	return netip.Addr{}, meta.Internal(fmt.Errorf("failed to allocate a serviceIP: range is full"))
}

// portPlan is the node ports one write takes, and where each goes.
type portPlan struct {
	wants []portWant
	set   []func(n int) // per want; nil when its port is already set
}

func (p *portPlan) add(want portWant, set func(n int)) {
	p.wants = append(p.wants, want)
	p.set = append(p.set, set)
}

// nodePorts plans a node port for every port of a NodePort or
// LoadBalancer Service: the one asked for, the one its number already has
// in this Service, or a free one; as kube's initNodePorts and
// updateNodePorts.
func (p *portPlan) nodePorts(name string, spec map[string]any, oldNodePorts map[int]bool) {
	byPort := map[int64]*[]map[string]any{} // the entries sharing a port number's free port
	byPortKnown := map[int64]int{}
	taken := map[int]bool{} // by this write
	for i, e := range meta.AsList(spec["ports"]) {
		port, _ := e.(map[string]any)
		if port == nil {
			continue
		}
		np, _ := meta.AsInt64(port["nodePort"])
		if np == 0 && !shouldAllocateNodePorts(spec) {
			continue
		}
		number, _ := meta.AsInt64(port["port"])
		if np == 0 {
			if prev, ok := byPortKnown[number]; ok {
				port["nodePort"] = int64(prev)
				continue
			}
			if shared, ok := byPort[number]; ok {
				*shared = append(*shared, port)
				continue
			}
			if req := requestedNodePort(number, spec); req != 0 {
				np = int64(req)
			}
		}
		if np != 0 {
			n := int(np)
			if !oldNodePorts[n] && !taken[n] {
				field := fmt.Sprintf("spec.ports[%d].nodePort", i)
				p.add(portWant{port: n, fail: func(err error) error {
					return invalidService(name, meta.FieldError{Type: meta.ErrorInvalid, Field: field, Value: np, Detail: err.Error()})
				}}, nil)
				taken[n] = true
			}
			port["nodePort"] = np
			byPortKnown[number] = n
			continue
		}
		shared := &[]map[string]any{port}
		byPort[number] = shared
		p.add(portWant{fail: func(err error) error {
			return meta.Internal(fmt.Errorf("failed to allocate a nodePort: %v", err))
		}}, func(n int) {
			for _, port := range *shared {
				port["nodePort"] = int64(n)
			}
		})
	}
}

// requestedNodePort is the node port another entry of the same port
// number asks for, as kube's findRequestedNodePort.
func requestedNodePort(number int64, spec map[string]any) int {
	for _, p := range meta.AsList(spec["ports"]) {
		port, _ := p.(map[string]any)
		n, _ := meta.AsInt64(port["port"])
		np, _ := meta.AsInt64(port["nodePort"])
		if n == number && np != 0 {
			return int(np)
		}
	}
	return 0
}

// planHealthCheckNodePort plans the health check node port of a
// LoadBalancer Service with the Local external traffic policy, and
// releases it when the Service no longer needs one.
func (a *serviceAllocation) planHealthCheckNodePort(plan *portPlan, spec, oldSpec map[string]any) {
	needed := oldSpec != nil && needsHealthCheck(oldSpec)
	oldPort, _ := meta.AsInt64(func() any {
		if oldSpec == nil {
			return nil
		}
		return oldSpec["healthCheckNodePort"]
	}())
	switch needs := needsHealthCheck(spec); {
	case needs && !needed:
		if hc, _ := meta.AsInt64(spec["healthCheckNodePort"]); hc != 0 {
			plan.add(portWant{port: int(hc), fail: func(err error) error {
				return meta.Internal(fmt.Errorf("failed to allocate requested HealthCheck NodePort %d: %v", hc, err))
			}}, nil)
			return
		}
		plan.add(portWant{fail: func(err error) error {
			return meta.Internal(fmt.Errorf("failed to allocate a HealthCheck NodePort %d: %v", 0, err))
		}}, func(n int) { spec["healthCheckNodePort"] = int64(n) })
	case needed && !needs && oldPort != 0:
		a.releasePorts = append(a.releasePorts, int(oldPort))
	}
}

// dropTypeDependentFields is kube's service strategy's: a Service that
// changes type loses, unless the update changes them itself, what its old
// type needed (cluster IPs and IP families, node ports, a health check
// node port, allocateLoadBalancerNodePorts, the external traffic policy).
func dropTypeDependentFields(spec, oldSpec map[string]any) {
	same := func(k string) bool { return equalJSON(spec[k], oldSpec[k]) }
	if needsClusterIP(oldSpec) && !needsClusterIP(spec) {
		if same("clusterIP") && same("clusterIPs") {
			delete(spec, "clusterIP")
			delete(spec, "clusterIPs")
		}
		if same("ipFamilies") {
			delete(spec, "ipFamilies")
		}
		if same("ipFamilyPolicy") {
			delete(spec, "ipFamilyPolicy")
		}
	}
	if needsNodePorts(oldSpec) && !needsNodePorts(spec) && equalJSON(nodePortsOf(spec), nodePortsOf(oldSpec)) {
		for _, p := range meta.AsList(spec["ports"]) {
			delete(asMap(p), "nodePort")
		}
	}
	if needsHealthCheck(oldSpec) && !needsHealthCheck(spec) && same("healthCheckNodePort") {
		delete(spec, "healthCheckNodePort")
	}
	if oldSpec["type"] == "LoadBalancer" && spec["type"] != "LoadBalancer" && spec["allocateLoadBalancerNodePorts"] != nil &&
		same("allocateLoadBalancerNodePorts") {
		delete(spec, "allocateLoadBalancerNodePorts")
	}
	external := func(s map[string]any) bool {
		return s["type"] == "NodePort" || s["type"] == "LoadBalancer" || len(meta.AsList(s["externalIPs"])) > 0
	}
	if external(oldSpec) && !external(spec) && same("externalTrafficPolicy") {
		delete(spec, "externalTrafficPolicy")
	}
}

// patchAllocatedValues keeps what an update leaves out but the stored
// Service was allocated (its cluster IPs, node ports by port name, health
// check node port), as kube's service storage does.
func patchAllocatedValues(spec, oldSpec map[string]any) {
	if needsClusterIP(oldSpec) && needsClusterIP(spec) {
		if s, _ := spec["clusterIP"].(string); s == "" && oldSpec["clusterIP"] != nil {
			spec["clusterIP"] = oldSpec["clusterIP"]
		}
		if len(meta.AsList(spec["clusterIPs"])) == 0 && len(meta.AsList(oldSpec["clusterIPs"])) > 0 {
			spec["clusterIPs"] = oldSpec["clusterIPs"]
		}
	}
	if needsNodePorts(oldSpec) && needsNodePorts(spec) {
		inBoth := map[int]bool{}
		newPorts := map[int]bool{}
		for _, p := range nodePortsOf(spec) {
			newPorts[p] = true
		}
		for _, p := range nodePortsOf(oldSpec) {
			if newPorts[p] {
				inBoth[p] = true
			}
		}
		byName := map[string]int64{}
		for _, p := range meta.AsList(oldSpec["ports"]) {
			port, _ := p.(map[string]any)
			n, _ := port["name"].(string)
			byName[n], _ = meta.AsInt64(port["nodePort"])
		}
		for _, p := range meta.AsList(spec["ports"]) {
			port, _ := p.(map[string]any)
			if port == nil {
				continue
			}
			if np, _ := meta.AsInt64(port["nodePort"]); np == 0 {
				n, _ := port["name"].(string)
				if old := byName[n]; old != 0 && !inBoth[int(old)] {
					port["nodePort"] = old
				}
			}
		}
	}
	if needsHealthCheck(oldSpec) && needsHealthCheck(spec) {
		if hc, _ := meta.AsInt64(spec["healthCheckNodePort"]); hc == 0 && oldSpec["healthCheckNodePort"] != nil {
			spec["healthCheckNodePort"] = oldSpec["healthCheckNodePort"]
		}
	}
}

// initIPFamilies sets what kube's allocator sets before it allocates: a
// clusterIP listed in clusterIPs (and the first of clusterIPs as
// clusterIP), the range's single IP family and the SingleStack policy,
// refusing families and policies a single-stack cluster cannot serve.
func (r *serviceRanges) initIPFamilies(name string, spec, oldSpec map[string]any) error {
	if !needsClusterIP(spec) {
		return nil
	}
	ip, _ := spec["clusterIP"].(string)
	ips := meta.AsList(spec["clusterIPs"])
	switch {
	case ip != "" && len(ips) == 0:
		spec["clusterIPs"] = []any{ip}
	case ip == "" && len(ips) > 0:
		spec["clusterIP"] = ips[0]
	}
	family := "IPv4"
	if r.prefix.Addr().Is6() {
		family = "IPv6"
	}
	if oldSpec != nil && needsClusterIP(oldSpec) {
		if _, ok := spec["ipFamilies"]; !ok && oldSpec["ipFamilies"] != nil {
			spec["ipFamilies"] = oldSpec["ipFamilies"]
		}
		if _, ok := spec["ipFamilyPolicy"]; !ok && oldSpec["ipFamilyPolicy"] != nil {
			spec["ipFamilyPolicy"] = oldSpec["ipFamilyPolicy"]
		}
	}
	var errs meta.FieldErrors
	policy, _ := spec["ipFamilyPolicy"].(string)
	switch policy {
	case "":
		spec["ipFamilyPolicy"] = "SingleStack"
	case "RequireDualStack":
		errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: "spec.ipFamilyPolicy", Value: policy,
			Detail: "this cluster is not configured for dual-stack services"})
	}
	families := meta.AsList(spec["ipFamilies"])
	if len(families) == 0 {
		spec["ipFamilies"] = []any{family}
	}
	for i, f := range families {
		if f != family {
			errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: fmt.Sprintf("spec.ipFamilies[%d]", i), Value: f,
				Detail: "not configured on this cluster"})
		}
	}
	if len(errs) > 0 {
		return meta.Invalid(meta.GroupKind{Kind: "Service"}, name, errs)
	}
	return nil
}

func invalidService(name string, e meta.FieldError) error {
	return meta.Invalid(meta.GroupKind{Kind: "Service"}, name, meta.FieldErrors{e})
}

func ipAddressObject(ip netip.Addr, ns, name string) meta.Object {
	family := "IPv4"
	if ip.Is6() {
		family = "IPv6"
	}
	return meta.Object{"apiVersion": "networking.k8s.io/v1", "kind": "IPAddress",
		"metadata": map[string]any{"name": ip.String(), "labels": map[string]any{
			"ipaddress.kubernetes.io/ip-family":  family,
			"ipaddress.kubernetes.io/managed-by": "ipallocator.k8s.io"}},
		"spec": map[string]any{"parentRef": map[string]any{"resource": "services", "namespace": ns, "name": name}}}
}

func needsClusterIP(spec map[string]any) bool { return spec["type"] != "ExternalName" }

func isHeadless(spec map[string]any) bool {
	ips := meta.AsList(spec["clusterIPs"])
	return spec["clusterIP"] == "None" || len(ips) > 0 && ips[0] == "None"
}

func hasClusterIPs(spec map[string]any) bool {
	return needsClusterIP(spec) && !isHeadless(spec) && len(specIPs(spec)) > 0
}

func needsNodePorts(spec map[string]any) bool {
	return spec["type"] == "NodePort" || spec["type"] == "LoadBalancer"
}

func shouldAllocateNodePorts(spec map[string]any) bool {
	if spec["type"] == "NodePort" {
		return true
	}
	if spec["type"] == "LoadBalancer" {
		b, ok := spec["allocateLoadBalancerNodePorts"].(bool)
		return !ok || b
	}
	return false
}

func needsHealthCheck(spec map[string]any) bool {
	return spec["type"] == "LoadBalancer" && spec["externalTrafficPolicy"] == "Local"
}

// specIPs are the addresses of clusterIPs (or clusterIP).
func specIPs(spec map[string]any) []netip.Addr {
	var out []netip.Addr
	list := meta.AsList(spec["clusterIPs"])
	if len(list) == 0 && spec["clusterIP"] != nil {
		list = []any{spec["clusterIP"]}
	}
	for _, v := range list {
		if s, ok := v.(string); ok {
			if a, err := netip.ParseAddr(s); err == nil {
				out = append(out, a)
			}
		}
	}
	return out
}

// serviceIPs are the addresses a stored Service holds.
func serviceIPs(o meta.Object) []netip.Addr {
	spec, _ := o["spec"].(map[string]any)
	if spec == nil || !hasClusterIPs(spec) {
		return nil
	}
	return specIPs(spec)
}

// serviceNodePorts are the node ports a stored Service holds, its health
// check node port included.
func serviceNodePorts(o meta.Object) []int {
	spec, _ := o["spec"].(map[string]any)
	if spec == nil {
		return nil
	}
	out := nodePortsOf(spec)
	if hc, ok := meta.AsInt64(spec["healthCheckNodePort"]); ok && hc != 0 {
		out = append(out, int(hc))
	}
	return out
}

func nodePortsOf(spec map[string]any) []int {
	var out []int
	for _, p := range meta.AsList(spec["ports"]) {
		if port, ok := p.(map[string]any); ok {
			if np, ok := meta.AsInt64(port["nodePort"]); ok && np != 0 {
				out = append(out, int(np))
			}
		}
	}
	return out
}

// randInt is a uniform random number in [0, n).
func randInt(n int) int {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return int(binary.BigEndian.Uint64(b[:]) % uint64(n))
}
