package builtin

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// Node ports are kept as kube-apiserver keeps them: in one RangeAllocation
// record in the store (core/v1, which no API serves), shared by every
// server on the store and changed only by compare and swap
// (Write.UpdateRecord), so two servers never hand out one port; store/etcd
// keeps it at kube's key, /registry/ranges/servicenodeports, in kube's
// encoding, so kapi and kube-apiserver on one etcd share it. Its range is
// "<first>-<last>" and its data kube's allocation bitmap: the big-endian
// bytes of a big integer whose bit i is set when port first+i is taken.
//
// A server marks the node ports of the stored Services in it on its first
// node port write (kube's repair at start, in the direction that prevents
// a port being given twice), unless a repair pass did it first. A port
// leaked by a server that stopped between a write's allocation and its
// revert, or whose giving back the store refused, stays taken until the
// periodic repair frees it (core_service_allocation_nodeports_repair.go).

// nodePortsKey is the store key of the node port RangeAllocation.
const nodePortsKey = "/ranges/servicenodeports"

var (
	errPortRangeFull     = errors.New("range is full")
	errPortRangeMismatch = errors.New("the provided port range does not match the current port range")
)

// portWant is one node port a write takes: port, or a free one when 0.
// fail turns what refused it into the write's error.
type portWant struct {
	port int
	fail func(error) error
}

// portRangeSpec is the range as a RangeAllocation writes it.
func (r *serviceRanges) portRangeSpec() string { return fmt.Sprintf("%d-%d", r.portBase, r.last) }

// portBits reads the bitmap of a stored RangeAllocation (an empty one when
// there is none); ok is false when it is kept for another range.
func (r *serviceRanges) portBits(rec meta.Object) (bits *big.Int, ok bool, err error) {
	bits = new(big.Int)
	if rec == nil {
		return bits, true, nil
	}
	if spec, _ := rec["range"].(string); spec != r.portRangeSpec() {
		return bits, false, nil
	}
	data, _ := rec["data"].(string)
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return nil, false, fmt.Errorf("the stored node port allocation is not valid: %v", err)
	}
	return bits.SetBytes(b), true, nil
}

// portRecord is the RangeAllocation holding bits, keeping prev's metadata.
func (r *serviceRanges) portRecord(prev meta.Object, bits *big.Int) meta.Object {
	md := map[string]any{}
	if prev != nil {
		if m, ok := prev["metadata"].(map[string]any); ok {
			md = m
		}
	}
	return meta.Object{"apiVersion": "v1", "kind": "RangeAllocation", "metadata": md,
		"range": r.portRangeSpec(), "data": base64.StdEncoding.EncodeToString(bits.Bytes())}
}

// portOffset is where kube's allocator starts looking for a free node
// port (the static subrange below it is left for clients that name one):
// a 32nd of the range, at least 16 and at most 128.
func (r *serviceRanges) portOffset() int { return staticBand(r.last-r.portBase+1, 32, 128) }

// nextFreePort is a random free offset at or above the range's offset,
// else below it, as kube's allocator picks one.
func (r *serviceRanges) nextFreePort(bits *big.Int) (int, bool) {
	size, offset := r.last-r.portBase+1, r.portOffset()
	for _, band := range [][2]int{{offset, size}, {0, offset}} {
		lo, hi := band[0], band[1]
		if hi <= lo {
			continue
		}
		start := randInt(hi - lo)
		for k := 0; k < hi-lo; k++ {
			if i := lo + (start+k)%(hi-lo); bits.Bit(i) == 0 {
				return i, true
			}
		}
	}
	return 0, false
}

// storedServicePorts are the node ports the stored Services hold, to be
// marked taken by this server's first node port write; none after it.
func (a *serviceAllocation) storedServicePorts() ([]int, error) {
	if a.st.portsMarked {
		return nil, nil
	}
	svcs, err := a.w.List(servicesGR, "")
	if err != nil {
		return nil, err
	}
	var out []int
	for _, s := range svcs {
		out = append(out, serviceNodePorts(s.Data())...)
	}
	return out, nil
}

// takePorts takes what wants ask for in one compare and swap of the
// RangeAllocation, in order, failing with the first want refused; it
// answers the port each got. A dry run takes nothing: it checks the ports
// asked for and answers kube's dummy ports (32769, then one more for
// each further port) for the others.
func (a *serviceAllocation) takePorts(wants []portWant) ([]int, error) {
	if len(wants) == 0 {
		return nil, nil
	}
	marks, err := a.storedServicePorts()
	if err != nil {
		return nil, err
	}
	r := a.ranges
	var got []int
	_, err = a.w.UpdateRecord(nodePortsKey, func(cur meta.Object) (meta.Object, error) {
		got = got[:0]
		bits, ok, err := r.portBits(cur)
		if err != nil {
			return nil, meta.Internal(err)
		}
		if !ok && a.st.portsMarked {
			return nil, wants[0].fail(errPortRangeMismatch)
		}
		// On the first write, a record of another range is rebuilt from
		// the Services, as kube's repair does.
		for _, p := range marks {
			if p >= r.portBase && p <= r.last {
				bits.SetBit(bits, p-r.portBase, 1)
			}
		}
		dummy := 32769
		for _, want := range wants {
			n := want.port
			switch {
			case n == 0 && a.w.DryRun:
				n = dummy
			case n == 0:
				i, ok := r.nextFreePort(bits)
				if !ok {
					return nil, want.fail(errPortRangeFull)
				}
				n = r.portBase + i
			case n < r.portBase || n > r.last:
				return nil, want.fail(fmt.Errorf("provided port is not in the valid range. The range of valid ports is %s", r.portRangeSpec()))
			case bits.Bit(n-r.portBase) == 1:
				return nil, want.fail(errPortTaken)
			}
			if n >= r.portBase && n <= r.last {
				bits.SetBit(bits, n-r.portBase, 1)
			}
			if n >= dummy {
				dummy = n + 1
			}
			got = append(got, n)
		}
		return r.portRecord(cur, bits), nil
	})
	if err != nil {
		return nil, err
	}
	if !a.w.DryRun {
		a.st.portsMarked = true
		a.ports = append(a.ports, got...)
		a.hold(got)
	}
	return got, nil
}

// freePorts gives ports back in one compare and swap. A failure leaves
// them taken until the repair frees them: a port is never given twice.
func (a *serviceAllocation) freePorts(ports []int) {
	if len(ports) == 0 || a.w.DryRun {
		return
	}
	marks, err := a.storedServicePorts()
	if err != nil {
		return
	}
	r := a.ranges
	_, err = a.w.UpdateRecord(nodePortsKey, func(cur meta.Object) (meta.Object, error) {
		bits, ok, err := r.portBits(cur)
		if err != nil || !ok && a.st.portsMarked {
			return nil, store.ErrNoChange
		}
		for _, p := range marks {
			if p >= r.portBase && p <= r.last {
				bits.SetBit(bits, p-r.portBase, 1)
			}
		}
		for _, p := range ports {
			if p >= r.portBase && p <= r.last {
				bits.SetBit(bits, p-r.portBase, 0)
			}
		}
		return r.portRecord(cur, bits), nil
	})
	if err == nil {
		a.st.portsMarked = true
	}
}
