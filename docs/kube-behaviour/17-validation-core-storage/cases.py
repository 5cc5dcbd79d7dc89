# Validation cases of ResourceQuota, LimitRange, ServiceAccount, PodTemplate, Endpoints, PersistentVolume,
# StorageClass, CSIDriver, VolumeAttachment: each is (name, setup requests, request). Bodies are JSON. Namespaced
# requests go to namespace "val", cluster-scoped objects are named "valcore-…" (record.py renames both per run).
# Each map with a bad key has one bad key only: kube reports a map's keys in Go's random map order.
NS = "/api/v1/namespaces/val"
RQ, LR, SA, PT, EP = NS+"/resourcequotas", NS+"/limitranges", NS+"/serviceaccounts", NS+"/podtemplates", NS+"/endpoints"
PV = "/api/v1/persistentvolumes"
SC = "/apis/storage.k8s.io/v1/storageclasses"
CSI = "/apis/storage.k8s.io/v1/csidrivers"
VA = "/apis/storage.k8s.io/v1/volumeattachments"
MP = "application/merge-patch+json"
def post(path, body): return ("POST", path, body, "application/json")
def put(path, body): return ("PUT", path, body, "application/json")
def patch(path, body, ct=MP): return ("PATCH", path, body, ct)
def obj(kind, name, api="v1", **kw):
    o = {"apiVersion": api, "kind": kind, "metadata": {"name": name}}; o.update(kw); return o
def rq(spec, name="q"): return obj("ResourceQuota", name, spec=spec)
def lr(*limits): return obj("LimitRange", "l", spec={"limits": list(limits)})
def ep(*subsets): return obj("Endpoints", "e", subsets=list(subsets))
ADDR = [{"ip": "10.1.2.3"}]
def pv(name="valcore-pv", **spec):
    s = {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "hostPath": {"path": "/tmp/x"}}
    for k, v in spec.items():
        if v is None: s.pop(k, None)
        else: s[k] = v
    return obj("PersistentVolume", name, spec=s)
def sc(name="valcore-sc", **kw):
    o = obj("StorageClass", name, api="storage.k8s.io/v1", provisioner="example.com/p"); o.update(kw)
    for k in [k for k, v in o.items() if v is None]: o.pop(k)
    return o
def csi(name="valcore.example.com", **spec): return obj("CSIDriver", name, api="storage.k8s.io/v1", spec=spec)
def va(name="valcore-va", **spec):
    s = {"attacher": "example.com", "nodeName": "n1", "source": {"persistentVolumeName": "pv1"}}
    for k, v in spec.items():
        if v is None: s.pop(k, None)
        else: s[k] = v
    return obj("VolumeAttachment", name, api="storage.k8s.io/v1", spec=s)
TMPL = {"metadata": {"labels": {"app": "x"}}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}

