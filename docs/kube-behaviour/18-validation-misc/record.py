import json, subprocess, ssl, urllib.request, sys
REF="https://127.0.0.1:18510"; TOK="reference-admin-token"
ctx=ssl._create_unverified_context()
def req(m,p,b):
    data=json.dumps(b).encode() if b is not None else None
    r=urllib.request.Request(REF+p,data=data,method=m,headers={"Authorization":"Bearer "+TOK,"Content-Type":"application/json"})
    try:
        with urllib.request.urlopen(r,context=ctx) as resp: return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as e: return e.code, json.loads(e.read())
setups={
 "/apis/apps/v1/namespaces/valmisc-1/controllerrevisions/cr7":[("POST","/apis/apps/v1/namespaces/valmisc-1/controllerrevisions",{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"cr7"},"data":{"a":1}})],
 "/apis/apiregistration.k8s.io/v1/apiservices/v1.valmisc.example.com":[("POST","/apis/apiregistration.k8s.io/v1/apiservices",{"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService","metadata":{"name":"v1.valmisc.example.com"},"spec":{"group":"valmisc.example.com","version":"v1","groupPriorityMinimum":1,"versionPriority":1,"service":{"namespace":"valmisc-1","name":"svc"}}})],
 "/api/v1/nodes/valmisc-n8":[("POST","/api/v1/nodes",{"apiVersion":"v1","kind":"Node","metadata":{"name":"valmisc-n8"},"spec":{"podCIDRs":["10.0.0.0/24"],"providerID":"p1"},"status":{"capacity":{"cpu":"1"}}})],
 "/apis/networking.k8s.io/v1/ipaddresses/2001:db8::fff0":[("POST","/apis/networking.k8s.io/v1/ipaddresses",{"apiVersion":"networking.k8s.io/v1","kind":"IPAddress","metadata":{"name":"2001:db8::fff0"},"spec":{"parentRef":{"resource":"services","name":"s","namespace":"valmisc-1"}}})],
 "/apis/networking.k8s.io/v1/servicecidrs/valmisc-s9":[("POST","/apis/networking.k8s.io/v1/servicecidrs",{"apiVersion":"networking.k8s.io/v1","kind":"ServiceCIDR","metadata":{"name":"valmisc-s9"},"spec":{"cidrs":["10.250.0.0/24","fd00:250::/112"]}})],
 "/api/v1/namespaces/valmisc-ns3":[("POST","/api/v1/namespaces",{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"valmisc-ns3"}})],
}
out=[]
note="n"*1100
for line in open("cases.txt"):
    m,p,b=line.rstrip("\n").split(" ",2)
    if "csinodes/valmisc-c4" in p: continue
    b=json.loads(b.replace("NOTE1100",note))
    base=p[:-len("/status")] if p.endswith("/status") else p
    base=base[:-len("/finalize")] if base.endswith("/finalize") else base
    if "__RV__" in json.dumps(b):
        code,cur=req("GET",base,None); b["metadata"]["resourceVersion"]=cur["metadata"]["resourceVersion"]
    code,resp=req(m,p,b)
    b["metadata"].pop("resourceVersion",None)
    c={"name":"%s %s %s"%(m,p.split("/")[-1] if m!="POST" else p.split("/")[-1],b["metadata"]["name"]),"setup":[{"method":sm,"path":sp,"body":sb} for sm,sp,sb in setups.get(base,[])] if m=="PUT" else [],
       "method":m,"path":p,"body":b,"code":code}
    if resp.get("kind")=="Status":
        c["message"]=resp["message"]; c["reason"]=resp["reason"]; c["causes"]=resp.get("details",{}).get("causes")
    out.append(c)
json.dump(out,open(sys.argv[1],"w"),indent=1)
print(len(out))
