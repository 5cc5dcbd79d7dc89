# Validation cases for Ingress, IngressClass, NetworkPolicy, PriorityClass and
# RuntimeClass: each is (name, setup requests, request). Bodies are JSON.
# Namespaced requests use the namespace "val" (record.py swaps in a fresh
# valnet-* namespace); cluster-scoped objects are named valnet-*.
ING = "/apis/networking.k8s.io/v1/namespaces/val/ingresses"
ICS = "/apis/networking.k8s.io/v1/ingressclasses"
NPS = "/apis/networking.k8s.io/v1/namespaces/val/networkpolicies"
PCS = "/apis/scheduling.k8s.io/v1/priorityclasses"
RCS = "/apis/node.k8s.io/v1/runtimeclasses"
EPS = "/apis/discovery.k8s.io/v1/namespaces/val/endpointslices"
MP = "application/merge-patch+json"
def post(path, body): return ("POST", path, body, "application/json")
def put(path, body): return ("PUT", path, body, "application/json")
def patch(path, body, ct=MP): return ("PATCH", path, body, ct)

SVC = {"service": {"name": "web", "port": {"number": 80}}}
def hpath(path="/", pathType="Prefix", backend=None):
    p = {"path": path, "pathType": pathType, "backend": backend if backend is not None else SVC}
    if path is None: del p["path"]
    if pathType is None: del p["pathType"]
    return p