CASES = [
 # ResourceQuota
 ("a quota's hard resources are standard or qualified", [], post(RQ, rq({"hard": {"bogus": "-1"}}))),
 ("a quota of standard resources is accepted", [], post(RQ, rq({"hard": {"pods": "10", "requests.cpu": "1", "limits.memory": "1Gi", "count/deployments.apps": "3", "example.com/gpu": "2", "requests.storage": "10Gi", "gold.storageclass.storage.k8s.io/requests.storage": "5Gi", "hugepages-2Mi": "1Gi", "requests.nvidia.com/gpu": "1"}}))),
 ("a quota's hard quantity may not be negative", [], post(RQ, rq({"hard": {"cpu": "-1"}}))),
 ("a quota of pods in milli units is a whole number", [], post(RQ, rq({"hard": {"pods": "1500m"}}))),
 ("a quota of an object count is a whole number", [], post(RQ, rq({"hard": {"count/pods": "2500m"}}))),
 ("a quota of an extended resource is a whole number", [], post(RQ, rq({"hard": {"example.com/gpu": "500m"}}))),
 ("a quota of a requests. extended resource may be fractional", [], post(RQ, rq({"hard": {"requests.example.com/gpu": "0.5"}}))),
 ("a quota resource name is a qualified name", [], post(RQ, rq({"hard": {"a b": "1"}}))),
 ("a quota resource that is a container resource only is not a quota resource", [], post(RQ, rq({"hard": {"storage": "1"}}))),
 ("a quota scope is a standard scope", [], post(RQ, rq({"hard": {"pods": "1"}, "scopes": ["Bogus"]}))),
 ("a quota scope applies to the resources it limits", [], post(RQ, rq({"hard": {"services": "1"}, "scopes": ["BestEffort"]}))),
 ("BestEffort limits pods only", [], post(RQ, rq({"hard": {"cpu": "1"}, "scopes": ["BestEffort"]}))),
 ("Terminating limits compute resources", [], post(RQ, rq({"hard": {"cpu": "1", "pods": "2"}, "scopes": ["Terminating"]}))),
 ("Terminating and NotTerminating conflict", [], post(RQ, rq({"hard": {"pods": "1"}, "scopes": ["Terminating", "NotTerminating"]}))),
 ("BestEffort and NotBestEffort conflict", [], post(RQ, rq({"hard": {"pods": "1"}, "scopes": ["BestEffort", "NotBestEffort"]}))),
 ("a scope selector's scope is a standard scope", [], post(RQ, rq({"hard": {"pods": "1"}, "scopeSelector": {"matchExpressions": [{"scopeName": "Bogus", "operator": "Exists"}]}}))),
 ("a scope selector of Terminating uses Exists", [], post(RQ, rq({"hard": {"pods": "1"}, "scopeSelector": {"matchExpressions": [{"scopeName": "Terminating", "operator": "In", "values": ["x"]}]}}))),
 ("a scope selector of PriorityClass with In needs values", [], post(RQ, rq({"hard": {"pods": "1"}, "scopeSelector": {"matchExpressions": [{"scopeName": "PriorityClass", "operator": "In"}]}}))),
 ("a scope selector of PriorityClass with Exists takes no values", [], post(RQ, rq({"hard": {"pods": "1"}, "scopeSelector": {"matchExpressions": [{"scopeName": "PriorityClass", "operator": "Exists", "values": ["a"]}]}}))),
 ("a scope selector operator is an operator", [], post(RQ, rq({"hard": {"pods": "1"}, "scopeSelector": {"matchExpressions": [{"scopeName": "PriorityClass", "operator": "Bogus", "values": ["a"]}]}}))),
 ("a scope selector of PriorityClass In is accepted", [], post(RQ, rq({"hard": {"pods": "1", "cpu": "2"}, "scopeSelector": {"matchExpressions": [{"scopeName": "PriorityClass", "operator": "In", "values": ["high"]}]}}))),
 ("a scope selector scope applies to its resources", [], post(RQ, rq({"hard": {"services": "1"}, "scopeSelector": {"matchExpressions": [{"scopeName": "BestEffort", "operator": "Exists"}]}}))),
 ("a scope selector's conflicting scopes are refused", [], post(RQ, rq({"hard": {"pods": "1"}, "scopeSelector": {"matchExpressions": [{"scopeName": "BestEffort", "operator": "Exists"}, {"scopeName": "NotBestEffort", "operator": "Exists"}]}}))),
 ("a quota scope of VolumeAttributesClass", [], post(RQ, rq({"hard": {"pods": "1"}, "scopes": ["VolumeAttributesClass"]}))),
 ("a quota of CrossNamespacePodAffinity limits pods", [], post(RQ, rq({"hard": {"pods": "1"}, "scopeSelector": {"matchExpressions": [{"scopeName": "CrossNamespacePodAffinity", "operator": "Exists"}]}}))),
 ("a quota of a storage class's claims is accepted", [], post(RQ, rq({"hard": {"gold.storageclass.storage.k8s.io/persistentvolumeclaims": "2"}}))),
 ("a quota of hugepages is accepted", [], post(RQ, rq({"hard": {"requests.hugepages-1Gi": "2Gi"}}))),
 ("a quota's hard limits may change", [post(RQ, rq({"hard": {"pods": "1"}}))], patch(RQ+"/q", {"spec": {"hard": {"pods": "5"}}})),
 ("a quota's scopes are immutable", [post(RQ, rq({"hard": {"pods": "1"}, "scopes": ["Terminating"]}))], patch(RQ+"/q", {"spec": {"scopes": ["NotTerminating"]}})),
 ("a quota update is validated as a create", [post(RQ, rq({"hard": {"pods": "1"}}))], patch(RQ+"/q", {"spec": {"hard": {"pods": "-2"}}})),
 ("a quota's status used is validated", [post(RQ, rq({"hard": {"pods": "1"}}))], patch(RQ+"/q/status", {"status": {"hard": {"pods": "1"}, "used": {"pods": "-1"}}})),
 ("a quota's status hard names are validated", [post(RQ, rq({"hard": {"pods": "1"}}))], patch(RQ+"/q/status", {"status": {"hard": {"bogus": "1"}}})),
 # LimitRange
 ("a limit range of a container is accepted", [], post(LR, lr({"type": "Container", "min": {"cpu": "100m"}, "max": {"cpu": "2"}, "default": {"cpu": "1"}, "defaultRequest": {"cpu": "500m"}, "maxLimitRequestRatio": {"cpu": "4"}}))),
 ("a limit type is standard or qualified", [], post(LR, lr({"type": "Bogus", "max": {"cpu": "1"}}))),
 ("a limit type may not repeat", [], post(LR, lr({"type": "Container", "max": {"cpu": "1"}}, {"type": "Container", "max": {"memory": "1Gi"}}))),
 ("a container limit names a container resource", [], post(LR, lr({"type": "Container", "max": {"pods": "1"}}))),
 ("a container limit's extended resource follows the standard", [], post(LR, lr({"type": "Container", "max": {"requests.example.com/x": "1"}}))),
 ("a pod limit has no default", [], post(LR, lr({"type": "Pod", "max": {"cpu": "1"}, "default": {"cpu": "1"}}))),
 ("a pod limit has no default request", [], post(LR, lr({"type": "Pod", "max": {"cpu": "1"}, "defaultRequest": {"cpu": "1"}}))),
 ("a claim limit needs a storage min or max", [], post(LR, lr({"type": "PersistentVolumeClaim", "max": {"cpu": "1"}}))),
 ("a claim limit of storage is accepted", [], post(LR, lr({"type": "PersistentVolumeClaim", "min": {"storage": "1Gi"}, "max": {"storage": "10Gi"}}))),
 ("a pod min may not exceed its max", [], post(LR, lr({"type": "Pod", "min": {"cpu": "2"}, "max": {"cpu": "1"}}))),
 ("a container min may not exceed its max", [], post(LR, lr({"type": "Container", "min": {"cpu": "2"}, "max": {"cpu": "1"}}))),
 ("a container default may not exceed its max", [], post(LR, lr({"type": "Container", "max": {"cpu": "1"}, "default": {"cpu": "2"}}))),
 ("a container min may not exceed its default", [], post(LR, lr({"type": "Container", "min": {"cpu": "2"}, "default": {"cpu": "1"}, "defaultRequest": {"cpu": "3"}}))),
 ("a default request may not exceed the default", [], post(LR, lr({"type": "Container", "default": {"memory": "1Gi"}, "defaultRequest": {"memory": "2Gi"}}))),
 ("a default request may not be under the min", [], post(LR, lr({"type": "Container", "min": {"memory": "1Gi"}, "defaultRequest": {"memory": "512Mi"}}))),
 ("a ratio may not be under one", [], post(LR, lr({"type": "Container", "maxLimitRequestRatio": {"cpu": "500m"}}))),
 ("a ratio may not exceed max over min", [], post(LR, lr({"type": "Pod", "min": {"cpu": "1"}, "max": {"cpu": "2"}, "maxLimitRequestRatio": {"cpu": "3"}}))),
 ("hugepages default and default request are equal", [], post(LR, lr({"type": "Container", "default": {"hugepages-2Mi": "4Mi"}, "defaultRequest": {"hugepages-2Mi": "2Mi"}}))),
 ("a limit range's negative quantity", [], post(LR, lr({"type": "Container", "max": {"cpu": "-1"}}))),
 ("a limit range update is validated", [post(LR, lr({"type": "Container", "max": {"cpu": "1"}}))], patch(LR+"/l", {"spec": {"limits": [{"type": "Container", "max": {"cpu": "1"}, "min": {"cpu": "2"}}]}})),
 # ServiceAccount
 ("a service account's secrets and pull secrets are not checked", [], post(SA, obj("ServiceAccount", "sa", secrets=[{"name": "Not_A_Name"}], imagePullSecrets=[{"name": "Bad Name"}]))),
 # PodTemplate
 ("a pod template is accepted", [], post(PT, obj("PodTemplate", "t", template=TMPL))),
 ("a pod template needs containers", [], post(PT, obj("PodTemplate", "t", template={"metadata": {}, "spec": {}}))),
 ("a pod template without a template needs containers", [], post(PT, obj("PodTemplate", "t"))),
 ("a pod template's container needs an image", [], post(PT, obj("PodTemplate", "t", template={"spec": {"containers": [{"name": "c"}]}}))),
 ("a pod template's labels are valid", [], post(PT, obj("PodTemplate", "t", template={"metadata": {"labels": {"bad key!": "x"}}, "spec": TMPL["spec"]}))),
 ("a pod template update is validated", [post(PT, obj("PodTemplate", "t", template=TMPL))], patch(PT+"/t", {"template": {"spec": {"restartPolicy": "Sometimes"}}})),
 ("a pod template's spec may change", [post(PT, obj("PodTemplate", "t", template=TMPL))], patch(PT+"/t", {"template": {"spec": {"restartPolicy": "Never"}}})),
 # Endpoints
 ("endpoints are accepted", [], post(EP, ep({"addresses": [{"ip": "10.1.2.3", "hostname": "h", "nodeName": "n1"}], "notReadyAddresses": [{"ip": "fd00::1"}], "ports": [{"name": "http", "port": 80}, {"name": "https", "port": 443, "appProtocol": "https"}]}))),
 ("endpoints without subsets are accepted", [], post(EP, ep())),
 ("a subset needs addresses", [], post(EP, ep({"ports": [{"port": 80}]}))),
 ("an endpoint address is an IP", [], post(EP, ep({"addresses": [{"ip": "not-an-ip"}]}))),
 ("an endpoint address is not loopback", [], post(EP, ep({"addresses": [{"ip": "127.0.0.1"}]}))),
 ("an endpoint address is not unspecified", [], post(EP, ep({"addresses": [{"ip": "0.0.0.0"}]}))),
 ("an endpoint address is not link-local", [], post(EP, ep({"notReadyAddresses": [{"ip": "169.254.1.1"}]}))),
 ("an endpoint address is not link-local multicast", [], post(EP, ep({"addresses": [{"ip": "224.0.0.1"}]}))),
 ("an endpoint IPv6 address is not loopback", [], post(EP, ep({"addresses": [{"ip": "::1"}]}))),
 ("an endpoint address with leading zeros", [], post(EP, ep({"addresses": [{"ip": "010.1.2.3"}]}))),
 ("an endpoint hostname is a DNS label", [], post(EP, ep({"addresses": [{"ip": "10.1.2.3", "hostname": "a.b"}]}))),
 ("an endpoint node name is a DNS subdomain", [], post(EP, ep({"addresses": [{"ip": "10.1.2.3", "nodeName": "N_1"}]}))),
 ("ports of a subset with several ports are named", [], post(EP, ep({"addresses": ADDR, "ports": [{"port": 80}, {"name": "b", "port": 81}]}))),
 ("an endpoint port name is a DNS label", [], post(EP, ep({"addresses": ADDR, "ports": [{"name": "Http", "port": 80}]}))),
 ("an endpoint port is in range", [], post(EP, ep({"addresses": ADDR, "ports": [{"port": 0}]}))),
 ("an endpoint port protocol is supported", [], post(EP, ep({"addresses": ADDR, "ports": [{"port": 80, "protocol": "HTTP"}]}))),
 ("an endpoint port's app protocol is a qualified name", [], post(EP, ep({"addresses": ADDR, "ports": [{"port": 80, "appProtocol": "a b"}]}))),
 ("an endpoints update is validated", [post(EP, ep({"addresses": ADDR}))], patch(EP+"/e", {"subsets": [{"addresses": [{"ip": "x"}]}]})),
 # PersistentVolume
 ("a volume is accepted", [], post(PV, pv())),
 ("a volume needs access modes", [], post(PV, pv(accessModes=None))),
 ("a volume access mode is supported", [], post(PV, pv(accessModes=["ReadSometimes"]))),
 ("ReadWriteOncePod stands alone", [], post(PV, pv(accessModes=["ReadWriteOncePod", "ReadWriteOnce"]))),
 ("a volume needs a capacity", [], post(PV, pv(capacity=None))),
 ("a volume's capacity is storage only", [], post(PV, pv(capacity={"storage": "1Gi", "cpu": "1"}))),
 ("a volume's capacity is positive", [], post(PV, pv(capacity={"storage": "0"}))),
 ("a volume's capacity is not negative", [], post(PV, pv(capacity={"storage": "-1Gi"}))),
 ("a volume needs a source", [], post(PV, pv(hostPath=None))),
 ("a volume has one source", [], post(PV, pv(nfs={"server": "s", "path": "/p"}))),
 ("a host path volume needs a path", [], post(PV, pv(hostPath={"path": ""}))),
 ("a host path may not hold ..", [], post(PV, pv(hostPath={"path": "/a/../b"}))),
 ("a host path type is supported", [], post(PV, pv(hostPath={"path": "/a", "type": "Bogus"}))),
 ("an NFS volume needs a server and a path", [], post(PV, pv(hostPath=None, nfs={"server": "", "path": ""}))),
 ("an NFS path is absolute", [], post(PV, pv(hostPath=None, nfs={"server": "s", "path": "rel"}))),
 ("a local volume needs node affinity", [], post(PV, pv(hostPath=None, local={"path": "/mnt/d"}))),
 ("a local volume needs a path", [], post(PV, pv(hostPath=None, local={"path": ""}, nodeAffinity={"required": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "kubernetes.io/hostname", "operator": "In", "values": ["n1"]}]}]}}))),
 ("a CSI volume needs a driver and a handle", [], post(PV, pv(hostPath=None, csi={"driver": "", "volumeHandle": ""}))),
 ("a CSI volume's driver is a DNS name", [], post(PV, pv(hostPath=None, csi={"driver": "Bad_Driver", "volumeHandle": "h"}))),
 ("a CSI volume is accepted", [], post(PV, pv(hostPath=None, csi={"driver": "example.com", "volumeHandle": "h", "fsType": "ext4"}))),
 ("a volume reclaim policy is supported", [], post(PV, pv(persistentVolumeReclaimPolicy="Bogus"))),
 ("a volume mode is supported", [], post(PV, pv(volumeMode="Bogus"))),
 ("a volume's storage class name is a DNS subdomain", [], post(PV, pv(storageClassName="Bad_Class"))),
 ("a volume's node affinity needs terms", [], post(PV, pv(nodeAffinity={"required": {"nodeSelectorTerms": []}}))),
 ("a volume's node affinity operator is valid", [], post(PV, pv(nodeAffinity={"required": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "k", "operator": "Bogus", "values": ["a"]}]}]}}))),
 ("a volume's claim ref may be set", [], post(PV, pv(claimRef={"namespace": "val", "name": "c"}))),
 ("a volume's node affinity may be set once", [post(PV, pv())], patch(PV+"/valcore-pv", {"spec": {"nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "kubernetes.io/hostname", "operator": "In", "values": ["n1"]}]}]}}}})),
 ("a volume's node affinity is immutable", [post(PV, pv(nodeAffinity={"required": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "kubernetes.io/hostname", "operator": "In", "values": ["n1"]}]}]}}))], patch(PV+"/valcore-pv", {"spec": {"nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "kubernetes.io/hostname", "operator": "In", "values": ["n2"]}]}]}}}})),
 ("a host path of / may not be recycled", [], post(PV, pv(hostPath={"path": "/"}, persistentVolumeReclaimPolicy="Recycle"))),
 ("a volume's node affinity values are label values", [], post(PV, pv(nodeAffinity={"required": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "k", "operator": "In", "values": ["bad value!"]}]}]}}))),
 ("a volume's node affinity Gt takes one value", [], post(PV, pv(nodeAffinity={"required": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "k", "operator": "Gt", "values": ["1", "2"]}]}]}}))),
 ("a volume's node affinity field selector is on metadata.name", [], post(PV, pv(nodeAffinity={"required": {"nodeSelectorTerms": [{"matchFields": [{"key": "spec.x", "operator": "In", "values": ["a"]}]}]}}))),
 ("a volume's node affinity field selector takes one value", [], post(PV, pv(nodeAffinity={"required": {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["a", "b"]}]}]}}))),
 ("a volume's node affinity field selector operator", [], post(PV, pv(nodeAffinity={"required": {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "Exists"}]}]}}))),
 ("a volume's node affinity needs required terms", [], post(PV, pv(nodeAffinity={}))),
 ("a volume's source is immutable", [post(PV, pv())], patch(PV+"/valcore-pv", {"spec": {"hostPath": {"path": "/tmp/y"}}})),
 ("a volume's mode is immutable", [post(PV, pv())], patch(PV+"/valcore-pv", {"spec": {"volumeMode": "Block"}})),
 ("a volume's capacity may change", [post(PV, pv())], patch(PV+"/valcore-pv", {"spec": {"capacity": {"storage": "2Gi"}}})),
 ("a volume's reclaim policy may change", [post(PV, pv())], patch(PV+"/valcore-pv", {"spec": {"persistentVolumeReclaimPolicy": "Delete"}})),
 ("a volume update is validated", [post(PV, pv())], patch(PV+"/valcore-pv", {"spec": {"accessModes": ["Bogus"]}})),
 # StorageClass
 ("a storage class is accepted", [], post(SC, sc(parameters={"type": "ssd"}, allowVolumeExpansion=True, mountOptions=["ro"], allowedTopologies=[{"matchLabelExpressions": [{"key": "topology.kubernetes.io/zone", "values": ["a", "b"]}]}]))),
 ("a storage class needs a provisioner and a supported reclaim policy", [], post(SC, sc(provisioner="", reclaimPolicy="Bogus"))),
 ("a provisioner is a qualified name", [], post(SC, sc(provisioner="a b"))),
 ("a provisioner in capitals is accepted", [], post(SC, sc(provisioner="Example.COM/P"))),
 ("Recycle is not a storage class reclaim policy", [], post(SC, sc(reclaimPolicy="Recycle"))),
 ("a binding mode is supported", [], post(SC, sc(volumeBindingMode="Later"))),
 ("a storage class name is a DNS subdomain", [], post(SC, sc(name="valcore_SC"))),
 ("a parameter key may not be empty", [], post(SC, sc(parameters={"": "x"}))),
 ("a topology expression needs values", [], post(SC, sc(allowedTopologies=[{"matchLabelExpressions": [{"key": "zone", "values": []}]}]))),
 ("a topology expression's values are unique", [], post(SC, sc(allowedTopologies=[{"matchLabelExpressions": [{"key": "zone", "values": ["a", "a"]}]}]))),
 ("a topology key is a label name", [], post(SC, sc(allowedTopologies=[{"matchLabelExpressions": [{"key": "bad key", "values": ["a"]}]}]))),
 ("a topology key may not repeat in a term", [], post(SC, sc(allowedTopologies=[{"matchLabelExpressions": [{"key": "zone", "values": ["a"]}, {"key": "zone", "values": ["b"]}]}]))),
 ("topology terms are unique", [], post(SC, sc(allowedTopologies=[{"matchLabelExpressions": [{"key": "zone", "values": ["a"]}]}, {"matchLabelExpressions": [{"key": "zone", "values": ["a"]}]}]))),
 ("an empty topology term", [], post(SC, sc(allowedTopologies=[{"matchLabelExpressions": []}]))),
 ("a storage class without a binding mode is defaulted", [], post(SC, sc(volumeBindingMode=None, reclaimPolicy=None))),
 ("a provisioner is checked in lower case", [], post(SC, sc(provisioner="Bad Name"))),
 ("a storage class's parameters are immutable", [post(SC, sc(parameters={"a": "1"}))], patch(SC+"/valcore-sc", {"parameters": {"a": "2"}})),
 ("a storage class's provisioner is immutable", [post(SC, sc())], patch(SC+"/valcore-sc", {"provisioner": "example.com/q"})),
 ("a storage class's reclaim policy is immutable", [post(SC, sc())], patch(SC+"/valcore-sc", {"reclaimPolicy": "Retain"})),
 ("a storage class's binding mode is immutable", [post(SC, sc())], patch(SC+"/valcore-sc", {"volumeBindingMode": "WaitForFirstConsumer"})),
 ("a storage class's immutable fields all at once", [post(SC, sc(parameters={"a": "1"}))], patch(SC+"/valcore-sc", {"parameters": None, "provisioner": "x.io/y", "reclaimPolicy": "Retain", "volumeBindingMode": "WaitForFirstConsumer"})),
 ("a storage class's expansion and labels may change", [post(SC, sc())], patch(SC+"/valcore-sc", {"allowVolumeExpansion": True, "metadata": {"labels": {"a": "b"}}})),
 # CSIDriver
 ("a CSI driver is accepted", [], post(CSI, csi(attachRequired=False, podInfoOnMount=True, fsGroupPolicy="File", volumeLifecycleModes=["Persistent", "Ephemeral"], tokenRequests=[{"audience": "a", "expirationSeconds": 600}]))),
 ("a CSI driver name is a DNS name", [], post(CSI, csi(name="valcore_Bad"))),
 ("a CSI driver's fsGroupPolicy is supported", [], post(CSI, csi(fsGroupPolicy="Bogus"))),
 ("a CSI driver's lifecycle mode is supported", [], post(CSI, csi(volumeLifecycleModes=["Bogus"]))),
 ("a CSI driver's token audiences are unique", [], post(CSI, csi(tokenRequests=[{"audience": "a"}, {"audience": "a"}]))),
 ("a CSI driver's token expiry is at least ten minutes", [], post(CSI, csi(tokenRequests=[{"audience": "a", "expirationSeconds": 60}]))),
 ("a CSI driver's attachRequired is immutable", [post(CSI, csi())], patch(CSI+"/valcore.example.com", {"spec": {"attachRequired": False}})),
 ("a CSI driver's fsGroupPolicy is immutable", [post(CSI, csi())], patch(CSI+"/valcore.example.com", {"spec": {"fsGroupPolicy": "File"}})),
 ("a CSI driver's lifecycle modes are immutable", [post(CSI, csi())], patch(CSI+"/valcore.example.com", {"spec": {"volumeLifecycleModes": ["Ephemeral"]}})),
 ("a CSI driver's token expiry is at most 2^32 seconds", [], post(CSI, csi(tokenRequests=[{"audience": "a", "expirationSeconds": 4294967297}]))),
 ("a CSI driver's podInfoOnMount may change", [post(CSI, csi())], patch(CSI+"/valcore.example.com", {"spec": {"podInfoOnMount": True}})),
 # VolumeAttachment
 ("a volume attachment is accepted", [], post(VA, va())),
 ("a volume attachment needs an attacher and a node", [], post(VA, va(attacher="", nodeName=""))),
 ("a volume attachment's attacher is a DNS name", [], post(VA, va(attacher="Bad_Attacher"))),
 ("a volume attachment needs a source", [], post(VA, va(source={}))),
 ("a volume attachment has one source", [], post(VA, va(source={"persistentVolumeName": "pv1", "inlineVolumeSpec": {"csi": {"driver": "example.com", "volumeHandle": "h"}, "accessModes": ["ReadWriteOnce"]}}))),
 ("a volume attachment's volume name is not empty", [], post(VA, va(source={"persistentVolumeName": ""}))),
 ("a volume attachment's volume name is a DNS subdomain", [], post(VA, va(source={"persistentVolumeName": "PV_1"}))),
 ("a volume attachment's status may be written", [post(VA, va())], patch(VA+"/valcore-va/status", {"status": {"attached": True}})),
 ("a volume attachment's spec is immutable", [post(VA, va())], patch(VA+"/valcore-va", {"spec": {"nodeName": "n2"}})),
]
