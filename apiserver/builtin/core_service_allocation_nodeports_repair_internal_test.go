package builtin

import (
	"encoding/base64"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/meta"
)

// rangeRecord is a RangeAllocation of spec marking ports (base the
// range's first port).
func rangeRecord(spec string, base int, ports ...int) meta.Object {
	bits := new(big.Int)
	for _, p := range ports {
		bits.SetBit(bits, p-base, 1)
	}
	return meta.Object{"apiVersion": "v1", "kind": "RangeAllocation", "metadata": map[string]any{},
		"range": spec, "data": base64.StdEncoding.EncodeToString(bits.Bytes())}
}

// nodePortService is a stored Service with one TCP port per node port.
func nodePortService(name string, ports ...int) meta.Object {
	var list []any
	for i, p := range ports {
		list = append(list, map[string]any{"port": int64(80 + i), "protocol": "TCP", "nodePort": int64(p)})
	}
	return meta.Object{"apiVersion": "v1", "kind": "Service",
		"metadata": map[string]any{"name": name, "namespace": "default", "uid": name + "-uid", "resourceVersion": "7"},
		"spec":     map[string]any{"type": "NodePort", "ports": list}}
}

// repairStep is one pass: what is stored (nil record: the previous pass's
// result) and what the pass must decide.
type repairStep struct {
	record   meta.Object
	services []meta.Object
	held     []int
	// the ports the repaired record marks, those freed, and the reasons
	// of the events, in order
	marked, freed []int
	reasons       []string
}

func TestNodePortRepairPass(t *testing.T) {
	r := &serviceRanges{portBase: 30000, last: 30099}
	ours := "30000-30099"
	cases := []struct {
		name  string
		steps []repairStep
	}{
		{"a port no Service holds is freed by the third pass that sees it leaked", []repairStep{
			{record: rangeRecord(ours, 30000, 30005), marked: []int{30005}},
			{marked: []int{30005}},
			{marked: nil, freed: []int{30005}},
		}},
		{"a port a Service holds is marked, and the Service told it was not", []repairStep{
			{record: rangeRecord(ours, 30000), services: []meta.Object{nodePortService("a", 30010)},
				marked: []int{30010}, reasons: []string{"PortNotAllocated"}},
			{services: []meta.Object{nodePortService("a", 30010)}, marked: []int{30010}},
		}},
		{"no record is a record of nothing", []repairStep{
			{services: []meta.Object{nodePortService("a", 30010)}, marked: []int{30010}, reasons: []string{"PortNotAllocated"}},
		}},
		{"a port held again before it is freed is counted from the start when it leaks again", []repairStep{
			{record: rangeRecord(ours, 30000, 30005), marked: []int{30005}},
			{services: []meta.Object{nodePortService("a", 30005)}, marked: []int{30005}},
			{marked: []int{30005}},
			{marked: []int{30005}},
			{marked: nil, freed: []int{30005}},
		}},
		{"a port given back and taken again between passes is counted from the start", []repairStep{
			{record: rangeRecord(ours, 30000, 30005), marked: []int{30005}},
			{marked: []int{30005}},
			{record: rangeRecord(ours, 30000), marked: nil}, // given back: the count ends
			{record: rangeRecord(ours, 30000, 30005), marked: []int{30005}},
			{marked: []int{30005}},
			{marked: nil, freed: []int{30005}},
		}},
		{"a port a write of this server holds is never counted leaked", []repairStep{
			{record: rangeRecord(ours, 30000, 30005), held: []int{30005}, marked: []int{30005}},
			{held: []int{30005}, marked: []int{30005}},
			{held: []int{30005}, marked: []int{30005}},
			{held: []int{30005}, marked: []int{30005}},
			{marked: []int{30005}},
			{marked: []int{30005}},
			{marked: nil, freed: []int{30005}},
		}},
		{"a port two Services hold stays taken and the second is told", []repairStep{
			{record: rangeRecord(ours, 30000, 30010),
				services: []meta.Object{nodePortService("a", 30010), nodePortService("b", 30010)},
				marked:   []int{30010}, reasons: []string{"PortAlreadyAllocated"}},
		}},
		{"a port outside the range is left out and its Service told", []repairStep{
			{record: rangeRecord(ours, 30000), services: []meta.Object{nodePortService("a", 40000)},
				marked: nil, reasons: []string{"PortOutOfRange"}},
		}},
		{"a record of another range is rebuilt in this server's", []repairStep{
			{record: rangeRecord("30000-30009", 30000, 30003, 30005), services: []meta.Object{nodePortService("a", 30005)},
				marked: []int{30003, 30005}},
			{marked: []int{30003, 30005}, services: []meta.Object{nodePortService("a", 30005)}},
			{marked: []int{30005}, freed: []int{30003}, services: []meta.Object{nodePortService("a", 30005)}},
		}},
		{"a port leaked outside this server's range is dropped", []repairStep{
			{record: rangeRecord("31000-31009", 31000, 31003), marked: nil},
		}},
		{"one port listed for two protocols counts once, with the health check node port", []repairStep{
			{record: rangeRecord(ours, 30000, 30010, 30011), services: []meta.Object{{"apiVersion": "v1", "kind": "Service",
				"metadata": map[string]any{"name": "a", "namespace": "default"},
				"spec": map[string]any{"type": "LoadBalancer", "healthCheckNodePort": int64(30011), "ports": []any{
					map[string]any{"port": int64(53), "protocol": "TCP", "nodePort": int64(30010)},
					map[string]any{"port": int64(53), "protocol": "UDP", "nodePort": int64(30010)}}}}},
				marked: []int{30010, 30011}},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			leaks := map[int]int{}
			var rec meta.Object
			for i, step := range c.steps {
				if step.record != nil {
					rec = step.record
				}
				held := map[int]bool{}
				for _, p := range step.held {
					held[p] = true
				}
				pass, err := r.repairPass(rec, step.services, held, leaks)
				require.NoError(t, err, "pass %d", i+1)
				got, err := r.storedPorts(r.portRecord(rec, pass.bits))
				require.NoError(t, err)
				assert.Equal(t, step.marked, nilIfEmpty(sortedPorts(got)), "pass %d: the ports marked", i+1)
				assert.Equal(t, step.freed, pass.freed, "pass %d: the ports freed", i+1)
				var reasons []string
				for _, p := range pass.problems {
					reasons = append(reasons, p.reason)
				}
				assert.Equal(t, step.reasons, reasons, "pass %d: the events", i+1)
				rec, leaks = r.portRecord(rec, pass.bits), pass.leaks
			}
		})
	}
}

