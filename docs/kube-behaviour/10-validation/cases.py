# Validation cases: each is (name, setup requests, request). Bodies are JSON.
NS = "/api/v1/namespaces/val"
DEP = "/apis/apps/v1/namespaces/val/deployments"
POD_SPEC = {"containers": [{"name": "c", "image": "nginx"}]}
def dep(name="d", labels={"app": "d"}, sel={"matchLabels": {"app": "d"}}, spec_extra=None, tmpl_spec=None):
    spec = {"template": {"metadata": {"labels": labels}, "spec": tmpl_spec or POD_SPEC}}
    if sel is not None: spec["selector"] = sel
    spec.update(spec_extra or {})
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name}, "spec": spec}
def pod(name="p", spec=None, md=None):
    m = {"name": name}; m.update(md or {})
    return {"apiVersion": "v1", "kind": "Pod", "metadata": m, "spec": spec or POD_SPEC}
def svc(name="s", spec=None):
    return {"apiVersion": "v1", "kind": "Service", "metadata": {"name": name}, "spec": spec if spec is not None else {"ports": [{"port": 80}]}}
def cm(name="c", **kw):
    o = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}}; o.update(kw); return o
def sec(name="s", **kw):
    o = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": name}}; o.update(kw); return o
PODS, SVCS, CMS, SECS = NS+"/pods", NS+"/services", NS+"/configmaps", NS+"/secrets"
SAS, EVS, LEASES = NS+"/serviceaccounts", NS+"/events", "/apis/coordination.k8s.io/v1/namespaces/val/leases"
MP = "application/merge-patch+json"
def post(path, body): return ("POST", path, body, "application/json")
def put(path, body): return ("PUT", path, body, "application/json")
def patch(path, body, ct=MP): return ("PATCH", path, body, ct)

