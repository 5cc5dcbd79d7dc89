package builtin

import (
	"fmt"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// A NetworkPolicy is checked as kube's ValidateNetworkPolicy checks it:
// its pod selector, each rule's ports and peers (selectors or an ipBlock
// of CIDRs), its policy types.

// Validate is kube's ValidateNetworkPolicySpec.
func (networkPolicyStrategy) Validate(w *apiserver.Write, o meta.Object) meta.FieldErrors {
	e := fieldErrs{release: w.Release()}
	e.networkPolicySpec("spec", asMap(o["spec"]), nil)
	return e.list
}

// ValidateUpdate validates the new version; kube's strategy checks its
// spec twice (ValidateNetworkPolicy, then ValidateNetworkPolicyUpdate), so
// each problem comes twice among the causes (once in the message).
// The CIDRs the old version holds stay accepted (kube's
// AllowCIDRsEvenIfInvalid).
func (s networkPolicyStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	e := fieldErrs{release: w.Release()}
	e.networkPolicySpec("spec", asMap(o["spec"]), networkPolicyCIDRs(old))
	return append(e.list, e.list...)
}

// networkPolicyCIDRs are the CIDRs a policy's ipBlocks hold.
func networkPolicyCIDRs(o meta.Object) map[string]bool {
	cidrs := map[string]bool{}
	for _, dir := range []struct{ rules, peers string }{{"ingress", "from"}, {"egress", "to"}} {
		for _, r := range meta.AsList(field(o, "spec", dir.rules)) {
			for _, peer := range meta.AsList(asMap(r)[dir.peers]) {
				block := asMap(asMap(peer)["ipBlock"])
				if c, ok := block["cidr"].(string); ok {
					cidrs[c] = true
				}
				for _, x := range stringList(block["except"]) {
					cidrs[x] = true
				}
			}
		}
	}
	return cidrs
}

// networkPolicySpec is kube's ValidateNetworkPolicySpec; keep are CIDRs
// accepted as they are.
func (e *fieldErrs) networkPolicySpec(path string, spec map[string]any, keep map[string]bool) {
	e.labelSelector(path+".podSelector", spec["podSelector"])
	for _, dir := range []struct{ rules, peers string }{{"ingress", "from"}, {"egress", "to"}} {
		for i, r := range meta.AsList(spec[dir.rules]) {
			rule := asMap(r)
			p := fmt.Sprintf("%s.%s[%d]", path, dir.rules, i)
			for j, port := range meta.AsList(rule["ports"]) {
				e.networkPolicyPort(fmt.Sprintf("%s.ports[%d]", p, j), asMap(port))
			}
			for j, peer := range meta.AsList(rule[dir.peers]) {
				e.networkPolicyPeer(fmt.Sprintf("%s.%s[%d]", p, dir.peers, j), asMap(peer), keep)
			}
		}
	}
	types := meta.AsList(spec["policyTypes"])
	if len(types) > 2 {
		e.invalid(path+".policyTypes", goPolicyTypes(types), "may not specify more than two policyTypes")
		return
	}
	for i, t := range types {
		s, _ := t.(string)
		if s != "Ingress" && s != "Egress" {
			e.notSupported(fmt.Sprintf("%s.policyTypes[%d]", path, i), s, "Ingress", "Egress")
		}
	}
}

// networkPolicyPort is kube's ValidateNetworkPolicyPort.
func (e *fieldErrs) networkPolicyPort(path string, port map[string]any) {
	if proto, ok := port["protocol"].(string); ok && proto != "TCP" && proto != "UDP" && proto != "SCTP" {
		e.notSupported(path+".protocol", proto, "TCP", "UDP", "SCTP")
	}
	end, hasEnd := meta.AsInt64(port["endPort"])
	n, numeric := meta.AsInt64(port["port"])
	name, named := port["port"].(string)
	switch {
	case numeric:
		e.portNumber(path+".port", n)
		if hasEnd {
			if end < n {
				shown := n // kube before 1.37 shows the port as the value
				if e.release.AtLeast(37) {
					shown = end
				}
				e.invalid(path+".endPort", shown, "must be greater than or equal to `port`")
			}
			e.portNumber(path+".endPort", end)
		}
	case named:
		if hasEnd {
			e.invalid(path+".endPort", end, "may not be specified when `port` is non-numeric")
		}
		e.invalidAll(path+".port", name, portNameErrors(name))
	case hasEnd:
		e.invalid(path+".endPort", end, "may not be specified when `port` is not specified")
	}
}

// networkPolicyPeer is kube's ValidateNetworkPolicyPeer: one of a pod
// selector and a namespace selector (or both), or an ipBlock alone.
func (e *fieldErrs) networkPolicyPeer(path string, peer map[string]any, keep map[string]bool) {
	peers := 0
	if sel, ok := peer["podSelector"].(map[string]any); ok {
		peers++
		e.labelSelector(path+".podSelector", sel)
	}
	if sel, ok := peer["namespaceSelector"].(map[string]any); ok {
		peers++
		e.labelSelector(path+".namespaceSelector", sel)
	}
	block, hasBlock := peer["ipBlock"].(map[string]any)
	if hasBlock {
		peers++
		e.ipBlock(path+".ipBlock", block, keep)
	}
	switch {
	case peers == 0:
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path, Detail: "must specify a peer"})
	case peers > 1 && hasBlock:
		e.forbidden(path, "may not specify both ipBlock and another peer")
	}
}

// ipBlock is kube's ValidateIPBlock: a CIDR, and excepts strictly inside
// it.
func (e *fieldErrs) ipBlock(path string, block map[string]any, keep map[string]bool) {
	cidr, _ := block["cidr"].(string)
	if cidr == "" {
		e.required(path + ".cidr")
		return
	}
	outer, ok := e.cidr(path+".cidr", cidr, keep)
	if !ok {
		return
	}
	outerBits, _ := outer.Mask.Size()
	for i, x := range meta.AsList(block["except"]) {
		s, _ := x.(string)
		p := fmt.Sprintf("%s.except[%d]", path, i)
		inner, ok := e.cidr(p, s, keep)
		if !ok {
			continue
		}
		innerBits, _ := inner.Mask.Size()
		if !outer.Contains(inner.IP) || outerBits >= innerBits {
			e.invalid(p, s, "must be a strict subset of `cidr`")
		}
	}
}

// goPolicyTypes prints a NetworkPolicy's policyTypes as kube's messages
// show them.
func goPolicyTypes(list []any) kubeValue {
	return typedStrings("networking.PolicyType", list)
}