func nilIfEmpty(s []int) []int {
	if len(s) == 0 {
		return nil
	}
	return s
}

func TestNodePortRepairPassRefusesARecordItCannotRead(t *testing.T) {
	r := &serviceRanges{portBase: 30000, last: 30099}
	for _, rec := range []meta.Object{
		{"range": "30000-30099", "data": "not base64!"},
		{"range": "a-b", "data": ""},
		{"range": "30099-30000", "data": ""},
	} {
		_, err := r.repairPass(rec, nil, nil, map[int]int{})
		assert.ErrorContains(t, err, "unable to rebuild allocator from snapshot", "%v", rec)
	}
}

func TestParsePortRangeReadsKubesForms(t *testing.T) {
	for _, c := range []struct {
		spec       string
		base, size int
	}{
		{"30000-32767", 30000, 2768},
		{"30000+99", 30000, 100},
		{"30005", 30005, 1},
	} {
		base, size, err := parsePortRange(c.spec)
		require.NoError(t, err, c.spec)
		assert.Equal(t, [2]int{c.base, c.size}, [2]int{base, size}, c.spec)
	}
}

func TestADeletesHoldOnItsPortsEndsOnlyWhenThereIsNothingLeftToProtect(t *testing.T) {
	cases := []struct {
		name           string
		heldDuringPass bool
		stillStored    bool
		recorded       []int
		kept           bool
	}{
		{"a Service gone whose ports the record no longer marks is let go", false, false, nil, false},
		{"a Service still stored keeps its hold (its delete may be in flight)", false, true, nil, true},
		{"a Service gone whose ports the record marks keeps its hold (its Release is to come)", false, false, []int{30005}, true},
		{"a hold taken while the pass ran is kept", true, false, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := &serviceState{}
			svc := nodePortService("a", 30005)
			if !c.heldDuringPass {
				st.holdDeleting(svc)
			}
			held, gen := st.heldPorts()
			assert.Equal(t, !c.heldDuringPass, held[30005], "the pass sees the hold taken before it")
			if c.heldDuringPass {
				st.holdDeleting(svc)
			}
			var services []meta.Object
			if c.stillStored {
				services = append(services, svc)
			}
			recorded := map[int]bool{}
			for _, p := range c.recorded {
				recorded[p] = true
			}
			st.passDone(gen, services, recorded)
			assert.Equal(t, c.kept, len(st.deleting) == 1)
		})
	}
}
