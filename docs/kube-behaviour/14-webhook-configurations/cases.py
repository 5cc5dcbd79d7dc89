# Webhook configuration validation cases: each is (name, setup requests, request). Bodies are JSON.
# Recorded against kube-apiserver 1.33.13 by record.py into
# apiserver/builtin/testdata/kube-webhookconfigurations.json.
import copy
V = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations"
M = "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations"
MP = "application/merge-patch+json"
def post(path, body): return ("POST", path, body, "application/json")
def put(path, body): return ("PUT", path, body, "application/json")
def patch(path, body, ct=MP): return ("PATCH", path, body, ct)

def wh(name="a.b.example", **kw):
    w = {"name": name, "clientConfig": {"url": "https://h.example/x"}, "sideEffects": "None",
         "admissionReviewVersions": ["v1"]}
    for k, v in kw.items():
        if v is None:
            w.pop(k, None)
        else:
            w[k] = v
    return w
def cfg(*hooks, name="probe", mutating=False):
    return {"apiVersion": "admissionregistration.k8s.io/v1",
            "kind": "MutatingWebhookConfiguration" if mutating else "ValidatingWebhookConfiguration",
            "metadata": {"name": name}, "webhooks": list(hooks)}
def vpost(*hooks, name="probe"): return post(V, cfg(*hooks, name=name))
def mpost(*hooks, name="probe"): return post(M, cfg(*hooks, name=name, mutating=True))
def url(u): return {"url": u}
def svc(**kw):
    s = {"name": "s", "namespace": "ns"}
    s.update(kw)
    return {"service": {k: v for k, v in s.items() if v is not None}}
def rule(**kw):
    r = {"operations": ["CREATE"], "apiGroups": ["example.com"], "apiVersions": ["v1"], "resources": ["things"]}
    for k, v in kw.items():
        if v is None:
            r.pop(k, None)
        else:
            r[k] = v
    return r
def cond(name, expr): return {"name": name, "expression": expr}