CASES = [
 # names
 ("a namespace name must be a DNS label", [], post("/api/v1/namespaces", {"metadata": {"name": "a.b"}})),
 ("a service name must be a DNS-1035 label", [], post(SVCS, svc("1abc"))),
 ("a service name may not hold dots", [], post(SVCS, svc("a.b"))),
 ("a pod name may be a DNS subdomain", [], post(PODS, pod("a.b"))),
 ("a pod name may not hold capitals", [], post(PODS, pod("A"))),
 ("a configmap name may be a DNS subdomain", [], post(CMS, cm("a.b"))),
 ("a serviceaccount name must be a DNS subdomain", [], post(SAS, {"metadata": {"name": "a_b"}})),
 ("a deployment name must be a DNS subdomain", [], post(DEP, dep("a_b"))),
 # deployments
 ("a deployment needs a selector", [], post(DEP, dep(sel=None))),
 ("a deployment's selector must match its template", [], post(DEP, dep(labels={"app": "x"}))),
 ("an empty selector is refused", [], post(DEP, dep(sel={}))),
 ("a deployment needs containers", [], post(DEP, dep(tmpl_spec={"containers": []}))),
 ("a container needs a name and an image", [], post(DEP, dep(tmpl_spec={"containers": [{}]}))),
 ("replicas may not be negative", [], post(DEP, dep(spec_extra={"replicas": -1}))),
 ("a deployment's template restarts always", [], post(DEP, dep(tmpl_spec={"restartPolicy": "Never", "containers": [{"name": "c", "image": "i"}]}))),
 ("a deployment strategy type is an enum", [], post(DEP, dep(spec_extra={"strategy": {"type": "Blue"}}))),
 ("a deployment's selector is immutable", [post(DEP, dep())], patch(DEP+"/d", {"spec": {"selector": {"matchLabels": {"app": "d", "x": "y"}}, "template": {"metadata": {"labels": {"app": "d", "x": "y"}}}}})),
 ("revisionHistoryLimit may not be negative", [], post(DEP, dep(spec_extra={"revisionHistoryLimit": -1}))),
 ("maxUnavailable and maxSurge may not both be zero", [], post(DEP, dep(spec_extra={"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": 0}}}))),
 ("minReadySeconds may not be negative", [], post(DEP, dep(spec_extra={"minReadySeconds": -1}))),
 ("template labels must be valid", [], post(DEP, dep(labels={"app": "d", "bad key!": "x"}))),
 # pods
 ("a pod needs containers", [], post(PODS, pod(spec={"containers": []}))),
 ("container names are unique", [], post(PODS, pod(spec={"containers": [{"name": "c", "image": "i"}, {"name": "c", "image": "i"}]}))),
 ("a container name is a DNS label", [], post(PODS, pod(spec={"containers": [{"name": "C_1", "image": "i"}]}))),
 ("a container port is in 1-65535", [], post(PODS, pod(spec={"containers": [{"name": "c", "image": "i", "ports": [{"containerPort": 70000}]}]}))),
 ("a container port is not zero", [], post(PODS, pod(spec={"containers": [{"name": "c", "image": "i", "ports": [{"containerPort": 0}]}]}))),
 ("a port protocol is an enum", [], post(PODS, pod(spec={"containers": [{"name": "c", "image": "i", "ports": [{"containerPort": 80, "protocol": "HTTP"}]}]}))),
 ("restartPolicy is an enum", [], post(PODS, pod(spec={"restartPolicy": "Sometimes", "containers": [{"name": "c", "image": "i"}]}))),
 ("dnsPolicy is an enum", [], post(PODS, pod(spec={"dnsPolicy": "Nope", "containers": [{"name": "c", "image": "i"}]}))),
 ("imagePullPolicy is an enum", [], post(PODS, pod(spec={"containers": [{"name": "c", "image": "i", "imagePullPolicy": "Sometimes"}]}))),
 ("an image may not be blank", [], post(PODS, pod(spec={"containers": [{"name": "c", "image": " "}]}))),
 ("a pod's image may change", [post(PODS, pod())], patch(PODS+"/p", {"spec": {"containers": [{"name": "c", "image": "nginx:2"}]}}, "application/strategic-merge-patch+json")),
 ("a pod's image change that changes its pull policy is refused", [post(PODS, pod())], patch(PODS+"/p", {"spec": {"containers": [{"name": "c", "image": "nginx:2"}]}})),
 ("a pod's other fields may not", [post(PODS, pod())], patch(PODS+"/p", {"spec": {"restartPolicy": "Never"}})),
 ("activeDeadlineSeconds may be set", [post(PODS, pod())], patch(PODS+"/p", {"spec": {"activeDeadlineSeconds": 30}})),
 ("tolerations may be added", [post(PODS, pod())], patch(PODS+"/p", {"spec": {"tolerations": [{"key": "a", "operator": "Exists", "effect": "NoSchedule"}, {"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "operator": "Exists", "tolerationSeconds": 300}, {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "operator": "Exists", "tolerationSeconds": 300}]}})),
 ("tolerations may not be removed", [post(PODS, pod())], patch(PODS+"/p", {"spec": {"tolerations": []}})),
 ("a pod's containers may not be added", [post(PODS, pod())], patch(PODS+"/p", {"spec": {"containers": [{"name": "c", "image": "nginx"}, {"name": "d", "image": "x"}]}}, "application/strategic-merge-patch+json")),
 ("terminationGracePeriodSeconds may not be negative", [], post(PODS, pod(spec={"terminationGracePeriodSeconds": -1, "containers": [{"name": "c", "image": "i"}]}))),
 ("a pod label value must be valid", [], post(PODS, pod(md={"labels": {"a": "b c"}}))),
 ("an annotation key must be valid", [], post(PODS, pod(md={"annotations": {"a b": "c"}}))),
 # services
 ("a service needs ports", [], post(SVCS, svc(spec={}))),
 ("a service port is in 1-65535", [], post(SVCS, svc(spec={"ports": [{"port": 0}]}))),
 ("a service protocol is an enum", [], post(SVCS, svc(spec={"ports": [{"port": 80, "protocol": "HTTP"}]}))),
 ("a service type is an enum", [], post(SVCS, svc(spec={"type": "Magic", "ports": [{"port": 80}]}))),
 ("several ports need names", [], post(SVCS, svc(spec={"ports": [{"port": 80}, {"port": 81}]}))),
 ("port names are unique", [], post(SVCS, svc(spec={"ports": [{"port": 80, "name": "a"}, {"port": 81, "name": "a"}]}))),
 ("a node port on a ClusterIP service is refused", [], post(SVCS, svc(spec={"ports": [{"port": 80, "nodePort": 30001}]}))),
 ("an ExternalName service needs an externalName", [], post(SVCS, svc(spec={"type": "ExternalName"}))),
 ("sessionAffinity is an enum", [], post(SVCS, svc(spec={"sessionAffinity": "Sticky", "ports": [{"port": 80}]}))),
 ("a targetPort is in range", [], post(SVCS, svc(spec={"ports": [{"port": 80, "targetPort": 70000}]}))),
 ("a service's clusterIP may not change", [post(SVCS, svc(spec={"clusterIP": "10.96.7.7", "ports": [{"port": 80}]}))], patch(SVCS+"/s", {"spec": {"clusterIP": "10.96.7.8", "clusterIPs": ["10.96.7.8"]}})),
 ("a selector value must be valid", [], post(SVCS, svc(spec={"selector": {"a": "b c"}, "ports": [{"port": 80}]}))),
 # configmaps and secrets
 ("a configmap key must be valid", [], post(CMS, cm(data={"a b": "x"}))),
 ("a configmap key may not be in data and binaryData", [], post(CMS, cm(data={"a": "x"}, binaryData={"a": "eA=="}))),
 ("an immutable configmap's data may not change", [post(CMS, cm(data={"a": "x"}, immutable=True))], patch(CMS+"/c", {"data": {"a": "y"}})),
 ("an immutable configmap stays immutable", [post(CMS, cm(data={"a": "x"}, immutable=True))], patch(CMS+"/c", {"immutable": False})),
 ("an immutable configmap's labels may change", [post(CMS, cm(data={"a": "x"}, immutable=True))], patch(CMS+"/c", {"metadata": {"labels": {"x": "y"}}})),
 ("a secret key must be valid", [], post(SECS, sec(data={"a b": "eA=="}))),
 ("an immutable secret's data may not change", [post(SECS, sec(data={"a": "eA=="}, immutable=True))], patch(SECS+"/s", {"data": {"a": "eQ=="}})),
 ("a secret's type may not change", [post(SECS, sec(data={"a": "eA=="}))], patch(SECS+"/s", {"type": "kubernetes.io/tls"})),
 ("a tls secret needs its keys", [], post(SECS, sec(type="kubernetes.io/tls", data={"a": "eA=="}))),
 ("a dockerconfigjson secret needs its key", [], post(SECS, sec(type="kubernetes.io/dockerconfigjson", data={"a": "eA=="}))),
 ("a basic-auth secret needs a username or password", [], post(SECS, sec(type="kubernetes.io/basic-auth", data={"a": "eA=="}))),
 ("a service-account-token secret needs its annotation", [], post(SECS, sec(type="kubernetes.io/service-account-token"))),
 ("stringData keys are checked", [], post(SECS, sec(stringData={"a b": "x"}))),
 # leases, events
 ("a lease's durations are positive", [], post(LEASES, {"metadata": {"name": "l"}, "spec": {"leaseDurationSeconds": 0}})),
 ("a lease's transitions are not negative", [], post(LEASES, {"metadata": {"name": "l"}, "spec": {"leaseTransitions": -1}})),
 ("an event needs an involved object namespace", [], post(EVS, {"metadata": {"name": "e"}, "involvedObject": {"kind": "Pod", "name": "p", "namespace": "other"}, "reason": "R", "message": "m"})),
 ("an event type is Normal or Warning", [], post(EVS, {"metadata": {"name": "e"}, "involvedObject": {"kind": "Pod", "name": "p", "namespace": "val"}, "type": "Bad", "reason": "R"})),
]

# kinds the first half of issue 13 registers
RS = "/apis/apps/v1/namespaces/val/replicasets"
SS = "/apis/apps/v1/namespaces/val/statefulsets"
DS = "/apis/apps/v1/namespaces/val/daemonsets"
JOBS = "/apis/batch/v1/namespaces/val/jobs"
PVCS = NS + "/persistentvolumeclaims"
RC = NS + "/replicationcontrollers"
ROLES = "/apis/rbac.authorization.k8s.io/v1/namespaces/val/roles"
CROLES = "/apis/rbac.authorization.k8s.io/v1/clusterroles"
RBS = "/apis/rbac.authorization.k8s.io/v1/namespaces/val/rolebindings"
def wl(kind, api, name="w", labels={"app": "w"}, sel={"matchLabels": {"app": "w"}}, extra=None, tmpl_spec=None):
    spec = {"template": {"metadata": {"labels": labels}, "spec": tmpl_spec or POD_SPEC}}
    if sel is not None: spec["selector"] = sel
    spec.update(extra or {})
    return {"apiVersion": api, "kind": kind, "metadata": {"name": name}, "spec": spec}
def ss(**kw): return wl("StatefulSet", "apps/v1", extra=dict({"serviceName": "svc"}, **kw.pop("extra", {})), **kw)
def job(**kw):
    kw.setdefault("tmpl_spec", {"restartPolicy": "Never", "containers": [{"name": "c", "image": "i"}]})
    kw.setdefault("sel", None)
    return wl("Job", "batch/v1", **kw)
def pvc(name="c", spec=None):
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": name},
            "spec": spec or {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}
def role(name="r", rules=None):
    return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": name},
            "rules": rules if rules is not None else [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}]}
def rb(name="b", ref="r"):
    return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": {"name": name},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": ref},
            "subjects": [{"kind": "User", "name": "alice", "apiGroup": "rbac.authorization.k8s.io"}]}

CASES += [
 ("a replicaset's selector must match its template", [], post(RS, wl("ReplicaSet", "apps/v1", labels={"app": "x"}))),
 ("a replicaset's selector is immutable", [post(RS, wl("ReplicaSet", "apps/v1"))], patch(RS+"/w", {"spec": {"selector": {"matchLabels": {"app": "w", "x": "y"}}, "template": {"metadata": {"labels": {"app": "w", "x": "y"}}}}})),
 ("a replicaset's replicas may not be negative", [], post(RS, wl("ReplicaSet", "apps/v1", extra={"replicas": -1}))),
 ("a daemonset's selector must match its template", [], post(DS, wl("DaemonSet", "apps/v1", labels={"app": "x"}))),
 ("a daemonset's selector is immutable", [post(DS, wl("DaemonSet", "apps/v1"))], patch(DS+"/w", {"spec": {"selector": {"matchLabels": {"app": "w", "x": "y"}}, "template": {"metadata": {"labels": {"app": "w", "x": "y"}}}}})),
 ("a daemonset's update strategy is an enum", [], post(DS, wl("DaemonSet", "apps/v1", extra={"updateStrategy": {"type": "Blue"}}))),
 ("a statefulset's selector must match its template", [], post(SS, ss(labels={"app": "x"}))),
 ("a statefulset may change its replicas", [post(SS, ss())], patch(SS+"/w", {"spec": {"replicas": 3}})),
 ("a statefulset may change its template", [post(SS, ss())], patch(SS+"/w", {"spec": {"template": {"metadata": {"labels": {"app": "w", "v": "2"}}}}})),
 ("a statefulset may not change its serviceName", [post(SS, ss())], patch(SS+"/w", {"spec": {"serviceName": "other"}})),
 ("a statefulset may not change its podManagementPolicy", [post(SS, ss())], patch(SS+"/w", {"spec": {"podManagementPolicy": "Parallel"}})),
 ("a statefulset's podManagementPolicy is an enum", [], post(SS, ss(extra={"podManagementPolicy": "Sometimes"}))),
 ("a statefulset's update strategy is an enum", [], post(SS, ss(extra={"updateStrategy": {"type": "Blue"}}))),
 ("a job's selector is generated from its template", [], post(JOBS, job())),
 ("a job's template is immutable", [post(JOBS, job())], patch(JOBS+"/w", {"spec": {"template": {"spec": {"containers": [{"name": "c", "image": "j"}]}}}}, "application/strategic-merge-patch+json")),
 ("a job restarts Never or OnFailure", [], post(JOBS, job(tmpl_spec={"restartPolicy": "Always", "containers": [{"name": "c", "image": "i"}]}))),
 ("a job's parallelism may not be negative", [], post(JOBS, job(extra={"parallelism": -1}))),
 ("a job's backoffLimit may not be negative", [], post(JOBS, job(extra={"backoffLimit": -1}))),
 ("a job's completions may change only with parallelism when indexed", [post(JOBS, job(extra={"completions": 2}))], patch(JOBS+"/w", {"spec": {"completions": 3}})),
 ("a job with a manual selector must match", [], post(JOBS, job(sel={"matchLabels": {"app": "w"}}, labels={"app": "x"}, extra={"manualSelector": True}))),
 ("a job's selector without manualSelector is refused", [], post(JOBS, job(sel={"matchLabels": {"app": "w"}}))),
 ("a claim needs access modes", [], post(PVCS, pvc(spec={"resources": {"requests": {"storage": "1Gi"}}}))),
 ("a claim needs a storage request", [], post(PVCS, pvc(spec={"accessModes": ["ReadWriteOnce"]}))),
 ("a claim's access mode is an enum", [], post(PVCS, pvc(spec={"accessModes": ["ReadSometimes"], "resources": {"requests": {"storage": "1Gi"}}}))),
 ("a claim's spec is immutable but for its resources", [post(PVCS, pvc())], patch(PVCS+"/c", {"spec": {"accessModes": ["ReadWriteMany"]}})),
 ("a claim's storage class is immutable", [post(PVCS, pvc())], patch(PVCS+"/c", {"spec": {"storageClassName": "fast"}})),
 ("a replicationcontroller's selector must match its template", [], post(RC, {"apiVersion": "v1", "kind": "ReplicationController", "metadata": {"name": "w"}, "spec": {"selector": {"app": "w"}, "template": {"metadata": {"labels": {"app": "x"}}, "spec": POD_SPEC}}})),
 ("a role takes a path-segment name", [], post(ROLES, role(name="Role:A_1"))),
 ("a role name may not hold a slash", [], post(ROLES, role(name="a/b"))),
 ("a clusterrole takes a path-segment name", [], post(CROLES, {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "clusterRole-10"}, "rules": []})),
 ("a rule needs verbs", [], post(ROLES, role(rules=[{"apiGroups": [""], "resources": ["pods"], "verbs": []}]))),
 ("a rule needs resources or non-resource URLs", [], post(ROLES, role(rules=[{"apiGroups": [""], "verbs": ["get"]}]))),
 ("a role's rule may not name non-resource URLs", [], post(ROLES, role(rules=[{"nonResourceURLs": ["/healthz"], "verbs": ["get"]}]))),
 ("a rule with resources needs apiGroups", [], post(ROLES, role(rules=[{"resources": ["pods"], "verbs": ["get"]}]))),
 ("a binding's roleRef is immutable", [post(RBS, rb())], patch(RBS+"/b", {"roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "other"}})),
 ("a binding's roleRef kind is Role or ClusterRole", [], post(RBS, dict(rb(), roleRef={"apiGroup": "rbac.authorization.k8s.io", "kind": "Pod", "name": "r"}))),
 ("a binding's subject kind is an enum", [], post(RBS, dict(rb(), subjects=[{"kind": "Robot", "name": "x"}]))),
 ("a binding may name a missing role", [], post(RBS, rb(ref="missing"))),
]

CSRS = "/apis/certificates.k8s.io/v1/certificatesigningrequests"
CSR_REQ = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlJQ1l6Q0NBVXNDQVFBd0hqRU9NQXdHQTFVRUF3d0ZZV3hwWTJVeEREQUtCZ05WQkFvTUEyUmxkakNDQVNJdwpEUVlKS29aSWh2Y05BUUVCQlFBRGdnRVBBRENDQVFvQ2dnRUJBTEZCaWZXMG56Z0ltZC9MY1diWlBKZ0tQenJtCmJqaFlrbjVTZkFpTlNkaE5RMHpONGlNN2UwdTRzV1k4MDgxVjlmY1hCZ1QzRisyMUg0eWZhdFMvQjQwMHhlL1gKeFZjY2tibUpyOHZhcXN1YXlEMG91N0FKZDdwd1FWNzRCN3g2TFNtdm9pdE9IdlBXdkZBdzJjY0plTEVMYlhicgp0YkRPM2o5bkpsdHJ1S2NvNHVmc2liMXE2djh3c2ZyK1FkRm5LcUQxZVNqSU84M1k4MWxqUUlLQk1nQWJyK3plCkxlSkV1dnFpb0dqd1k3VXoxNFV0MzBGcGVGTDY0NkdyUVJlVWkwREMwVjZ1THdWcEVuWWozYzBsZlNrUFd1MmQKaWc5dEhRQmlEZGhXWW5qV2hBYUpNMjk4YUVSQ0dySlhHbmVHVDhJQVZTVUFXRjVSc3pwdERyeVMyb2tDQXdFQQpBYUFBTUEwR0NTcUdTSWIzRFFFQkN3VUFBNElCQVFDVDVJQzczSTE1WE9xbmdRRlY0N0Q4bWpqQllncG91d2txCjVGeWJoT3kxazk4UnFrU2RhcFkvbkNPRjR0d1R1NFlKTGtPc1RxUUlMZE1KNDJVOXlSdnB6aTZ6YzQ3WDhPbkgKT0IvdGxLd3d1NVVLT0FnaHFsckNYUURkVjJJeTQ0S1RNblk0QWU0OFlvWVMzdmlWWmNTZDMxc29hY3hrTXVCRwpNT0ZJdW4wWFA4L0FhWi9tbG8zSlFSSDhkY3h4dU5nNUl6SlJGK0YzUERYeUF0TTJPZU52eWxkd3VFR1BGUEJFCklrd3JJS084M080TlphT0h2Q003UzgzRTl4USt3SWh3Tm9xYVYyWHRsV2dwazF6VlQ0VUtBbkROaDV4aFR4MDgKTWhsWVVmeDJ5bUZ5SzlBNEhSWW9HdkhFNDJrQmRNMW9Sb1ZzNzhGN3BPOGsyMGxzUWF4RwotLS0tLUVORCBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0K"
def csr(conds=None, signer="kubernetes.io/kube-apiserver-client"):
    o = {"apiVersion": "certificates.k8s.io/v1", "kind": "CertificateSigningRequest", "metadata": {"name": "alice"},
         "spec": {"request": CSR_REQ, "signerName": signer, "usages": ["client auth"]}}
    if conds is not None: o["status"] = {"conditions": conds}
    return o
APPROVED = {"type": "Approved", "status": "True", "reason": "KubectlApprove", "message": "This CSR was approved by kubectl certificate approve."}
CASES += [
 ("a CSR is approved through /approval", [post(CSRS, csr())], put(CSRS+"/alice/approval", csr([APPROVED]))),
 ("an approval changes nothing but the conditions", [post(CSRS, csr())], put(CSRS+"/alice/approval", csr([APPROVED], signer="x/y"))),
 ("a CSR is not approved and denied", [post(CSRS, csr()), put(CSRS+"/alice/approval", csr([APPROVED]))],
  put(CSRS+"/alice/approval", csr([APPROVED, {"type": "Denied", "status": "True", "reason": "X", "message": "m"}]))),
 ("an approval is not removed", [post(CSRS, csr()), put(CSRS+"/alice/approval", csr([APPROVED]))], put(CSRS+"/alice/approval", csr([]))),
 ("an approval is True", [post(CSRS, csr())], put(CSRS+"/alice/approval", csr([dict(APPROVED, status="False")]))),
 ("a condition type appears once", [post(CSRS, csr())], put(CSRS+"/alice/approval", csr([APPROVED, APPROVED]))),
 ("a status write keeps the approval", [post(CSRS, csr()), put(CSRS+"/alice/approval", csr([APPROVED]))],
  patch(CSRS+"/alice/status", {"status": {"conditions": [{"type": "Approved", "status": "False", "reason": "R"}]}})),
]
CASES += [
 ("a job's template keeps the generated labels", [], post(JOBS, job(sel={"matchLabels": {"batch.kubernetes.io/controller-uid": "09251225-6bb7-46b1-a9e6-2db93d36aea7"}}, labels={"batch.kubernetes.io/controller-uid": "09251225-6bb7-46b1-a9e6-2db93d36aea7"}))),
]