def ing(name="i", spec=None, md=None, paths=None, host=None):
    if spec is None:
        rule = {"http": {"paths": paths if paths is not None else [hpath()]}}
        if host is not None: rule["host"] = host
        spec = {"rules": [rule]}
    m = {"name": name}; m.update(md or {})
    return {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": m, "spec": spec}
def ic(name="valnet-ic", spec=None):
    return {"apiVersion": "networking.k8s.io/v1", "kind": "IngressClass", "metadata": {"name": name},
            "spec": spec if spec is not None else {"controller": "example.com/ingress"}}
def np(name="n", spec=None):
    return {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": {"name": name},
            "spec": spec if spec is not None else {"podSelector": {}}}
def ingress_rule(ports=None, peers=None):
    r = {}
    if ports is not None: r["ports"] = ports
    if peers is not None: r["from"] = peers
    return {"podSelector": {}, "ingress": [r]}
def pc(name="valnet-pc", value=1000, **kw):
    o = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": name}, "value": value}
    o.update(kw); return o
def rc(name="valnet-rc", handler="runc", **kw):
    o = {"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass", "metadata": {"name": name}, "handler": handler}
    o.update(kw); return o
def eps(name="e", addressType="IPv4", endpoints=None, ports=None):
    o = {"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice", "metadata": {"name": name}, "addressType": addressType,
         "endpoints": endpoints if endpoints is not None else [{"addresses": ["10.0.0.1"]}]}
    if ports is not None: o["ports"] = ports
    return o

CASES = [
 # Ingress
 ("an ingress with a prefix path is created", [], post(ING, ing())),
 ("a prefix path must be absolute", [], post(ING, ing(paths=[hpath("nope")]))),
 ("an exact path must be absolute", [], post(ING, ing(paths=[hpath("nope", "Exact")]))),
 ("a prefix path may not be empty", [], post(ING, ing(paths=[hpath(None)]))),
 ("a path may not hold '//' or '/./'", [], post(ING, ing(paths=[hpath("/a//b/./c")]))),
 ("a path may not hold an encoded slash", [], post(ING, ing(paths=[hpath("/a%2fb", "Exact")]))),
 ("a path may not end with '/..'", [], post(ING, ing(paths=[hpath("/a/..")]))),
 ("a path may not end with '/.'", [], post(ING, ing(paths=[hpath("/a/.")]))),
 ("an implementation-specific path may be empty", [], post(ING, ing(paths=[hpath(None, "ImplementationSpecific")]))),
 ("an implementation-specific path may hold a regex", [], post(ING, ing(paths=[hpath("/a/(.*)//", "ImplementationSpecific")]))),
 ("an implementation-specific path must be absolute", [], post(ING, ing(paths=[hpath("a", "ImplementationSpecific")]))),
 ("a path needs a pathType", [], post(ING, ing(paths=[hpath("/", None)]))),
 ("a pathType is an enum", [], post(ING, ing(paths=[hpath("/", "Regex")]))),
 ("an http rule needs paths", [], post(ING, ing(paths=[]))),
 ("an ingress needs rules or a default backend", [], post(ING, ing(spec={}))),
 ("an ingress may have only a default backend", [], post(ING, ing(spec={"defaultBackend": SVC}))),
 ("a host may not be an IP address", [], post(ING, ing(host="10.0.0.1"))),
 ("a host must be a DNS subdomain", [], post(ING, ing(host="Foo_bar.com"))),
 ("a host may be a wildcard", [], post(ING, ing(host="*.example.com"))),
 ("a wildcard must be the first label", [], post(ING, ing(host="a.*.com"))),
 ("a lone wildcard is refused", [], post(ING, ing(host="*"))),
 ("a backend service name must be a DNS-1035 label", [], post(ING, ing(paths=[hpath(backend={"service": {"name": "1web", "port": {"number": 80}}})]))),
 ("a backend service name is required", [], post(ING, ing(paths=[hpath(backend={"service": {"name": "", "port": {"number": 80}}})]))),
 ("a backend port number is in 1-65535", [], post(ING, ing(paths=[hpath(backend={"service": {"name": "web", "port": {"number": 70000}}})]))),
 ("a backend port name must be a port name", [], post(ING, ing(paths=[hpath(backend={"service": {"name": "web", "port": {"name": "HTTP_1"}}})]))),
 ("a backend port may be named", [], post(ING, ing(paths=[hpath(backend={"service": {"name": "web", "port": {"name": "http"}}})]))),
 ("a backend port needs a name or a number", [], post(ING, ing(paths=[hpath(backend={"service": {"name": "web", "port": {}}})]))),
 ("a backend port may not have both a name and a number", [], post(ING, ing(paths=[hpath(backend={"service": {"name": "web", "port": {"name": "http", "number": 80}}})]))),
 ("a backend needs a service or a resource", [], post(ING, ing(paths=[hpath(backend={})]))),
 ("a backend may not have both a service and a resource", [], post(ING, ing(paths=[hpath(backend={"service": {"name": "web", "port": {"number": 80}}, "resource": {"kind": "Bucket", "name": "b"}})]))),
 ("a resource backend is created", [], post(ING, ing(paths=[hpath(backend={"resource": {"apiGroup": "example.com", "kind": "Bucket", "name": "b"}})]))),
 ("a resource backend's kind and name may not hold slashes", [], post(ING, ing(paths=[hpath(backend={"resource": {"apiGroup": "Example_com", "kind": "a/b", "name": ".."}})]))),
 ("a resource backend needs a kind and a name", [], post(ING, ing(paths=[hpath(backend={"resource": {"apiGroup": "example.com"}})]))),
 ("a host that reads as an IP with leading zeros is an IP", [], post(ING, ing(host="010.0.0.1"))),
 ("a default backend is validated", [], post(ING, ing(spec={"defaultBackend": {"service": {"name": "web", "port": {"number": 0}}}}))),
 ("a TLS host must be a DNS subdomain", [], post(ING, ing(spec={"rules": [{"host": "a.com", "http": {"paths": [hpath()]}}], "tls": [{"hosts": ["a.com", "B_c.com", "*.ok.com", "a.*.com"], "secretName": "s"}]}))),
 ("a TLS secret name must be a DNS subdomain", [], post(ING, ing(spec={"rules": [{"http": {"paths": [hpath()]}}], "tls": [{"secretName": "Bad_Secret"}]}))),
 ("an ingressClassName must be a DNS subdomain", [], post(ING, ing(spec={"ingressClassName": "Bad_Class", "defaultBackend": SVC}))),
 ("the ingress.class annotation must match ingressClassName", [], post(ING, ing(spec={"ingressClassName": "a", "defaultBackend": SVC}, md={"annotations": {"kubernetes.io/ingress.class": "b"}}))),
 ("the ingress.class annotation may differ from ingressClassName on update", [post(ING, ing(spec={"defaultBackend": SVC}, md={"annotations": {"kubernetes.io/ingress.class": "b"}}))], patch(ING+"/i", {"spec": {"ingressClassName": "a"}})),
 ("errors come in kube's order", [], post(ING, ing(spec={"ingressClassName": "X", "defaultBackend": {}, "rules": [{"host": "10.0.0.1", "http": {"paths": [hpath("a"), hpath("/b", "Regex")]}}], "tls": [{"hosts": ["X"], "secretName": "Y"}]}))),
 ("an ingress update is validated", [post(ING, ing())], patch(ING+"/i", {"spec": {"rules": [{"http": {"paths": [hpath("nope")]}}]}})),
 ("an ingress status load balancer IP must be an IP", [post(ING, ing())], patch(ING+"/i/status", {"status": {"loadBalancer": {"ingress": [{"ip": "nope"}]}}})),
 ("an ingress status load balancer hostname may not be an IP", [post(ING, ing())], patch(ING+"/i/status", {"status": {"loadBalancer": {"ingress": [{"hostname": "10.0.0.1"}]}}})),
 ("an ingress status is not checked for the spec", [post(ING, ing())], patch(ING+"/i/status", {"status": {"loadBalancer": {"ingress": [{"ip": "10.0.0.1", "hostname": "lb.example.com"}]}}})),
 # IngressClass
 ("an ingress class is created", [], post(ICS, ic())),
 ("an ingress class needs a controller", [], post(ICS, ic(spec={}))),
 ("a controller must be a domain-prefixed path", [], post(ICS, ic(spec={"controller": "nginx"}))),
 ("a controller's domain must be a DNS subdomain", [], post(ICS, ic(spec={"controller": "Example_com/x"}))),
 ("a controller's path must be a path", [], post(ICS, ic(spec={"controller": "example.com/a b"}))),
 ("a controller is at most 250 bytes", [], post(ICS, ic(spec={"controller": "example.com/" + "a" * 250}))),
 ("a controller is immutable", [post(ICS, ic())], patch(ICS+"/valnet-ic", {"spec": {"controller": "example.com/other"}})),
 ("parameters need a kind and a name", [], post(ICS, ic(spec={"controller": "example.com/x", "parameters": {"apiGroup": "Bad_Group"}}))),
 ("parameters' kind and name are path segments", [], post(ICS, ic(spec={"controller": "example.com/x", "parameters": {"kind": "a/b", "name": "%"}}))),
 ("a parameters scope is an enum", [], post(ICS, ic(spec={"controller": "example.com/x", "parameters": {"kind": "K", "name": "n", "scope": "World"}}))),
 ("namespace-scoped parameters need a namespace", [], post(ICS, ic(spec={"controller": "example.com/x", "parameters": {"kind": "K", "name": "n", "scope": "Namespace"}}))),
 ("a parameters namespace must be a DNS label", [], post(ICS, ic(spec={"controller": "example.com/x", "parameters": {"kind": "K", "name": "n", "scope": "Namespace", "namespace": "a.b"}}))),
 ("cluster-scoped parameters may not have a namespace", [], post(ICS, ic(spec={"controller": "example.com/x", "parameters": {"kind": "K", "name": "n", "scope": "Cluster", "namespace": "a"}}))),
 ("parameters default to cluster scope", [], post(ICS, ic(spec={"controller": "example.com/x", "parameters": {"apiGroup": "example.com", "kind": "K", "name": "n"}}))),
 ("an ingress class update is validated", [post(ICS, ic())], patch(ICS+"/valnet-ic", {"spec": {"parameters": {"kind": "K", "name": "n", "scope": "World"}}})),
 # NetworkPolicy
 ("a network policy is created", [], post(NPS, np(spec={"podSelector": {"matchLabels": {"app": "a"}}, "policyTypes": ["Ingress", "Egress"],
     "ingress": [{"ports": [{"port": 80}, {"port": "http", "protocol": "UDP"}, {"port": 1000, "endPort": 2000}],
                  "from": [{"podSelector": {}}, {"namespaceSelector": {"matchLabels": {"a": "b"}}, "podSelector": {}}, {"ipBlock": {"cidr": "10.0.0.0/8", "except": ["10.1.0.0/16"]}}]}],
     "egress": [{"to": [{"ipBlock": {"cidr": "2001:db8::/32"}}]}]}))),
 ("a policy port protocol is an enum", [], post(NPS, np(spec=ingress_rule(ports=[{"port": 80, "protocol": "HTTP"}])))),
 ("a policy port is in 1-65535", [], post(NPS, np(spec=ingress_rule(ports=[{"port": 70000}])))),
 ("a named policy port must be a port name", [], post(NPS, np(spec=ingress_rule(ports=[{"port": "HTTP_1"}])))),
 ("an end port may not be below the port", [], post(NPS, np(spec=ingress_rule(ports=[{"port": 80, "endPort": 79}])))),
 ("an end port is in 1-65535", [], post(NPS, np(spec=ingress_rule(ports=[{"port": 80, "endPort": 70000}])))),
 ("an end port needs a numeric port", [], post(NPS, np(spec=ingress_rule(ports=[{"port": "http", "endPort": 90}])))),
 ("an end port needs a port", [], post(NPS, np(spec=ingress_rule(ports=[{"endPort": 90}])))),
 ("a peer must say something", [], post(NPS, np(spec=ingress_rule(peers=[{}])))),
 ("an ipBlock peer may not have selectors", [], post(NPS, np(spec=ingress_rule(peers=[{"ipBlock": {"cidr": "10.0.0.0/8"}, "podSelector": {}}])))),
 ("an ipBlock needs a cidr", [], post(NPS, np(spec=ingress_rule(peers=[{"ipBlock": {"cidr": ""}}])))),
 ("an ipBlock cidr must be a CIDR", [], post(NPS, np(spec=ingress_rule(peers=[{"ipBlock": {"cidr": "10.0.0.0/33"}}])))),
 ("an ipBlock cidr may be a host address", [], post(NPS, np(spec=ingress_rule(peers=[{"ipBlock": {"cidr": "10.0.0.1/8"}}])))),
 ("an ipBlock cidr may have leading zeros", [], post(NPS, np(spec=ingress_rule(peers=[{"ipBlock": {"cidr": "010.000.0.0/8"}}])))),
 ("an except must be a CIDR", [], post(NPS, np(spec=ingress_rule(peers=[{"ipBlock": {"cidr": "10.0.0.0/8", "except": ["nope"]}}])))),
 ("an except must be a strict subset of the cidr", [], post(NPS, np(spec=ingress_rule(peers=[{"ipBlock": {"cidr": "10.0.0.0/8", "except": ["10.0.0.0/8", "11.0.0.0/16", "10.0.0.0/7"]}}])))),
 ("egress peers are checked", [], post(NPS, np(spec={"podSelector": {}, "egress": [{"ports": [{"port": 0}], "to": [{}]}]}))),
 ("a policy type is an enum", [], post(NPS, np(spec={"podSelector": {}, "policyTypes": ["Ingress", "Sideways"]}))),
 ("at most two policy types", [], post(NPS, np(spec={"podSelector": {}, "policyTypes": ["Ingress", "Egress", "Ingress"]}))),
 ("a pod selector must be valid", [], post(NPS, np(spec={"podSelector": {"matchLabels": {"a": "b c"}, "matchExpressions": [{"key": "k", "operator": "In"}]}}))),
 ("peer selectors must be valid", [], post(NPS, np(spec=ingress_rule(peers=[{"podSelector": {"matchLabels": {"a b": "c"}}, "namespaceSelector": {"matchExpressions": [{"key": "k", "operator": "Exists", "values": ["x"]}]}}])))),
 ("a network policy update is validated", [post(NPS, np())], patch(NPS+"/n", {"spec": {"ingress": [{"ports": [{"port": 70000}]}]}})),
 # PriorityClass
 ("a priority class is created", [], post(PCS, pc(value=1000000000, description="d"))),
 ("a user priority is at most one billion", [], post(PCS, pc(value=2000000000))),
 ("a negative priority is allowed", [], post(PCS, pc(value=-5))),
 ("the system- prefix is reserved", [], post(PCS, pc("system-valnet", value=1))),
 ("a system class must keep its value", [], post(PCS, pc("system-cluster-critical", value=1))),
 ("a system class may not be the global default", [], post(PCS, pc("system-cluster-critical", value=2000000000, globalDefault=True))),
 ("a preemption policy is an enum", [], post(PCS, pc(preemptionPolicy="Sometimes"))),
 ("a priority value is immutable", [post(PCS, pc())], patch(PCS+"/valnet-pc", {"value": 2000})),
 ("a preemption policy is immutable", [post(PCS, pc())], patch(PCS+"/valnet-pc", {"preemptionPolicy": "Never"})),
 ("a description may change", [post(PCS, pc())], patch(PCS+"/valnet-pc", {"description": "new"})),
 ("a second global default is refused", [post(PCS, pc("valnet-pc-a", globalDefault=True))], post(PCS, pc("valnet-pc-b", globalDefault=True))),
 ("a class may not become a second global default", [post(PCS, pc("valnet-pc-a", globalDefault=True)), post(PCS, pc("valnet-pc-b"))], patch(PCS+"/valnet-pc-b", {"globalDefault": True})),
 ("the global default may be updated", [post(PCS, pc("valnet-pc-a", globalDefault=True))], patch(PCS+"/valnet-pc-a", {"description": "x"})),
 # RuntimeClass
 ("a runtime class is created", [], post(RCS, rc(overhead={"podFixed": {"cpu": "250m", "memory": "64Mi"}},
     scheduling={"nodeSelector": {"runtime": "runc"}, "tolerations": [{"key": "k", "operator": "Equal", "value": "v", "effect": "NoSchedule"}]}))),
 ("a handler must be a DNS label", [], post(RCS, rc(handler="Run_C"))),
 ("a handler may not be empty", [], post(RCS, rc(handler=""))),
 ("a handler may not hold dots", [], post(RCS, rc(handler="a.b"))),
 ("a handler is immutable", [post(RCS, rc())], patch(RCS+"/valnet-rc", {"handler": "kata"})),
 ("an overhead may not be negative", [], post(RCS, rc(overhead={"podFixed": {"cpu": "-1"}}))),
 ("an overhead shows a negative quantity canonically", [], post(RCS, rc(overhead={"podFixed": {"memory": "-0.5Gi"}}))),
 ("an overhead resource must be a standard resource", [], post(RCS, rc(overhead={"podFixed": {"foo": "1", "example.com/gpu": "1"}}))),
 ("a scheduling node selector must be labels", [], post(RCS, rc(scheduling={"nodeSelector": {"a b": "c"}}))),
 ("a toleration operator is an enum", [], post(RCS, rc(scheduling={"tolerations": [{"key": "k", "operator": "Maybe"}]}))),
 ("an Exists toleration may not have a value", [], post(RCS, rc(scheduling={"tolerations": [{"key": "k", "operator": "Exists", "value": "v"}]}))),
 ("a toleration effect is an enum", [], post(RCS, rc(scheduling={"tolerations": [{"key": "k", "operator": "Exists", "effect": "Sometimes"}]}))),
 ("a toleration key must be a qualified name", [], post(RCS, rc(scheduling={"tolerations": [{"key": "a b", "operator": "Exists"}]}))),
 ("tolerationSeconds needs NoExecute", [], post(RCS, rc(scheduling={"tolerations": [{"key": "k", "operator": "Exists", "effect": "NoSchedule", "tolerationSeconds": 5}]}))),
 ("an empty key needs Exists", [], post(RCS, rc(scheduling={"tolerations": [{"operator": "Equal", "value": "v"}]}))),
 ("a runtime class update checks only the handler", [post(RCS, rc())], patch(RCS+"/valnet-rc", {"overhead": {"podFixed": {"cpu": "-1"}}})),
 # EndpointSlice
 ("an endpoint slice is created", [], post(EPS, eps(endpoints=[{"addresses": ["10.0.0.1"], "hostname": "h", "nodeName": "n", "zone": "z", "deprecatedTopology": {"a": "b"}, "conditions": {"ready": True}}],
     ports=[{"name": "http", "port": 80, "protocol": "TCP", "appProtocol": "kubernetes.io/h2c"}, {"name": "b", "port": 81}]))),
 ("an address type is an enum", [], post(EPS, eps(addressType="IP"))),
 ("an endpoint needs an address", [], post(EPS, eps(endpoints=[{"addresses": []}]))),
 ("an IPv4 address must be one", [], post(EPS, eps(endpoints=[{"addresses": ["nope", "2001:db8::1", "010.0.0.1"]}]))),
 ("an address may not be special", [], post(EPS, eps(endpoints=[{"addresses": ["0.0.0.0", "127.0.0.1", "169.254.1.1", "224.0.0.1"]}]))),
 ("an IPv6 address must be one", [], post(EPS, eps(addressType="IPv6", endpoints=[{"addresses": ["10.0.0.1", "::1", "fe80::1", "2001:db8::1"]}]))),
 ("an FQDN address must be one", [], post(EPS, eps(addressType="FQDN", endpoints=[{"addresses": ["a.example.com", "A_b", "x"]}]))),
 ("an endpoint hostname is a DNS label", [], post(EPS, eps(endpoints=[{"addresses": ["10.0.0.1"], "hostname": "a.b"}]))),
 ("an endpoint topology must be labels", [], post(EPS, eps(endpoints=[{"addresses": ["10.0.0.1"], "deprecatedTopology": {"a b": "c"}}]))),
 ("endpoint port names are unique DNS labels", [], post(EPS, eps(ports=[{"name": "a", "port": 80}, {"name": "a", "port": 81}, {"name": "B_c", "port": 82}]))),
 ("an endpoint port protocol is an enum", [], post(EPS, eps(ports=[{"name": "a", "port": 80, "protocol": "HTTP"}]))),
 ("an endpoint port appProtocol is a qualified name", [], post(EPS, eps(ports=[{"name": "a", "port": 80, "appProtocol": "a b"}]))),
 ("an endpoint port number is not checked", [], post(EPS, eps(ports=[{"name": "a", "port": 70000}]))),
 ("an address type is immutable", [post(EPS, eps())], patch(EPS+"/e", {"addressType": "IPv6", "endpoints": [{"addresses": ["2001:db8::1"]}]})),
 ("an endpoint slice update is validated", [post(EPS, eps())], patch(EPS+"/e", {"endpoints": [{"addresses": ["nope"]}]})),
]
