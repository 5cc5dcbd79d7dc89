# The requests record.py sends to kube-apiserver 1.33 (each case's setup,
# then the request); names are unique, as every case runs on one server.
NS = "val"

def crd(group, plural, kind):
    return {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": plural + "." + group},
            "spec": {"group": group, "scope": "Namespaced",
                     "names": {"plural": plural, "singular": kind.lower(), "kind": kind, "listKind": kind + "List"},
                     "versions": [{"name": "v1", "served": True, "storage": True,
                                   "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}}}]}}

def post(path, body, ct="application/json"):
    return {"method": "POST", "path": path, "body": body, "contentType": ct}

CASES = []

def case(name, method, path, body, setup=(), ct=None):
    c = {"name": name, "setup": list(setup), "method": method, "path": path, "body": body}
    if ct:
        c["contentType"] = ct
    CASES.append(c)

MERGE = "application/merge-patch+json"
CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"

# Conditions whose type and status kube's validation does not require.
case("a CRD status condition with only a message is kept", "PATCH", CRDS + "/c1s.div.example.com/status",
     {"status": {"conditions": [{"message": "updated"}]}}, [post(CRDS, crd("div.example.com", "c1s", "C1"))], MERGE)
case("a Node condition with only a message is kept", "POST", "/api/v1/nodes",
     {"metadata": {"name": "div-n1"}, "status": {"conditions": [{"message": "x"}], "addresses": [{"address": "10.0.0.1"}]}})
case("a Namespace condition with only a message is kept", "PATCH", "/api/v1/namespaces/div-ns1/status",
     {"status": {"conditions": [{"message": "x"}]}}, [post("/api/v1/namespaces", {"metadata": {"name": "div-ns1"}})], MERGE)
DEPLOY = {"metadata": {"name": "div-d1"}, "spec": {"selector": {"matchLabels": {"a": "b"}},
          "template": {"metadata": {"labels": {"a": "b"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}}}
case("a Deployment condition with only a message is kept", "PATCH", "/apis/apps/v1/namespaces/val/deployments/div-d1/status",
     {"status": {"conditions": [{"message": "x"}]}}, [post("/apis/apps/v1/namespaces/val/deployments", DEPLOY)], MERGE)
JOB = {"metadata": {"name": "div-j1"}, "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "i"}]}}}}
case("a Job condition with only a message", "PATCH", "/apis/batch/v1/namespaces/val/jobs/div-j1/status",
     {"status": {"conditions": [{"message": "x"}]}}, [post("/apis/batch/v1/namespaces/val/jobs", JOB)], MERGE)
APISVC = {"metadata": {"name": "v1.div.example.org"}, "spec": {"group": "div.example.org", "version": "v1", "groupPriorityMinimum": 100, "versionPriority": 10}}
case("an APIService condition with only a message", "PATCH", "/apis/apiregistration.k8s.io/v1/apiservices/v1.div.example.org/status",
     {"status": {"conditions": [{"message": "x"}]}}, [post("/apis/apiregistration.k8s.io/v1/apiservices", APISVC)], MERGE)
POD = {"metadata": {"name": "div-p1"}, "spec": {"containers": [{"name": "c", "image": "i"}]}}
case("a Pod condition with only a message", "PATCH", "/api/v1/namespaces/val/pods/div-p1/status",
     {"status": {"conditions": [{"message": "x"}]}}, [post("/api/v1/namespaces/val/pods", POD)], MERGE)
PVC = {"metadata": {"name": "div-pvc1"}, "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}
case("a PersistentVolumeClaim condition with only a message", "PATCH", "/api/v1/namespaces/val/persistentvolumeclaims/div-pvc1/status",
     {"status": {"conditions": [{"message": "x"}]}}, [post("/api/v1/namespaces/val/persistentvolumeclaims", PVC)], MERGE)
HPA = {"metadata": {"name": "div-h1"}, "spec": {"scaleTargetRef": {"kind": "Deployment", "name": "d", "apiVersion": "apps/v1"}, "minReplicas": 1, "maxReplicas": 2}}
case("a HorizontalPodAutoscaler condition with only a message", "PATCH", "/apis/autoscaling/v2/namespaces/val/horizontalpodautoscalers/div-h1/status",
     {"status": {"conditions": [{"message": "x"}], "desiredReplicas": 1}}, [post("/apis/autoscaling/v2/namespaces/val/horizontalpodautoscalers", HPA)], MERGE)

# generateName: validated as the kind's name prefix (a trailing '-' allowed).
for i, (what, path, body) in enumerate([
        ("a core v1 Event", "/api/v1/namespaces/val/events",
         {"involvedObject": {"kind": "Pod", "name": "web-0", "namespace": "val"}, "reason": "R", "message": "m", "type": "Normal"}),
        ("an events.k8s.io Event", "/apis/events.k8s.io/v1/namespaces/val/events",
         {"eventTime": "2026-01-01T00:00:00.000000Z", "reportingController": "example.com/c", "reportingInstance": "i", "action": "A", "reason": "R", "type": "Normal", "regarding": {"kind": "Pod", "name": "web-0", "namespace": "val"}}),
        ("a ConfigMap", "/api/v1/namespaces/val/configmaps", {}),
        ("a Pod", "/api/v1/namespaces/val/pods", {"spec": {"containers": [{"name": "c", "image": "i"}]}}),
        ("a Lease", "/apis/coordination.k8s.io/v1/namespaces/val/leases", {}),
        ("a Role", "/apis/rbac.authorization.k8s.io/v1/namespaces/val/roles", {}),
        ("a Namespace", "/api/v1/namespaces", {}),
]):
    b = dict(body); b["metadata"] = {"generateName": "web-0."}
    case("%s named by generateName web-0." % what, "POST", path, b)
case("a core v1 Event named with a path segment", "POST", "/api/v1/namespaces/val/events",
     {"metadata": {"name": "Bad_Name:x"}, "involvedObject": {"kind": "Pod", "name": "p", "namespace": "val"}, "reason": "R", "type": "Normal"})
case("a core v1 Event named with a slash", "POST", "/api/v1/namespaces/val/events",
     {"metadata": {"name": "a%b"}, "involvedObject": {"kind": "Pod", "name": "p", "namespace": "val"}, "reason": "R", "type": "Normal"})

# Node updates.
NODE = lambda n, spec: post("/api/v1/nodes", {"metadata": {"name": n}, "spec": spec})
case("a Node's podCIDRs change", "PATCH", "/api/v1/nodes/div-n2", {"spec": {"podCIDRs": ["10.1.0.0/24"]}},
     [NODE("div-n2", {"podCIDR": "10.0.0.0/24"})], MERGE)
case("a Node's podCIDR and podCIDRs change", "PATCH", "/api/v1/nodes/div-n3", {"spec": {"podCIDR": "10.1.0.0/24", "podCIDRs": ["10.1.0.0/24"]}},
     [NODE("div-n3", {"podCIDRs": ["10.0.0.0/24"]})], MERGE)
case("a Node's podCIDR set from empty", "PATCH", "/api/v1/nodes/div-n4", {"spec": {"podCIDR": "10.1.0.0/24"}},
     [NODE("div-n4", {})], MERGE)
case("a Node's providerID change", "PATCH", "/api/v1/nodes/div-n5", {"spec": {"providerID": "b"}},
     [NODE("div-n5", {"providerID": "a"})], MERGE)
case("a Node's providerID set from empty", "PATCH", "/api/v1/nodes/div-n6", {"spec": {"providerID": "b"}},
     [NODE("div-n6", {})], MERGE)
case("a Node's configSource", "PATCH", "/api/v1/nodes/div-n7", {"spec": {"configSource": {"configMap": {"namespace": "kube-system", "name": "c", "kubeletConfigKey": "k"}}}},
     [NODE("div-n7", {})], MERGE)
case("a Node's podCIDRs cleared", "PATCH", "/api/v1/nodes/div-n8", {"spec": {"podCIDR": None, "podCIDRs": None}},
     [NODE("div-n8", {"podCIDRs": ["10.0.0.0/24"]})], MERGE)

# RBAC rules.
R = "/apis/rbac.authorization.k8s.io/v1/namespaces/val/roles"
CR = "/apis/rbac.authorization.k8s.io/v1/clusterroles"
case("a Role rule with empty verbs", "POST", R, {"metadata": {"name": "div-r1"}, "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": []}]})
case("a Role rule without apiGroups and resources", "POST", R, {"metadata": {"name": "div-r2"}, "rules": [{"verbs": ["get"]}]})
case("a Role rule with nonResourceURLs", "POST", R, {"metadata": {"name": "div-r3"}, "rules": [{"verbs": ["get"], "nonResourceURLs": ["/x"], "resources": ["pods"]}]})
case("a ClusterRole rule with empty verbs", "POST", CR, {"metadata": {"name": "div-cr1"}, "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": []}]})
case("a ClusterRole rule mixing resources and nonResourceURLs", "POST", CR, {"metadata": {"name": "div-cr2"}, "rules": [{"verbs": ["get"], "nonResourceURLs": ["/x"], "apiGroups": [""]}]})
case("a ClusterRole aggregationRule without selectors", "POST", CR, {"metadata": {"name": "div-cr3"}, "aggregationRule": {"clusterRoleSelectors": []}})
case("a ClusterRole aggregationRule with a bad selector", "POST", CR, {"metadata": {"name": "div-cr4"}, "aggregationRule": {"clusterRoleSelectors": [{"matchLabels": {"bad key!": "v"}, "matchExpressions": [{"key": "k", "operator": "In"}]}]}})
case("a ClusterRole update with empty verbs", "PATCH", CR + "/div-cr5", {"rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": []}]},
     [post(CR, {"metadata": {"name": "div-cr5"}, "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}]})], MERGE)

# EndpointSlice address type changes.
ES = "/apis/discovery.k8s.io/v1/namespaces/val/endpointslices"
SLICE = lambda n: post(ES, {"metadata": {"name": n}, "addressType": "IPv4", "endpoints": [{"addresses": ["10.0.0.1"]}], "ports": [{"port": 80, "protocol": "TCP"}]})
case("an EndpointSlice's addressType change", "PATCH", ES + "/div-es1", {"addressType": "IPv6"}, [SLICE("div-es1")], MERGE)
case("an EndpointSlice's addressType change to FQDN", "PATCH", ES + "/div-es2", {"addressType": "FQDN"}, [SLICE("div-es2")], MERGE)
case("an EndpointSlice's addressType change with a bad address", "PATCH", ES + "/div-es3",
     {"addressType": "IPv6", "endpoints": [{"addresses": ["bogus"]}]}, [SLICE("div-es3")], MERGE)
case("an EndpointSlice's bad address without a change of type", "PATCH", ES + "/div-es4",
     {"endpoints": [{"addresses": ["fd00::1"]}]}, [SLICE("div-es4")], MERGE)

# Conflicts name the storage key.
WRONG = "00000000-0000-0000-0000-000000000000"
for what, coll, name, body in [
        ("a CRD", CRDS, "c2s.div.example.com", crd("div.example.com", "c2s", "C2")),
        ("an APIService", "/apis/apiregistration.k8s.io/v1/apiservices", "v1.div2.example.org",
         {"spec": {"group": "div2.example.org", "version": "v1", "groupPriorityMinimum": 100, "versionPriority": 10}}),
        ("a Service", "/api/v1/namespaces/val/services", "div-s1", {"spec": {"clusterIP": "None", "ports": [{"port": 80}]}}),
        ("an Endpoints", "/api/v1/namespaces/val/endpoints", "div-ep1", {}),
        ("a Node", "/api/v1/nodes", "div-n9", {}),
        ("a ReplicationController", "/api/v1/namespaces/val/replicationcontrollers", "div-rc1",
         {"spec": {"selector": {"a": "b"}, "template": {"metadata": {"labels": {"a": "b"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}}}),
        ("an Ingress", "/apis/networking.k8s.io/v1/namespaces/val/ingresses", "div-i1", {"spec": {"defaultBackend": {"service": {"name": "s", "port": {"number": 80}}}}}),
        ("a ClusterRole", CR, "div-cr6", {}),
        ("a Deployment", "/apis/apps/v1/namespaces/val/deployments", "div-d2", {"spec": DEPLOY["spec"]}),
        ("an events.k8s.io Event", "/apis/events.k8s.io/v1/namespaces/val/events", "div-e1",
         {"eventTime": "2026-01-01T00:00:00.000000Z", "reportingController": "example.com/c", "reportingInstance": "i", "action": "A", "reason": "R", "type": "Normal", "regarding": {"kind": "Pod", "name": "p", "namespace": "val"}}),
        ("an autoscaling/v1 HorizontalPodAutoscaler", "/apis/autoscaling/v1/namespaces/val/horizontalpodautoscalers", "div-h2",
         {"spec": {"scaleTargetRef": {"kind": "Deployment", "name": "d"}, "maxReplicas": 2}}),
        ("a PriorityClass", "/apis/scheduling.k8s.io/v1/priorityclasses", "div-pc1", {"value": 5}),
        ("a FlowSchema", "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas", "div-fs1",
         {"spec": {"priorityLevelConfiguration": {"name": "global-default"}, "matchingPrecedence": 5000}}),
        ("a custom resource", "/apis/div.example.com/v1/namespaces/val/c3s", "div-cr-1", {"apiVersion": "div.example.com/v1", "kind": "C3"}),
]:
    b = dict(body); b["metadata"] = {"name": name}
    setup = [post(coll, b)]
    if what == "a custom resource":
        setup = [post(CRDS, crd("div.example.com", "c3s", "C3"))] + setup
    put = dict(b); put["metadata"] = {"name": name, "uid": WRONG}
    case("a conflict on %s names its storage key" % what, "PUT", coll + "/" + name, put, setup)