CASES = [
 # clientConfig.url
 ("url user info, fragments, schemes, queries and hosts are refused in field order", [],
  vpost(wh("a.b.c", clientConfig=url("https://u:p@h.example/x#frag")), wh("b.b.c", clientConfig=url("http://h.example/x?a=1")),
        wh("c.b.c", clientConfig=url("https:///x")))),
 ("an empty query or fragment marker is accepted", [],
  vpost(wh("a.b.c", clientConfig=url("https://h.example/x?")), wh("b.b.c", clientConfig=url("https://h.example/x#")))),
 ("a url that does not parse is required to be valid", [], vpost(wh(clientConfig=url("https://h.example/%zz")))),
 ("a url with a bad port does not parse", [], vpost(wh(clientConfig=url("https://h.example:port/x")))),
 ("an empty url is neither a scheme nor a host", [], vpost(wh(clientConfig=url("")))),
 ("a url with only a user is refused", [], vpost(wh(clientConfig=url("https://u@h.example")))),
 ("a url with a port and no path is accepted", [], vpost(wh(clientConfig=url("https://h.example:8443")))),
 # clientConfig: one of url or service
 ("a clientConfig needs url or service", [], vpost(wh(clientConfig={}))),
 ("a clientConfig may not have both url and service", [], vpost(wh(clientConfig={"url": "https://h.example", "service": {"name": "s", "namespace": "ns"}}))),
 ("a missing clientConfig is required", [], vpost(wh(clientConfig=None))),
 # clientConfig.service
 ("a service needs a name and a namespace", [], vpost(wh(clientConfig={"service": {}}))),
 ("a service without a name names the namespace field", [], vpost(wh(clientConfig=svc(name=None)))),
 ("a service without a namespace names the name field", [], vpost(wh(clientConfig=svc(namespace=None)))),
 ("a service port of zero is invalid", [], vpost(wh(clientConfig=svc(port=0)))),
 ("a service port above 65535 is invalid", [], vpost(wh(clientConfig=svc(port=65536)))),
 ("a service port of 65535 is accepted", [], vpost(wh(clientConfig=svc(port=65535)))),
 ("a service path must start with a slash", [], vpost(wh(clientConfig=svc(path="a/b")))),
 ("a service path of two slashes has an empty first segment", [], vpost(wh(clientConfig=svc(path="//")))),
 ("a service path may not have empty segments", [], vpost(wh(clientConfig=svc(path="/a//b")))),
 ("service path segments are DNS subdomains", [], vpost(wh(clientConfig=svc(path="/A_b/c")))),
 ("a service path may end with a slash", [], vpost(wh(clientConfig=svc(path="/a/b.c/")))),
 ("a service path of one slash is accepted", [], vpost(wh(clientConfig=svc(path="/")))),
 ("a service path without a leading slash and with bad segments reports both", [], vpost(wh(clientConfig=svc(path="x//Y")))),
 # names
 ("a webhook name is required", [], vpost(wh(""))),
 ("a webhook name needs three segments", [], vpost(wh("a.b"))),
 ("a webhook name must be a DNS subdomain", [], vpost(wh("A.b.c"))),
 ("a webhook name with an underscore is refused", [], vpost(wh("a_b.c.d"))),
 ("webhook names are unique", [], vpost(wh("a.b.c"), wh("a.b.c"), wh("a.b.c"))),
 ("mutating webhook names are unique", [], mpost(wh("a.b.c"), wh("a.b.c"))),
 ("a configuration without webhooks is accepted", [], vpost()),
 ("a configuration name must be a DNS subdomain", [], vpost(wh("a.b"), name="Bad_Name")),
 # sideEffects
 ("sideEffects is required", [], vpost(wh(sideEffects=None))),
 ("sideEffects Some is refused", [], vpost(wh(sideEffects="Some"))),
 ("sideEffects Unknown is refused", [], vpost(wh(sideEffects="Unknown"))),
 ("sideEffects NoneOnDryRun is accepted", [], vpost(wh(sideEffects="NoneOnDryRun"))),
 ("an unknown sideEffects is refused", [], mpost(wh(sideEffects="Maybe"))),
 # admissionReviewVersions
 ("admissionReviewVersions is required", [], vpost(wh(admissionReviewVersions=None))),
 ("empty admissionReviewVersions are required", [], vpost(wh(admissionReviewVersions=[]))),
 ("admissionReviewVersions must include a known version", [], vpost(wh(admissionReviewVersions=["v2", "v3"]))),
 ("admissionReviewVersions may not repeat", [], vpost(wh(admissionReviewVersions=["v1", "v1"]))),
 ("admissionReviewVersions are DNS-1035 labels", [], vpost(wh(admissionReviewVersions=["V1", "v1"]))),
 ("an unknown version beside a known one is accepted", [], vpost(wh(admissionReviewVersions=["v9", "v1beta1"]))),
 ("a bad version alone reports the label and the missing known version", [], mpost(wh(admissionReviewVersions=["1x"]))),
 # enums and numbers
 ("failurePolicy is an enum", [], vpost(wh(failurePolicy="Sometimes"))),
 ("matchPolicy is an enum", [], vpost(wh(matchPolicy="Fuzzy"))),
 ("reinvocationPolicy is an enum", [], mpost(wh(reinvocationPolicy="Always"))),
 ("reinvocationPolicy IfNeeded is accepted", [], mpost(wh(reinvocationPolicy="IfNeeded"))),
 ("timeoutSeconds may not be zero", [], vpost(wh(timeoutSeconds=0))),
 ("timeoutSeconds may not exceed 30", [], mpost(wh(timeoutSeconds=31))),
 ("timeoutSeconds may not be negative", [], vpost(wh(timeoutSeconds=-5))),
 ("timeoutSeconds of 30 is accepted", [], vpost(wh(timeoutSeconds=30))),
 # selectors
 ("a namespaceSelector operator is an enum", [], vpost(wh(namespaceSelector={"matchExpressions": [{"key": "k", "operator": "Has"}]}))),
 ("In needs values", [], vpost(wh(objectSelector={"matchExpressions": [{"key": "k", "operator": "In"}]}))),
 ("Exists takes no values", [], vpost(wh(namespaceSelector={"matchExpressions": [{"key": "k", "operator": "Exists", "values": ["x"]}]}))),
 ("selector keys are qualified names", [], vpost(wh(objectSelector={"matchExpressions": [{"key": "bad key", "operator": "Exists"}]}))),
 ("matchLabels keys and values are checked", [], vpost(wh(namespaceSelector={"matchLabels": {"bad key": "bad value"}}))),
 ("selector expression values are label values", [], mpost(wh(objectSelector={"matchExpressions": [{"key": "k", "operator": "In", "values": ["bad value"]}]}))),
 ("a policy's selector values are label values too", [], post("/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies",
  {"metadata": {"name": "p"}, "spec": {"matchConstraints": {"resourceRules": [rule(operations=["CREATE"], apiGroups=[""], resources=["configmaps"])],
   "objectSelector": {"matchExpressions": [{"key": "k", "operator": "In", "values": ["bad value"]}]}}, "validations": [{"expression": "true"}]}})),
 # rules
 ("a rule needs operations", [], vpost(wh(rules=[rule(operations=None)]))),
 ("a wildcard operation stands alone", [], vpost(wh(rules=[rule(operations=["*", "CREATE"])]))),
 ("operations are an enum", [], vpost(wh(rules=[rule(operations=["CREATE", "PATCH"])]))),
 ("a rule needs apiGroups", [], vpost(wh(rules=[rule(apiGroups=None)]))),
 ("a wildcard api group stands alone", [], vpost(wh(rules=[rule(apiGroups=["*", "apps"])]))),
 ("a rule needs apiVersions", [], vpost(wh(rules=[rule(apiVersions=None)]))),
 ("a wildcard api version stands alone", [], vpost(wh(rules=[rule(apiVersions=["v1", "*"])]))),
 ("an api version may not be empty", [], vpost(wh(rules=[rule(apiVersions=["v1", ""])]))),
 ("a rule needs resources", [], vpost(wh(rules=[rule(resources=None)]))),
 ("a resource may not be empty", [], vpost(wh(rules=[rule(resources=["things", ""])]))),
 ("a resource wildcard subresource excludes its subresources", [], vpost(wh(rules=[rule(resources=["pods/*", "pods/status"])]))),
 ("a wildcard resource excludes the same subresource", [], vpost(wh(rules=[rule(resources=["*/status", "pods/status"])]))),
 ("a double wildcard stands alone", [], vpost(wh(rules=[rule(resources=["*/*", "pods"])]))),
 ("a wildcard resource excludes resources without subresources", [], vpost(wh(rules=[rule(resources=["*", "pods"])]))),
 ("a wildcard resource with subresources is accepted", [], vpost(wh(rules=[rule(resources=["*", "pods/status"])]))),
 ("a scope is an enum", [], vpost(wh(rules=[rule(scope="Global")]))),
 ("every rule problem is reported in field order", [], mpost(wh(rules=[rule(), rule(operations=["GET"], apiGroups=[], apiVersions=["*", "v1"], resources=["*/*", "x"], scope="Everywhere")]))),
 # matchConditions
 ("a match condition needs a name and an expression", [], vpost(wh(matchConditions=[{}]))),
 ("a match condition name is a qualified name", [], vpost(wh(matchConditions=[cond("bad name!", "true")]))),
 ("match condition names are unique", [], vpost(wh(matchConditions=[cond("a", "true"), cond("a", "true")]))),
 ("a match condition must compile", [], vpost(wh(matchConditions=[cond("a", "object.metadata.name ==")]))),
 ("a match condition must be a bool", [], vpost(wh(matchConditions=[cond("a", "'yes'")]))),
 ("a match condition may not use params", [], mpost(wh(matchConditions=[cond("a", "params.x == 1")]))),
 ("a match condition may read the request", [], vpost(wh(matchConditions=[cond("a", "request.operation == 'CREATE' && object.metadata.name != ''")]))),
 ("a match condition may use the authorizer", [], vpost(wh(matchConditions=[cond("a", "authorizer.group('').resource('pods').check('get').allowed()")]))),
 ("a blank match condition expression is required", [], vpost(wh(matchConditions=[cond("a", "  ")]))),
 ("at most 64 match conditions", [], vpost(wh(matchConditions=[cond("c%d" % i, "true") for i in range(65)]))),
 # nulls in lists are zero values
 ("a null webhook is an empty one", [], vpost(None, wh("b.b.c", clientConfig=url("http://h.example")))),
 ("null list items are empty values", [], vpost(wh(rules=[None, rule(apiVersions=[None, "v1"], resources=["things", None])], admissionReviewVersions=[None, "v1"], matchConditions=[None]))),
 ("null items of other kinds' lists are zero values too", [], post("/api/v1/namespaces/default/pods",
  {"metadata": {"name": "p"}, "spec": {"containers": [None, {"name": "c", "image": "i", "args": [None, "x"]}]}})),
 ("a null finalizer is an empty one", [], post("/api/v1/namespaces/default/configmaps", {"metadata": {"name": "c", "finalizers": [None]}})),
 # all together
 ("every webhook field problem is reported in kube's order", [],
  mpost(wh("x", clientConfig=url("http://h.example"), sideEffects="Some", admissionReviewVersions=["v2"], failurePolicy="F",
           matchPolicy="M", reinvocationPolicy="R", timeoutSeconds=0, rules=[rule(operations=[])],
           namespaceSelector={"matchExpressions": [{"key": "k", "operator": "X"}]},
           objectSelector={"matchLabels": {"k": "bad value"}}, matchConditions=[cond("", "true")]))),
 # updates
 ("an update is validated as a create", [post(V, cfg(wh()))], patch(V + "/probe", {"webhooks": [wh(sideEffects="Some", clientConfig=url("http://h.example"))]})),
 ("an unchanged configuration may be updated", [post(M, cfg(wh(matchConditions=[cond("a", "true")]), mutating=True))], patch(M + "/probe", {"metadata": {"labels": {"x": "y"}}})),
 ("a merge patch is validated", [post(M, cfg(wh(), mutating=True))], patch(M + "/probe", {"webhooks": [wh(timeoutSeconds=99)]})),
 ("an update may not add a duplicate name", [post(V, cfg(wh("a.b.c")))], patch(V + "/probe", {"webhooks": [wh("a.b.c"), wh("a.b.c")]})),
 ("an update may not add a bad match condition", [post(V, cfg(wh(matchConditions=[cond("a", "true")])))],
  patch(V + "/probe", {"webhooks": [wh(matchConditions=[cond("a", "true"), cond("b", "1")])]})),
]
